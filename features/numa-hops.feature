Feature: NUMA hops, closest CPU, n-th CPU, nearest node
  For a node and a NUMA level the kernel keeps the hop mask: the online CPUs within that distance.
  for_each_numa_hop_mask walks the hop masks; sched_numa_find_closest and sched_numa_find_nth_cpu
  search them; numa_nearest_node finds the nearest node with CPUs (spec/numa-hops.md). Expected
  values come from the seeds' machines, the kernel runs, or are derived by hand from
  kernel/sched/topology.c.

  @HOP-1
  Rule: HOP-1 Hop masks are cumulative and hold only online CPUs

    Example: the Kunpeng 920 (4 nodes of 24 CPUs; from node 2: node 3 at 16, node 1 at 25, node 0 at 32) from node 2
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver walks the hop masks of node 2
      Then every hop mask holds the one before it and only online CPUs

    Example: CPUs 3 and 6 offline are in no mask
      Given the machine "patho-offline-cpus" running Linux 6.12
      When a driver walks the hop masks of node 0
      Then every hop mask holds the one before it and only online CPUs

  @HOP-2
  Rule: HOP-2 The first hop is the node, the last is every online CPU

    Example: the EPYC 7763 (16 nodes of 16 CPUs, SMT siblings 128 apart; its quad at 11, its socket at 12, the other socket at 32) from node 14
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When a driver walks the hop masks of node 14
      Then the first hop mask holds 112-119,240-247 and the last is 0-255

    Example: the Kunpeng 920 from node 0, whose row puts node 1 at 16, node 2 at 32 and node 3 at 33
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver walks the hop masks of node 0
      Then the first hop mask holds 0-23 and the last is 0-95

  @HOP-3
  Rule: HOP-3 NUMA_NO_NODE yields the online mask once; a CPU-less node yields nothing

    Example: NUMA_NO_NODE on the Kunpeng 920
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver walks the hop masks of NUMA_NO_NODE
      Then the walk yields only 0-95

    Example: NUMA_NO_NODE with CPUs 3 and 6 offline
      Given the machine "patho-offline-cpus" running Linux 6.12
      When a driver walks the hop masks of NUMA_NO_NODE
      Then the walk yields only 0-2,4-5,7

    Example: a CPU-less node yields nothing, without a nearest-node substitution (kernel run d-memory-only-node)
      Given the machine "patho-cpuless-node-near-1" running Linux 6.12
      When a driver walks the hop masks of node 2
      Then the walk yields nothing

    Example: a node whose CPUs were all taken offline yields nothing: it has no masks any more
      Given the machine:
        """topo
        online 0-3,8-11
        smt 2 adjacent
        available: 3 nodes (0-2)
        node 0 cpus: 0 1 2 3
        node 1 cpus:
        node 2 cpus: 8 9 10 11
        node-of 4-7 1
        node distances:
        node   0   1   2
          0:  10  12  30
          1:  12  10  14
          2:  30  14  10
        """
      And Linux 7.3
      When a driver walks the hop masks of node 1
      Then the walk yields nothing

  @HOP-4
  Rule: HOP-4 Each hop mask follows the row of the node

    Example: node 0 reaches node 1 at 20 (its row), although node 1 reaches node 0 only at 30
      Given the machine "patho-asymmetric-cycle" running Linux 6.12
      When a driver walks the hop masks of node 0
      Then the hop masks are:
        | level | mask | ring |
        | 10    | 0    | 0    |
        | 20    | 0-1  | 1    |
        | 30    | 0-2  | 2    |

    Example: node 1 reaches node 2 at 20 and node 0 at 30
      Given the machine "patho-asymmetric-cycle" running Linux 6.12
      When a driver walks the hop masks of node 1
      Then the hop masks are:
        | level | mask | ring |
        | 10    | 1    | 1    |
        | 20    | 1-2  | 2    |
        | 30    | 0-2  | 0    |

    Example: the Granite Rapids SNC-3 example from node 4 in Linux 7.3: the row of the scheduler's distance
      Given the machine "gnr-2s-snc3-24cpu" running Linux 7.3
      When a driver walks the hop masks of node 4
      Then the hop masks are:
        | level | mask  | ring        |
        | 10    | 16-19 | 16-19       |
        | 15    | 12-23 | 12-15,20-23 |
        | 17    | 12-23 | none        |
        | 24    | 0-23  | 0-11        |

    Example: the Kunpeng 920 from node 2: the 33 ring is empty, and its mask repeats the one before
      Given the machine "kunpeng920-4node" running Linux 6.12
      When a driver walks the hop masks of node 2
      Then the hop masks are:
        | level | mask  | ring  |
        | 10    | 48-71 | 48-71 |
        | 16    | 48-95 | 72-95 |
        | 25    | 24-95 | 24-47 |
        | 32    | 0-95  | 0-23  |
        | 33    | 0-95  | none  |

    Example: CPUs 3 and 6 offline are in no mask and no ring
      Given the machine "patho-offline-cpus" running Linux 6.12
      When a driver walks the hop masks of node 0
      Then the hop masks are:
        | level | mask         | ring  |
        | 10    | 0-2          | 0-2   |
        | 20    | 0-2,4-5,7    | 4-5,7 |

  @HOP-5
  Rule: HOP-5 The closest CPU is in the nearest level

    Example: the Kunpeng 920 from CPU 48 finds node 1 (25) before node 0 (32)
      Given the machine "kunpeng920-4node" running Linux 6.12
      When the scheduler looks for the CPU of 0-47 closest to CPU 48
      Then the answer is a CPU of 24-47

    Example: the fixed levels of Linux 5.12 give the same answer
      Given the machine "kunpeng920-4node" running Linux 5.12
      When the scheduler looks for the CPU of 0-47 closest to CPU 48
      Then the answer is a CPU of 24-47

    Example: a level of two nodes: either node's CPU
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When the scheduler looks for the CPU of 120,232 closest to CPU 112
      Then the answer is a CPU of 120,232

    Example: in an asymmetric table the row of the CPU's node decides
      Given the machine "patho-asymmetric-cycle" running Linux 6.12
      When the scheduler looks for the CPU of 0,2 closest to CPU 1
      Then the answer is CPU 2

    Example: only offline CPUs to choose from gives none
      Given the machine "patho-offline-cpus" running Linux 6.12
      When the scheduler looks for the CPU of 3,6 closest to CPU 0
      Then the answer is none

  @HOP-6
  Rule: HOP-6 The n-th CPU follows the rings

    Example: the Kunpeng 920 from node 2 counts node 2, node 3 (16), node 1 (25), node 0 (32)
      Given the machine "kunpeng920-4node" running Linux 6.12
      When the scheduler looks for CPU numbers 0 to 3 of 0,30,50,80 from node 2
      Then the answers are CPUs 50, 80, 30, 0

    Example: the EPYC 7763 from node 14 crosses into the 11 ring at number 16
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When the scheduler looks for CPU numbers 0 to 17 of 0-255 from node 14
      Then the answers are, ring by ring:
        | numbers | cpus                           |
        | 0-15    | 112-119,240-247                |
        | 16-17   | 96-111,120-127,224-239,248-255 |

  @HOP-7
  Rule: HOP-7 The n-th CPU, release by release

    Example: inside a ring the n-th CPU counts in ascending id (the EPYC 7763 from node 14)
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When the scheduler looks for CPU numbers 15 to 17 of 0-255 from node 14
      Then the answers are CPUs 247, 96, 97

    Example: NUMA_NO_NODE in Linux 6.12 counts the online CPUs of the mask
      Given the machine "patho-offline-cpus" running Linux 6.12
      When the scheduler looks for CPU number 3 of 0-7 from NUMA_NO_NODE
      Then the answer is CPU 4

    Example: NUMA_NO_NODE in Linux 6.5 reads out of bounds
      Given the machine "patho-offline-cpus" running Linux 6.5
      When the scheduler looks for CPU number 3 of 0-7 from NUMA_NO_NODE
      Then the kernel oopses

    Example: past the end of the mask, Linux 6.12 answers none
      Given the machine "patho-offline-cpus" running Linux 6.12
      When the scheduler looks for CPU number 3 of 0-3 from node 0
      Then the answer is none

    Example: past the end of the mask, Linux 6.5 follows a wild pointer
      Given the machine "patho-offline-cpus" running Linux 6.5
      When the scheduler looks for CPU number 3 of 0-3 from node 0
      Then the kernel follows a wild pointer

    Example: a CPU-less node in Linux 6.12 counts from its nearest node with CPUs
      Given the machine "patho-cpuless-node-near-1" running Linux 6.12
      When the scheduler looks for CPU numbers 0 to 4 of 0-7 from node 2
      Then the answers are CPUs 4, 5, 6, 7, 0

    Example: a CPU-less node in Linux 6.4 oopses (6.5.12 took the fix)
      Given the machine "patho-cpuless-node-near-1" running Linux 6.4
      When the scheduler looks for CPU number 0 of 0-7 from node 2
      Then the kernel oopses

  @HOP-8
  Rule: HOP-8 The nearest node with CPUs, ties to the lowest id

    Background:
      Given the machine:
        """topo
        topology cpuless-between-two
        available: 4 nodes (0-3)
        node 0 cpus: 0 1
        node 1 cpus:
        node 1 size: 256 MB
        node 2 cpus: 2 3
        node 3 cpus: 4 5
        node distances:
        node   0   1   2   3
          0:  10  20  20  20
          1:  20  10  15  15
          2:  20  15  10  20
          3:  20  15  20  10
        """
      And Linux 6.12

    Example: a CPU-less node at 15 from nodes 2 and 3 maps to node 2
      When the kernel looks for the nearest node with CPUs to node 1
      Then the answer is node 2

    Example: a node with CPUs is its own nearest node
      When the kernel looks for the nearest node with CPUs to node 3
      Then the answer is node 3

    Example: NUMA_NO_NODE stays NUMA_NO_NODE
      When the kernel looks for the nearest node with CPUs to NUMA_NO_NODE
      Then the answer is node -1

  @HOP-9
  Rule: HOP-9 Inside the nearest level the closest CPU is the lowest id

    Example: the Kunpeng 920 from CPU 48: the lowest CPU of node 1
      Given the machine "kunpeng920-4node" running Linux 6.12
      When the scheduler looks for the CPU of 0-47 closest to CPU 48
      Then the answer is CPU 24

    Example: a tie inside a level goes to the lowest CPU id, not to the lowest node id
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When the scheduler looks for the CPU of 120,232 closest to CPU 112
      Then the answer is CPU 120

    Example: Linux 6.15 answers every call of a sequence with the lowest id
      Given the machine "kunpeng920-4node" running Linux 6.15
      When the scheduler on CPU 0, whose distribute state is 7, looks for the closest CPUs in turn:
        | cpus | cpu |
        | 0-47 | 0   |
        | 0-47 | 1   |
      Then the answers are CPUs 0, 0

  @HOP-10
  Rule: HOP-10 From 6.16 the closest CPU goes round on the calling CPU

    Example: calls in order on one CPU, as the 7.3.4 kernel answered them (kernel run cl2, offline phase)
      Given the machine "cl2-2node-2cl-2c-2t-linux-7.3-offline" running Linux 7.3
      When the scheduler on CPU 0, whose distribute state is 7, looks for the closest CPUs in turn:
        | cpus     | cpu |
        | 0-2,4-15 | 0   |
        | 0-2,4-15 | 1   |
        | 0-2,4-15 | 2   |
        | 0-2,4-15 | 4   |
        | 0-2,4-7  | 15  |
        | 8-15     | 0   |
        | 8-15     | 1   |
      Then the answers are CPUs 0, 1, 2, 4, 5, 8, 9

    Example: the first call on a CPU skips CPU 0
      Given the machine "kunpeng920-4node" running Linux 7.3
      When the scheduler looks for the CPU of 0-47 closest to CPU 0
      Then the answer is CPU 1
