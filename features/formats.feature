Feature: Formats
  CPU sets print and read in the kernel's own forms, and machines are written as numactl -H output
  plus a few directives, in the JSON mirror of that form, or as a copy of /sys/devices/system.

  @FMT-1
  Rule: FMT-1 CPU sets print in the kernel's list form

    Example: runs become ranges, lone CPUs stay single
      When the CPU set is "0 2 3 128 129 130"
      Then the CPUs are "0,2-3,128-130"

    Example: the empty set prints as nothing
      When the CPU list "" is read
      Then the CPUs are ""

  @FMT-2
  Rule: FMT-2 CPU lists are read in every dialect users have

    Example: the dialects of the tools
      When the CPU list "<list>" is read
      Then the CPUs are "<cpus>"

      Examples: one dialect per line
        | list                  | cpus        |
        | 0-7,128-135           | 0-7,128-135 |
        | 0 1 2 3 16 17         | 0-3,16-17   |
        | 0-15, 32-47 (32)      | 0-15,32-47  |
        | 0, 1, 2, 3            | 0-3         |
        | 0-62:2                | 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56,58,60,62 |
        | 0-7:2/4               | 0-1,4-5     |
        | 5                     | 5           |

    Example: a piece that is not a CPU id
      When the CPU list "0-3,x" is read
      Then it is rejected with "cpu list piece 'x' in '0-3,x': 'x' is not a CPU id; expected a list such as 0-7,128-135"

    Example: a range that runs backwards
      When the CPU list "7-3" is read
      Then it is rejected with "cpu list piece '7-3' in '7-3': range ends before it starts"

  @FMT-3
  Rule: FMT-3 CPU sets print as smp_affinity hex masks

    Example: the first group is only as wide as nr_cpu_ids needs
      When the CPU set is "<cpus>"
      Then the hex mask for nr_cpu_ids <nr_cpu_ids> is "<mask>"

      Examples: issue 2's three examples and three more widths
        | cpus   | nr_cpu_ids | mask                                                                    |
        | 0-3    | 8          | 0f                                                                      |
        | 0      | 40         | 00,00000001                                                             |
        | 112    | 256        | 00000000,00000000,00000000,00000000,00010000,00000000,00000000,00000000 |
        | 0-1    | 6          | 03                                                                      |
        | 0-19   | 20         | fffff                                                                   |
        | 0-31   | 128        | 00000000,00000000,00000000,ffffffff                                     |

    Example: seed 000, the affinity hint of IRQ 339 on the EPYC 7763
      When the CPU set is "240"
      Then the hex mask for nr_cpu_ids 256 is "00010000,00000000,00000000,00000000,00000000,00000000,00000000,00000000"

    Example: a CPU beyond nr_cpu_ids
      When the CPU set is "8"
      Then the hex mask for nr_cpu_ids 8 cannot be printed

  @FMT-4
  Rule: FMT-4 Hex masks are read as users write them

    Example: masks as smp_affinity prints them and as users echo them
      When the hex mask "<mask>" is read
      Then the CPUs are "<cpus>"

      Examples:
        | mask        | cpus |
        | 0f          | 0-3  |
        | 00,00000001 | 0    |
        | 0x0000000f  | 0-3  |
        | 1,0         | 32   |

    Example: a group that is not hex
      When the hex mask "0g" is read
      Then it is rejected with "hex mask group '0g' in '0g'; expected 1 to 8 hex digits per comma-separated 32-bit group"

  @FMT-5
  Rule: FMT-5 numactl -H output is read verbatim

    Example: seed 003, the Kunpeng 920 as numactl printed it
      When the fixture "kunpeng920-4node" is read
      Then the nodes are:
        | node | cpus  |
        | 0    | 0-23  |
        | 2    | 48-71 |
      And the distances from node 1 are "16 10 25 32"

    Example: numactl 2.0.19 columns
      When the file "wide.topo" is read:
        """topo
        available: 2 nodes (0-1)
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node distances:
        node     0    1
           0:   10  120
           1:  120   10
        """
      Then the distances from node 1 are "120 10"

    Example: sparse node ids map columns by the header
      When the fixture "power9-v100-gpunodes" is read
      Then the distances from node 8 are "40 10 80 80 80 80 80 80"
      And the machine has:
        | nodes       | 0,8,250-255 |
        | nr_node_ids | 256         |

    Example: no distance information means 10 and 20
      When the file "nodist.topo" is read:
        """topo
        available: 2 nodes (0-1)
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        No distance information available.
        """
      Then the distances from node 0 are "10 20"

  @FMT-6
  Rule: FMT-6 Directives state what numactl does not show

    Example: node-of places an offline CPU; the sets follow the defaults
      When the file "defaults.topo" is read:
        """topo
        available: 2 nodes (0-1)
        node 0 cpus: 0 1 2
        node 1 cpus: 4 5
        node-of 3 0
        """
      Then the machine has:
        | name     | defaults |
        | online   | 0-2,4-5  |
        | present  | 0-5      |
        | possible | 0-5      |
      And CPU 3 is on node 0

    Example: a directive given twice
      When the file "twice.topo" is read:
        """topo
        possible 0-7
        possible 0-15
        """
      Then it is rejected with "twice.topo:2: a second 'possible' line (first at twice.topo:1); expected one"

  @FMT-7
  Rule: FMT-7 SMT, packages and clusters

    Example: split numbering, as on the EPYC 7763 of seed 000
      When the fixture "epyc7763-2s-16node" is read
      Then the siblings of CPU 3 are "3,131"
      And the packages are:
        | id | cpus            |
        | 0  | 0-63,128-191    |
        | 1  | 64-127,192-255  |

    Example: adjacent numbering, as on the MANA machine of seed 004
      When the fixture "mana-2node-32c-smt2" is read
      Then the siblings of CPU 63 are "62-63"

    Example: explicit sibling groups, as the kernel runs give them
      When the fixture "kernel-runs/c-epyc-4node-smt-split-linux-6.12-offline" is read
      Then the siblings of CPU 9 are "1,9"
      And the online siblings of CPU 1 are "1"

  @FMT-8
  Rule: FMT-8 An lscpu -p block gives siblings, packages and nodes

    Example: lscpu -p alone
      When the fixture "patho-lscpu-only" is read
      Then the siblings of CPU 1 are "1,5"
      And the packages are:
        | id | cpus    |
        | 0  | 0-1,4-5 |
        | 1  | 2-3,6-7 |
      And CPU 6 is on node 1

  @FMT-9
  Rule: FMT-9 An expect line chooses lenient mode and names the warnings

    Example: a table the kernel would discard loads when the file expects it
      When the fixture "patho-slit-invalid" is read
      Then it loads with a slit-invalid warning
      And the machine has:
        | expect | slit-invalid |

    Example: the same table without an expect line is rejected
      When the file "slit.topo" is read:
        """topo
        node 0 cpus: 0
        node 1 cpus: 1
        node distances:
        node 0 1
        0: 10 10
        1: 10 10
        """
      Then it is rejected with "slit.topo:5: distance from node 0 to node 1 is 10; expected 11..255 (firmware tables with other values are discarded by the kernel) (strict mode; tag the file with 'expect slit-invalid' to load it leniently)"

  @FMT-10
  Rule: FMT-10 Errors name the file, the line, what was found and what was expected

    Example: a short distance row
      When the file "kunpeng.topo" is read:
        """topo
        available: 4 nodes (0-3)
        node 0 cpus: 0-23
        node 1 cpus: 24-47
        node 2 cpus: 48-71
        node 3 cpus: 72-95
        node distances:
        node   0   1   2   3
          0:  10  16  32  33
          1:  16  10  25  32
          2:  32  25  10  16
          3:  33  32  16
        """
      Then it is rejected with "kunpeng.topo:11: distance row for node 3 has 3 values, the header lists 4 nodes"

    Example: a line that is neither numactl output nor a directive
      When the file "odd.topo" is read:
        """topo
        node 0 cpus: 0
        sockets 2
        """
      Then it is rejected with "odd.topo:2: unknown line 'sockets 2'; expected numactl -H output or a directive (topology, source, note, possible, present, online, isolated, smt, siblings, package, packages, cluster, cpu-model, arch, llc, die, node-of, memless, expect, numactl:, lscpu-p:)"

  @FMT-11
  Rule: FMT-11 Writing then reading gives the same machine

    Example: the canonical text of a small machine
      When the file "small.topo" is read:
        """topo
        topology small
        source hand-made
        node 0 cpus: 0 1
        node 1 cpus: 2 3
        node 1 size: 0 MB
        """
      Then the written file is:
        """topo
        topology small
        source hand-made
        possible 0-3
        present 0-3
        online 0-3
        smt none
        numactl:
        available: 2 nodes (0-1)
        node 0 cpus: 0-1
        node 1 cpus: 2-3
        node 1 size: 0 MB
        node distances:
        node   0   1
          0:  10  20
          1:  20  10
        """

    Example: a machine with offline CPUs, possible beyond present and sparse ids
      When the file "mixed.topo" is read:
        """topo
        possible 0-11
        present 0-9
        online 0-2,4-7
        siblings 0-1 4-5 8-9
        node-of 3,8-11 0
        available: 3 nodes (0,5,9)
        node 0 cpus: 0 1 2
        node 5 cpus: 4 5 6 7
        node 9 cpus:
        node distances:
        node 0 5 9
        0: 10 12 30
        5: 15 10 30
        9: 30 30 10
        """
      Then writing it and reading it back gives the same machine

  @FMT-12
  Rule: FMT-12 The JSON form mirrors .topo

    Example: the xeon-silver4108-2s machine of hwloc's test corpus
      When the file "xeon.json" is read:
        """json
        {"name": "xeon-silver4108-2s", "source": "hwloc 32intel64-2p8co2t+8ve",
         "cpus": {"possible": "0-111", "present": "0-31", "online": "0-31"},
         "smt": {"numbering": "stride", "width": 2, "stride": 16},
         "packages": [{"id": 0, "cpus": "0-7,16-23"}, {"id": 1, "cpus": "8-15,24-31"}, {"id": -1, "cpus": "32-111"}],
         "nodes": [{"id": 0, "cpus": "0-7,16-23", "memMiB": 46802}, {"id": 1, "cpus": "8-15,24-31", "memMiB": 48359}],
         "nodeOf": [{"cpus": "32-111", "node": 0}],
         "distances": {"order": [0, 1], "rows": [[10, 21], [21, 10]]}}
        """
      Then the siblings of CPU 19 are "3,19"
      And the machine has:
        | possible | 0-111 |
        | online   | 0-31  |
      And writing it and reading it back gives the same machine

    Example: a bad CPU list is named by its JSON pointer
      When the file "x.json" is read:
        """json
        {"nodes": [{"id": 0, "cpus": "0-7,x"}]}
        """
      Then it is rejected with "x.json:/nodes/0/cpus: cpu list piece 'x' in '0-7,x': 'x' is not a CPU id; expected a list such as 0-7,128-135"

  @FMT-13
  Rule: FMT-13 A sysfs snapshot directory reads as the machine it was copied from

    Example: two nodes with SMT pairs and memory sizes
      When the sysfs snapshot "snap" is read:
        | path                                     | content                        |
        | cpu/possible                             | 0-3                            |
        | cpu/present                              | 0-3                            |
        | cpu/online                               | 0-3                            |
        | cpu/cpu0/topology/thread_siblings_list   | 0-1                            |
        | cpu/cpu0/topology/physical_package_id    | 0                              |
        | cpu/cpu1/topology/thread_siblings_list   | 0-1                            |
        | cpu/cpu1/topology/physical_package_id    | 0                              |
        | cpu/cpu2/topology/thread_siblings_list   | 2-3                            |
        | cpu/cpu2/topology/physical_package_id    | 1                              |
        | cpu/cpu3/topology/thread_siblings_list   | 2-3                            |
        | cpu/cpu3/topology/physical_package_id    | 1                              |
        | node/node0/cpulist                       | 0-1                            |
        | node/node0/distance                      | 10 21                          |
        | node/node0/meminfo                       | Node 0 MemTotal: 2097152 kB    |
        | node/node1/cpulist                       | 2-3                            |
        | node/node1/distance                      | 21 10                          |
        | node/node1/meminfo                       | Node 1 MemTotal: 0 kB          |
      Then it is the same machine as:
        """topo
        siblings 0-1 2-3
        package 0 cpus 0-1
        package 1 cpus 2-3
        node 0 cpus: 0 1
        node 0 size: 2048 MB
        node 1 cpus: 2 3
        node 1 size: 0 MB
        node distances:
        node 0 1
        0: 10 21
        1: 21 10
        """

    Example: a tar of /sys keeps the devices/system prefix and a CPU-less node
      When the sysfs snapshot "snap" is read:
        | path                                                  | content  |
        | sys/devices/system/cpu/possible                       | 0-1      |
        | sys/devices/system/cpu/online                         | 0-1      |
        | sys/devices/system/cpu/cpu0/topology/core_cpus_list   | 0        |
        | sys/devices/system/cpu/cpu1/topology/core_cpus_list   | 1        |
        | sys/devices/system/node/node0/cpulist                 | 0-1      |
        | sys/devices/system/node/node0/distance                | 10 20    |
        | sys/devices/system/node/node2/cpulist                 |          |
        | sys/devices/system/node/node2/distance                | 20 10    |
      Then the nodes are:
        | node | cpus | cpu-less |
        | 0    | 0-1  | no       |
        | 2    |      | yes      |
      And the distances from node 2 are "20 10"

  @FMT-14
  Rule: FMT-14 Offline CPUs in a sysfs snapshot, and errors that name the file

    Example: an x86 offline CPU is placed by its node link and stands alone
      When the sysfs snapshot "snap" is read:
        | path                                     | content |
        | cpu/possible                             | 0-3     |
        | cpu/present                              | 0-3     |
        | cpu/online                               | 0-2     |
        | cpu/cpu0/topology/thread_siblings_list   | 0-1     |
        | cpu/cpu1/topology/thread_siblings_list   | 0-1     |
        | cpu/cpu2/topology/thread_siblings_list   | 2       |
        | cpu/cpu3/node1                           |         |
        | node/node0/cpulist                       | 0-1     |
        | node/node0/distance                      | 10 20   |
        | node/node1/cpulist                       | 2       |
        | node/node1/distance                      | 20 10   |
      Then CPU 3 is on node 1
      And the siblings of CPU 3 are "3"
      And it loads with the warnings:
        | line | code                 | message                                                                                                                                                             |
        | 0    | offline-cpu-topology | present CPUs 3 have no topology/ directory (x86 removes it when a CPU goes offline); CPUs 3, which no sibling list names, are taken as their own SMT siblings |

    Example: an offline CPU that no file places
      When the sysfs snapshot "snap" is read:
        | path                                     | content |
        | cpu/possible                             | 0-1     |
        | cpu/present                              | 0-1     |
        | cpu/online                               | 0       |
        | cpu/cpu0/topology/thread_siblings_list   | 0       |
        | node/node0/cpulist                       | 0       |
        | node/node0/distance                      | 10      |
      Then it is rejected with "snap/cpu: present CPUs 1 are in no node's cpulist and have no cpuN/nodeM link or node/nodeM/cpuN entry, so the snapshot does not say their node (x86 drops offline CPUs from cpulist); expected their node: describe the machine in a .topo file with 'node-of 1 NODE'"

    Example: a distance file with a value missing
      When the sysfs snapshot "snap" is read:
        | path                | content |
        | cpu/possible        | 0-1     |
        | node/node0/cpulist  | 0       |
        | node/node0/distance | 10 20   |
        | node/node1/cpulist  | 1       |
        | node/node1/distance | 10      |
      Then it is rejected with "snap/node/node1/distance: found 1 value; expected 2, one per online node"

    Example: a snapshot without cpu/possible
      When the sysfs snapshot "snap" is read:
        | path                | content |
        | cpu/online          | 0       |
        | node/node0/cpulist  | 0       |
        | node/node0/distance | 10      |
      Then it is rejected with "snap/cpu/possible: no such file; expected the possible CPUs as the kernel lists them (e.g. 0-95): take a snapshot with 'numaspread snapshot FILE.tar'"

  @FMT-16
  Rule: FMT-16 Input stays within the kernel's limits, refused at the first token past one

    Example: a node id past MAX_NUMNODES is refused at its column
      When the file "n.topo" is read:
        """topo
        node 2147483647 cpus: 0-3
        """
      Then it is rejected with "n.topo:1:6: node id 2147483647; expected 0-1023 (MAX_NUMNODES 1024, spec/formats.md FMT-16)"

    Example: more nodes than MAX_NUMNODES
      When the file "a.topo" is read:
        """topo
        available: 2147483647 nodes
        """
      Then it is rejected with "a.topo:1:12: node count 2147483647; expected 0-1024 (MAX_NUMNODES 1024, spec/formats.md FMT-16)"

    Example: a CPU list past NR_CPUS
      When the CPU list "0-99999999" is read
      Then it is rejected with "cpu list piece '0-99999999' in '0-99999999': 99999999 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)"

    Example: the last CPU ids NR_CPUS allows
      When the CPU list "0,8190-8191" is read
      Then the CPUs are "0,8190-8191"

    Example: a full-width digit is not a digit
      When the file "w.topo" is read:
        """topo
        node ３ cpus: 0
        """
      Then it is rejected with "w.topo:1:6: node id '３'; expected a whole number"

    Example: a distance past three digits
      When the file "d.topo" is read:
        """topo
        node 0 cpus: 0
        node 1 cpus: 1
        node 0 1
        0: 10 1000
        1: 20 10
        """
      Then it is rejected with "d.topo:4:7: distance 1000; expected 0-999"

    Example: a CPU that two node-of lines place is refused at the second
      When the file "o.topo" is read:
        """topo
        node-of 2-3 0
        node-of 3 1
        node 0 cpus: 0
        node 1 cpus: 1
        """
      Then it is rejected with "o.topo:2: cpu 3 is in two node-of lines (o.topo:1); expected each CPU in one node-of"

  @FMT-17
  Rule: FMT-17 Only regular files of a bounded size are read

    Example: a device is refused without being read
      When the path "/dev/zero" is read as a topology
      Then it is rejected with "/dev/zero: not a regular file (a FIFO, a device or a socket); expected a .topo file"

  @FMT-18
  Rule: FMT-18 Every byte is text or a clear error

    Example: a byte that is not UTF-8 is named with its line and column
      When the file "x.topo" of the bytes "node 0 cpus: 0\xc3" is read
      Then it is rejected with "x.topo:1:15: byte 0xc3 is not UTF-8; expected UTF-8 text"

    Example: a NUL byte
      When the file "z.topo" of the bytes "node 0 cpus: 0\nnode 0\x00 size: 1 MB\n" is read
      Then it is rejected with "z.topo:2:7: byte 0x00 (NUL); expected text (tabs and line ends are the only control characters read)"

    Example: CRLF line ends, tabs and a byte order mark read as plain text does
      When the file "w.topo" of the bytes "\xef\xbb\xbfnode 0 cpus:\t0-3\r\nnode 0 size:\t1024 MB\r\n" is read
      Then it is the same machine as:
        """topo
        node 0 cpus: 0-3
        node 0 size: 1024 MB
        """

    Example: a JSON file that is not UTF-8
      When the file "j.json" of the bytes "{\"name\": \"caf\xe9\"}" is read
      Then it is rejected with "j.json:1:14: byte 0xe9 is not UTF-8; expected UTF-8 text"

    Example: an unknown line is quoted cut to 60 characters
      When the file "u.topo" is read:
        """topo
        node 0 cpus: 0
        this line goes on and on and on and on and on and on and on and on and on and on
        """
      Then it is rejected with "u.topo:2: unknown line 'this line goes on and on and on and on and on and on and on ...'; expected numactl -H output or a directive (topology, source, note, possible, present, online, isolated, smt, siblings, package, packages, cluster, cpu-model, arch, llc, die, node-of, memless, expect, numactl:, lscpu-p:)"

  @FMT-19
  Rule: FMT-19 What numaspread prints of its input is escaped, and what it writes it reads back

    Example: a memory size past 2^31 MB is written as JSON that reads back
      When the file "big.topo" is read:
        """topo
        node 0 cpus: 0-3
        node 0 size: 2147483648 MB
        """
      Then writing it and reading it back gives the same machine

    Example: a note that reorders text is printed escaped
      When the file "n.json" is read:
        """json
        {"notes": ["evil\u202etxt"], "nodes": [{"id": 0, "cpus": "0"}]}
        """
      Then its description shows the line "note      evil\u{202e}txt"

    Example: a JSON note that holds a control character is refused, as a .topo line cannot hold one
      When the file "n.json" is read:
        """json
        {"notes": ["red \u001b[31m"], "nodes": [{"id": 0, "cpus": "0"}]}
        """
      Then it is rejected with "n.json: note 'red \x1b[31m' holds a control character (U+001B); expected one line of text"

  @FMT-20
  Rule: FMT-20 `cpu-model` names the CPU class an architecture hook tests

    Example: a Granite Rapids-X machine in SNC-3 states its model, and the writer keeps it
      When the fixture "gnr-2s-snc3-24cpu" is read
      Then its description shows the line "cpu model intel-graniterapids-x (INTEL_GRANITERAPIDS_X), 2 packages, 3 nodes per package"
      And its description shows the line "  6.19-7.3  levels 10 15 17 24 (node_distance() inside a package, the mean of the two blocks between two packages (3 nodes per package))"
      And writing it and reading it back gives the same machine

    Example: the JSON form carries the model as cpuModel
      When the file "cwf.json" is read:
        """json
        {"cpuModel": "intel-atom-darkmont-x", "packages": [{"id": 0, "cpus": "0-1"}, {"id": 1, "cpus": "2-3"}],
         "nodes": [{"id": 0, "cpus": "0-1"}, {"id": 1, "cpus": "2-3"}]}
        """
      Then its description shows the line "cpu model intel-atom-darkmont-x (INTEL_ATOM_DARKMONT_X), 2 packages, 1 node per package"
      And writing it and reading it back gives the same machine

    Example: a model no hook knows is named with the models there are
      When the file "m.topo" is read:
        """topo
        cpu-model sapphire-rapids
        node 0 cpus: 0
        """
      Then it is rejected with "m.topo:1: cpu-model 'sapphire-rapids'; expected intel-graniterapids-x, intel-atom-darkmont-x or other (the x86 models whose scheduler distances a kernel hook rewrites; every other CPU is 'other', the default)"

    Example: two words
      When the file "m.topo" is read:
        """topo
        cpu-model intel graniterapids-x
        node 0 cpus: 0
        """
      Then it is rejected with "m.topo:1: 'cpu-model intel graniterapids-x'; expected 'cpu-model MODEL' with MODEL one of intel-graniterapids-x, intel-atom-darkmont-x or other"

    Example: a second cpu-model line
      When the file "m.topo" is read:
        """topo
        cpu-model other
        cpu-model other
        node 0 cpus: 0
        """
      Then it is rejected with "m.topo:2: a second 'cpu-model' line (first at m.topo:1); expected one"

    Example: a JSON model that does not exist is named by its pointer
      When the file "m.json" is read:
        """json
        {"cpuModel": "gnr", "nodes": [{"id": 0, "cpus": "0"}]}
        """
      Then it is rejected with "m.json:/cpuModel: cpuModel 'gnr'; expected intel-graniterapids-x, intel-atom-darkmont-x or other"

