Feature: Group CPUs evenly
  group_cpus_evenly(numgrps) splits the possible CPUs into groups by NUMA node and SMT core:
  present CPUs first, the others after them (spec/group-cpus.md).

  @GRP-3
  Rule: GRP-3 Every node gets at least one group and no more groups than CPUs

    Example: two nodes of two SMT2 cores, three groups
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        """
      And Linux 6.12
      When the CPUs are grouped into 3 groups
      Then the groups per node are:
        | node | groups |
        | 0    | 1-2    |
        | 1    | 1-2    |
      And every group holds CPUs

  @GRP-5
  Rule: GRP-5 SMT siblings stay together when the quota allows

    Example: two nodes of two SMT2 cores, four groups
      Given the machine:
        """topo
        siblings 0-1 2-3 4-5 6-7
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5
        node-of 6-7 1
        """
      And Linux 6.12
      When the CPUs are grouped into 4 groups
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

    Example: the non-present CPUs of node 1 follow its present ones
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

    Example: four equal nodes start at node 1 with the pre-2024 sort (the 2019 report)
      Given the machine:
        """topo
        node 0 cpus: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        node 1 cpus: 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        node 2 cpus: 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95
        node 3 cpus: 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127
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

    Example: the 2024 sort takes four equal nodes in the order 1, 3, 2, 0
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
