Feature: Group CPUs (the certifier's own test feature)
  A scenario of another family that calls local spread: it runs for a local-spread claim too.

  @GRP-2
  Rule: GRP-2 Groups and local spread agree on the local CPUs

    Example: node 1's CPUs come first from node 1
      When a driver on node 1 asks for 2 CPUs on Linux 6.1
      Then the CPUs are "2-3"
