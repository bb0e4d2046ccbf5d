Feature: Local spread (the certifier's own test feature)
  The certifier runs these against the implementation under test; they are not part of the spec.

  @LS-1
  Rule: LS-1 Local CPUs come first

    Example: a driver on node 1 gets node 1's CPUs first
      When a driver on node 1 asks for 2 CPUs on Linux 6.1
      Then the CPUs are "2-3"

  @LS-2
  Rule: LS-2 The wrap uses the online count

    Example: index 4 wraps to index 0
      When a driver on node 1 asks for 5 CPUs on Linux 6.1
      Then the last CPU is the first

    Example: a release the implementation may not claim
      When a driver on node 1 asks for 5 CPUs on Linux 6.12
      Then the last CPU is the first
