Feature: NIC queue IRQs and XPS
  Where virtio-net, ena, gve, ice, i40e and bnxt put the IRQ of each queue, and the XPS map of each
  transmit queue: forced, only hinted, or left alone, release by release. Unless a scenario names
  another machine, the machine is the small one below: 6 CPUs on 3 nodes, CPUs 1 and 3 offline, so
  4 online CPUs; node 2 is nearer to nodes 0 and 1 (20) than they are to each other (30). Expected
  values are worked out by hand from each driver's source (6.1.192, 6.12.117, 7.2.13, 7.3.4).

  Background:
    Given the machine:
      """topo
      topology 4-online-of-6
      possible 0-5
      present  0-5
      online   0,2,4-5
      node-of  1 0
      node-of  3 1
      available: 3 nodes (0-2)
      node 0 cpus: 0
      node 1 cpus: 2
      node 2 cpus: 4 5
      node distances:
      node   0   1   2
        0:  10  30  20
        1:  30  10  20
        2:  20  20  10
      """

  @NIC-1
  Rule: NIC-1 An IRQ shows its driver's mask only when the driver forced a mask with an online CPU

    Example: a forced group is what the IRQs show
      Given Linux 6.12
      When a virtio-net device on NUMA_NO_NODE sets up 3 queues
      Then the IRQs show:
        | irq    | shows   |
        | rx 0   | 0,2     |
        | tx 2   | 5       |
        | config | 0,2,4-5 |

    Example: a hint leaves the default affinity, the online CPUs of the device's node
      Given Linux 6.12
      When an i40e device on node 2 sets up 2 queues
      Then the IRQs show:
        | irq     | shows |
        | rx-tx 0 | 4-5   |
        | rx-tx 1 | 4-5   |

    Example: a forced mask of an offline CPU is refused and the IRQ keeps the default affinity
      Given Linux 6.12
      When an ena device on node 1 sets up 3 queues
      Then the IRQs show:
        | irq        | shows |
        | management | 0     |
        | rx-tx 0    | 0     |
        | rx-tx 1    | 2     |
        | rx-tx 2    | 2     |

    Example: 6.1 forces an empty mask for an offline vector CPU: it is refused, the IRQ keeps node 1's CPU
      Given Linux 6.1
      When an ice device on node 1 sets up 2 queues
      Then the IRQs show:
        | irq     | shows |
        | rx-tx 0 | 0     |
        | rx-tx 1 | 2     |

    Example: 7.3 only hints bnxt's CPUs: the IRQs keep the online CPUs of the device's node
      Given Linux 7.3
      When a bnxt device on node 2 sets up 2 queues
      Then the IRQs show:
        | irq     | shows |
        | rx-tx 0 | 4-5   |
        | rx-tx 1 | 4-5   |

  @NIC-2
  Rule: NIC-2 virtio-net: each queue pair in use gets the next group of online CPUs

    Example: 3 pairs on 4 online CPUs: the first pair takes one CPU more
      Given Linux 6.12
      When a virtio-net device on NUMA_NO_NODE sets up 3 queues
      Then the IRQs are:
        | irq    | setting | cpus |
        | config | none    | none |
        | rx 0   | forced  | 0,2  |
        | tx 0   | forced  | 0,2  |
        | rx 1   | forced  | 4    |
        | tx 1   | forced  | 4    |
        | rx 2   | forced  | 5    |
        | tx 2   | forced  | 5    |
      And the XPS masks are "[0,2 | 4 | 5]"

    Example: one pair takes every online CPU
      Given Linux 6.1
      When a virtio-net device on NUMA_NO_NODE sets up 1 queues
      Then the XPS masks are "[0,2,4-5]"
      And every queue IRQ is forced

    Example: the 6.15 rewrite gives the same groups
      Given Linux 7.3
      When a virtio-net device on NUMA_NO_NODE sets up 3 queues
      Then the XPS masks are "[0,2 | 4 | 5]"

  @NIC-3
  Rule: NIC-3 virtio-net: the config IRQ and the pairs not in use are left alone

    Example: 6 pairs offered on 4 online CPUs: pairs 4 and 5 keep their IRQs untouched
      Given Linux 7.3
      When a virtio-net device on NUMA_NO_NODE sets up 6 queues
      Then the IRQs are:
        | irq    | setting | cpus |
        | config | none    | none |
        | rx 0   | forced  | 0    |
        | tx 0   | forced  | 0    |
        | rx 1   | forced  | 2    |
        | tx 1   | forced  | 2    |
        | rx 2   | forced  | 4    |
        | tx 2   | forced  | 4    |
        | rx 3   | forced  | 5    |
        | tx 3   | forced  | 5    |
        | rx 4   | none    | none |
        | tx 4   | none    | none |
        | rx 5   | none    | none |
        | tx 5   | none    | none |
      And the XPS masks are "[0 | 2 | 4 | 5]"

  @NIC-4
  Rule: NIC-4 ena: I/O IRQ i is forced to the CPU whose id is i modulo the online CPUs

    Example: 6 queues offered on 4 online CPUs: 4 I/O IRQs on CPU ids 0 to 3, two of them offline
      Given Linux 6.12
      When an ena device on NUMA_NO_NODE sets up 6 queues
      Then the IRQs are:
        | irq        | setting | cpus |
        | management | forced  | 0    |
        | rx-tx 0    | forced  | 0    |
        | rx-tx 1    | forced  | 1    |
        | rx-tx 2    | forced  | 2    |
        | rx-tx 3    | forced  | 3    |
      And no XPS mask is set

    Example: 7.3 does the same
      Given Linux 7.3
      When an ena device on node 2 sets up 2 queues
      Then the IRQs are:
        | irq        | setting | cpus |
        | management | forced  | 0    |
        | rx-tx 0    | forced  | 0    |
        | rx-tx 1    | forced  | 1    |

  @NIC-5
  Rule: NIC-5 gve before 6.17: block i is forced to the CPU whose id is i modulo the active CPUs

    Example: 3 queue pairs: transmit and receive queue q both on CPU id q, whatever the node
      Given Linux 6.12
      When a gve device on node 2 sets up 3 queues
      Then the IRQs are:
        | irq        | setting | cpus |
        | tx 0       | forced  | 0    |
        | tx 1       | forced  | 1    |
        | tx 2       | forced  | 2    |
        | rx 0       | forced  | 0    |
        | rx 1       | forced  | 1    |
        | rx 2       | forced  | 2    |
        | management | none    | none |
      And the XPS masks are "[0 | 1 | 2]"

    Example: more queue pairs than online CPUs: ids modulo the 4 online CPUs
      Given Linux 6.1
      When a gve device on NUMA_NO_NODE sets up 6 queues
      Then the XPS masks are "[0 | 1 | 2 | 3 | 0 | 1]"

  @NIC-6
  Rule: NIC-6 gve from 6.17: the blocks walk the device's node, and receive starts again at its first CPU

    Example: a device on node 2 walks CPUs 4 and 5, twice
      Given Linux 7.3
      When a gve device on node 2 sets up 3 queues
      Then the IRQs are:
        | irq        | setting | cpus |
        | tx 0       | forced  | 4    |
        | tx 1       | forced  | 5    |
        | tx 2       | forced  | 4    |
        | rx 0       | forced  | 4    |
        | rx 1       | forced  | 5    |
        | rx 2       | forced  | 4    |
        | management | none    | none |
      And the XPS masks are "[0 | 1 | 2]"

    Example: NUMA_NO_NODE walks every CPU id, offline ones included
      Given Linux 6.17
      When a gve device on NUMA_NO_NODE sets up 2 queues
      Then the IRQs are:
        | irq        | setting | cpus |
        | tx 0       | forced  | 0    |
        | tx 1       | forced  | 1    |
        | rx 0       | forced  | 0    |
        | rx 1       | forced  | 1    |
        | management | none    | none |

  @NIC-7
  Rule: NIC-7 ice before 6.15: vector v gets CPU v when it is online, forced until 6.10, only a hint from 6.11

    Example: 6.1 forces CPU v, and an offline CPU v gives no mask
      Given Linux 6.1
      When an ice device on node 1 sets up 4 queues
      Then the IRQs are:
        | irq     | setting | cpus |
        | rx-tx 0 | forced  | 0    |
        | rx-tx 1 | forced  | none |
        | rx-tx 2 | forced  | 2    |
        | rx-tx 3 | forced  | none |
      And the XPS masks are "[0 | none | 2 | none]"

    Example: 6.12 only hints the same CPUs
      Given Linux 6.12
      When an ice device on node 1 sets up 3 queues
      Then the IRQs are:
        | irq     | setting | cpus |
        | rx-tx 0 | hint    | 0    |
        | rx-tx 1 | hint    | none |
        | rx-tx 2 | hint    | 2    |

  @NIC-8
  Rule: NIC-8 ice from 6.15: vector v is forced to cpumask_local_spread(v, 0), whatever the device's node

    Example: a device on node 1 is spread from node 0: 0, then node 2, then node 1
      Given Linux 7.3
      When an ice device on node 1 sets up 4 queues
      Then the IRQs are:
        | irq     | setting | cpus |
        | rx-tx 0 | forced  | 0    |
        | rx-tx 1 | forced  | 4    |
        | rx-tx 2 | forced  | 5    |
        | rx-tx 3 | forced  | 2    |
      And the XPS masks are "[0 | 4 | 5 | 2]"

  @NIC-9
  Rule: NIC-9 i40e: vector v gets only the hint cpumask_local_spread(v, NUMA_NO_NODE)

    Example: 5 vectors hint the online CPUs in turn, whatever the device's node
      Given Linux 6.12
      When an i40e device on node 1 sets up 5 queues
      Then the IRQs are:
        | irq     | setting | cpus |
        | rx-tx 0 | hint    | 0    |
        | rx-tx 1 | hint    | 2    |
        | rx-tx 2 | hint    | 4    |
        | rx-tx 3 | hint    | 5    |
        | rx-tx 4 | hint    | 0    |
      And the XPS masks are "[0 | 2 | 4 | 5 | 0]"

  @NIC-10
  Rule: NIC-10 bnxt: ring i gets cpumask_local_spread(i, node), forced until 6.12, only a hint from 6.13

    Example: 6.1 forces classic local spread: node 1's CPU, then the others by id
      Given Linux 6.1
      When a bnxt device on node 1 sets up 3 queues
      Then the IRQs are:
        | irq     | setting | cpus |
        | rx-tx 0 | forced  | 2    |
        | rx-tx 1 | forced  | 0    |
        | rx-tx 2 | forced  | 4    |

    Example: 6.12 forces local spread by distance: node 1, then node 2
      Given Linux 6.12
      When a bnxt device on node 1 sets up 3 queues
      Then the IRQs are:
        | irq     | setting | cpus |
        | rx-tx 0 | forced  | 2    |
        | rx-tx 1 | forced  | 4    |
        | rx-tx 2 | forced  | 5    |

    Example: 7.3 only hints the same CPUs
      Given Linux 7.3
      When a bnxt device on node 1 sets up 3 queues
      Then every queue IRQ is hint
      And the IRQs show:
        | irq     | shows |
        | rx-tx 0 | 2     |
        | rx-tx 1 | 2     |

  @NIC-11
  Rule: NIC-11 bnxt from 6.10: XPS deals the online CPUs' local spread out over the transmit queues

    Example: 3 rings in 6.12: spread 2, 4, 5, 0 dealt out in turn
      Given Linux 6.12
      When a bnxt device on node 1 sets up 3 queues
      Then the XPS masks are "[0,2 | 4 | 5]"

    Example: more rings than online CPUs: the last queue gets none
      Given Linux 7.3
      When a bnxt device on node 1 sets up 5 queues
      Then the XPS masks are "[2 | 4 | 5 | 0 | none]"

    Example: 6.1 sets no XPS map
      Given Linux 6.1
      When a bnxt device on node 1 sets up 3 queues
      Then no XPS mask is set
