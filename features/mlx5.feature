Feature: mlx5 completion-IRQ placement
  Where mlx5 puts the IRQ of each completion vector: the 2022 distance patch of seed 000 (never
  merged in that form) and what each release does. Unless a scenario names another machine, the
  machine is the small one below: 6 CPUs on 3 nodes, CPUs 1 and 3 offline, so 4 online CPUs.
  Expected values come from seed 000's "After" hints, or by hand from mlx5's eq.c of each release.

  Background:
    Given the machine:
      """topo
      topology 4-online-of-6
      possible 0-5
      present  0-5
      online   0,2,4-5
      node-of  1 0
      node-of  3 1
      available: 3 nodes (0-2)
      node 0 cpus: 0
      node 1 cpus: 2
      node 2 cpus: 4 5
      node distances:
      node   0   1   2
        0:  10  30  20
        1:  30  10  20
        2:  20  20  10
      """

  @MLX-1
  Rule: MLX-1 The distance pass gives distinct online CPUs

    Example: 4 vectors on 4 online CPUs
      When mlx5 with the 2022 distance patch on node 1 sets up 4 vectors
      Then the vectors get distinct online CPUs

    Example: the EPYC 7763 NIC on node 14, 127 vectors
      Given the machine "epyc7763-2s-16node"
      When mlx5 with the 2022 distance patch on node 14 sets up 127 vectors
      Then the vectors get distinct online CPUs

  @MLX-2
  Rule: MLX-2 Closest to the first CPU, distances from the first CPU's node

    Example: the EPYC 7763 NIC on node 14 gets seed 000's "After" hints
      Given the machine "epyc7763-2s-16node"
      When mlx5 with the 2022 distance patch on node 14 sets up 127 vectors
      Then the vectors get the CPUs of the listing "epyc7763-node14-after.txt"

    Example: on the EPYC 7763 the patch equals 6.3+ local spread
      Given the machine "epyc7763-2s-16node"
      When mlx5 with the 2022 distance patch on node 14 sets up 127 vectors
      Then the vectors get:
        | vectors | cpus                           |
        | 0-15    | 112-119,240-247                |
        | 16-63   | 96-111,120-127,224-239,248-255 |
        | 64-126  | 64-95,192-222                  |
      And each vector gets the CPU of the same queue under local spread in Linux 6.12

    Example: 4 vectors from node 1 go to node 2 (20) before node 0 (30)
      When mlx5 with the 2022 distance patch on node 1 sets up 4 vectors
      Then the vectors get CPUs 2, 4, 5, 0 in that order

    Example: NUMA_NO_NODE starts at CPU 0 and measures from node 0
      When mlx5 with the 2022 distance patch on NUMA_NO_NODE sets up 4 vectors
      Then the vectors get CPUs 0, 4, 5, 2 in that order

    Example: a CPU-less device node starts at CPU 0 and measures from node 0, not from the device node
      Given the machine "patho-cpuless-node-near-1"
      When mlx5 with the 2022 distance patch on node 2 sets up 8 vectors
      Then the vectors get CPUs 0, 1, 2, 3, 4, 5, 6, 7 in that order

  @MLX-3
  Rule: MLX-3 More vectors than online CPUs: classic local spread for every vector

    Example: 4 online CPUs, 6 vectors: one local spread wrapping over all 6
      When mlx5 with the 2022 distance patch on node 1 sets up 6 vectors
      Then vector 0 gets CPU 2
      And vectors 0 to 3 get the CPUs 0,2,4-5 in any order
      And vector 4 gets the same CPU as vector 0
      And vector 5 gets the same CPU as vector 1

    Example: one vector more than the online CPUs is enough to fail the distance pass
      When mlx5 with the 2022 distance patch on node 1 sets up 5 vectors
      Then vectors 0 to 3 get the CPUs 0,2,4-5 in any order
      And vector 4 gets the same CPU as vector 0

    Example: the EPYC 7763 NIC on node 14 with 300 vectors
      Given the machine "epyc7763-2s-16node"
      When mlx5 with the 2022 distance patch on node 14 sets up 300 vectors
      Then vectors 0 to 15 get the CPUs 112-119,240-247 in any order
      And vectors 0 to 255 get the CPUs 0-255 in any order
      And vector 256 gets the same CPU as vector 0
      And vector 299 gets the same CPU as vector 43

  @MLX-4
  Rule: MLX-4 Before 6.3 and from 6.12: local spread of the release

    Example: Linux 6.12 wraps around in ring order
      Given Linux 6.12
      When mlx5 on node 1 sets up 6 completion vectors
      Then the vectors get CPUs 2, 4, 5, 0, 2, 4 in that order

    Example: Linux 6.1 uses the classic order
      Given Linux 6.1
      When mlx5 on node 1 sets up 6 completion vectors
      Then the vectors get CPUs 2, 0, 4, 5, 2, 0 in that order

    Example: Linux 6.12 on NUMA_NO_NODE gives the i-th online CPU
      Given Linux 6.12
      When mlx5 on NUMA_NO_NODE sets up 5 completion vectors
      Then the vectors get CPUs 0, 2, 4, 5, 0 in that order

    Example: Linux 6.12 on a CPU-less device node spreads from its nearest node with CPUs
      Given the machine "patho-cpuless-node-near-1" running Linux 6.12
      When mlx5 on node 2 sets up 9 completion vectors
      Then the vectors get CPUs 4, 5, 6, 7, 0, 1, 2, 3, 4 in that order

    Example: the EPYC 7763 NIC on node 14 in Linux 6.12 gets seed 000's "After" hints
      Given the machine "epyc7763-2s-16node" running Linux 6.12
      When mlx5 on node 14 sets up 127 completion vectors
      Then the vectors get the CPUs of the listing "epyc7763-node14-after.txt"

  @MLX-5
  Rule: MLX-5 6.3 – 6.11: hop walk without wraparound

    Example: the EPYC 7763 NIC on node 14 in Linux 6.5 gets seed 000's "After" hints
      Given the machine "epyc7763-2s-16node" running Linux 6.5
      When mlx5 on node 14 sets up 127 completion vectors
      Then the vectors get the CPUs of the listing "epyc7763-node14-after.txt"

    Example: 4 vectors on 4 online CPUs in Linux 6.3
      Given Linux 6.3
      When mlx5 on node 1 sets up 4 completion vectors
      Then the vectors get CPUs 2, 4, 5, 0 in that order

    Example: vectors past the walk get CPU 0
      Given Linux 6.5
      When mlx5 on node 1 sets up 6 completion vectors
      Then the vectors get CPUs 2, 4, 5, 0, 0, 0 in that order

    Example: NUMA_NO_NODE walks the online mask once, then CPU 0
      Given Linux 6.5
      When mlx5 on NUMA_NO_NODE sets up 6 completion vectors
      Then the vectors get CPUs 0, 2, 4, 5, 0, 0 in that order

    Example: every vector of a CPU-less device node gets CPU 0
      Given the machine "patho-cpuless-node-near-1" running Linux 6.5
      When mlx5 on node 2 sets up 3 completion vectors
      Then the vectors get CPUs 0, 0, 0 in that order

  @MLX-6
  Rule: MLX-6 Within the online count, 6.3 – 6.11 equals ring order

    Example: the EPYC 7763 NIC on node 14 in Linux 6.5, ring by ring
      Given the machine "epyc7763-2s-16node" running Linux 6.5
      When mlx5 on node 14 sets up 64 completion vectors
      Then the vectors get, ring by ring:
        | vectors | cpus                           |
        | 0-15    | 112-119,240-247                |
        | 16-63   | 96-111,120-127,224-239,248-255 |
      And each vector gets the CPU of the same queue under local spread in Linux 6.5

    Example: 4 vectors on 4 online CPUs in Linux 6.3: node 1, then node 2 (20), then node 0 (30)
      Given Linux 6.3
      When mlx5 on node 1 sets up 4 completion vectors
      Then the vectors get, ring by ring:
        | vectors | cpus |
        | 0       | 2    |
        | 1-2     | 4-5  |
        | 3       | 0    |
      And each vector gets the CPU of the same queue under local spread in Linux 6.3

  @MLX-7
  Rule: MLX-7 The fallback is classic local spread, exactly

    Example: 4 online CPUs, 6 vectors: classic with wraparound for all 6, not a distance-ordered prefix
      When mlx5 with the 2022 distance patch on node 1 sets up 6 vectors
      Then the vectors get CPUs 2, 0, 4, 5, 2, 0 in that order

    Example: one vector more than the online CPUs
      When mlx5 with the 2022 distance patch on node 1 sets up 5 vectors
      Then the vectors get CPUs 2, 0, 4, 5, 2 in that order

    Example: the EPYC 7763 NIC on node 14 with 300 vectors
      Given the machine "epyc7763-2s-16node"
      When mlx5 with the 2022 distance patch on node 14 sets up 300 vectors
      Then the vectors get:
        | vectors | cpus                        |
        | 0-15    | 112-119,240-247             |
        | 16-255  | 0-111,120-239,248-255       |
        | 256-271 | 112-119,240-247             |
        | 272-299 | 0-27                        |
