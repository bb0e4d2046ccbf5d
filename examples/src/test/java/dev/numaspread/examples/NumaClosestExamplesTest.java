package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaClosest.Call;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** sched_numa_find_closest on spec/numa-hops.md's examples: lowest id up to 6.15 (HOP-9), round robin on the calling CPU from 6.16 (HOP-10). */
class NumaClosestExamplesTest {
    private final KernelStyleSpread example = new KernelStyleSpread();

    private static Topology cl2Offline() throws IOException {
        return TopoText.read(KernelRunsTest.RUNS.resolve("cl2-2node-2cl-2c-2t-linux-7.3-offline.topo"));
    }

    /** HOP-10's example: from state 7 the node's level wraps after 7 to 0 and goes up; from state 0 the farther level gives 8, then 9. */
    @Test
    void HOP_10_roundRobinOnTheCallingCpu() throws IOException {
        Topology t = cl2Offline();
        CpuSet online = CpuSet.parseList("0-2,4-15");
        List<Call> calls = List.of(new Call(online, 0), new Call(online, 1), new Call(online, 2), new Call(online, 4));
        assertArrayEquals(new int[] {0, 1, 2, 4}, example.numaClosestCalls(KernelRelease.of(7, 3), t, 0, 7, calls));
        CpuSet node1 = CpuSet.parseList("8-15");
        assertArrayEquals(new int[] {8, 9}, example.numaClosestCalls(KernelRelease.of(7, 3), t, 0, 0,
                List.of(new Call(node1, 0), new Call(node1, 1))));
    }

    /** HOP-9: up to 6.15 the same calls both give 8, whatever came before. */
    @Test
    void HOP_9_lowestIdUpTo6_15() throws IOException {
        Topology t = cl2Offline();
        CpuSet node1 = CpuSet.parseList("8-15");
        assertArrayEquals(new int[] {8, 8}, example.numaClosestCalls(KernelRelease.of(6, 12), t, 0, 0,
                List.of(new Call(node1, 0), new Call(node1, 1))));
    }

    /** HOP-10: "none" leaves the state unchanged, and a single call is made from state 0, so CPU 0 is skipped. */
    @Test
    void HOP_10_noneKeepsTheStateAndState0SkipsCpu0() throws IOException {
        Topology t = cl2Offline();
        CpuSet node0 = CpuSet.parseList("0-2,4-7");
        int[] answers = example.numaClosestCalls(KernelRelease.of(7, 3), t, 0, 5,
                List.of(new Call(CpuSet.parseList("3"), 0), new Call(node0, 0)));
        assertEquals(6, answers[1], "after none the state is still 5");
        assertEquals(1, example.numaClosest(KernelRelease.of(7, 3), t, node0, 0));
    }
}
