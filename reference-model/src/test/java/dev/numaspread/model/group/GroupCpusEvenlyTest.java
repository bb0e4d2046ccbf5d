package dev.numaspread.model.group;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** group_cpus_evenly on worked examples derived by hand from lib/group_cpus.c and lib/sort.c. */
class GroupCpusEvenlyTest {

    static final KernelRelease V6_1 = KernelRelease.of(6, 1);
    static final KernelRelease V6_12 = KernelRelease.of(6, 12);
    static final KernelRelease V6_16 = KernelRelease.of(6, 16);
    static final KernelRelease V6_17 = KernelRelease.of(6, 17);

    static List<String> groups(KernelRelease k, Topology m, int numgrps) {
        return GroupCpusEvenly.groupCpusEvenly(k, m, numgrps).orElseThrow().stream().map(CpuSet::toList).toList();
    }

    static Topology fourNodes32() {
        return TopologyBuilder.machine("4x32").node(0, "0-31").node(1, "32-63").node(2, "64-95").node(3, "96-127").build();
    }

    static Topology twoNodesSmt2() {
        return TopologyBuilder.machine("2x4-smt2").node(0, "0-3").node(1, "4-7").siblings("0-1", "2-3", "4-5", "6-7").build();
    }

    /** The 2019 report: 16 SAS vectors on 4 x 32 CPUs went irq0 -> 32-39 ... irq11 -> 120-127, irq12 -> 0-7. */
    @Test
    void GRP_10_fourEqualNodesPre2024StartAtNode1() {
        assertEquals(List.of("32-39", "40-47", "48-55", "56-63", "64-71", "72-79", "80-87", "88-95",
                "96-103", "104-111", "112-119", "120-127", "0-7", "8-15", "16-23", "24-31"), groups(V6_1, fourNodes32(), 16));
    }

    /** The double-pop heapsort (6.9+) puts four equal nodes in the order 1, 3, 2, 0 (derived by hand from lib/sort.c). */
    @Test
    void GRP_10_fourEqualNodes2024Order1320() {
        assertEquals(List.of("32-39", "40-47", "48-55", "56-63", "96-103", "104-111", "112-119", "120-127",
                "64-71", "72-79", "80-87", "88-95", "0-7", "8-15", "16-23", "24-31"), groups(V6_12, fourNodes32(), 16));
    }

    @Test
    void GRP_5_twoNodesSmt2FourGroupsKeepCores() {
        for (KernelRelease k : List.of(V6_1, V6_12))
            assertEquals(List.of("4-5", "6-7", "0-1", "2-3"), groups(k, twoNodesSmt2(), 4), "kernel " + k);
    }

    /** 3 groups on 2 x 4: node 1 sorts first and gets max(1, floor(3*4/8)) = 1 group, node 0 the other 2. */
    @Test
    void GRP_3_twoNodesSmt2ThreeGroups() {
        assertEquals(List.of("4-7", "0-1", "2-3"), groups(V6_12, twoNodesSmt2(), 3));
    }

    /** Present 0-5 of 0-7: stage 1 gives {4,5} {0,1} {2} {3}; stage 2 starts at group 4 mod 4 = 0. */
    @Test
    void GRP_7_notPresentCpusWrapToGroupZero() {
        Topology m = TopologyBuilder.machine("present-0-5").node(0, "0-3").node(1, "4-7")
                .siblings("0-1", "2-3", "4-5", "6-7").possible("0-7").present("0-5").online("0-5").build();
        var grouping = GroupCpusEvenly.grouping(V6_17, m, 4).orElseThrow();
        assertEquals(List.of("4-6", "0-1,7", "2", "3"), grouping.masks().stream().map(CpuSet::toList).toList());
        assertEquals(4, grouping.nrPresent());
        assertEquals(2, grouping.nrOthers());
        assertEquals(4, grouping.nummasks());
        assertFalse(grouping.warns());
    }

    /** Present 0-5 of 0-7 with 6 groups: stage 1 fills 6 groups with one CPU each... and stage 2 groups 6.. wrap to 0, 1. */
    @Test
    void GRP_7_notPresentCpusStartAfterThePresentGroups() {
        Topology m = TopologyBuilder.machine("present-0-5").node(0, "0-3").node(1, "4-7")
                .possible("0-7").present("0-5").online("0-5").build();
        // Stage 1: node 1 (2 CPUs) gets max(1, 5*2/6)=1... numgrps is clamped to 6: node 1 gets 6*2/6 = 2, node 0 gets 4.
        // Stage 2 starts at group 6 mod 6 = 0: node 1's CPUs 6, 7 get 2 groups: 0 and 1.
        assertEquals(List.of("4,6", "5,7", "0", "1", "2", "3"), groups(V6_12, m, 6));
    }

    @Test
    void GRP_8_threeNodesTwoGroupsDealWholeNodes() {
        Topology m = TopologyBuilder.machine("3x2").node(0, "0-1").node(1, "2-3").node(2, "4-5").build();
        assertEquals(List.of("0-1,4-5", "2-3"), groups(V6_12, m, 2));
    }

    @Test
    void GRP_8_sixteenEqualNodesSixteenGroupsByNodeId() {
        TopologyBuilder b = TopologyBuilder.machine("16-nodes");
        for (int n = 0; n < 16; n++) b.node(n, CpuSet.range(4 * n, 4 * n + 3));
        List<String> g = groups(V6_12, b.build(), 16);
        for (int n = 0; n < 16; n++) assertEquals(CpuSet.range(4 * n, 4 * n + 3).toList(), g.get(n), "group " + n);
    }

    @Test
    void GRP_6_moreGroupsThanCpusLeaveTheLastEmpty() {
        var grouping = GroupCpusEvenly.grouping(V6_12, twoNodesSmt2(), 10).orElseThrow();
        assertEquals(List.of("4", "5", "6", "7", "0", "1", "2", "3", "", ""),
                grouping.masks().stream().map(CpuSet::toList).toList());
        assertEquals(8, grouping.nummasks());
        assertTrue(grouping.warns());
    }

    @Test
    void GRP_9_zeroGroupsCrashWithoutTheFix() {
        KernelBug bug = assertThrows(KernelBug.class,
                () -> GroupCpusEvenly.groupCpusEvenly(KernelRelease.of(6, 14), twoNodesSmt2(), 0));
        assertTrue(bug.getMessage().contains("df831e977394"), bug.getMessage());
        assertThrows(KernelBug.class, () -> GroupCpusEvenly.groupCpusEvenly(KernelRelease.of(6, 1), twoNodesSmt2(), 0));
        assertThrows(KernelBug.class, () -> GroupCpusEvenly.groupCpusEvenly(KernelRelease.of(6, 11), twoNodesSmt2(), 0));
    }

    /** df831e977394 reached the stable series 6.6.y, 6.12.y (6.12.36) and 6.15.y (stable queues of 2 July 2025). */
    @Test
    void GRP_9_zeroGroupsAreNullInTheStableSeriesWithTheFix() {
        for (int[] k : new int[][]{{6, 6}, {6, 12}, {6, 15}})
            assertTrue(GroupCpusEvenly.groupCpusEvenly(KernelRelease.of(k[0], k[1]), twoNodesSmt2(), 0).isEmpty(), k[0] + "." + k[1]);
    }

    @Test
    void GRP_9_zeroGroupsAreNullFrom616() {
        assertEquals(Optional.empty(), GroupCpusEvenly.groupCpusEvenly(V6_16, twoNodesSmt2(), 0));
    }

    /** df831e977394 went to the 6.12.y stable series; the 6.12 profile is 6.12.117. */
    @Test
    void GRP_9_zeroGroupsAreNullIn612Stable() {
        assertEquals(Optional.empty(), GroupCpusEvenly.groupCpusEvenly(V6_12, twoNodesSmt2(), 0));
    }

    /** A CPU-less node with the highest id takes part in the sort and changes the tie order (kernel run d). */
    @Test
    void GRP_10_cpulessNodeShiftsTheTieOrder() {
        Topology m = TopologyBuilder.machine("d").node(0, "0-3").node(1, "4-7").node(2, "").build();
        // Entries [0:4, 1:4, 2:UINT_MAX]; UINT_MAX sorts first as -1. Kernel run d printed node 1 first for 3 groups.
        assertEquals(List.of("4-7", "0-1", "2-3"), groups(V6_1, m, 3));
    }

    @Test
    void GRP_1_releasesWithoutTheRoutineAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> GroupCpusEvenly.groupCpusEvenly(KernelRelease.of(6, 2), twoNodesSmt2(), 2));
        assertThrows(IllegalArgumentException.class, () -> GroupCpusEvenly.groupCpusEvenly(KernelRelease.of(5, 15), twoNodesSmt2(), 2));
        assertThrows(IllegalArgumentException.class, () -> GroupCpusEvenly.groupCpusEvenly(V6_12, twoNodesSmt2(), -1));
    }

    // Found by mutation testing (docs/mutation-testing.md): stage 2 after a stage 1 that left groups
    // unused, and nodes whose order the CPU-count sort decides, had no case.

    @Test
    void GRP_7_nonPresentCpusStartAfterTheGroupsThePresentOnesFilled() {
        // Possible 0-3, present 0-1, one node. 3 groups: stage 1 fills two ({0}, {1}), so stage 2
        // starts at group 2: CPU 2 -> group 2, CPU 3 wraps to group 0.
        Topology m = TopologyBuilder.machine("4-possible-2-present").node(0, "0-3").possible("0-3").present("0-1").online("0-1").build();
        assertEquals(List.of("0,3", "1", "2"), groups(V6_12, m, 3));
        // 4 groups: one CPU each; exactly as many possible CPUs as groups is not the WARN case.
        assertEquals(List.of("0", "1", "2", "3"), groups(V6_12, m, 4));
        assertFalse(GroupCpusEvenly.grouping(V6_12, m, 4).orElseThrow().warns());
    }

    @Test
    void GRP_10_nodesAreSharedOutFewestCpusFirst() {
        // Node 0 has 2 CPUs, node 1 has 6; 4 groups over 8 CPUs. Fewest first: node 0 gets
        // max(1, 4*2/8) = 1 group, node 1 the other 3 (3*6/6); the groups follow that order.
        // (Taken the other way round, node 1 would get 4*6/8 = 3 groups first: 2-3, 4-5, 6-7, 0-1.)
        Topology m = TopologyBuilder.machine("2-plus-6").node(0, "0-1").node(1, "2-7").build();
        for (KernelRelease k : new KernelRelease[]{V6_1, V6_12})
            assertEquals(List.of("0-1", "2-3", "4-5", "6-7"), groups(k, m, 4), "Linux " + k);
    }
}
