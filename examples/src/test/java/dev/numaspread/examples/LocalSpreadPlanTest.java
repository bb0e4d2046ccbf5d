package dev.numaspread.examples;

import dev.numaspread.conformance.fixtures.KernelRuns;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The plan (one walk over the online CPUs, then indexing) answers what {@code cpumask_local_spread(i,
 * node)} answers index by index, for every kernel-run machine, node and index over two periods.
 */
class LocalSpreadPlanTest {

    @Test
    void plan_equalsThePerIndexAnswer() throws IOException {
        int compared = 0;
        for (KernelRuns.Run run : KernelRunsTest.runs()) {
            for (KernelRelease kernel : List.of(KernelRelease.of(6, 1), KernelRelease.of(6, 12))) {
                KernelView k = new KernelView(run.machine());
                NumaDistance numa = new NumaDistance(k);
                for (int node = -1; node < k.nrNodeIds; node++) {
                    int count = 2 * k.numOnlineCpus() + 1;
                    int[] plan = LocalSpread.localSpreadCpus(kernel, k, numa, node, count);
                    for (int i = 0; i < count; i++, compared++)
                        assertEquals(LocalSpread.cpumaskLocalSpread(kernel, k, numa, i, node), plan[i],
                                run.name() + " on " + kernel + ": cpumask_local_spread(" + i + ", " + node + ")");
                }
            }
        }
        assertEquals(true, compared > 1000, "compared " + compared);
    }

    /** 6.3-6.6 oops on a CPU-less node; 6.7+ takes the nearest node with CPUs (617f2c38cb5c). */
    @Test
    void cpulessNode_oopsBefore6_7() throws IOException {
        Topology t = TopoText.read(KernelRunsTest.RUNS.resolve("d-memory-only-node-linux-6.12-boot.topo"));
        KernelView k = new KernelView(t);
        NumaDistance numa = new NumaDistance(k);
        assertThrows(KernelBug.class, () -> LocalSpread.localSpreadCpus(KernelRelease.of(6, 3), k, numa, 2, 4));
        assertEquals(4, LocalSpread.localSpreadCpus(KernelRelease.of(6, 7), k, numa, 2, 4)[0]);
    }

    @Test
    void unclaimedReleases_areRefused() throws IOException {
        Topology t = TopoText.read(KernelRunsTest.RUNS.resolve("a-2node-2s2c2t-linux-6.12-boot.topo"));
        KernelStyleSpread example = new KernelStyleSpread();
        assertThrows(UnsupportedOperationException.class, () -> example.localSpreadCpus(KernelRelease.of(6, 6), t, 0, 4));
        assertThrows(UnsupportedOperationException.class, () -> example.hopMasks(KernelRelease.of(6, 1), t, 0));
    }
}
