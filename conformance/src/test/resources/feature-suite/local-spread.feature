@LS-2 @slow
Feature: Local spread (FeatureSuiteTest)

  @LS-1 @ls-3 # a comment after the tags
  Rule: LS-1 One

    Example: a doc string is not read for tags
      Given the machine:
        """topo
        @LS-99
        node 0 cpus: 0
        """

  Rule: untagged

    @LS-4
    Example: four
      Given Linux 6.12
