Feature: Sibling spread: MANA's IRQ affinity setup
  From 6.9 MANA's irq_setup() gives each IRQ the whole online sibling mask of one core: one IRQ
  per core per pass over the nearest hop, more passes while the hop's weight allows, then the
  next hop. mana_gd_setup_irqs() sizes the vectors and decides where the HWC goes.
  (spec/sibling-spread.md; seed 004 "net: mana: Assigning IRQ affinity on HT cores")

  @SIB-1
  Rule: SIB-1 Each IRQ gets the whole online sibling mask of one core

    Example: the seed 004 machine, 64 IRQs on node 0
      Given the machine "mana-2node-32c-smt2" running Linux 6.9
      When the driver sets up 64 IRQs on node 0
      Then the IRQs get, row by row, distinct cores of:
        | irqs  | cpus |
        | 0-31  | 0-63 |
        | 32-63 | 0-63 |

  @SIB-2
  Rule: SIB-2 Every core of a hop gets an IRQ before any core of it gets a second

    Example: four IRQs on the kernel comment's machine: both cores of node 0, then both again
      Given the machine "mana-2node-2c-smt2" running Linux 6.12
      When the driver sets up 4 IRQs on node 0
      Then the IRQs get, row by row, distinct cores of:
        | irqs | cpus |
        | 0-1  | 0-3  |
        | 2-3  | 0-3  |

  @SIB-3
  Rule: SIB-3 Hops are used nearest first, and a hop is exhausted before the next

    Example: the kernel comment's example, 8 IRQs on node 1
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When the driver sets up 8 IRQs on node 1
      Then the IRQs get, row by row, distinct cores of:
        | irqs | cpus |
        | 0-1  | 4-7  |
        | 2-3  | 4-7  |
        | 4-5  | 0-3  |
        | 6-7  | 0-3  |

  @SIB-4
  Rule: SIB-4 Inside a hop, IRQ counts per core differ by at most one

    Example: the seed 004 machine, 40 IRQs: eight cores of node 0 get a second
      Given the machine "mana-2node-32c-smt2" running Linux 6.12
      When the driver sets up 40 IRQs on node 0
      Then the IRQs get, row by row, distinct cores of:
        | irqs  | cpus |
        | 0-31  | 0-63 |
        | 32-39 | 0-63 |

  @SIB-5
  Rule: SIB-5 The kernel's plan: cores by lowest online CPU, passes, then the next hop

    Example: the seed 004 machine, 40 IRQs: cores in order, the first eight twice
      Given the machine "mana-2node-32c-smt2" running Linux 6.12
      When the driver sets up 40 IRQs on node 0
      Then the IRQs get, in order:
        | irqs  | cores of |
        | 0-31  | 0-63     |
        | 32-39 | 0-15     |

    Example: the kernel comment's example, 8 IRQs on node 1
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When the driver sets up 8 IRQs on node 1
      Then the IRQs get:
        | irq | cpus |
        | 0   | 4-5  |
        | 1   | 6-7  |
        | 2   | 4-5  |
        | 3   | 6-7  |
        | 4   | 0-1  |
        | 5   | 2-3  |
        | 6   | 0-1  |
        | 7   | 2-3  |

    Example: three IRQs on the kernel comment's machine
      Given the machine "mana-2node-2c-smt2" running Linux 6.12
      When the driver sets up 3 IRQs on node 0
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 2-3  |
        | 2   | 0-1  |

    Example: the kernel comment's example, 8 IRQs on node 0
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When the driver sets up 8 IRQs on node 0
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 2-3  |
        | 2   | 0-1  |
        | 3   | 2-3  |
        | 4   | 4-5  |
        | 5   | 6-7  |
        | 6   | 4-5  |
        | 7   | 6-7  |

  @SIB-6
  Rule: SIB-6 A hop takes IRQs while its weight is positive

    Example: a core with an odd sibling count over-assigns its hop
      Given the machine:
        """topo
        topology odd-core
        source   hand-made for irq_setup() of gdma_main.c, 6.9 (cores {0,1} and {2}: weight 3, four IRQs)
        siblings 0-1 2 3 4
        available: 2 nodes (0-1)
        node 0 cpus: 0 1 2
        node 0 size: 4096 MB
        node 1 cpus: 3 4
        node 1 size: 4096 MB
        node distances:
        node   0   1
          0:  10  20
          1:  20  10
        """
      And Linux 6.9
      When the driver sets up 5 IRQs on node 0
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 2    |
        | 2   | 0-1  |
        | 3   | 2    |
        | 4   | 3    |

  @SIB-7
  Rule: SIB-7 skip_first_cpu skips the first core of hop 0 once, and counts it

    Example: skip_first_cpu on the kernel comment's machine
      Given the machine "mana-2node-2c-smt2" running Linux 6.17
      When the driver sets up 4 IRQs on node 0 skipping the first core
      Then the IRQs get:
        | irq | cpus |
        | 0   | 2-3  |
        | 1   | 0-1  |
        | 2   | 2-3  |
        | 3   | 4-5  |

  @SIB-8
  Rule: SIB-8 What irq_setup leaves untouched

    Example: more IRQs than the hops take
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When the driver sets up 11 IRQs on node 0
      Then 8 IRQs get an affinity

    Example: NUMA_NO_NODE is one hop of every online CPU
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When the driver sets up 5 IRQs on NUMA_NO_NODE
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 2-3  |
        | 2   | 4-5  |
        | 3   | 6-7  |
        | 4   | 0-1  |

    Example: a CPU-less node
      Given the machine:
        """topo
        topology smt2-cpuless-node-1
        source   hand-made for for_each_numa_hop_mask() (no hop for a CPU-less node)
        smt      2 adjacent
        available: 2 nodes (0-1)
        node 0 cpus: 0 1 2 3
        node 0 size: 4096 MB
        node 1 cpus:
        node 1 size: 4096 MB
        node distances:
        node   0   1
          0:  10  20
          1:  20  10
        """
      And Linux 6.12
      When the driver sets up 4 IRQs on node 1
      Then no IRQ gets an affinity

  @SIB-9
  Rule: SIB-9 The HWC shares a core with queue 1 when vectors exceed online CPUs

    Example: vectors = online CPUs + 1: the HWC and queue 1 share a core of node 0
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When MANA sets up its vectors on node 0
      Then IRQ 0 gets a single CPU of 0-3 and IRQ 1 gets that CPU's core
      And the IRQs get, row by row, distinct cores of:
        | irqs | cpus |
        | 1-2  | 0-3  |
        | 3-4  | 0-3  |
        | 5-6  | 4-7  |
        | 7-8  | 4-7  |

    Example: the PCI core grants 4 vectors: the HWC goes through irq_setup() with the queues
      Given the machine "mana-2node-2c-smt2" running Linux 6.12
      When MANA sets up its vectors on node 0 with 4 vectors granted
      Then the IRQs get, row by row, distinct cores of:
        | irqs | cpus |
        | 0-1  | 0-3  |
        | 2-3  | 0-3  |

    Example: 96 online CPUs: MANA asks for 64 queues and the HWC, no more (Linux 6.12)
      Given the machine "kunpeng920-4node" running Linux 6.12
      When MANA sets up its vectors on node 2
      Then 65 IRQs get an affinity

    Example: 96 online CPUs without dynamic MSI-X: still 64 queues and the HWC (Linux 7.3)
      Given the machine "kunpeng920-4node" running Linux 7.3
      When MANA sets up its vectors on node 2
      Then 65 IRQs get an affinity

  @SIB-10
  Rule: SIB-10 6.17+: dynamic MSI-X sets up the HWC alone, then the queues skip its core

    Example: a device maximum of 5 vectors: the queues keep off the HWC's core
      Given the machine "mana-2node-2c-smt2" running Linux 6.17
      When MANA sets up its vectors on node 0 with dynamic MSI-X and a device maximum of 5
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 2-3  |
        | 2   | 0-1  |
        | 3   | 2-3  |
        | 4   | 4-5  |

  @SIB-11
  Rule: SIB-11 Before 6.9: one CPU per IRQ from cpumask_local_spread

    Example: the seed 004 machine before the change: IRQ k on CPU k
      Given the machine "mana-2node-32c-smt2" running Linux 6.8
      When the driver sets up 64 IRQs on node 0
      Then the IRQs get, in order:
        | irqs | single CPUs |
        | 0-63 | 0-63        |

  @SIB-12
  Rule: SIB-12 The HWC's CPU and the queues' cores are the kernel's

    Example: vectors = online CPUs + 1: the HWC on CPU 0, queue 1 on its core
      Given the machine "mana-2node-2c-smt2" running Linux 6.9
      When MANA sets up its vectors on node 0
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0    |
        | 1   | 0-1  |
        | 2   | 2-3  |
        | 3   | 0-1  |
        | 4   | 2-3  |
        | 5   | 4-5  |
        | 6   | 6-7  |
        | 7   | 4-5  |
        | 8   | 6-7  |

    Example: the PCI core grants 4 vectors: the HWC takes the first core
      Given the machine "mana-2node-2c-smt2" running Linux 6.12
      When MANA sets up its vectors on node 0 with 4 vectors granted
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 2-3  |
        | 2   | 0-1  |
        | 3   | 2-3  |

  @SIB-13
  Rule: SIB-13 With one queue per online CPU, queue k (from 1) gets the k-th online CPU alone

    Example: the commit's 4-vCPU VM: the HWC and one queue per CPU
      Given the machine "mana-1node-2c-smt2" running Linux 7.2
      When MANA sets up its vectors on node 0 with dynamic MSI-X and a device maximum of 64
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 0    |
        | 2   | 1    |
        | 3   | 2    |
        | 4   | 3    |

    Example: the same VM in 6.17, before the fix: two queues on each core
      Given the machine "mana-1node-2c-smt2" running Linux 6.17
      When MANA sets up its vectors on node 0 with dynamic MSI-X and a device maximum of 64
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 0-1  |
        | 2   | 2-3  |
        | 3   | 0-1  |
        | 4   | 2-3  |

    Example: no more usable vectors than CPUs: the queues stay on whole cores
      Given the machine "mana-1node-2c-smt2" running Linux 7.2
      When MANA sets up its vectors on node 0 with dynamic MSI-X and a device maximum of 4
      Then the IRQs get:
        | irq | cpus |
        | 0   | 0-1  |
        | 1   | 2-3  |
        | 2   | 0-1  |
        | 3   | 2-3  |
