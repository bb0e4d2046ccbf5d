package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.CpuModel;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The levels {@link NumaLevels#of} keeps for a machine are the levels every release asks for gets
 * built: on machines where each of the four eras builds other levels (row 0 only, CPU-less nodes,
 * the SNC-3 mean), for every modelled release, asked in ascending order, so most answers are kept ones.
 * If this fails: does {@link NumaLevels#build} read a comparison of the release that {@link NumaLevels#eraOf} lacks?
 */
class NumaLevelsMemoTest {

    static List<Topology> machines() {
        return List.of(NumaTest.kunpeng(), NumaTest.cpuless(),
                ArchSchedNodeDistanceTest.snc3(CpuModel.INTEL_GRANITERAPIDS_X, ArchSchedNodeDistanceTest.SNC3));
    }

    @Test
    void LVL_2_keptLevelsAreTheLevelsEveryReleaseBuilds() {
        for (Topology m : machines())
            for (KernelRelease k : KernelRelease.modelledReleases()) {
                NumaLevels kept = NumaLevels.of(k, m), built = NumaLevels.build(k, m);
                String where = m.name() + ", kernel " + k;
                assertArrayEquals(built.distances(), kept.distances(), where);
                for (int node : m.nodeIds()) {
                    assertEquals(built.hasMasks(node), kept.hasMasks(node), where + ", node " + node);
                    assertEquals(built.masksOf(node), kept.masksOf(node), where + ", node " + node);
                    for (int to : m.nodeIds())
                        assertEquals(built.schedDistance(node, to), kept.schedDistance(node, to), where + ", " + node + " to " + to);
                }
            }
    }

    @Test
    void LVL_3_eachEraBuildsOtherLevelsOnTheseMachines() {
        // The machines above tell the eras apart, so the test above would see a memo that mixed them.
        List<String> seen = new ArrayList<>();
        for (KernelRelease k : List.of(KernelRelease.of(5, 11), KernelRelease.of(5, 17), KernelRelease.of(6, 18), KernelRelease.of(6, 19))) {
            StringBuilder s = new StringBuilder();
            for (Topology m : machines()) s.append(java.util.Arrays.toString(NumaLevels.build(k, m).distances()));
            seen.add(s.toString());
        }
        assertEquals(4, seen.stream().distinct().count(), "levels per era: " + seen);
    }

    @Test
    void LVL_1_levelsAreKeptForOneMachineInstanceAndEra() {
        Topology m = NumaTest.kunpeng();
        NumaLevels first = NumaLevels.of(KernelRelease.of(6, 1), m);
        assertSame(first, NumaLevels.of(KernelRelease.of(6, 12), m));
        assertNotSame(first, NumaLevels.of(KernelRelease.of(6, 19), m));
        assertNotSame(first, NumaLevels.of(KernelRelease.of(6, 1), m.withOnline(CpuSet.parseList("0-47"))));
    }
}
