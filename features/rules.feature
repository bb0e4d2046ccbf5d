Feature: Rules
  Every rule of spec/ is a heading with a permanent id, a level, the kernel releases it holds in
  and its sources; the build fails when a rule is unproved or a proof names no rule.

  @RULE-1
  Rule: RULE-1 A rule is a heading with a permanent id and a title

    Example: a well-formed rule
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Local CPUs come first
        level: MUST; kernels: 6.3+; sources: seed 000
        """
      When the rules are read
      Then rule DEMO-1 is "Local CPUs come first", a MUST rule of spec/demo.md:1

    Example: a misspelt id is an error, not an ordinary heading
      Given the spec file "spec/demo.md":
        """markdown
        ## Overview

        ### DEMO_1 Local CPUs come first
        level: MUST; kernels: all; sources: seed 000
        """
      When the rules are read
      Then reading fails with "spec/demo.md:3: found heading \"### DEMO_1 Local CPUs come first\"; expected \"### ID Title\" with an id such as LS-3 (upper-case letters, a dash, a number from 1)"

  @RULE-2
  Rule: RULE-2 The level line follows the heading

    Example: an unknown level
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Local CPUs come first
        level: MAY; kernels: all; sources: seed 000
        """
      When the rules are read
      Then reading fails with "spec/demo.md:2: found level \"MAY\" for DEMO-1; expected MUST, EXACT or SHOULD"

    Example: the statement where the level line belongs
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Local CPUs come first
        The local CPUs come first.
        """
      When the rules are read
      Then reading fails with "spec/demo.md:2: found \"The local CPUs come first.\" after the heading of DEMO-1; expected the line \"level: MUST | EXACT | SHOULD; kernels: ...; sources: ...\""

    Example: a source kept outside the repository
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Local CPUs come first
        level: MUST; kernels: 6.3+; sources: seed 000 "mlx5: Use NUMA distance metrics", research/kernel-semantics.md §1.c
        """
      When the rules are read
      Then reading fails with "spec/demo.md:2: found \"research/kernel-semantics.md\" in the sources of DEMO-1; expected sources a reader can reach from the repository or the kernel's history: a seed, a commit (id and title), a kernel file and function at a release, a fixture or a mailing-list thread"

  @RULE-3
  Rule: RULE-3 Kernel ranges say in which releases a rule holds

    Example: two ranges with a gap
      When a rule holds in kernels "4.1-5.8, 5.11-6.2"
      Then it holds in these releases:
        | release | holds |
        | 4.1     | yes   |
        | 5.8     | yes   |
        | 5.9     | no    |
        | 5.10    | no    |
        | 5.11    | yes   |
        | 6.2     | yes   |
        | 6.3     | no    |

    Example: a release and every later one
      When a rule holds in kernels "6.3+ (rings)"
      Then it holds in these releases:
        | release | holds |
        | 6.2     | no    |
        | 6.3     | yes   |
        | 6.18    | yes   |
        | 6.19    | yes   |
        | 7.0     | yes   |
        | 7.3     | yes   |

    Example: a release that never existed
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Local CPUs come first
        level: MUST; kernels: 6.3-6.20; sources: seed 000
        """
      When the rules are read
      Then reading fails with "spec/demo.md:2: DEMO-1: found \"6.3-6.20\" in kernels \"6.3-6.20\": release 6.20 never existed; expected releases 4.1 to 7.3 (7.0 follows 6.19)"

  @RULE-4
  Rule: RULE-4 Every rule is proved, and everything that proves names a rule

    Example: a rule nothing proves, and a tag naming no rule
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Local CPUs come first
        level: MUST; kernels: all; sources: seed 000
        """
      And the feature file "features/demo.feature":
        """gherkin
        Feature: Demo

          @DEMO-2
          Scenario: a scenario of a rule that does not exist
            Given the machine "one-cpu"
        """
      When the coverage is computed
      Then the coverage problems are:
        """
        features/demo.feature:3: found tag @DEMO-2, but no rule DEMO-2 is in spec/; expected the id of a rule heading
        spec/demo.md:1: found rule DEMO-1 Local CPUs come first with nothing that proves it; expected a scenario tagged @DEMO-1, a check naming DEMO-1 or a test annotated @Proves("DEMO-1")
        """

    Example: a rule proved by a test alone
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Local CPUs come first
        level: MUST; kernels: all; sources: seed 000
        """
      And a test "LocalSpreadTest#DEMO_1_localCpusComeFirst" proving "DEMO-1"
      When the coverage is computed
      Then the coverage has no problems

  @RULE-5
  Rule: RULE-5 A rule id is defined once

    Example: the same id in two files
      Given the spec file "spec/a.md":
        """markdown
        ### DEMO-1 Local CPUs come first
        level: MUST; kernels: all; sources: seed 000
        """
      And the spec file "spec/b.md":
        """markdown
        ### DEMO-1 Remote CPUs come first
        level: MUST; kernels: all; sources: seed 000
        """
      When the rules are read
      Then reading fails with "spec/b.md:1: found rule DEMO-1 a second time (first at spec/a.md:1); expected each rule id once: ids are permanent, give a new rule a new number"

  @RULE-6
  Rule: RULE-6 A rule whose checks draw inputs names the input classes that tell implementations apart

    Example: the classes line under the level line
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Zero groups give NULL
        level: MUST; kernels: 6.16+; sources: seed 002
        classes: zero-count, not-present-cpus

        `group_cpus_evenly(0)` returns NULL.
        """
      When the rules are read
      Then rule DEMO-1 declares the classes "zero-count, not-present-cpus"

    Example: a class that is not in the list
      Given the spec file "spec/demo.md":
        """markdown
        ### DEMO-1 Zero groups give NULL
        level: MUST; kernels: 6.16+; sources: seed 002
        classes: zero-cout
        """
      When the rules are read
      Then reading fails with "spec/demo.md:3: found class \"zero-cout\" for DEMO-1; expected one of multi-node, unequal-nodes, smt, split-smt, clusters, cluster-step, clusters-outnumber-groups, offline-in-cluster, asymmetric-distances, non-metric-distances, no-numa-levels, cpuless-node, memoryless-node, offline-cpus, offline-siblings, not-present-cpus, sparse-node-ids, zero-count, count-above-online, count-above-possible, no-node, cpuless-device-node, reordering-device-node, odd-quota-smt, empty-cpus, snc2-machine, snc3-machine, cpu-ids-past-63, possible-ids-with-holes, cluster-across-nodes, set-larger-than-cpus"
