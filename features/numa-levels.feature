Feature: NUMA levels
  The scheduler groups node distances into NUMA levels (sched_domains_numa_distance), ascending;
  every NUMA routine measures distance in them (spec/numa-levels.md). The Kunpeng 920 of seed 003
  (levels 10, 16, 25, 32, 33) and the EPYC 7763 of seed 000 are the main machines; expected values
  come from the kernel runs, or are derived by hand from kernel/sched/topology.c sched_init_numa().

  @LVL-1
  Rule: LVL-1 Levels are the distinct distances between nodes with CPUs

    Scenario Outline: the Kunpeng 920, whose rows hold 10, 16, 25, 32 and 33, in Linux <release>
      Given the machine "kunpeng920-4node" running Linux <release>
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 16, 25, 32, 33

      Examples: releases with the whole table
        | release |
        | 5.18    |
        | 6.1     |
        | 6.12    |

    Example: the EPYC 7763, 16 nodes in quads and sockets
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 11, 12, 32

    Example: an asymmetric table gives the levels of both directions
      Given the machine:
        """topo
        topology asymmetric-2node
        available: 2 nodes (0-1)
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node distances:
        node   0   1
          0:  10  20
          1:  30  10
        """
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 20, 30

    Example: a CPU-less node adds no level in Linux 6.12
      Given the machine "patho-cpuless-node-near-1" running Linux 6.12
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 20

    Example: a node whose CPUs were all taken offline adds no level: the kernel rebuilt the levels without it
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
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 30

  @LVL-2
  Rule: LVL-2 Before 5.12 only row 0 counts

    Example: the Kunpeng 920 in Linux 5.11 misses 25, which is not in row 0
      Given the machine "kunpeng920-4node" running Linux 5.11
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 16, 32, 33

    Example: the row-0 bug makes node 2 find CPU 0 (distance 32) as close as CPU 24 (distance 25)
      Given the machine "kunpeng920-4node" running Linux 5.11
      When the scheduler looks for the CPU of 0-47 closest to CPU 48
      Then the answer is CPU 0

  @LVL-3
  Rule: LVL-3 Before 5.18 CPU-less nodes count

    Background:
      Given the machine "patho-cpuless-node-near-1"

    Example: Linux 5.17 counts the distances of the CPU-less node
      Given Linux 5.17
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 15, 20, 25

    Example: Linux 5.18 counts only nodes with CPUs
      Given Linux 5.18
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 20

  @LVL-4
  Rule: LVL-4 A distance outside 10..255 builds no levels

    Background:
      Given the machine:
        """topo
        topology distance-256
        expect slit-invalid
        available: 2 nodes (0-1)
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node distances:
        node   0   1
          0:  10  256
          1:  256  10
        """
      And Linux 6.12

    Example: two nodes at distance 256
      When the kernel builds its NUMA levels
      Then there are no NUMA levels

    Example: without levels the hop walk yields nothing
      When a driver walks the hop masks of node 0
      Then the walk yields nothing

    Example: without levels there is no closest CPU
      When the scheduler looks for the CPU of 0-3 closest to CPU 0
      Then the answer is none

    Example: without levels local spread returns no CPU
      When a driver on node 1 asks for 2 queues
      Then queue 1 gets no CPU

  @LVL-5
  Rule: LVL-5 Levels ascend, start at the local distance, and cover the table

    Example: the EPYC 7763, 16 nodes in quads and sockets
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When the kernel builds its NUMA levels
      Then the NUMA levels ascend from 10 and include 10, 11, 12, 32

  @LVL-6
  Rule: LVL-6 From 6.19 the levels and masks measure the scheduler's distance

    Scenario Outline: a machine that states no CPU model keeps node_distance() in Linux <release>
      Given the machine "kunpeng920-4node" running Linux <release>
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 16, 25, 32, 33

      Examples: releases with an architecture hook
        | release |
        | 6.19    |
        | 7.3     |

    Scenario Outline: the Granite Rapids SNC-3 example in Linux <release>
      Given the machine "gnr-2s-snc3-24cpu" running Linux <release>
      When the kernel builds its NUMA levels
      Then the NUMA levels are <levels>

      Examples: before and after the hook
        | release | levels                         |
        | 6.18    | 10, 15, 17, 21, 23, 26, 28     |
        | 6.19    | 10, 15, 17, 24                 |
        | 7.3     | 10, 15, 17, 24                 |

    Example: a device on node 0 of the SNC-3 example follows every remote distance in Linux 6.18
      Given the machine "gnr-2s-snc3-24cpu" running Linux 6.18
      When a driver on node 0 asks for 24 queues
      Then the queues get, ring by ring:
        | queues | cpus  |
        | 0-3    | 0-3   |
        | 4-7    | 4-7   |
        | 8-11   | 8-11  |
        | 12-15  | 12-15 |
        | 16-19  | 20-23 |
        | 20-23  | 16-19 |

  @LVL-8
  Rule: LVL-8 From 6.19 only SNC-3 machines are averaged, per package pair, on a table of the SNC form

    Scenario Outline: SNC-2 keeps its raw distances in Linux <release>
      Given the machine "gnr-2s-snc2-16cpu" running Linux <release>
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 12, 20, 24

      Examples: 6.19 from 6.19.7, which took the 7.0 fix, and 7.0
        | release |
        | 6.19    |
        | 7.0     |

    Example: a device on node 0 of the SNC-3 example meets the other package as one ring in Linux 6.19
      Given the machine "gnr-2s-snc3-24cpu" running Linux 6.19
      When a driver on node 0 asks for 24 queues
      Then queues 0 to 23 get CPUs 0-23

    Example: a device on node 1 of the SNC-2 machine meets node 3 before node 2 again in Linux 7.3
      Given the machine "gnr-2s-snc2-16cpu" running Linux 7.3
      When a driver on node 1 asks for 16 queues
      Then the queues get, ring by ring:
        | queues | cpus  |
        | 0-3    | 4-7   |
        | 4-7    | 0-3   |
        | 8-11   | 12-15 |
        | 12-15  | 8-11  |

    Example: from node 4 of the SNC-3 example, the own package first and the other as one ring in Linux 7.3
      Given the machine "gnr-2s-snc3-24cpu" running Linux 7.3
      When a driver walks the hop masks of node 4
      Then the hop masks are:
        | level | mask  | ring        |
        | 10    | 16-19 | 16-19       |
        | 15    | 12-23 | 12-15,20-23 |
        | 17    | 12-23 | none        |
        | 24    | 0-23  | 0-11        |

    Example: a device on node 2 of the SNC-3 example meets the other package as one ring, ascending, in Linux 7.3
      Given the machine "gnr-2s-snc3-24cpu" running Linux 7.3
      When a driver on node 2 asks for 24 queues
      Then the queues get, ring by ring:
        | queues | cpus  |
        | 0-3    | 8-11  |
        | 4-7    | 4-7   |
        | 8-11   | 0-3   |
        | 12-23  | 12-23 |
      And queues 12 to 23 get CPUs 12-23

    Example: mlx5 completion vectors on node 2 of the SNC-3 example follow the same rings in Linux 7.3
      Given the machine "gnr-2s-snc3-24cpu" running Linux 7.3
      When mlx5 on node 2 sets up 24 completion vectors
      Then the vectors get, ring by ring:
        | vectors | cpus  |
        | 0-3     | 8-11  |
        | 4-7     | 4-7   |
        | 8-11    | 0-3   |
        | 12-23   | 12-23 |
      And vectors 12 to 23 get CPUs 12-23

    Example: from CPU 0 of the SNC-3 example, nodes 4 and 5 are one level and the call goes round from CPU 0 in Linux 7.3
      Given the machine "gnr-2s-snc3-24cpu" running Linux 7.3
      When the scheduler looks for the CPU of 16-23 closest to CPU 0
      Then the answer is CPU 16

    Example: from CPU 4 of the SNC-2 machine, node 3 (20) is nearer than node 2 (24) again in Linux 7.3
      Given the machine "gnr-2s-snc2-16cpu" running Linux 7.3
      When the scheduler looks for the CPU of 8-15 closest to CPU 4
      Then the answer is CPU 12

    Example: the hop masks of node 1 of the SNC-2 machine keep four levels in Linux 7.3
      Given the machine "gnr-2s-snc2-16cpu" running Linux 7.3
      When a driver walks the hop masks of node 1
      Then the hop masks are:
        | level | mask         | ring  |
        | 10    | 4-7          | 4-7   |
        | 12    | 0-7          | 0-3   |
        | 20    | 0-7,12-15    | 12-15 |
        | 24    | 0-15         | 8-11  |

    Example: the n-th CPU from node 0 of the SNC-3 example counts the other package in ascending id in Linux 7.3
      Given the machine "gnr-2s-snc3-24cpu" running Linux 7.3
      When the scheduler looks for CPU numbers 16 to 19 of 0-23 from node 0
      Then the answers are CPUs 16, 17, 18, 19

    Example: the n-th CPU from node 1 of the SNC-2 machine counts node 3 before node 2 in Linux 7.3
      Given the machine "gnr-2s-snc2-16cpu" running Linux 7.3
      When the scheduler looks for CPU numbers 8 to 11 of 0-15 from node 1
      Then the answers are CPUs 12, 13, 14, 15

    Example: a table whose package block is asymmetric is not of the SNC form: raw distances in Linux 7.3
      Given the machine:
        """topo
        topology snc3-block-asymmetric
        expect asymmetric
        cpu-model intel-graniterapids-x
        package 0 cpus 0-2
        package 1 cpus 3-5
        node 0 cpus: 0
        node 1 cpus: 1
        node 2 cpus: 2
        node 3 cpus: 3
        node 4 cpus: 4
        node 5 cpus: 5
        node distances:
        node   0   1   2   3   4   5
          0:  10  15  17  21  28  26
          1:  16  10  15  23  26  23
          2:  17  15  10  26  23  21
          3:  21  28  26  10  15  17
          4:  23  26  23  15  10  15
          5:  26  23  21  17  15  10
        """
      And Linux 7.3
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 15, 16, 17, 21, 23, 26, 28

    Scenario Outline: the HPE 8-socket SNC-2 machine keeps its levels in Linux <release>
      Given the machine "hpe-8s-2chassis-snc2" running Linux <release>
      When the kernel builds its NUMA levels
      Then the NUMA levels are 10, 12, 16, 18, 40

      Examples: the releases around the fix
        | release |
        | 6.19    |
        | 7.0     |

