Feature: Local spread
  cpumask_local_spread(i, node) gives queue i of a device on node a CPU: nearest first, wrapping
  around the online CPUs. Machines: seed 003's Kunpeng 920 (NIC on node 2) and small machines.

  Background:
    Given the machine:
      """topo
      topology kunpeng920-4node
      available: 4 nodes (0-3)
      node 0 cpus: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
      node 1 cpus: 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47
      node 2 cpus: 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71
      node 3 cpus: 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95
      node distances:
      node   0   1   2   3
        0:  10  16  32  33
        1:  16  10  25  32
        2:  32  25  10  16
        3:  33  32  16  10
      """

  @LS-7
  Rule: LS-7 Classic order ignores distance

    Example: the Kunpeng 920 NIC on node 2 in Linux 6.1
      Given Linux 6.1
      When a driver on node 2 asks for 97 queues
      Then queues 24 to 47 get CPUs 0-23
      And queues 72 to 95 get CPUs 72-95

  @LS-4
  Rule: LS-4 Rings come in order of distance

    Example: the Kunpeng 920 NIC on node 2 in Linux 6.12
      Given Linux 6.12
      When a driver on node 2 asks for 97 queues
      Then queues 24 to 47 get CPUs 72-95
      And queues 48 to 71 get CPUs 24-47
      And queues 72 to 95 get CPUs 0-23

  @LS-2
  Rule: LS-2 The index wraps modulo the online CPUs

    Example: queue 96 wraps to the first local CPU
      Given Linux 6.12
      When a driver on node 2 asks for 97 queues
      Then queues 96 to 96 get CPUs 48

  @LS-10
  Rule: LS-10 The 2020 proposal goes node by node

    Example: the proposal sends queues 24 to 47 to node 3
      When a driver on node 2 asks the 2020 proposal for 97 queues
      Then queues 24 to 47 get CPUs 72-95
      And queues 96 to 96 get CPUs 48
