Feature: NUMA levels
  The scheduler groups node distances into NUMA levels (sched_domains_numa_distance), ascending;
  every NUMA routine measures distance in them (spec/numa-levels.md). The Kunpeng 920 of seed 003
  (levels 10, 16, 25, 32, 33) and the EPYC 7763 of seed 000 are the main machines; expected values
  come from the kernel runs, or are derived by hand from kernel/sched/topology.c sched_init_numa().

  @LVL-1
  Rule: LVL-1 Levels are the distinct distances between nodes with CPUs

    Scenario Outline: the Kunpeng 920 in Linux <release>
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
