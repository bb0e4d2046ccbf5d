package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.CpuModel;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scheduler's distance per release (LVL-6, LVL-8) on the SNC tables of the messages of
 * commits 4d6dd05d07d0 and 528d89a4707e (fixture gnr-2s-snc3-24cpu); values worked out by hand.
 */
class ArchSchedNodeDistanceTest {

    static final KernelRelease V6_18 = KernelRelease.of(6, 18), V6_19 = KernelRelease.of(6, 19), V7_0 = KernelRelease.of(7, 0),
            V7_3 = KernelRelease.of(7, 3);

    static final int[][] SNC3 = {
            {10, 15, 17, 21, 28, 26}, {15, 10, 15, 23, 26, 23}, {17, 15, 10, 26, 23, 21},
            {21, 28, 26, 10, 15, 17}, {23, 26, 23, 15, 10, 15}, {26, 23, 21, 17, 15, 10}};

    /** Granite Rapids-X, 2 sockets in SNC-3; node k holds CPUs 4k..4k+3. */
    static Topology snc3(CpuModel model, int[][] table) {
        TopologyBuilder b = TopologyBuilder.machine("gnr-snc3").cpuModel(model).pkg(0, "0-11").pkg(1, "12-23");
        for (int n = 0; n < 6; n++) b.node(n, CpuSet.range(4 * n, 4 * n + 3));
        return b.distances(table).build();
    }

    /** The hypothetical SNC-2 machine of research §5.5. */
    static Topology snc2() {
        return TopologyBuilder.machine("gnr-snc2").cpuModel(CpuModel.INTEL_GRANITERAPIDS_X).pkg(0, "0-7").pkg(1, "8-15")
                .node(0, "0-3").node(1, "4-7").node(2, "8-11").node(3, "12-15")
                .distances(new int[]{10, 12, 20, 24}, new int[]{12, 10, 24, 20}, new int[]{20, 24, 10, 12}, new int[]{24, 20, 12, 10})
                .build();
    }

    @Test
    void LVL_6_noHookBefore6_19AndOnOtherModels() {
        assertArrayEquals(new int[]{10, 15, 17, 21, 23, 26, 28}, NumaLevels.of(V6_18, snc3(CpuModel.INTEL_GRANITERAPIDS_X, SNC3)).distances());
        assertArrayEquals(new int[]{10, 15, 17, 21, 23, 26, 28}, NumaLevels.of(V7_3, snc3(CpuModel.OTHER, SNC3)).distances());
        assertFalse(ArchSchedNodeDistance.of(V7_3, snc3(CpuModel.OTHER, SNC3)).rewritesDistances());
    }

    /**
     * 6.19 is 6.19.y from 6.19.7, which took 528d89a4707e as 9e536804bc67 (spec/numa-levels.md,
     * LVL-7 retired): the package-pair mean of SNC-3, and SNC-2 keeps node_distance().
     */
    @Test
    void LVL_8_6_19IsThe7_0Behaviour() {
        Topology m = snc3(CpuModel.INTEL_ATOM_DARKMONT_X, SNC3);
        assertArrayEquals(new int[]{10, 15, 17, 24}, NumaLevels.of(V6_19, m).distances());            // 434 / 18
        assertArrayEquals(new int[]{10, 12, 20, 24}, NumaLevels.of(V6_19, snc2()).distances());
        assertFalse(ArchSchedNodeDistance.of(V6_19, snc2()).rewritesDistances());
        // Node 0 meets the other package as one ring.
        assertArrayEquals(CpuSet.range(0, 23).toArray(), LocalSpread.localSpreadCpus(V6_19, m, 0, 24));
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 16, 17, 18, 19},
                LocalSpread.localSpreadCpus(V6_18, m, 0, 24));
    }

    @Test
    void LVL_8_snc2DistancesBelow20StayRawIn6_19() {
        int[][] near = {{10, 12, 16, 18}, {12, 10, 18, 16}, {16, 18, 10, 12}, {18, 16, 12, 10}};
        Topology m = TopologyBuilder.machine("near").cpuModel(CpuModel.INTEL_GRANITERAPIDS_X).pkg(0, "0-1").pkg(1, "2-3")
                .node(0, "0").node(1, "1").node(2, "2").node(3, "3").distances(near).build();
        assertArrayEquals(new int[]{10, 12, 16, 18}, NumaLevels.of(V6_19, m).distances());
    }

    @Test
    void LVL_8_packagePairsOfSnc3From7_0() {
        Topology m = snc3(CpuModel.INTEL_GRANITERAPIDS_X, SNC3);
        ArchSchedNodeDistance d = ArchSchedNodeDistance.of(V7_0, m);
        assertTrue(d.rewritesDistances());
        assertEquals(24, d.distance(0, 4));
        assertEquals(24, d.distance(4, 0));
        assertEquals(17, d.distance(0, 2));                                          // the package's own distance
        assertEquals(List.of("16-19", "12-23", "12-23", "0-23"),
                NumaLevels.of(V7_3, m).masksOf(4).stream().map(CpuSet::toList).toList());
    }

    @Test
    void LVL_8_snc2KeepsRawDistancesFrom7_0() {
        assertArrayEquals(new int[]{10, 12, 20, 24}, NumaLevels.of(V7_0, snc2()).distances());
        assertArrayEquals(new int[]{4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11}, LocalSpread.localSpreadCpus(V7_3, snc2(), 1, 16));
    }

    @Test
    void LVL_8_fourPackagesGetOneMeanPerPair() {
        // Four SNC-3 packages; packages p and q are 20 + 3(p+q) + (i+j) mod 3 apart: each residue
        // shows 3 times in a 3x3 block, so the mean of a pair is 20 + 3(p+q) + 1.
        int nodes = 12;
        int[][] t = new int[nodes][nodes];
        for (int i = 0; i < nodes; i++)
            for (int j = 0; j < nodes; j++) {
                int pi = i / 3, pj = j / 3;
                t[i][j] = i == j ? 10 : pi == pj ? 15 : 20 + 3 * (pi + pj) + (i + j) % 3;
            }
        TopologyBuilder b = TopologyBuilder.machine("gnr-4s-snc3").cpuModel(CpuModel.INTEL_GRANITERAPIDS_X);
        for (int p = 0; p < 4; p++) b.pkg(p, CpuSet.range(3 * p, 3 * p + 2));
        for (int n = 0; n < nodes; n++) b.node(n, CpuSet.of(n));
        Topology m = b.distances(t).build();
        ArchSchedNodeDistance d = ArchSchedNodeDistance.of(V7_0, m);
        assertEquals(24, d.distance(0, 3));
        assertEquals(27, d.distance(0, 6));
        assertEquals(33, d.distance(9, 3));
        assertEquals(15, d.distance(6, 7));
        // 6.19 (from 6.19.7) has the same per-pair means.
        assertEquals(24, ArchSchedNodeDistance.of(V6_19, m).distance(0, 3));
        assertEquals(27, ArchSchedNodeDistance.of(V6_19, m).distance(0, 6));
    }

    @Test
    void LVL_8_aTableNotOfTheSncFormStaysRaw() {
        int[][] bent = new int[6][];
        for (int i = 0; i < 6; i++) bent[i] = SNC3[i].clone();
        bent[1][0] = 16;                                                              // package 0's block is asymmetric
        Topology m = snc3(CpuModel.INTEL_GRANITERAPIDS_X, bent);
        assertFalse(ArchSchedNodeDistance.of(V7_0, m).rewritesDistances());
        assertFalse(ArchSchedNodeDistance.of(V6_19, m).rewritesDistances());
        // A block whose nodes' CPUs sit in two packages fails too.
        Topology split = TopologyBuilder.machine("split").cpuModel(CpuModel.INTEL_GRANITERAPIDS_X).pkg(0, "0-7,12-15").pkg(1, "8-11,16-23")
                .node(0, "0-3").node(1, "4-7").node(2, "8-11").node(3, "12-15").node(4, "16-19").node(5, "20-23").distances(SNC3).build();
        assertFalse(ArchSchedNodeDistance.of(V7_0, split).rewritesDistances());
    }

    @Test
    void TOPO_16_nodesPerPackageRoundUp() {
        assertEquals(3, snc3(CpuModel.INTEL_GRANITERAPIDS_X, SNC3).numNodesPerPackage());
        assertEquals(2, snc2().numNodesPerPackage());
        Topology five = TopologyBuilder.machine("five").pkg(0, "0-2").pkg(1, "3-4")
                .node(0, "0").node(1, "1").node(2, "2").node(3, "3").node(4, "4").build();
        assertEquals(3, five.numNodesPerPackage());
    }
}
