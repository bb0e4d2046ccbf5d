Feature: Group CPUs evenly
  group_cpus_evenly(numgrps, &nummasks) splits the possible CPUs into groups by NUMA node, L2
  cluster (from 7.0) and SMT core: present CPUs first, the others after them (spec/group-cpus.md).

  @GRP-3
  Rule: GRP-3 Every node gets at least one group and no more groups than CPUs

    Example: two nodes of four CPUs, three groups: each node gets at least one and at most four, three in all
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        """
      And Linux 6.12
      When the CPUs are grouped into 3 groups
      Then the number of groups holding each node's CPUs is:
        | node | at least | at most |
        | 0    | 1        | 4       |
        | 1    | 1        | 4       |
      And the nodes' group counts add up to 3, the smaller of 3 groups and 8 CPUs
      And every group holds CPUs

    Example: a node of one CPU beside a node of seven, four groups: the small node still gets a group
      Given the machine:
        """topo
        node 0 cpus: 0
        node 1 cpus: 1 2 3 4 5 6 7
        """
      And Linux 6.12
      When the CPUs are grouped into 4 groups
      Then the number of groups holding each node's CPUs is:
        | node | at least | at most |
        | 0    | 1        | 1       |
        | 1    | 1        | 7       |
      And the nodes' group counts add up to 4, the smaller of 4 groups and 8 CPUs

  @GRP-5
  Rule: GRP-5 SMT siblings stay together when the quota allows

    Example: two nodes of two SMT2 cores, all online, four groups
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        """
      And Linux 6.12
      When the CPUs are grouped into 4 groups
      Then no core is split between groups

    Example: split numbering, cores 0,2 and 1,3 on one node, two groups: each group a whole core
      Given the machine:
        """topo
        smt 2 stride 2
        node 0 cpus: 0 1 2 3
        """
      And Linux 6.12
      When the CPUs are grouped into 2 groups
      Then no core is split between groups

  @GRP-6
  Rule: GRP-6 Each stage fills min(numgrps, its CPUs) groups and empty groups come last

    Example: more groups than CPUs (kernel run a-2node-2s2c2t, 6.12)
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        """
      And Linux 6.12
      When the CPUs are grouped into 10 groups
      Then groups 0 to 7 hold one CPU each and groups 8 to 9 are empty

  @GRP-7
  Rule: GRP-7 Non-present CPUs continue where the present CPUs stopped

    Example: present 0-5 of possible 0-7, four groups
      Given the machine:
        """topo
        possible 0-7
        present 0-5
        online 0-5
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5
        node-of 6-7 1
        """
      And Linux 6.12
      When the CPUs are grouped into 4 groups
      Then the groups that hold CPUs of 6-7 are groups 0-1

  @GRP-8
  Rule: GRP-8 Fewer groups than nodes: nodes are dealt whole

    Example: three nodes and two groups
      Given the machine:
        """topo
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node 2 cpus: 4 5
        """
      And Linux 6.12
      When the CPUs are grouped into 2 groups
      Then the CPUs of each node are in one group

  @GRP-9
  Rule: GRP-9 Zero groups give NULL

    Example: zero groups on Linux 6.16
      Given the machine:
        """topo
        node 0 cpus: 0 1 2 3
        """
      And Linux 6.16
      When the CPUs are grouped into 0 groups
      Then the result is NULL

    Example: zero groups on Linux 6.12, which has the fix from the stable series
      Given the machine:
        """topo
        node 0 cpus: 0 1 2 3
        """
      And Linux 6.12
      When the CPUs are grouped into 0 groups
      Then the result is NULL

  @GRP-10
  Rule: GRP-10 Group order and membership are the kernel's

    Scenario Outline: four groups on the four nodes of 96 CPUs are the nodes in id order (Linux <release>)
      Given the machine "kunpeng920-4node" running Linux <release>
      When the CPUs are grouped into 4 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 0-23  |
        | 1     | 24-47 |
        | 2     | 48-71 |
        | 3     | 72-95 |

      Examples: releases with and without the cluster step
        | release |
        | 6.12    |
        | 7.3     |

    Example: two nodes of two SMT2 cores, three groups: node 1, sorted first, gets one group
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        """
      And Linux 6.12
      When the CPUs are grouped into 3 groups
      Then the groups are:
        | group | cpus |
        | 0     | 4-7  |
        | 1     | 0-1  |
        | 2     | 2-3  |

    Example: offline but present CPUs 6-7 of node 1 are grouped in stage 1 like online ones
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5
        node-of 6-7 1
        """
      And Linux 6.12
      When the CPUs are grouped into 4 groups
      Then the groups are:
        | group | cpus |
        | 0     | 4-5  |
        | 1     | 6-7  |
        | 2     | 0-1  |
        | 3     | 2-3  |

    Example: more groups than CPUs (kernel run a-2node-2s2c2t, 6.12)
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        """
      And Linux 6.12
      When the CPUs are grouped into 10 groups
      Then the groups are:
        | group | cpus |
        | 0     | 4    |
        | 1     | 5    |
        | 2     | 6    |
        | 3     | 7    |
        | 4     | 0    |
        | 5     | 1    |
        | 6     | 2    |
        | 7     | 3    |
        | 8     |      |
        | 9     |      |

    Example: present 0-5 of possible 0-7, four groups: stage 2 wraps onto groups 0 and 1
      Given the machine:
        """topo
        possible 0-7
        present 0-5
        online 0-5
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5
        node-of 6-7 1
        """
      And Linux 6.12
      When the CPUs are grouped into 4 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 4-6   |
        | 1     | 0-1,7 |
        | 2     | 2     |
        | 3     | 3     |

    Example: three nodes and two groups: dealt round-robin by node id
      Given the machine:
        """topo
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node 2 cpus: 4 5
        """
      And Linux 6.12
      When the CPUs are grouped into 2 groups
      Then the groups are:
        | group | cpus    |
        | 0     | 0-1,4-5 |
        | 1     | 2-3     |

    Example: four equal nodes of 32 CPUs, 16 groups: node 1 first with the bottom-up heapsort of 6.8 and before (the 2019 report)
      Given the machine:
        """topo
        node 0 cpus: 0-31
        node 1 cpus: 32-63
        node 2 cpus: 64-95
        node 3 cpus: 96-127
        """
      And Linux 6.1
      When the CPUs are grouped into 16 groups
      Then the groups are:
        | group | cpus    |
        | 0     | 32-39   |
        | 1     | 40-47   |
        | 2     | 48-55   |
        | 3     | 56-63   |
        | 4     | 64-71   |
        | 5     | 72-79   |
        | 6     | 80-87   |
        | 7     | 88-95   |
        | 8     | 96-103  |
        | 9     | 104-111 |
        | 10    | 112-119 |
        | 11    | 120-127 |
        | 12    | 0-7     |
        | 13    | 8-15    |
        | 14    | 16-23   |
        | 15    | 24-31   |

    Example: the double-pop heapsort of 6.9 and later takes four equal nodes in the order 1, 3, 2, 0
      Given the machine:
        """topo
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        node 2 cpus: 8 9 10 11
        node 3 cpus: 12 13 14 15
        """
      And Linux 6.12
      When the CPUs are grouped into 8 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 4-5   |
        | 1     | 6-7   |
        | 2     | 12-13 |
        | 3     | 14-15 |
        | 4     | 8-9   |
        | 5     | 10-11 |
        | 6     | 0-1   |
        | 7     | 2-3   |

    Example: three equal nodes up to 6.8: the bottom-up heapsort takes them in the order 1, 2, 0
      Given the machine:
        """topo
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        node 2 cpus: 8 9 10 11
        """
      And Linux 6.8
      When the CPUs are grouped into 6 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 4-5   |
        | 1     | 6-7   |
        | 2     | 8-9   |
        | 3     | 10-11 |
        | 4     | 0-1   |
        | 5     | 2-3   |

    Example: three equal nodes in 6.10: the double-pop heapsort pops the last three one by one, 1, 2, 0
      Given the machine:
        """topo
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        node 2 cpus: 8 9 10 11
        """
      And Linux 6.10
      When the CPUs are grouped into 6 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 4-5   |
        | 1     | 6-7   |
        | 2     | 8-9   |
        | 3     | 10-11 |
        | 4     | 0-1   |
        | 5     | 2-3   |

    Example: three equal nodes from 6.11: the last two are left in place when equal, 2, 1, 0
      Given the machine:
        """topo
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        node 2 cpus: 8 9 10 11
        """
      And Linux 6.12
      When the CPUs are grouped into 6 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 8-9   |
        | 1     | 10-11 |
        | 2     | 4-5   |
        | 3     | 6-7   |
        | 4     | 0-1   |
        | 5     | 2-3   |

    Scenario Outline: five equal nodes of two CPUs, ten groups: each heapsort's order (Linux <release>)
      Given the machine:
        """topo
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node 2 cpus: 4 5
        node 3 cpus: 6 7
        node 4 cpus: 8 9
        """
      And Linux <release>
      When the CPUs are grouped into 10 groups
      Then each group holds one CPU, in group order "<cpus>"

      Examples: one release per heapsort
        | release | cpus                     | nodes in order |
        | 6.8     | 2 3 4 5 6 7 8 9 0 1      | 1, 2, 3, 4, 0  |
        | 6.10    | 2 3 6 7 8 9 4 5 0 1      | 1, 3, 4, 2, 0  |
        | 6.12    | 6 7 2 3 8 9 4 5 0 1      | 3, 1, 4, 2, 0  |

    Example: Linux 6.18 deals the commit's machine without clusters: its last groups cross them
      Given the machine "cl1-1node-40cpu-cluster4-linux-7.3-boot" running Linux 6.18
      When the CPUs are grouped into 11 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 0-3   |
        | 1     | 4-7   |
        | 2     | 8-11  |
        | 3     | 12-15 |
        | 4     | 16-19 |
        | 5     | 20-23 |
        | 6     | 24-27 |
        | 7     | 28-30 |
        | 8     | 31-33 |
        | 9     | 34-36 |
        | 10    | 37-39 |

    Example: an offline CPU has no sibling mask: the next CPU by id joins its group, not its thread
      Given the machine:
        """topo
        online 0,2-5
        smt 2 stride 3
        node 0 cpus: 0 2 3 4 5
        node-of 1 0
        """
      And Linux 7.3
      When the CPUs are grouped into 3 groups
      Then the groups are:
        | group | cpus |
        | 0     | 0,3  |
        | 1     | 1-2  |
        | 2     | 4-5  |

  @GRP-11
  Rule: GRP-11 From 7.0 a node with no more clusters than groups keeps each group inside one cluster

    Example: the commit's machine, 40 CPUs in clusters of four, 11 groups (Linux 7.3.4 printed this)
      Given the machine "cl1-1node-40cpu-cluster4-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 11 groups
      Then every group lies in one cluster

    Example: two nodes of two clusters of two SMT cores, six groups (kernel run cl2)
      Given the machine "cl2-2node-2cl-2c-2t-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 6 groups
      Then every group lies in one cluster
      And no core is split between groups

  @GRP-12
  Rule: GRP-12 From 7.0 a cluster's groups differ in size by at most one

    Example: the commit's machine, ten clusters of four CPUs, 11 groups: the cluster that gets two groups splits 2 and 2
      Given the machine "cl1-1node-40cpu-cluster4-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 11 groups
      Then inside each cluster the group sizes differ by at most one

    Example: clusters of one node get shares by size
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7 8-9 10-11
        cluster cpus 0-7
        cluster cpus 8-11
        node 0 cpus: 0-11
        """
      And Linux 7.3
      When the CPUs are grouped into 5 groups
      Then inside each cluster the group sizes differ by at most one
      And the groups of node 0 are, in any order:
        | cpus  |
        | 8-11  |
        | 0-1   |
        | 2-3   |
        | 4-5   |
        | 6-7   |

  @GRP-13
  Rule: GRP-13 From 7.0 a node with more clusters than groups, or with a CPU whose cluster mask is empty, is dealt as before

    Example: one offline CPU turns the cluster step off for its node (kernel run cl1, offline phase)
      Given the machine "cl1-1node-40cpu-cluster4-linux-7.3-offline" running Linux 7.3
      When the CPUs are grouped into 11 groups
      Then inside each node the group sizes differ by at most one
      And the groups are:
        | group | cpus  |
        | 0     | 0-3   |
        | 1     | 4-7   |
        | 2     | 8-11  |
        | 3     | 12-15 |
        | 4     | 16-19 |
        | 5     | 20-23 |
        | 6     | 24-27 |
        | 7     | 28-30 |
        | 8     | 31-33 |
        | 9     | 34-36 |
        | 10    | 37-39 |

    Example: the commit's machine, ten clusters of four CPUs and 7 groups: more clusters than groups, dealt node-wide
      Given the machine "cl1-1node-40cpu-cluster4-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 7 groups
      Then inside each node the group sizes differ by at most one

    Example: the node with the offline CPU falls back (kernel run cl2, offline phase: CPU 3 offline)
      Given the machine "cl2-2node-2cl-2c-2t-linux-7.3-offline" running Linux 7.3
      When the CPUs are grouped into 6 groups
      Then the groups of node 0 are, in any order:
        | cpus |
        | 0-2  |
        | 3-5  |
        | 6-7  |

    Example: the same machine on arm64: offline CPU 3 is a cluster of itself, and node 0 keeps the cluster step
      Given the machine:
        """topo
        arch arm64
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
      And Linux 7.3
      When the CPUs are grouped into 6 groups
      Then the groups of node 0 are, in any order:
        | cpus |
        | 3    |
        | 0-2  |
        | 4-7  |

    Example: on arm64 with four groups node 0 has three clusters (0-2, 3, 4-7) for two groups and falls back
      Given the machine:
        """topo
        arch arm64
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
      And Linux 7.3
      When the CPUs are grouped into 4 groups
      Then the groups of node 0 are, in any order:
        | cpus |
        | 0-3  |
        | 4-7  |

  @GRP-14
  Rule: GRP-14 nummasks counts the groups that hold CPUs

    Example: 16 CPUs, 16 groups: as many masks as groups while there are CPUs for them (kernel run cl2)
      Given the machine "cl2-2node-2cl-2c-2t-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 16 groups
      Then the call reports nummasks 16

    Example: 16 CPUs, 18 groups: more groups than CPUs, 16 masks (kernel run cl2)
      Given the machine "cl2-2node-2cl-2c-2t-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 18 groups
      Then the call reports nummasks 16

  @GRP-15
  Rule: GRP-15 From 7.0 clusters are dealt in the order of the kernel's heapsort

    Example: the commit's machine: the split cluster comes last (Linux 7.3.4 printed this)
      Given the machine "cl1-1node-40cpu-cluster4-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 11 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 4-7   |
        | 1     | 12-15 |
        | 2     | 16-19 |
        | 3     | 20-23 |
        | 4     | 24-27 |
        | 5     | 28-31 |
        | 6     | 32-35 |
        | 7     | 36-39 |
        | 8     | 8-11  |
        | 9     | 0-1   |
        | 10    | 2-3   |

    Example: two clusters per node, four and six groups (kernel run cl2)
      Given the machine "cl2-2node-2cl-2c-2t-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 6 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 12-15 |
        | 1     | 8-9   |
        | 2     | 10-11 |
        | 3     | 4-7   |
        | 4     | 0-1   |
        | 5     | 2-3   |

    Example: the node with the offline CPU falls back, the other one does not (kernel run cl2, offline phase)
      Given the machine "cl2-2node-2cl-2c-2t-linux-7.3-offline" running Linux 7.3
      When the CPUs are grouped into 4 groups
      Then the groups are:
        | group | cpus  |
        | 0     | 12-15 |
        | 1     | 8-11  |
        | 2     | 0-3   |
        | 3     | 4-7   |

    Example: every core its own cluster renumbers the groups (kernel run a-2node-2s2c2t)
      Given the machine "a-2node-2s2c2t-linux-7.3-boot" running Linux 7.3
      When the CPUs are grouped into 4 groups
      Then the groups are:
        | group | cpus |
        | 0     | 6-7  |
        | 1     | 4-5  |
        | 2     | 2-3  |
        | 3     | 0-1  |

    Example: a cluster across the node boundary is a cluster of each node, with the CPUs it has there
      Given the machine:
        """topo
        smt none
        cluster cpus 0-3
        cluster cpus 4-7
        cluster cpus 8-11
        node 0 cpus: 0 1 2 3 4 5
        node 1 cpus: 6 7 8 9 10 11
        """
      And Linux 7.3
      When the CPUs are grouped into 4 groups
      Then the groups are:
        | group | cpus |
        | 0     | 6-7  |
        | 1     | 8-11 |
        | 2     | 4-5  |
        | 3     | 0-3  |

    Example: on x86, CPUs that are not present have no cluster mask: stage 2 deals them by id, not by cluster
      Given the machine:
        """topo
        possible 0-15
        present 0-7
        online 0-7
        smt none
        cluster cpus 0-3
        cluster cpus 4-7
        cluster cpus 8-11
        cluster cpus 12-15
        node 0 cpus: 0 1 2 3 4 5 6 7
        node-of 8-15 0
        """
      And Linux 7.3
      When the CPUs are grouped into 4 groups
      Then the groups are:
        | group | cpus      |
        | 0     | 4-5,8-9   |
        | 1     | 6-7,10-11 |
        | 2     | 0-1,12-13 |
        | 3     | 2-3,14-15 |

    Example: on arm64, each CPU that is not present is a cluster of itself: eight groups take them in heapsort order
      Given the machine:
        """topo
        arch arm64
        possible 0-15
        present 0-7
        online 0-7
        smt none
        cluster cpus 0-3
        cluster cpus 4-7
        cluster cpus 8-11
        cluster cpus 12-15
        node 0 cpus: 0 1 2 3 4 5 6 7
        node-of 8-15 0
        """
      And Linux 7.3
      When the CPUs are grouped into 8 groups
      Then the groups are:
        | group | cpus |
        | 0     | 4,9  |
        | 1     | 5,11 |
        | 2     | 6,12 |
        | 3     | 7,13 |
        | 4     | 0,14 |
        | 5     | 1,15 |
        | 6     | 2,10 |
        | 7     | 3,8  |
