Feature: mlx5 completion-IRQ placement
  The 2022 distance patch (seed 000) and what each release does.

  Background:
    Given the machine:
      """topo
      topology 4-online
      available: 3 nodes (0-2)
      node 0 cpus: 0 1
      node 1 cpus: 2 3
      node 2 cpus: 4 5
      possible 0-5
      present 0-5
      online 0,2,4-5
      node distances:
      node   0   1   2
        0:  10  30  20
        1:  30  10  20
        2:  20  20  10
      """

  @MLX-3
  Rule: MLX-3 More vectors than online CPUs: classic local spread for every vector

    Example: 4 online CPUs, 6 vectors
      Given Linux 6.0
      When mlx5 with the 2022 distance patch on node 1 sets up 6 vectors
      Then the CPUs are "2, 0, 4, 5, 2, 0"

  @MLX-2
  Rule: MLX-2 Closest to the first CPU, distances from the first CPU's node

    Example: 4 online CPUs, 4 vectors
      Given Linux 6.0
      When mlx5 with the 2022 distance patch on node 1 sets up 4 vectors
      Then the CPUs are "2, 4, 5, 0"

  @MLX-5
  Rule: MLX-5 6.3 - 6.11: hop walk without wraparound

    Example: vectors past the walk get CPU 0
      Given Linux 6.5
      When mlx5 on node 1 sets up 6 completion vectors
      Then the CPUs are "2, 4, 5, 0, 0, 0"
