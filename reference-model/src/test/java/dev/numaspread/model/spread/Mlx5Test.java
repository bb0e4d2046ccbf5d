package dev.numaspread.model.spread;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mlx5: the 2022 distance patch (seed 000) and the completion-IRQ CPUs per release. */
class Mlx5Test {

    static final KernelRelease V6_0 = KernelRelease.of(6, 0), V6_5 = KernelRelease.of(6, 5), V6_12 = KernelRelease.of(6, 12);

    /** 3 nodes, 2 CPUs each, CPUs 1 and 3 offline: 4 online CPUs. Node 2 is nearer to node 0 than node 1. */
    static Topology fourOnline() {
        return TopologyBuilder.machine("4-online").node(0, "0-1").node(1, "2-3").node(2, "4-5").online("0,2,4-5")
                .distances(new int[]{10, 30, 20}, new int[]{30, 10, 20}, new int[]{20, 20, 10}).build();
    }

    @Test
    void MLX_3_moreQueuesThanOnlineCpusFallsBackToClassicForAll() {
        // Classic from node 1: 2, then 0, 4, 5, wrapping: 2, 0.
        assertArrayEquals(new int[]{2, 0, 4, 5, 2, 0}, Mlx5.mlx5NumaDistanceCpus(V6_0, fourOnline(), 1, 6));
    }

    @Test
    void MLX_2_distanceOrderWhenQueuesFit() {
        // From node 1: node 1 (2), then node 2 at 20 (4, 5), then node 0 at 30 (0).
        assertArrayEquals(new int[]{2, 4, 5, 0}, Mlx5.mlx5NumaDistanceCpus(V6_0, fourOnline(), 1, 4));
    }

    @Test
    void MLX_2_cpulessNodeMeasuresFromFirstsNode() {
        // Node 3 is CPU-less and nearest to node 1, but first = the first online CPU = 0 (node 0):
        // distances come from node 0's row: 0, then 4-5 (20), then 2 (30).
        Topology m = TopologyBuilder.machine("cpuless-mlx5").node(0, "0-1").node(1, "2-3").node(2, "4-5").node(3, "")
                .online("0,2,4-5")
                .distances(new int[]{10, 30, 20, 40}, new int[]{30, 10, 20, 11}, new int[]{20, 20, 10, 40},
                        new int[]{40, 11, 40, 10}).build();
        assertArrayEquals(new int[]{0, 4, 5, 2}, Mlx5.mlx5NumaDistanceCpus(V6_0, m, 3, 4));
    }

    @Test
    void MLX_5_hopWalkHasNoWraparound() {
        assertArrayEquals(new int[]{2, 4, 5, 0, 0, 0}, Mlx5.mlx5CompIrqCpus(V6_5, fourOnline(), 1, 6));
    }

    @Test
    void MLX_5_hopWalkPutsEveryVectorOfACpulessNodeOnCpu0() {
        Topology m = LocalSpreadTest.cpulessNode();
        assertArrayEquals(new int[]{0, 0, 0}, Mlx5.mlx5CompIrqCpus(V6_5, m, 2, 3));
        assertArrayEquals(new int[]{4, 5, 6}, Mlx5.mlx5CompIrqCpus(V6_12, m, 2, 3));
    }

    @Test
    void MLX_4_release6_12IsLocalSpreadWithWraparound() {
        assertArrayEquals(new int[]{2, 4, 5, 0, 2, 4}, Mlx5.mlx5CompIrqCpus(V6_12, fourOnline(), 1, 6));
        assertArrayEquals(new int[]{2, 0, 4, 5, 2}, Mlx5.mlx5CompIrqCpus(KernelRelease.of(6, 1), fourOnline(), 1, 5));
    }

    @Test
    void MLX_2_unmodelledReleasesNodesAndCountsAreRejected() {
        // Found by mutation testing (docs/mutation-testing.md): the patch ran on any release and
        // node, and refused zero vectors.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Mlx5.mlx5NumaDistanceCpus(KernelRelease.of(7, 4), fourOnline(), 1, 1));
        assertEquals("kernel 7.4: mlx5-numa-distance is modelled for 4.1..7.3", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Mlx5.mlx5NumaDistanceCpus(V6_0, fourOnline(), 5, 1));
        assertTrue(e.getMessage().startsWith("node 5: 4-online has no such node"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Mlx5.mlx5NumaDistanceCpus(V6_0, fourOnline(), 1, -1));
        assertArrayEquals(new int[0], Mlx5.mlx5NumaDistanceCpus(V6_0, fourOnline(), 1, 0));
    }

    @Test
    void MLX_5_unmodelledReleasesAndCountsAreRejected() {
        // 7.4 would reach cpumask_local_spread(), which refuses it too, but under its own name.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Mlx5.mlx5CompIrqCpus(KernelRelease.of(7, 4), fourOnline(), 1, 1));
        assertEquals("kernel 7.4: mlx5-comp-irqs is modelled for 4.1..7.3", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Mlx5.mlx5CompIrqCpus(V6_5, fourOnline(), 1, -1));
        assertArrayEquals(new int[0], Mlx5.mlx5CompIrqCpus(V6_5, fourOnline(), 1, 0));
    }
}
