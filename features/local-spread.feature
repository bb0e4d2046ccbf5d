Feature: Local spread
  cpumask_local_spread(i, node) gives queue i of a device on node a CPU: the node's own CPUs
  first, then (from 6.3) the other CPUs ring by ring of NUMA distance, wrapping around the online
  CPUs. The sources' machines: seed 003's Kunpeng 920 with the NIC on node 2 and seed 000's
  EPYC 7763 with the NIC on node 14; small machines for the edges. Expected plans come from the
  seeds, the kernel runs (fixtures/kernel-runs), or are derived by hand from lib/cpumask.c.

  @LS-1
  Rule: LS-1 Offline CPUs are never returned

    Example: CPUs 3 and 6 offline, a device on node 1 in Linux 6.12
      Given the machine "patho-offline-cpus" running Linux 6.12
      When a driver on node 1 asks for 8 queues
      Then every queue gets an online CPU

    Example: CPUs 3 and 6 offline, a device on node 1 in Linux 6.1
      Given the machine "patho-offline-cpus" running Linux 6.1
      When a driver on node 1 asks for 8 queues
      Then every queue gets an online CPU

  @LS-2
  Rule: LS-2 The index wraps modulo the online CPUs

    Example: index 96 on the Kunpeng 920 gives the CPU of index 0
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver on node 2 asks for 97 queues
      Then queue 96 gets the same CPU as queue 0

    Example: the classic release wraps the same way
      Given the machine "kunpeng920-4node" running Linux 6.1
      When a driver on node 2 asks for 97 queues
      Then queue 96 gets the same CPU as queue 0

    Example: with offline CPUs the wrap counts the 6 online CPUs, not the 8 possible ones
      Given the machine "patho-offline-cpus" running Linux 6.12
      When a driver on node 1 asks for 9 queues
      Then queue 6 gets the same CPU as queue 0
      And queue 8 gets the same CPU as queue 2

  @LS-3
  Rule: LS-3 Local CPUs come first

    Scenario Outline: the Kunpeng 920 NIC on node 2 starts on node 2
      Given the machine "kunpeng920-4node" running Linux <release>
      When a driver on node 2 asks for 24 queues
      Then queues 0 to 23 get the CPUs 48-71 in any order

      Examples: every kind of release
        | release |
        | 4.19    |
        | 6.1     |
        | 6.5     |
        | 6.12    |

    Example: the EPYC 7763 NIC on node 14 starts on node 14, both SMT threads
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When a driver on node 14 asks for 16 queues
      Then queues 0 to 15 get the CPUs 112-119,240-247 in any order

    Example: a memory-less node (CPUs, no memory) comes first in Linux 6.12
      Given the machine "patho-memless-node" running Linux 6.12
      When a driver on node 1 asks for 8 queues
      Then queues 0 to 3 get the CPUs 4-7 in any order

    Example: a memory-less node (CPUs, no memory) comes first in Linux 6.1
      Given the machine "patho-memless-node" running Linux 6.1
      When a driver on node 1 asks for 8 queues
      Then queues 0 to 3 get the CPUs 4-7 in any order

  @LS-4
  Rule: LS-4 Rings come in order of distance

    Example: the Kunpeng 920 NIC on node 2 in Linux 6.12 goes to node 3 (16), node 1 (25), node 0 (32)
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver on node 2 asks for 96 queues
      Then the queues get, ring by ring:
        | queues | cpus  |
        | 0-23   | 48-71 |
        | 24-47  | 72-95 |
        | 48-71  | 24-47 |
        | 72-95  | 0-23  |

    Example: the EPYC 7763 NIC on node 14 in Linux 6.12, ring by ring
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When a driver on node 14 asks for 256 queues
      Then the queues get, ring by ring:
        | queues  | cpus                           |
        | 0-15    | 112-119,240-247                |
        | 16-63   | 96-111,120-127,224-239,248-255 |
        | 64-127  | 64-95,192-223                  |
        | 128-255 | 0-63,128-191                   |

  @LS-5
  Rule: LS-5 Each online CPU once per period

    Example: the EPYC 7763 in Linux 6.12, 256 queues from node 14
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When a driver on node 14 asks for 256 queues
      Then queues 0 to 255 use every online CPU once

    Example: the Kunpeng 920 in Linux 6.1, 96 queues from node 2
      Given the machine "kunpeng920-4node" running Linux 6.1
      When a driver on node 2 asks for 96 queues
      Then queues 0 to 95 use every online CPU once

    Example: 6 online CPUs of 8, the first 6 queues
      Given the machine "patho-offline-cpus" running Linux 6.12
      When a driver on node 0 asks for 6 queues
      Then queues 0 to 5 use every online CPU once

  @LS-6
  Rule: LS-6 Inside a ring, ascending CPU id across nodes

    Example: the Kunpeng 920 NIC on node 2 in Linux 6.12, queue by queue
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver on node 2 asks for 97 queues
      Then the queues get:
        | queues | cpus  |
        | 0-23   | 48-71 |
        | 24-47  | 72-95 |
        | 48-71  | 24-47 |
        | 72-95  | 0-23  |
        | 96     | 48    |

    Example: the EPYC 7763 NIC on node 14 in Linux 6.12, queue by queue
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When a driver on node 14 asks for 256 queues
      Then the queues get:
        | queues  | cpus                           |
        | 0-15    | 112-119,240-247                |
        | 16-63   | 96-111,120-127,224-239,248-255 |
        | 64-127  | 64-95,192-223                  |
        | 128-255 | 0-63,128-191                   |

    Example: the Granite Rapids SNC-3 example from node 4 in Linux 7.3: the other package is one ring, in CPU id order
      Given the machine "gnr-2s-snc3-24cpu" running Linux 7.3
      When a driver on node 4 asks for 24 queues
      Then the queues get:
        | queues | cpus        |
        | 0-3    | 16-19       |
        | 4-11   | 12-15,20-23 |
        | 12-23  | 0-11        |

    Example: CPUs 3 and 6 offline, a device on node 1: each ring skips its offline CPU
      Given the machine "patho-offline-cpus" running Linux 6.12
      When a driver on node 1 asks for 8 queues
      Then the queues get CPUs 4, 5, 7, 0, 1, 2, 4, 5 in that order

    Example: a memory-less node (CPUs, no memory) orders its ring like any other
      Given the machine "patho-memless-node" running Linux 6.12
      When a driver on node 1 asks for 8 queues
      Then the queues get CPUs 4, 5, 6, 7, 0, 1, 2, 3 in that order

    Example: the EPYC 7763 NIC on node 14 interleaves nodes 12, 13 and 15 by CPU id
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When a driver on node 14 asks for 64 queues
      Then queues 16 to 63 get CPUs 96-111,120-127,224-239,248-255

    Example: two equidistant nodes whose CPUs interleave
      Given the machine:
        """topo
        topology interleaved-3node
        available: 3 nodes (0-2)
        node 0 cpus: 0 1
        node 1 cpus: 2 4
        node 2 cpus: 3 5
        node distances:
        node   0   1   2
          0:  10  20  20
          1:  20  10  20
          2:  20  20  10
        """
      And Linux 6.12
      When a driver on node 0 asks for 6 queues
      Then the queues get CPUs 0, 1, 2, 3, 4, 5 in that order

  @LS-7
  Rule: LS-7 Classic order ignores distance

    Example: the Kunpeng 920 NIC on node 2 in Linux 6.1 goes to node 0 (32) before node 3 (16)
      Given the machine "kunpeng920-4node" running Linux 6.1
      When a driver on node 2 asks for 97 queues
      Then the queues get:
        | queues | cpus  |
        | 0-23   | 48-71 |
        | 24-47  | 0-23  |
        | 48-71  | 24-47 |
        | 72-95  | 72-95 |
        | 96     | 48    |

    Example: the EPYC 7763 NIC on node 14 in Linux 6.1, seed 000's "Before" hints
      Given the machine "epyc7763-2s-16node" running Linux 6.1
      When a driver on node 14 asks for 127 queues
      Then the queues get the CPUs of the listing "epyc7763-node14-before.txt"
      And queues 16 to 126 get CPUs 0-110

    Example: CPUs 3 and 6 offline, a device on node 1 in Linux 6.1
      Given the machine "patho-offline-cpus" running Linux 6.1
      When a driver on node 1 asks for 8 queues
      Then the queues get CPUs 4, 5, 7, 0, 1, 2, 4, 5 in that order

    Example: a memory-less node (CPUs, no memory) in Linux 6.1
      Given the machine "patho-memless-node" running Linux 6.1
      When a driver on node 1 asks for 8 queues
      Then the queues get CPUs 4, 5, 6, 7, 0, 1, 2, 3 in that order

  @LS-8
  Rule: LS-8 NUMA_NO_NODE gives the i-th online CPU

    Example: CPUs 3 and 6 offline in Linux 6.12
      Given the machine "patho-offline-cpus" running Linux 6.12
      When a driver on NUMA_NO_NODE asks for 7 queues
      Then the queues get CPUs 0, 1, 2, 4, 5, 7, 0 in that order

    Example: CPUs 3 and 6 offline in Linux 6.1
      Given the machine "patho-offline-cpus" running Linux 6.1
      When a driver on NUMA_NO_NODE asks for 7 queues
      Then the queues get CPUs 0, 1, 2, 4, 5, 7, 0 in that order

    Example: the Kunpeng 920 in Linux 6.12 ignores distance without a node
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver on NUMA_NO_NODE asks for 96 queues
      Then queues 0 to 95 get CPUs 0-95

  @LS-9
  Rule: LS-9 A CPU-less node, release by release

    Example: Linux 6.1 treats the CPU-less node as NUMA_NO_NODE
      Given the machine "patho-cpuless-node-near-1" running Linux 6.1
      When a driver on node 2 asks for 9 queues
      Then the queues get CPUs 0, 1, 2, 3, 4, 5, 6, 7, 0 in that order

    Example: Linux 6.4 oopses on the CPU-less node
      Given the machine "patho-cpuless-node-near-1" running Linux 6.4
      When a driver on node 2 asks for 2 queues
      Then the kernel oopses

    Example: Linux 6.5, as stable 6.5.12 left it, spreads from node 1, the nearest node with CPUs
      Given the machine "patho-cpuless-node-near-1" running Linux 6.5
      When a driver on node 2 asks for 9 queues
      Then the queues get CPUs 4, 5, 6, 7, 0, 1, 2, 3, 4 in that order

    Example: Linux 6.12 spreads from node 1, the nearest node with CPUs (kernel run d-memory-only-node)
      Given the machine "patho-cpuless-node-near-1" running Linux 6.12
      When a driver on node 2 asks for 9 queues
      Then the queues get CPUs 4, 5, 6, 7, 0, 1, 2, 3, 4 in that order

    Example: two nearest nodes at the same distance, Linux 6.12 takes the lower id
      Given the machine:
        """topo
        topology cpuless-tie
        available: 3 nodes (0-2)
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node 2 cpus:
        node 2 size: 256 MB
        node distances:
        node   0   1   2
          0:  10  20  15
          1:  20  10  15
          2:  15  15  10
        """
      And Linux 6.12
      When a driver on node 2 asks for 4 queues
      Then the queues get CPUs 0, 1, 2, 3 in that order

    Example: Linux 6.12 measures every distance from the nearest node, not from the CPU-less one
      Given the machine:
        """topo
        topology cpuless-far-rows
        available: 4 nodes (0-3)
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node 2 cpus: 4 5
        node 3 cpus:
        node 3 size: 256 MB
        node distances:
        node   0   1   2   3
          0:  10  12  25  30
          1:  12  10  25  15
          2:  25  25  10  20
          3:  30  15  20  10
        """
      And Linux 6.12
      When a driver on node 3 asks for 6 queues
      Then the queues get CPUs 2, 3, 0, 1, 4, 5 in that order

  @LS-10
  Rule: LS-10 The 2020 proposal goes node by node

    Example: the Kunpeng 920 NIC on node 2 (seed 003 "after": queues 24 to 47 on node 3)
      Given the machine "kunpeng920-4node"
      When a driver on node 2 asks the 2020 proposal for 97 queues
      Then the queues get:
        | queues | cpus  |
        | 0-23   | 48-71 |
        | 24-47  | 72-95 |
        | 48-71  | 24-47 |
        | 72-95  | 0-23  |
        | 96     | 48    |

    Example: the EPYC 7763 NIC on node 14 takes nodes 12, 13, 15 whole, lowest id first
      Given the machine "epyc7763-2s-16node"
      When a driver on node 14 asks the 2020 proposal for 127 queues
      Then the queues get:
        | queues  | cpus            |
        | 0-15    | 112-119,240-247 |
        | 16-23   | 96-103          |
        | 24-31   | 224-231         |
        | 32-39   | 104-111         |
        | 40-47   | 232-239         |
        | 48-55   | 120-127         |
        | 56-63   | 248-255         |
        | 64-71   | 64-71           |
        | 72-79   | 192-199         |
        | 80-87   | 72-79           |
        | 88-95   | 200-207         |
        | 96-103  | 80-87           |
        | 104-111 | 208-215         |
        | 112-119 | 88-95           |
        | 120-126 | 216-222         |

    Example: two equidistant nodes whose CPUs interleave go one after the other
      Given the machine:
        """topo
        topology interleaved-3node
        available: 3 nodes (0-2)
        node 0 cpus: 0 1
        node 1 cpus: 2 4
        node 2 cpus: 3 5
        node distances:
        node   0   1   2
          0:  10  20  20
          1:  20  10  20
          2:  20  20  10
        """
      When a driver on node 0 asks the 2020 proposal for 6 queues
      Then the queues get CPUs 0, 1, 2, 4, 3, 5 in that order

    Example: NUMA_NO_NODE with CPUs 3 and 6 offline
      Given the machine "patho-offline-cpus"
      When a driver on NUMA_NO_NODE asks the 2020 proposal for 7 queues
      Then the queues get CPUs 0, 1, 2, 4, 5, 7, 0 in that order

  @LS-11
  Rule: LS-11 The housekeeping release spreads over the possible CPUs

    Example: CPUs 3 and 6 offline in Linux 5.9 still get queues, and the wrap counts 8 CPUs
      Given the machine "patho-offline-cpus" running Linux 5.9
      When a driver on node 1 asks for 9 queues
      Then the queues get CPUs 4, 5, 6, 7, 0, 1, 2, 3, 4 in that order

  @LS-12
  Rule: LS-12 A plan equals the per-index answers

    Example: the Kunpeng 920 in Linux 6.12, 24 queues are the first 24 of 97
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver on node 2 asks for 97 queues
      Then asking for 24 queues gives the start of that plan

    Example: the EPYC 7763 in Linux 6.1, 16 queues are the first 16 of 127
      Given the machine "epyc7763-2s-16node" running Linux 6.1
      When a driver on node 14 asks for 127 queues
      Then asking for 16 queues gives the start of that plan
