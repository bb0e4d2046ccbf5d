package dev.numaspread.model.spread;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Local spread per release on the sources' machines; expected values from the seeds and by hand. */
class LocalSpreadTest {

    static final KernelRelease V4_19 = KernelRelease.of(4, 19), V5_9 = KernelRelease.of(5, 9), V5_10 = KernelRelease.of(5, 10),
            V6_1 = KernelRelease.of(6, 1), V6_4 = KernelRelease.of(6, 4), V6_5 = KernelRelease.of(6, 5),
            V6_6 = KernelRelease.of(6, 6), V6_7 = KernelRelease.of(6, 7), V6_12 = KernelRelease.of(6, 12);

    static int[] range(int from, int to) {
        return IntStream.rangeClosed(from, to).toArray();
    }

    static int[] slice(int[] plan, int from, int to) {
        return java.util.Arrays.copyOfRange(plan, from, to + 1);
    }

    @Test
    void LS_7_kunpengClassicSendsQueues24To47ToNode0() {
        int[] plan = LocalSpread.localSpreadCpus(V6_1, SourceMachines.kunpeng920(), 2, 97);
        assertArrayEquals(range(48, 71), slice(plan, 0, 23));
        assertArrayEquals(range(0, 23), slice(plan, 24, 47));
        assertArrayEquals(range(24, 47), slice(plan, 48, 71));
        assertArrayEquals(range(72, 95), slice(plan, 72, 95));
        assertEquals(48, plan[96]);
    }

    @Test
    void LS_4_kunpengRingsSendQueues24To47ToNode3() {
        int[] plan = LocalSpread.localSpreadCpus(V6_12, SourceMachines.kunpeng920(), 2, 97);
        assertArrayEquals(range(48, 71), slice(plan, 0, 23));
        assertArrayEquals(range(72, 95), slice(plan, 24, 47));
        assertArrayEquals(range(24, 47), slice(plan, 48, 71));
        assertArrayEquals(range(0, 23), slice(plan, 72, 95));
        assertEquals(48, plan[96]);
    }

    @Test
    void LS_10_kunpengProposalSendsQueues24To47ToNode3() {
        int[] plan = LocalSpreadNearestNode.localSpreadNearestNodeCpus(V6_1, SourceMachines.kunpeng920(), 2, 97);
        assertArrayEquals(range(72, 95), slice(plan, 24, 47));
        assertArrayEquals(range(24, 47), slice(plan, 48, 71));
        assertArrayEquals(range(0, 23), slice(plan, 72, 95));
        assertEquals(48, plan[96]);
    }

    @Test
    void LS_6_epycRingInterleavesEquidistantNodesByCpuId() {
        // Seed 000's "After" hints: ring 1 from node 14 is 96-111, 120-127, 224-239, 248-255 in that order.
        int[] plan = LocalSpread.localSpreadCpus(V6_12, SourceMachines.epyc7763(), 14, 64);
        int[] ring1 = IntStream.concat(IntStream.concat(IntStream.rangeClosed(96, 111), IntStream.rangeClosed(120, 127)),
                IntStream.concat(IntStream.rangeClosed(224, 239), IntStream.rangeClosed(248, 255))).toArray();
        assertArrayEquals(ring1, slice(plan, 16, 63));
    }

    @Test
    void LS_10_epycProposalGoesNodeByNode() {
        // Derived by hand: 112-119, 240-247, then node 12 (96-103, 224-231), node 13, node 15.
        int[] plan = LocalSpreadNearestNode.localSpreadNearestNodeCpus(V6_12, SourceMachines.epyc7763(), 14, 64);
        assertArrayEquals(range(96, 103), slice(plan, 16, 23));
        assertArrayEquals(range(224, 231), slice(plan, 24, 31));
        assertArrayEquals(range(104, 111), slice(plan, 32, 39));
        assertArrayEquals(range(248, 255), slice(plan, 56, 63));
    }

    static Topology withOffline() {
        // Two nodes, CPU 1 and CPU 5 offline: 6 online CPUs.
        return TopologyBuilder.machine("2node-offline").node(0, "0-3").node(1, "4-7").online("0,2-4,6-7")
                .distances(new int[]{10, 20}, new int[]{20, 10}).build();
    }

    @Test
    void LS_2_wrapUsesTheOnlineCount() {
        Topology m = withOffline();
        for (KernelRelease k : new KernelRelease[]{V4_19, V6_1, V6_12})
            for (int node : new int[]{-1, 0, 1})
                for (int i = 0; i < 6; i++)
                    assertEquals(LocalSpread.localSpread(k, m, i, node), LocalSpread.localSpread(k, m, i + 6, node), k + " node " + node);
        assertEquals(4, LocalSpread.localSpread(V6_12, m, 6, 1));
        assertEquals(0, LocalSpread.localSpread(V6_12, m, 6, 0));
    }

    @Test
    void LS_1_offlineCpusAreNeverReturned() {
        assertArrayEquals(new int[]{4, 6, 7, 0, 2, 3}, LocalSpread.localSpreadCpus(V6_1, withOffline(), 1, 6));
        assertArrayEquals(new int[]{4, 6, 7, 0, 2, 3}, LocalSpread.localSpreadCpus(V6_12, withOffline(), 1, 6));
    }

    @Test
    void LS_11_housekeepingReleasesReturnOfflineCpusAndWrapByPossible() {
        assertArrayEquals(new int[]{4, 5, 6, 7, 0, 1, 2, 3, 4}, LocalSpread.localSpreadCpus(V5_9, withOffline(), 1, 9));
    }

    /** 2452483d9546 reverted the housekeeping spread in 5.11-rc7 and in stable 5.10.17: 5.10 as it stands is classic. */
    @Test
    void LS_11_fiveTenHasTheRevert() {
        assertArrayEquals(new int[]{4, 6, 7, 0, 2, 3, 4}, LocalSpread.localSpreadCpus(V5_10, withOffline(), 1, 7));
    }

    @Test
    void LS_8_numaNoNodeGivesTheIthOnlineCpu() {
        for (KernelRelease k : new KernelRelease[]{V4_19, V6_1, V6_6, V6_12})
            assertArrayEquals(new int[]{0, 2, 3, 4, 6, 7, 0}, LocalSpread.localSpreadCpus(k, withOffline(), Numa.NUMA_NO_NODE, 7), k.toString());
    }

    /** Node 2 has no CPUs; it is nearer to node 1 (15) than to node 0 (25), as kernel run d. */
    static Topology cpulessNode() {
        return TopologyBuilder.machine("cpuless").node(0, "0-3").node(1, "4-7").node(2, "")
                .distances(new int[]{10, 20, 25}, new int[]{20, 10, 15}, new int[]{25, 15, 10}).build();
    }

    @Test
    void LS_9_cpulessNodePerRelease() {
        Topology m = cpulessNode();
        assertArrayEquals(new int[]{0, 1, 2, 3, 4, 5, 6, 7}, LocalSpread.localSpreadCpus(V6_1, m, 2, 8));
        KernelBug bug = assertThrows(KernelBug.class, () -> LocalSpread.localSpread(V6_4, m, 0, 2));
        assertEquals("oops", bug.kind());
        // 617f2c38cb5c (6.7) reached stable 6.5.12 and 6.6.y with numa_nearest_node().
        assertArrayEquals(new int[]{4, 5, 6, 7, 0, 1, 2, 3}, LocalSpread.localSpreadCpus(V6_5, m, 2, 8));
        assertArrayEquals(new int[]{4, 5, 6, 7, 0, 1, 2, 3}, LocalSpread.localSpreadCpus(V6_6, m, 2, 8));
        assertArrayEquals(new int[]{4, 5, 6, 7, 0, 1, 2, 3}, LocalSpread.localSpreadCpus(V6_7, m, 2, 8));
    }

    @Test
    void LS_9_cpulessNodeTiesGoToTheLowestNode() {
        Topology m = TopologyBuilder.machine("tie").node(0, "0-1").node(1, "2-3").node(2, "")
                .distances(new int[]{10, 20, 15}, new int[]{20, 10, 15}, new int[]{15, 15, 10}).build();
        assertArrayEquals(new int[]{0, 1, 2, 3}, LocalSpread.localSpreadCpus(V6_12, m, 2, 4));
    }

    @Test
    void LS_9_distancesAreMeasuredFromTheSubstituteNode() {
        // Node 3 is CPU-less, nearest node 0. From node 3, node 2 (12) is nearer than node 1 (30),
        // but from node 0 node 1 (15) is nearer than node 2 (40): node 1 comes second.
        Topology m = TopologyBuilder.machine("substitute").node(0, "0").node(1, "1").node(2, "2").node(3, "")
                .distances(new int[]{10, 15, 40, 11}, new int[]{15, 10, 40, 30}, new int[]{40, 40, 10, 12},
                        new int[]{11, 30, 12, 10}).build();
        assertArrayEquals(new int[]{0, 1, 2}, LocalSpread.localSpreadCpus(V6_12, m, 3, 3));
    }

    @Test
    void LS_12_planEqualsPerIndexAnswers() {
        Topology[] machines = {SourceMachines.kunpeng920(), withOffline(), cpulessNode()};
        KernelRelease[] releases = {V4_19, V5_10, V6_1, V6_7, V6_12};
        for (Topology m : machines)
            for (KernelRelease k : releases)
                for (int node : m.nodeIds()) {
                    int count = 2 * m.possible().size() + 1;
                    int[] plan = LocalSpread.localSpreadCpus(k, m, node, count);
                    int[] proposal = LocalSpreadNearestNode.localSpreadNearestNodeCpus(k, m, node, count);
                    for (int i = 0; i < count; i++) {
                        assertEquals(plan[i], LocalSpread.localSpread(k, m, i, node));
                        assertEquals(proposal[i], LocalSpreadNearestNode.localSpreadNearestNode(k, m, i, node));
                    }
                }
    }

    @Test
    void LS_invalidDistanceGivesNrCpuIdsFrom6_3() {
        Topology m = TopologyBuilder.machine("bad").expect("slit-invalid").node(0, "0-1").node(1, "2-3")
                .distances(new int[]{10, 300}, new int[]{300, 10}).build();
        assertEquals(4, LocalSpread.localSpread(V6_12, m, 0, 1));
        assertEquals(2, LocalSpread.localSpread(V6_1, m, 0, 1));
    }

    @Test
    void LS_unmodelledReleasesAndNodesAreRejected() {
        Topology m = withOffline();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LocalSpread.localSpread(KernelRelease.of(7, 4), m, 0, 0));
        assertEquals("kernel 7.4: local-spread is modelled for 4.1..7.3", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LocalSpread.localSpread(KernelRelease.of(3, 19), m, 0, 0));
        e = assertThrows(IllegalArgumentException.class, () -> LocalSpread.localSpread(V6_12, m, 0, 5));
        assertTrue(e.getMessage().startsWith("node 5: 2node-offline has no such node"), e.getMessage());
    }

    @Test
    void LS_10_unmodelledReleasesNodesAndCountsAreRejected() {
        // Found by mutation testing (docs/mutation-testing.md): without these the proposal ran on any
        // release and node, and refused an empty plan.
        Topology m = withOffline();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LocalSpreadNearestNode.localSpreadNearestNodeCpus(KernelRelease.of(7, 4), m, 0, 1));
        assertEquals("kernel 7.4: local-spread-nearest-node is modelled for 4.1..7.3", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LocalSpreadNearestNode.localSpreadNearestNodeCpus(V6_12, m, 5, 1));
        assertTrue(e.getMessage().startsWith("node 5: 2node-offline has no such node"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LocalSpreadNearestNode.localSpreadNearestNodeCpus(V6_12, m, 0, -1));
        assertArrayEquals(new int[0], LocalSpreadNearestNode.localSpreadNearestNodeCpus(V6_12, m, 0, 0));
    }

    @Test
    void LS_3_localCpusComeFirstEvenWithOffline() {
        CpuSet local = withOffline().onlineCpusOf(1);
        int[] plan = LocalSpread.localSpreadCpus(V6_12, withOffline(), 1, local.size());
        for (int c : plan) assertTrue(local.contains(c));
    }
}
