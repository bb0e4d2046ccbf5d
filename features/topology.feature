Feature: Topology
  A machine is its possible, present and online CPUs, its nodes with their CPUs and memory, the
  node distance table and the SMT siblings. The loader enforces the kernel's rules in strict mode,
  reports them in lenient mode, and always reports shapes that are legal but unusual.

  @TOPO-1
  Rule: TOPO-1 Online CPUs are present, present CPUs are possible

    Example: hotplug capacity beyond the present CPUs
      When the fixture "patho-possible-gt-present" is read
      Then the machine has:
        | possible   | 0-31 |
        | present    | 0-7  |
        | online     | 0-7  |
        | nr_cpu_ids | 32   |

    Example: an online CPU that is not present
      When the file "order.topo" is read:
        """topo
        present 0-2
        online 0-3
        node 0 cpus: 0 1 2 3
        """
      Then it is rejected with "order.topo:2: online CPUs 3 are not present (present 0-2); expected online ⊆ present (strict mode; tag the file with 'expect online-not-present' to load it leniently)"

    Example: leniently, present grows to hold the online CPUs
      When the file "order.topo" is read in lenient mode:
        """topo
        present 0-2
        online 0-3
        node 0 cpus: 0 1 2 3
        """
      Then it loads with the warnings:
        | line | code               | message                                                                    |
        | 2    | online-not-present | online CPUs 3 are not present (present 0-2); expected online ⊆ present |
      And the machine has:
        | present | 0-3 |

  @TOPO-2
  Rule: TOPO-2 Every possible CPU belongs to exactly one node

    Example: a CPU in two nodes is rejected even leniently
      When the file "twice.topo" is read:
        """topo
        expect whatever
        node 0 cpus: 0 1
        node 1 cpus: 1 2
        """
      Then it is rejected with "twice.topo:3: cpu 1 is in node 1 and in node 0 (twice.topo:2); expected each CPU in exactly one node"

    Example: a possible CPU no line places follows its placed sibling
      When the file "unplaced.topo" is read:
        """topo
        possible 0-7
        smt 2 adjacent
        node 0 cpus: 0
        node 1 cpus: 2
        """
      Then CPU 1 is on node 0
      And it loads with a cpus-without-node warning

    Example: possible CPUs without a placed sibling are dealt to the nodes with memory by CPU id
      When the file "notpresent.topo" is read:
        """topo
        possible 0-7
        present 0-4
        node 0 cpus: 0 2 4
        node 1 cpus: 1 3
        """
      Then CPU 5 is on node 1
      And CPU 6 is on node 0
      And CPU 7 is on node 1

  @TOPO-3
  Rule: TOPO-3 SMT siblings share one node

    Example: the live sibling mask holds the online siblings only
      When the fixture "patho-offline-cpus" is read
      Then the siblings of CPU 2 are "2-3"
      And the online siblings of CPU 2 are "2"

    Example: siblings across nodes are split by node
      When the fixture "patho-siblings-span-nodes" is read
      Then the siblings of CPU 0 are "0"
      And it loads with the warnings:
        | line | code                | message                                                                                                                  |
        | 4    | siblings-span-nodes | SMT siblings 0,2 span nodes 0-1; x86 splits the core at the node boundary (topology_sane): each node's threads are siblings of each other only |
        | 4    | siblings-span-nodes | SMT siblings 1,3 span nodes 0-1; x86 splits the core at the node boundary (topology_sane): each node's threads are siblings of each other only |

    Example: a core whose threads QEMU put in two nodes loads in strict mode, one core per node
      When the file "split-core.topo" is read:
        """topo
        siblings 0-1 2,4 3,5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        """
      Then the siblings of CPU 2 are "2"
      And the siblings of CPU 0 are "0-1"

  @TOPO-4
  Rule: TOPO-4 Distances are 10 to the node itself and 11 to 255 to others

    Example: a diagonal that is not 10
      When the file "diag.topo" is read:
        """topo
        node 0 cpus: 0
        node 1 cpus: 1
        node distances:
        node 0 1
        0: 20 20
        1: 20 10
        """
      Then it is rejected with "diag.topo:5: distance from node 0 to itself is 20; expected 10 (LOCAL_DISTANCE) (strict mode; tag the file with 'expect slit-invalid' to load it leniently)"

    Example: the largest value the kernel accepts
      When the file "max.topo" is read:
        """topo
        node 0 cpus: 0
        node 1 cpus: 1
        node distances:
        node 0 1
        0: 10 255
        1: 255 10
        """
      Then it loads without warnings

  @TOPO-5
  Rule: TOPO-5 A node's live CPUs are its online CPUs

    Example: the 6.12 offline run of the 2-node machine
      When the fixture "kernel-runs/a-2node-2s2c2t-linux-6.12-offline" is read
      Then the nodes are:
        | node | cpus | online cpus |
        | 0    | 0-3  | 0-2         |
        | 1    | 4-7  | 4-7         |

    Example: a node line that lists an offline CPU
      When the file "off.topo" is read:
        """topo
        online 0-3
        node 0 cpus: 0-4
        """
      Then it is rejected with "off.topo:2: node 0 cpus: lists 4, not online (online 0-3); expected online CPUs only (numactl prints those), with 'node-of 4 0' for the others (strict mode; tag the file with 'expect offline-cpu-in-node-line' to load it leniently)"

  @TOPO-6
  Rule: TOPO-6 Asymmetric distance tables are legal and flagged

    Example: distance(0,1) differs from distance(1,0)
      When the fixture "patho-asymmetric" is read
      Then the distances from node 1 are "15 10 20"
      And it loads with the warnings:
        | line | code                     | message                                                                                        |
        | 12   | node0-not-representative | node 0's distances {10,12,20} miss {15} of the table over the nodes with CPUs {10,12,15,20}   |
        | 13   | asymmetric               | the distance table is asymmetric: distance(0,1) = 12 but distance(1,0) = 15                    |

  @TOPO-7
  Rule: TOPO-7 Tables that break the triangle inequality are legal and flagged

    Example: a detour through node 1 is shorter
      When the fixture "patho-non-metric" is read
      Then it loads with the warnings:
        | line | code       | message                                                                                                      |
        | 12   | non-metric | the distance table breaks the triangle inequality: distance(0,2) = 40 > distance(0,1) + distance(1,2) = 24 (and 1 more) |

  @TOPO-8
  Rule: TOPO-8 CPU-less and memory-less nodes

    Example: CXL memory as CPU-less nodes
      When the fixture "spr-2s-cxl" is read
      Then the nodes are:
        | node | cpu-less | memory-less |
        | 0    | no       | no          |
        | 2    | yes      | no          |
        | 3    | yes      | no          |
      And it loads with a cpuless-nodes warning

    Example: a node whose CPUs are all offline is CPU-less
      When the file "alloff.topo" is read:
        """topo
        online 0-1
        node 0 cpus: 0 1
        node 1 cpus:
        node-of 2-3 1
        """
      Then the nodes are:
        | node | cpus | cpu-less |
        | 1    | 2-3  | yes      |

    Example: size 0 MB marks a memory-less node
      When the fixture "patho-memless-node" is read
      Then the nodes are:
        | node | memory-less |
        | 0    | no          |
        | 1    | yes         |
      And it loads with a memless-nodes warning

  @TOPO-9
  Rule: TOPO-9 Node 0 not representative

    Example: seed 003, the Kunpeng 920: row 0 lacks 25
      When the fixture "kunpeng920-4node" is read
      Then it loads with the warnings:
        | line | code                     | message                                                                                               |
        | 24   | node0-not-representative | node 0's distances {10,16,32,33} miss {25} of the table over the nodes with CPUs {10,16,25,32,33}    |

    Example: the EPYC 7763 of seed 000: row 0 holds every value
      When the fixture "epyc7763-2s-16node" is read
      Then it loads without warnings

  @TOPO-10
  Rule: TOPO-10 Node ids may be sparse

    Example: nodes 0, 4 and 9
      When the fixture "patho-sparse-node-ids" is read
      Then the machine has:
        | nodes       | 0,4,9 |
        | nr_node_ids | 10    |
      And the distances from node 4 are "20 10 20"
      And it loads with a sparse-node-ids warning

  @TOPO-11
  Rule: TOPO-11 Strict and lenient validation

    Example: the file's expect line chooses lenient mode
      When the fixture "patho-slit-invalid" is read
      Then it loads with a slit-invalid warning

    Example: strict mode can be forced
      When the file "patho-slit-invalid.topo" is read in strict mode:
        """topo
        expect slit-invalid
        node 0 cpus: 0
        node 1 cpus: 1
        node distances:
        node 0 1
        0: 10 10
        1: 10 10
        """
      Then it is rejected with "patho-slit-invalid.topo:6: distance from node 0 to node 1 is 10; expected 11..255 (firmware tables with other values are discarded by the kernel) (strict mode; tag the file with 'expect slit-invalid' to load it leniently)"

  @TOPO-12
  Rule: TOPO-12 Every machine has clusters; without cluster lines each SMT core is its own

    Example: no cluster lines: each core is its own cluster
      When the file "cores.topo" is read:
        """topo
        smt 2 adjacent
        node 0 cpus: 0 1 2 3
        """
      Then the clusters are "0-1 2-3"
      And the clusters were assumed
      And it loads without warnings

    Example: clusters of two cores
      When the file "modules.topo" is read:
        """topo
        smt 2 adjacent
        cluster every 2 cores
        node 0 cpus: 0-7
        """
      Then the clusters are "0-3 4-7"
      And the clusters were stated

  @TOPO-13
  Rule: TOPO-13 A CPU's live cluster mask holds the online CPUs of its cluster; a CPU that is not online has an empty mask on x86 and itself on arm64

    Example: on x86, an offline CPU has an empty cluster mask and leaves its cluster's masks
      When the file "cl2-offline.topo" is read:
        """topo
        possible 0-15
        online 0-2,4-15
        siblings 0-1 2-3 4-5 6-7 8-9 10-11 12-13 14-15
        cluster cpus 0-3
        cluster cpus 4-7
        cluster cpus 8-11
        cluster cpus 12-15
        node 0 cpus: 0 1 2 4 5 6 7
        node 1 cpus: 8-15
        node-of 3 0
        """
      Then the cluster masks are:
        | cpu | cluster | live |
        | 0   | 0-3     | 0-2  |
        | 2   | 0-3     | 0-2  |
        | 3   | 0-3     |      |
        | 4   | 4-7     | 4-7  |

    Example: on x86, a possible CPU that is not present has an empty cluster mask
      When the file "hotplug.topo" is read:
        """topo
        possible 0-7
        present 0-5
        cluster every 4 cores
        node 0 cpus: 0-5
        node-of 6-7 0
        """
      Then the cluster masks are:
        | cpu | cluster | live |
        | 5   | 4-7     | 4-5  |
        | 6   | 4-7     |      |

    Example: on arm64, an offline CPU's cluster mask is the CPU itself, and it leaves the others' masks
      When the file "arm64-offline.topo" is read:
        """topo
        arch arm64
        possible 0-15
        online 0-2,4-15
        cluster cpus 0-3
        cluster cpus 4-7
        cluster cpus 8-11
        cluster cpus 12-15
        node 0 cpus: 0 1 2 4 5 6 7
        node 1 cpus: 8-15
        node-of 3 0
        """
      Then the cluster masks are:
        | cpu | cluster | live |
        | 0   | 0-3     | 0-2  |
        | 3   | 0-3     | 3    |
        | 4   | 4-7     | 4-7  |

    Example: on arm64, a possible CPU that is not present has the cluster mask of itself
      When the file "arm64-hotplug.topo" is read:
        """topo
        arch arm64
        possible 0-7
        present 0-5
        cluster every 4 cores
        node 0 cpus: 0-5
        node-of 6-7 0
        """
      Then the cluster masks are:
        | cpu | cluster | live |
        | 5   | 4-7     | 4-5  |
        | 6   | 4-7     | 6    |
        | 7   | 4-7     | 7    |

  @TOPO-14
  Rule: TOPO-14 A cluster holds whole SMT cores

    Example: a cluster that splits a core
      When the file "split.topo" is read:
        """topo
        siblings 0-1 2-3
        cluster cpus 0-2
        cluster cpus 3
        node 0 cpus: 0-3
        """
      Then it is rejected with "split.topo:1: cluster 0-2 splits the core 2-3; expected clusters of whole SMT cores (the threads of a core share its L2)"

  @TOPO-15
  Rule: TOPO-15 A cluster across nodes is legal and flagged

    Example: x86 splits a cluster at the node boundary
      When the file "across.topo" is read:
        """topo
        cluster cpus 0-5
        cluster cpus 6-7
        node 0 cpus: 0-3
        node 1 cpus: 4-7
        """
      Then it loads with the warnings:
        | line | code                | message                                                                                                                                  |
        | 1    | cluster-spans-nodes | cluster 0-5 spans nodes 0-1; x86 splits it at the node boundary (topology_sane), and group_cpus_evenly sees each node's part as a cluster |
      And the cluster masks are:
        | cpu | cluster | live |
        | 0   | 0-5     | 0-3  |
        | 4   | 0-5     | 4-5  |

  @TOPO-16
  Rule: TOPO-16 A machine may state its CPU model; nodes per package are counted as x86 counts them

    Example: the HPE 8-socket machine in SNC-2 has 16 nodes in 8 packages
      When the fixture "hpe-8s-2chassis-snc2" is read
      Then its description shows the line "cpu model intel-graniterapids-x (INTEL_GRANITERAPIDS_X), 8 packages, 2 nodes per package"

    Example: a CPU-less node does not count, a node whose CPUs are all offline does (SRAT lists it)
      When the file "cxl.topo" is read:
        """topo
        expect cpuless-nodes
        online 0-5
        cpu-model intel-graniterapids-x
        package 0 cpus 0-3
        package 1 cpus 4-7
        node-of 6-7 3
        node 0 cpus: 0-1
        node 1 cpus: 2-3
        node 2 cpus: 4-5
        node 3 cpus:
        node 4 cpus:
        """
      Then its description shows the line "cpu model intel-graniterapids-x (INTEL_GRANITERAPIDS_X), 2 packages, 2 nodes per package"

    Example: a model that a hook tests needs the packages
      When the file "m.topo" is read:
        """topo
        cpu-model intel-graniterapids-x
        node 0 cpus: 0
        node 1 cpus: 1
        """
      Then it is rejected with "m.topo:1: cpu-model intel-graniterapids-x without packages; expected 'package ID cpus LIST' lines, 'packages every K cores' or an lscpu-p: block with a Socket column (the kernel counts nodes per package, TOPO-16)"

