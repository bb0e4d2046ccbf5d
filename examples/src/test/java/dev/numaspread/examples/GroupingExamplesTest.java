package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * group_cpus_evenly, the heapsort tie order and blk-mq maps on the sources' examples: the 2019
 * LKML report (4 nodes x 32 CPUs, 16 vectors), seed 002's 2 x 80 CPU arm64 machine, and worked
 * examples derived by hand from lib/group_cpus.c and both lib/sort.c heapsorts.
 */
class GroupingExamplesTest {
    private static final KernelRelease LINUX_6_1 = KernelRelease.of(6, 1);
    private static final KernelRelease LINUX_6_12 = KernelRelease.of(6, 12);
    private static final KernelRelease LINUX_7_3 = KernelRelease.of(7, 3);
    private final KernelStyleSpread example = new KernelStyleSpread();

    /** {@code nodes} nodes of {@code perNode} CPUs, distance 10/20, optional SMT2 adjacent siblings. */
    static Topology machine(int nodes, int perNode, boolean smt2, String present) {
        StringBuilder s = new StringBuilder();
        int n = nodes * perNode;
        s.append("possible 0-").append(n - 1).append('\n');
        if (present != null) s.append("present ").append(present).append('\n').append("online ").append(present).append('\n');
        if (smt2) {
            s.append("siblings");
            for (int c = 0; c < n; c += 2) s.append(' ').append(c).append(',').append(c + 1);
            s.append('\n');
        }
        s.append("available: ").append(nodes).append(" nodes\n");
        for (int k = 0; k < nodes; k++)
            s.append("node ").append(k).append(" cpus: ").append(k * perNode).append('-').append((k + 1) * perNode - 1).append('\n');
        s.append("node distances:\nnode");
        for (int k = 0; k < nodes; k++) s.append(' ').append(k);
        s.append('\n');
        for (int i = 0; i < nodes; i++) {
            s.append(i).append(':');
            for (int j = 0; j < nodes; j++) s.append(' ').append(i == j ? 10 : 20);
            s.append('\n');
        }
        return TopoText.parse(s.toString(), nodes + "x" + perNode + ".topo");
    }

    private static List<CpuSet> groups(String... lists) {
        List<CpuSet> out = new ArrayList<>();
        for (String l : lists) out.add(CpuSet.parseList(l));
        return out;
    }

    // ------------------------------------------------------------------ lib/sort.c tie order

    private static int[] sortedIds(int m, boolean v2024) {
        LibSort.NodeGroups[] a = new LibSort.NodeGroups[m];
        for (int i = 0; i < m; i++) a[i] = new LibSort.NodeGroups(i, 32);
        if (v2024) LibSort.sort2024(a);
        else LibSort.sortPre2024(a);
        return Arrays.stream(a).mapToInt(g -> g.id).toArray();
    }

    /** By hand from lib/sort.c: ties come out as [1,0], [1,2,0], [1,2,3,0] (the 2019 report), [1,2,...,7,0] before 2024. */
    @Test
    void heapsortPre2024_tieOrder() {
        assertArrayEquals(new int[] {1, 0}, sortedIds(2, false));
        assertArrayEquals(new int[] {1, 2, 0}, sortedIds(3, false));
        assertArrayEquals(new int[] {1, 2, 3, 0}, sortedIds(4, false));
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 7, 0}, sortedIds(8, false));
    }

    /** Derived by hand from lib/sort.c after 0e02ca29a563; the 6.12 kernel runs b, c and c2 confirm 4 and 8 nodes. */
    @Test
    void heapsort2024_tieOrder() {
        assertArrayEquals(new int[] {1, 0}, sortedIds(2, true));
        assertArrayEquals(new int[] {2, 1, 0}, sortedIds(3, true));
        assertArrayEquals(new int[] {1, 3, 2, 0}, sortedIds(4, true));
        assertArrayEquals(new int[] {1, 3, 4, 5, 6, 7, 2, 0}, sortedIds(8, true));
    }

    /** GRP-15: ten equal clusters come out 1, 3, 4, 5, 6, 7, 8, 9, 2, 0 (kernel run cl1). */
    @Test
    void GRP_15_heapsort2024_tenEqualClusters() {
        assertArrayEquals(new int[] {1, 3, 4, 5, 6, 7, 8, 9, 2, 0}, sortedIds(10, true));
    }

    /** Both variants sort; UINT_MAX (CPU-less nodes) compares as -1 and goes first. */
    @Test
    void heapsorts_sortAscendingWithUintMaxFirst() {
        Random random = new Random(20240101);
        for (int round = 0; round < 200; round++) {
            int m = 1 + random.nextInt(12);
            for (boolean v2024 : new boolean[] {false, true}) {
                LibSort.NodeGroups[] a = new LibSort.NodeGroups[m];
                for (int i = 0; i < m; i++) a[i] = new LibSort.NodeGroups(i, random.nextInt(4) == 0 ? -1 : 1 + random.nextInt(5));
                if (v2024) LibSort.sort2024(a);
                else LibSort.sortPre2024(a);
                for (int i = 1; i < m; i++)
                    assertTrue(a[i - 1].count - a[i].count <= 0, "sorted at " + i + " (2024: " + v2024 + ")");
            }
        }
    }

    // ------------------------------------------------------------------ group_cpus_evenly

    /** The 2019 report: irq0..11 on 32-39 .. 120-127, irq12..15 on 0-7 .. 24-31 (node order 1, 2, 3, 0). */
    @Test
    void groupCpus_fourNodesOf32_16groups_asReportedIn2019() {
        List<CpuSet> expected = new ArrayList<>();
        for (int node : new int[] {1, 2, 3, 0})
            for (int g = 0; g < 4; g++) expected.add(CpuSet.range(32 * node + 8 * g, 32 * node + 8 * g + 7));
        assertEquals(Optional.of(expected), example.groupCpusEvenly(LINUX_6_1, machine(4, 32, false, null), 16));
    }

    /** Derived by hand: node order 1, 3, 2, 0 with the double-pop sort (6.9+). */
    @Test
    void groupCpus_fourNodesOf32_16groups_2024Sort() {
        List<CpuSet> expected = new ArrayList<>();
        for (int node : new int[] {1, 3, 2, 0})
            for (int g = 0; g < 4; g++) expected.add(CpuSet.range(32 * node + 8 * g, 32 * node + 8 * g + 7));
        assertEquals(Optional.of(expected), example.groupCpusEvenly(LINUX_6_12, machine(4, 32, false, null), 16));
    }

    /** Derived by hand: 2 nodes x 4 CPUs SMT2, 4 and 3 groups; both sorts. */
    @Test
    void groupCpus_twoNodesSmt2() {
        Topology t = machine(2, 4, true, null);
        for (KernelRelease kernel : List.of(LINUX_6_1, LINUX_6_12)) {
            assertEquals(Optional.of(groups("4-5", "6-7", "0-1", "2-3")), example.groupCpusEvenly(kernel, t, 4));
            assertEquals(Optional.of(groups("4-7", "0-1", "2-3")), example.groupCpusEvenly(kernel, t, 3));
        }
    }

    /** Derived by hand: present 0-5 of possible 0-7, 4 groups: stage 2 wraps to group 0. */
    @Test
    void groupCpus_notPresentCpusWrapToGroup0() {
        Topology t = machine(2, 4, true, "0-5");
        assertEquals(Optional.of(groups("4-6", "0-1,7", "2", "3")), example.groupCpusEvenly(LINUX_6_12, t, 4));
    }

    /** __group_cpus_evenly() of 6.12: 3 nodes and 2 groups: whole nodes round-robin, g0 = node 0 and node 2. */
    @Test
    void groupCpus_fewerGroupsThanNodes() {
        assertEquals(Optional.of(groups("0-3,8-11", "4-7")), example.groupCpusEvenly(LINUX_6_12, machine(3, 4, false, null), 2));
    }

    /** df831e977394: NULL for 0 groups in 6.12.y; 6.1 lacks the fix and writes through ZERO_SIZE_PTR. */
    @Test
    void groupCpus_zeroGroups() {
        Topology t = machine(2, 4, true, null);
        assertEquals(Optional.empty(), example.groupCpusEvenly(LINUX_6_12, t, 0));
        assertThrows(KernelBug.class, () -> example.groupCpusEvenly(LINUX_6_1, t, 0));
    }

    /** 40 CPUs on one node, no SMT, clusters of 4 ({@code cl1}), all online unless {@code offline} says otherwise. */
    private static Topology cl1(String online) {
        StringBuilder s = new StringBuilder("possible 0-39\npresent 0-39\nonline ").append(online).append('\n');
        for (int c = 0; c < 40; c += 4) s.append("cluster cpus ").append(c).append('-').append(c + 3).append('\n');
        s.append("available: 1 nodes (0)\nnode 0 cpus: ").append(online).append("\n");
        if (!online.equals("0-39")) s.append("node-of ").append(CpuSet.range(0, 39).andNot(CpuSet.parseList(online)).toList()).append(" 0\n");
        s.append("node distances:\nnode 0\n0: 10\n");
        return TopoText.parse(s.toString(), "cl1.topo");
    }

    /** GRP-11, GRP-12, GRP-15: the commit's machine, 11 groups; the split cluster 0-3 comes last. */
    @Test
    void GRP_11_cl1_elevenGroupsStayInsideClusters() {
        assertEquals(Optional.of(groups("4-7", "12-15", "16-19", "20-23", "24-27", "28-31", "32-35", "36-39", "8-11", "0-1", "2-3")),
                example.groupCpusEvenly(LINUX_7_3, cl1("0-39"), 11));
        assertEquals(Optional.of(groups("0-3", "4-7", "8-11", "12-15", "16-19", "20-23", "24-27", "28-30", "31-33", "34-36", "37-39")),
                example.groupCpusEvenly(LINUX_6_12, cl1("0-39"), 11), "before 7.0 clusters play no part");
    }

    /** GRP-13: CPU 5 offline has an empty cluster mask, so the node is dealt as before 7.0. */
    @Test
    void GRP_13_cl1_anOfflineCpuTurnsTheClusterStepOff() {
        assertEquals(Optional.of(groups("0-3", "4-7", "8-11", "12-15", "16-19", "20-23", "24-27", "28-30", "31-33", "34-36", "37-39")),
                example.groupCpusEvenly(LINUX_7_3, cl1("0-4,6-39"), 11));
    }

    /** GRP-14: nummasks is min(numgrps, possible CPUs); NULL for 0 groups. */
    @Test
    void GRP_14_nummasks() {
        Topology t = machine(2, 4, true, "0-5");
        for (int numgrps = 1; numgrps <= 10; numgrps++)
            assertEquals(java.util.OptionalInt.of(Math.min(numgrps, 8)), example.groupCpusEvenlyNummasks(LINUX_7_3, t, numgrps), numgrps + " groups");
        assertEquals(java.util.OptionalInt.empty(), example.groupCpusEvenlyNummasks(LINUX_7_3, t, 0));
    }

    // ------------------------------------------------------------------ blk-mq

    /** MQ-7: one node, CPUs 0-3, 6 queues: 6.16 maps 0 1 2 3, 6.17 maps 4 5 2 3. */
    @Test
    void MQ_7_moreQueuesThanMasks() {
        KernelView k = new KernelView(machine(1, 4, false, null));
        assertArrayEquals(new int[] {0, 1, 2, 3}, BlkMq.blkMqMapQueues(KernelRelease.of(6, 16), k, 6, 0));
        assertArrayEquals(new int[] {4, 5, 2, 3}, BlkMq.blkMqMapQueues(KernelRelease.of(6, 17), k, 6, 0));
    }

    /** MQ-8: kernel run a-2node-2s2c2t, 3 queues: 6.12 maps 1 1 2 2 0 0 0 0, 7.3.4 maps 2 2 1 1 0 0 0 0. */
    @Test
    void MQ_8_eachCoreItsOwnClusterRenumbersTheQueues() {
        Topology t = machine(2, 4, true, null);
        assertArrayEquals(new int[] {1, 1, 2, 2, 0, 0, 0, 0}, example.blkMqMapQueues(LINUX_6_12, t, 3, 0));
        assertArrayEquals(new int[] {2, 2, 1, 1, 0, 0, 0, 0}, example.blkMqMapQueues(LINUX_7_3, t, 3, 0));
    }

    /** Seed 002 (issue 6): 2 nodes x 80 CPUs, 2 submit queues: queue 0 = node 0, queue 1 = node 1 in 6.12; the legacy map alternates. */
    @Test
    void blkMq_seed002_twoQueuesOnTwoNodesOf80() {
        Topology t = machine(2, 80, false, null);
        int[] grouped = example.blkMqMapQueues(LINUX_6_12, t, 2, 0);
        int[] legacy = example.blkMqMapQueues(LINUX_6_1, t, 2, 0);
        for (int cpu = 0; cpu < 160; cpu++) {
            assertEquals(cpu < 80 ? 0 : 1, grouped[cpu], "6.12 cpu " + cpu);
            assertEquals(cpu % 2, legacy[cpu], "6.1 cpu " + cpu);
        }
    }

    /** queue_offset shifts every queue; ids that are not possible stay -1 (SPI convention). */
    @Test
    void blkMq_queueOffset() {
        Topology t = machine(2, 80, false, null);
        int[] map = example.blkMqMapQueues(LINUX_6_12, t, 2, 5);
        assertEquals(5, map[0]);
        assertEquals(6, map[159]);
        assertEquals(160, map.length);
        assertArrayEquals(new int[] {5, 5, 5, 5, 5, 5, 5, 5}, example.blkMqMapQueues(LINUX_6_12, machine(2, 4, true, null), 0, 5),
                "no groups (NULL): every possible CPU goes to queue_offset");
    }

    // ------------------------------------------------------------------ irq_create_affinity_masks

    private static List<dev.numaspread.model.group.IrqAffinity.AffinityDesc> descs(boolean[] managed, String... lists) {
        List<dev.numaspread.model.group.IrqAffinity.AffinityDesc> out = new ArrayList<>();
        for (int v = 0; v < lists.length; v++)
            out.add(new dev.numaspread.model.group.IrqAffinity.AffinityDesc(lists[v].isEmpty() ? CpuSet.EMPTY : CpuSet.parseList(lists[v]), managed[v]));
        return out;
    }

    /** MQ-9: 2 x 4 SMT2, 6.12, nvecs 5, pre 1, post 1: 0-7 (unmanaged), 4-7, 0-1, 2-3, 0-7 (unmanaged). */
    @Test
    void MQ_9_preAndPostVectorsKeepTheDefaultAffinity() {
        KernelView k = new KernelView(machine(2, 4, true, null));
        assertEquals(Optional.of(descs(new boolean[] {false, true, true, true, false}, "0-7", "4-7", "0-1", "2-3", "0-7")),
                IrqAffinity.irqCreateAffinityMasks(LINUX_6_12, k, 5, 1, 1, List.of()));
        assertEquals(Optional.empty(), IrqAffinity.irqCreateAffinityMasks(LINUX_6_12, k, 2, 1, 1, List.of()), "nothing to spread");
    }

    /** MQ-10: 2 x 4 SMT2, sets of 10 and 2: 6.12 advances by set size, 6.17 by nummasks. */
    @Test
    void MQ_10_interruptSetsAdvanceBySizeThenByNummasks() {
        KernelView k = new KernelView(machine(2, 4, true, null));
        boolean[] all = new boolean[12];
        java.util.Arrays.fill(all, true);
        assertEquals(Optional.of(descs(all, "4", "5", "6", "7", "0", "1", "2", "3", "", "", "0-3", "4-7")),
                IrqAffinity.irqCreateAffinityMasks(LINUX_6_12, k, 12, 0, 0, List.of(10, 2)));
        assertEquals(Optional.of(descs(all, "4", "5", "6", "7", "0", "1", "2", "3", "0-3", "4-7", "0-7", "0-7")),
                IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(6, 17), k, 12, 0, 0, List.of(10, 2)));
    }
}
