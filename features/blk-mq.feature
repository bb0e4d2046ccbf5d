Feature: blk-mq default queue map
  blk_mq_map_queues() gives every possible CPU a hardware queue; from 6.3 it follows
  group_cpus_evenly, before it ignored NUMA (spec/blk-mq.md).

  Background:
    Given the machine:
      """topo
      node 0 cpus: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79
      node 1 cpus: 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140 141 142 143 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158 159
      """

  @MQ-3
  Rule: MQ-3 From 6.3 a queue's CPUs lie in one node

    Example: seed 002, null_blk with submit_queues=2 on the arm64 two-node machine
      Given Linux 6.3
      When the default queue map is built for 2 queues
      Then the queues serve:
        | queue | cpus   |
        | 0     | 0-79   |
        | 1     | 80-159 |

  @MQ-4
  Rule: MQ-4 The legacy map ignores NUMA

    Example: seed 002 before the patch: the two queues alternate across both nodes
      Given Linux 6.2
      When the default queue map is built for 2 queues
      Then the queues serve:
        | queue | cpus                                                                                                                                                                                                                                                                                                                                                                                                                   |
        | 0     | 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62,64,66,68,70,72,74,76,78,80,82,84,86,88,90,92,94,96,98,100,102,104,106,108,110,112,114,116,118,120,122,124,126,128,130,132,134,136,138,140,142,144,146,148,150,152,154,156,158 |
        | 1     | 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31,33,35,37,39,41,43,45,47,49,51,53,55,57,59,61,63,65,67,69,71,73,75,77,79,81,83,85,87,89,91,93,95,97,99,101,103,105,107,109,111,113,115,117,119,121,123,125,127,129,131,133,135,137,139,141,143,145,147,149,151,153,155,157,159 |

  @MQ-5
  Rule: MQ-5 NULL masks send every CPU to the map's first queue

    Example: a poll map of zero queues at offset 3 on Linux 6.16
      Given Linux 6.16
      When a queue map is built for 0 queues at offset 3
      Then the queues serve:
        | queue | cpus  |
        | 3     | 0-159 |

  @MQ-6
  Rule: MQ-6 queue_offset shifts the whole map

    Example: default, read and poll maps share one queue index space
      Given Linux 6.12
      When a queue map is built for 2 queues at offset 2
      Then the queues serve:
        | queue | cpus   |
        | 0     |        |
        | 2     | 0-79   |
        | 3     | 80-159 |
