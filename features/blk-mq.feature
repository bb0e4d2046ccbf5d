Feature: blk-mq default queue map
  blk_mq_map_queues() gives every possible CPU a hardware queue; from 6.3 it follows
  group_cpus_evenly, before it ignored NUMA (spec/blk-mq.md).

  Background:
    Given the machine "arm64-2node-160cpu"

  @MQ-3
  Rule: MQ-3 From 6.3 a queue's CPUs lie in one node

    Example: seed 002's two nodes of 80 CPUs, null_blk with submit_queues=4: two queues per node
      Given Linux 6.3
      When the default queue map is built for 4 queues
      Then the CPUs of each queue lie in one node

    Example: seed 002's two nodes of 80 CPUs, five queues: node 1 gets two queues and node 0 three, none shared
      Given Linux 6.12
      When the default queue map is built for 5 queues
      Then the CPUs of each queue lie in one node

  @MQ-4
  Rule: MQ-4 The legacy map ignores NUMA

    Example: seed 002 before the patch: the two queues alternate across both nodes
      Given Linux 6.2
      When the default queue map is built for 2 queues
      Then each queue serves CPUs of both nodes

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
      Then every CPU's queue is 2 more than in the map at offset 0

  @MQ-2
  Rule: MQ-2 The legacy map serves present CPUs first and lets siblings share

    Example: seed 002 before the patch: even CPUs on queue 0, odd CPUs on queue 1
      Given Linux 6.2
      When the default queue map is built for 2 queues
      Then the queues serve:
        | queue | cpus                                                                                                                                                                                                                                                                                                                                                                                                                   |
        | 0     | 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62,64,66,68,70,72,74,76,78,80,82,84,86,88,90,92,94,96,98,100,102,104,106,108,110,112,114,116,118,120,122,124,126,128,130,132,134,136,138,140,142,144,146,148,150,152,154,156,158 |
        | 1     | 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31,33,35,37,39,41,43,45,47,49,51,53,55,57,59,61,63,65,67,69,71,73,75,77,79,81,83,85,87,89,91,93,95,97,99,101,103,105,107,109,111,113,115,117,119,121,123,125,127,129,131,133,135,137,139,141,143,145,147,149,151,153,155,157,159 |

  @MQ-8
  Rule: MQ-8 The map is the kernel's

    Example: seed 002 after the patch: node 0 on queue 0, node 1 on queue 1
      Given Linux 6.3
      When the default queue map is built for 2 queues
      Then the queues serve:
        | queue | cpus   |
        | 0     | 0-79   |
        | 1     | 80-159 |

    Example: seed 002 in Linux 7.3: the same two queues, a node each
      Given Linux 7.3
      When the default queue map is built for 2 queues
      Then the queues serve:
        | queue | cpus   |
        | 0     | 0-79   |
        | 1     | 80-159 |

    Example: a read map of 2 queues at offset 2 on Linux 6.12
      Given Linux 6.12
      When a queue map is built for 2 queues at offset 2
      Then the queues serve:
        | queue | cpus   |
        | 0     |        |
        | 2     | 0-79   |
        | 3     | 80-159 |

    Scenario Outline: three equal nodes, six queues: the queues follow the release's heapsort (Linux <release>)
      Given the machine:
        """topo
        node 0 cpus: 0 1 2 3
        node 1 cpus: 4 5 6 7
        node 2 cpus: 8 9 10 11
        """
      And Linux <release>
      When the default queue map is built for 6 queues
      Then the queues serve:
        | queue | cpus  |
        | 0     | <q0>  |
        | 1     | <q1>  |
        | 2     | <q2>  |
        | 3     | <q3>  |
        | 4     | 0-1   |
        | 5     | 2-3   |

      Examples: 6.9 and 6.10 pop the last three nodes one by one; 6.11 leaves the last two in place
        | release | q0  | q1    | q2  | q3    |
        | 6.10    | 4-5 | 6-7   | 8-9 | 10-11 |
        | 6.12    | 8-9 | 10-11 | 4-5 | 6-7   |

    Example: Linux 6.12 leaves the queues past the CPUs without CPUs (kernel run a-2node-2s2c2t)
      Given the machine "a-2node-2s2c2t-linux-6.12-boot" running Linux 6.12
      When the default queue map is built for 10 queues
      Then the queues serve:
        | queue | cpus |
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

  @MQ-7
  Rule: MQ-7 More queues than masks reuse the masks from 6.17

    Example: ten queues on eight CPUs: queues 8 and 9 take the first two masks (Linux 7.3.4 printed this)
      Given the machine "a-2node-2s2c2t-linux-7.3-boot" running Linux 7.3
      When the default queue map is built for 10 queues
      Then the queues serve:
        | queue | cpus |
        | 0     |      |
        | 1     |      |
        | 2     | 4    |
        | 3     | 5    |
        | 4     | 2    |
        | 5     | 3    |
        | 6     | 0    |
        | 7     | 1    |
        | 8     | 6    |
        | 9     | 7    |

    Example: seventeen queues on sixteen CPUs: queue 16 takes queue 0's CPU (kernel run cl2, Linux 7.3.4)
      Given the machine "cl2-2node-2cl-2c-2t-linux-7.3-boot" running Linux 7.3
      When the default queue map is built for 17 queues
      Then the queues serve:
        | queue | cpus |
        | 0     |      |
        | 1     | 13   |
        | 2     | 14   |
        | 3     | 15   |
        | 4     | 8    |
        | 5     | 9    |
        | 6     | 10   |
        | 7     | 11   |
        | 8     | 4    |
        | 9     | 5    |
        | 10    | 6    |
        | 11    | 7    |
        | 12    | 0    |
        | 13    | 1    |
        | 14    | 2    |
        | 15    | 3    |
        | 16    | 12   |

  @MQ-9
  Rule: MQ-9 Pre and post vectors keep the default affinity and are not managed

    Example: a pre vector has every CPU, unmanaged; a vector past the masks is still managed (kernel run a-2node-2s2c2t, 7.3.4)
      Given the machine "a-2node-2s2c2t-linux-7.3-boot" running Linux 7.3
      When a driver asks for 10 interrupt vectors, 1 pre and 0 post
      Then the vectors are:
        | vector | cpus | managed |
        | 0      | 0-7  | no      |
        | 1      | 6    | yes     |
        | 2      | 7    | yes     |
        | 3      | 4    | yes     |
        | 4      | 5    | yes     |
        | 5      | 2    | yes     |
        | 6      | 3    | yes     |
        | 7      | 0    | yes     |
        | 8      | 1    | yes     |
        | 9      | 0-7  | yes     |

    Example: on 96 CPUs the default affinity covers every CPU id, and four spread vectors take a node each (Linux 7.3)
      Given the machine "kunpeng920-4node" running Linux 7.3
      When a driver asks for 6 interrupt vectors, 1 pre and 1 post
      Then the vectors are:
        | vector | cpus  | managed |
        | 0      | 0-95  | no      |
        | 1      | 0-23  | yes     |
        | 2      | 24-47 | yes     |
        | 3      | 48-71 | yes     |
        | 4      | 72-95 | yes     |
        | 5      | 0-95  | no      |

  @MQ-10
  Rule: MQ-10 Interrupt sets are spread one after another as the kernel does

    Example: from 6.17 the vectors past nummasks get every CPU (Linux 7.3.4 printed this)
      Given the machine "a-2node-2s2c2t-linux-7.3-boot" running Linux 7.3
      When a driver asks for 10 interrupt vectors, 0 pre and 0 post
      Then the vectors are:
        | vector | cpus | managed |
        | 0      | 6    | yes     |
        | 1      | 7    | yes     |
        | 2      | 4    | yes     |
        | 3      | 5    | yes     |
        | 4      | 2    | yes     |
        | 5      | 3    | yes     |
        | 6      | 0    | yes     |
        | 7      | 1    | yes     |
        | 8      | 0-7  | yes     |
        | 9      | 0-7  | yes     |

    Example: up to 6.16 they keep their empty groups (Linux 6.12.117 printed this)
      Given the machine "a-2node-2s2c2t-linux-6.12-boot" running Linux 6.12
      When a driver asks for 10 interrupt vectors, 0 pre and 0 post
      Then the vectors are:
        | vector | cpus | managed |
        | 0      | 4    | yes     |
        | 1      | 5    | yes     |
        | 2      | 6    | yes     |
        | 3      | 7    | yes     |
        | 4      | 0    | yes     |
        | 5      | 1    | yes     |
        | 6      | 2    | yes     |
        | 7      | 3    | yes     |
        | 8      |      | yes     |
        | 9      |      | yes     |
