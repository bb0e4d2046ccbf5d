package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Levels, hop masks, closest, nth and nearest node per release; values derived by hand from
 * kernel/sched/topology.c on the seeds' tables.
 */
class NumaTest {

    static final KernelRelease V5_11 = KernelRelease.of(5, 11), V5_12 = KernelRelease.of(5, 12), V5_17 = KernelRelease.of(5, 17),
            V5_18 = KernelRelease.of(5, 18), V6_6 = KernelRelease.of(6, 6), V6_7 = KernelRelease.of(6, 7),
            V6_11 = KernelRelease.of(6, 11), V6_12 = KernelRelease.of(6, 12), V6_16 = KernelRelease.of(6, 16), V6_17 = KernelRelease.of(6, 17);

    static Topology kunpeng() {
        return TopologyBuilder.machine("kunpeng920-4node")
                .node(0, "0-23").node(1, "24-47").node(2, "48-71").node(3, "72-95")
                .distances(new int[]{10, 16, 32, 33}, new int[]{16, 10, 25, 32},
                        new int[]{32, 25, 10, 16}, new int[]{33, 32, 16, 10}).build();
    }

    static Topology cpuless() {
        return TopologyBuilder.machine("cpuless").node(0, "0-3").node(1, "4-7").node(2, "")
                .distances(new int[]{10, 20, 25}, new int[]{20, 10, 15}, new int[]{25, 15, 10}).build();
    }

    @Test
    void LVL_1_kunpengLevelsAreEveryDistinctDistance() {
        assertArrayEquals(new int[]{10, 16, 25, 32, 33}, NumaLevels.of(V5_12, kunpeng()).distances());
    }

    @Test
    void LVL_2_rowZeroOnlyBefore5_12() {
        assertArrayEquals(new int[]{10, 16, 32, 33}, NumaLevels.of(V5_11, kunpeng()).distances());
        // Node 2's 25 ring merges into 32 (row 0 has no 25; fixed by 620a6dc40754).
        assertEquals(List.of("48-71", "48-95", "0-95", "0-95"),
                NumaLevels.of(V5_11, kunpeng()).masksOf(2).stream().map(CpuSet::toList).toList());
    }

    @Test
    void LVL_3_cpulessNodesCountBefore5_18() {
        assertArrayEquals(new int[]{10, 15, 20, 25}, NumaLevels.of(V5_17, cpuless()).distances());
        assertArrayEquals(new int[]{10, 20}, NumaLevels.of(V5_18, cpuless()).distances());
    }

    @Test
    void LVL_4_distanceOutOfRangeBuildsNoLevels() {
        Topology m = TopologyBuilder.machine("bad").expect("slit-invalid").node(0, "0").node(1, "1").distances(new int[]{10, 256}, new int[]{256, 10}).build();
        assertEquals(0, NumaLevels.of(V6_12, m).count());
        assertEquals(List.of(), NumaHops.hopMasks(V6_12, m, 0));
        assertEquals(2, NumaClosest.numaClosest(V6_12, m, CpuSet.of(0, 1), 0));
    }

    @Test
    void HOP_4_kunpengHopMasksFromNode2() {
        assertEquals(List.of("48-71", "48-95", "24-95", "0-95", "0-95"),
                NumaHops.hopMasks(V6_12, kunpeng(), 2).stream().map(CpuSet::toList).toList());
    }

    @Test
    void HOP_3_noNodeYieldsOnlineOnceAndCpulessYieldsNothing() {
        Topology m = cpuless().withOnline(CpuSet.parseList("0-6"));
        assertEquals(List.of(CpuSet.parseList("0-6")), NumaHops.hopMasks(V6_12, m, -1));
        assertEquals(List.of(), NumaHops.hopMasks(V6_12, m, 2));
        assertEquals(List.of("4-6", "0-6"), NumaHops.hopMasks(V6_12, m, 1).stream().map(CpuSet::toList).toList());
    }

    @Test
    void HOP_4_asymmetricTableUsesTheSourceRow() {
        Topology m = TopologyBuilder.machine("asym").node(0, "0").node(1, "1").node(2, "2")
                .distances(new int[]{10, 20, 30}, new int[]{30, 10, 20}, new int[]{20, 30, 10}).build();
        assertEquals(List.of("0", "0-1", "0-2"), NumaHops.hopMasks(V6_12, m, 0).stream().map(CpuSet::toList).toList());
        assertEquals(List.of("1", "1-2", "0-2"), NumaHops.hopMasks(V6_12, m, 1).stream().map(CpuSet::toList).toList());
    }

    @Test
    void HOP_5_rowZeroBugTakesCpu0BeforeCpu24() {
        CpuSet notNear = CpuSet.parseList("0-47");
        assertEquals(0, NumaClosest.numaClosest(V5_11, kunpeng(), notNear, 48));
        assertEquals(24, NumaClosest.numaClosest(V5_12, kunpeng(), notNear, 48));
        assertEquals(96, NumaClosest.numaClosest(V5_12, kunpeng(), CpuSet.EMPTY, 48));
    }

    @Test
    void HOP_6_nthFollowsRingsAcrossNodes() {
        CpuSet cpus = CpuSet.parseList("0,30,50,80");
        int[] got = new int[5];
        for (int n = 0; n < 5; n++) got[n] = NumaNth.numaNth(V6_17, kunpeng(), cpus, n, 2);
        assertArrayEquals(new int[]{50, 80, 30, 0, 96}, got);
    }

    @Test
    void HOP_7_notFoundPerRelease() {
        CpuSet cpus = CpuSet.of(1);
        assertEquals(1, NumaNth.numaNth(V6_11, kunpeng(), cpus, 0, 2));
        assertEquals("wild-pointer", assertThrows(KernelBug.class, () -> NumaNth.numaNth(V6_11, kunpeng(), cpus, 1, 2)).kind());
        assertEquals(96, NumaNth.numaNth(V6_12, kunpeng(), cpus, 1, 2));
        assertThrows(KernelBug.class, () -> NumaNth.numaNth(V6_16, kunpeng(), cpus, 1, 2));
        // 5ebf512f3350 reached stable 6.6.y (6.6.105) and 6.12.y (6.12.46).
        assertEquals(96, NumaNth.numaNth(V6_6, kunpeng(), cpus, 1, 2));
        assertEquals(96, NumaNth.numaNth(V6_17, kunpeng(), cpus, 1, 2));
    }

    @Test
    void HOP_7_noNodeAndCpulessPerRelease() {
        CpuSet all = CpuSet.parseList("0-7");
        assertThrows(KernelBug.class, () -> NumaNth.numaNth(V6_6, cpuless(), all, 0, -1));
        // 617f2c38cb5c reached stable 6.5.12 and 6.6.y; 9ecea9ae4d31 (NUMA_NO_NODE) did not.
        assertThrows(KernelBug.class, () -> NumaNth.numaNth(KernelRelease.of(6, 4), cpuless(), all, 0, 2));
        assertEquals(4, NumaNth.numaNth(KernelRelease.of(6, 5), cpuless(), all, 0, 2));
        assertEquals(4, NumaNth.numaNth(V6_6, cpuless(), all, 0, 2));
        assertEquals(3, NumaNth.numaNth(V6_7, cpuless(), all, 3, -1));
        assertEquals(4, NumaNth.numaNth(V6_7, cpuless(), all, 0, 2));
    }

    @Test
    void HOP_8_nearestNodeTiesToTheLowestId() {
        Topology m = TopologyBuilder.machine("tie").node(0, "0").node(1, "").node(2, "2").node(3, "3")
                .distances(new int[]{10, 20, 20, 20}, new int[]{30, 10, 15, 15}, new int[]{20, 15, 10, 20},
                        new int[]{20, 15, 20, 10}).build();
        assertEquals(2, NumaNearestNode.numaNearestNode(V6_7, m, 1));
        assertEquals(3, NumaNearestNode.numaNearestNode(V6_7, m, 3));
        assertEquals(-1, NumaNearestNode.numaNearestNode(V6_7, m, -1));
        assertEquals(2, NumaNearestNode.numaNearestNode(V6_6, m, 1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NumaNearestNode.numaNearestNode(KernelRelease.of(6, 4), m, 1))
                .getMessage().startsWith("kernel 6.4: numa-nearest-node is modelled for 6.5..7.3"));
    }

    // Found by mutation testing (docs/mutation-testing.md): the in-between distances of the row-0
    // levels, the top of the distance range, and each routine's own argument checks had no case.

    @Test
    void LVL_2_aDistanceMissingFromRowZeroFallsInTheNextLevel() {
        NumaLevels levels = NumaLevels.of(V5_11, kunpeng());   // row 0: 10, 16, 32, 33
        assertEquals(0, levels.levelOf(10));
        assertEquals(2, levels.levelOf(25));   // node 1 -> node 2 lies between 16 and 32
        assertEquals(4, levels.levelOf(40));   // above every level: count()
    }

    @Test
    void LVL_4_distance255IsStillInRange() {
        Topology m = TopologyBuilder.machine("far").node(0, "0-1").node(1, "2-3")
                .distances(new int[]{10, 255}, new int[]{255, 10}).build();
        assertArrayEquals(new int[]{10, 255}, NumaLevels.of(V6_12, m).distances());
    }

    @Test
    void HOP_7_releasesBeforeEachRoutineAndUnknownNodesAreRejected() {
        Topology m = kunpeng();
        KernelRelease v6_2 = KernelRelease.of(6, 2);
        assertThrows(IllegalArgumentException.class, () -> NumaHops.hopMasks(v6_2, m, 0));
        assertThrows(IllegalArgumentException.class, () -> NumaNth.numaNth(v6_2, m, m.online(), 0, 0));
        assertThrows(IllegalArgumentException.class, () -> NumaClosest.numaClosest(KernelRelease.of(5, 4), m, m.online(), 0));
        assertThrows(IllegalArgumentException.class, () -> NumaNearestNode.numaNearestNode(KernelRelease.of(6, 4), m, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NumaLevels.of(KernelRelease.of(6, 20), m));
        assertEquals("kernel 6.20: numa-levels is modelled for 4.1..7.3 (6.20 never existed)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NumaLevels.of(KernelRelease.of(7, 4), m));
        assertEquals("kernel 7.4: numa-levels is modelled for 4.1..7.3", e.getMessage());
        for (var call : List.<org.junit.jupiter.api.function.Executable>of(
                () -> NumaHops.hopMasks(V6_12, m, 9),
                () -> NumaNth.numaNth(V6_12, m, m.online(), 0, 9),
                () -> NumaNearestNode.numaNearestNode(V6_12, m, 9))) {
            e = assertThrows(IllegalArgumentException.class, call);
            assertTrue(e.getMessage().startsWith("node 9: kunpeng920-4node has no such node"), e.getMessage());
        }
    }
}
