package dev.numaspread.benchmarks;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each benchmark's state sets up and each benchmark method runs once, on the machines it is
 * measured on, and returns the plan it should: no timing here (JMH measures from the jar), only
 * that the benchmarks still measure what their names say. Expected values are read off the
 * EPYC 7763 fixture (node 14 = CPUs 112-119, 240-247; distances 10, 11, 12, 32) and the generator's
 * rules by hand.
 */
class BenchmarksSmokeTest {

    /** Node 14 of the EPYC 7763 in ascending order: its eight cores' first threads, then their siblings. */
    static final int[] EPYC_NODE_14 = {112, 113, 114, 115, 116, 117, 118, 119, 240, 241, 242, 243, 244, 245, 246, 247};

    @Test
    void generatedMachineHasTheDocumentedShape() {
        Topology t = Machines.generated(8192);
        assertEquals(64, t.nodeIds().length);
        assertEquals(8192, t.online().size());
        assertEquals(CpuSet.of(4094, 4095), t.siblingsOf(4095));
        assertEquals(12, t.distance(0, 3));    // same socket (nodes 0-3)
        assertEquals(20, t.distance(0, 4));    // same board (sockets 0-3 = nodes 0-15)
        assertEquals(30, t.distance(0, 16));   // other board
        assertEquals(List.of(10, 12, 20, 30), Arrays.stream(new RoutinesBenchOn(t.name()).bench.numaLevels().distances()).boxed().toList());
    }

    @Test
    void localSpreadPlanStartsOnNode14AndWraps() {
        for (String kernel : List.of("6.1", "6.12")) {
            LocalSpreadPlanBench b = new LocalSpreadPlanBench();
            b.kernel = kernel;
            b.machine = Machines.EPYC_7763;
            b.count = 4096;
            b.setUp();
            int[] plan = b.plan();
            assertEquals(4096, plan.length);
            assertArrayEquals(EPYC_NODE_14, Arrays.copyOf(plan, 16), kernel);
            assertEquals(plan[3], plan[256 + 3], kernel + ": index 259 wraps to index 3");
        }
    }

    @Test
    void localSpreadPlanOnTheGeneratedMachineStartsOnNode14() {
        LocalSpreadPlanBench b = new LocalSpreadPlanBench();
        b.kernel = "6.12";
        b.machine = "generated-8192";
        b.count = 256;
        b.setUp();
        int[] plan = b.plan();
        assertEquals(14 * 128, plan[0]);
        assertEquals(14 * 128 + 127, plan[127]);
        assertEquals(12 * 128, plan[128]);   // ring 1 = the other nodes of socket 3 (12, 13, 15), ascending
    }

    @Test
    void scalingBenchmarksPlanOneQueuePerCpuFromTheLastNode() {
        LocalSpreadScalingBench b = new LocalSpreadScalingBench();
        b.cpus = 256;
        b.setUp();
        int[] rings = b.localSpreadRings();
        int[] classic = b.localSpreadClassic();
        assertEquals(256, rings.length);
        assertEquals(128, rings[0]);         // node 1 = CPUs 128-255 comes first
        assertEquals(0, rings[128]);         // then node 0
        assertArrayEquals(rings, classic);   // two nodes: one ring each, so both orders agree
        assertEquals(List.of(10, 12), Arrays.stream(b.numaLevels().distances()).boxed().toList());
        List<CpuSet> groups = b.groupCpusEvenly().orElseThrow();
        assertEquals(128, groups.size());
        assertTrue(groups.stream().allMatch(g -> g.size() == 2), "one SMT pair per group");
        int[] map = b.blkMqMapQueuesGrouped();
        assertEquals(256, map.length);
        for (int cpu = 0; cpu < 256; cpu += 2)
            assertEquals(map[cpu], map[cpu + 1], "SMT siblings " + cpu + "," + (cpu + 1) + " share a queue");
        assertEquals(128, Arrays.stream(map).distinct().count(), "one queue per core");
    }

    @Test
    void checkThroughputCountsTheMachinesOfEveryLocalSpreadCheck() {
        CheckThroughputBench b = new CheckThroughputBench();
        b.kernel = "6.12";
        b.setUp();
        CheckThroughputBench.Counted counted = new CheckThroughputBench.Counted();
        int passed = b.localSpreadChecks(counted);
        assertTrue(passed >= 5, passed + " local-spread checks passed; expected the LS family's checks");
        // Every passing property ran its TRIES; the seed examples count one try each.
        assertTrue(counted.machines >= (long) CheckThroughputBench.TRIES * 3, counted.machines + " machines");
    }

    @Test
    void routinesOnTheEpyc7763() {
        RoutinesBench b = new RoutinesBenchOn(Machines.EPYC_7763).bench;
        int[] mlx5 = b.mlx5NumaDistance();
        assertEquals(256, mlx5.length);
        assertArrayEquals(EPYC_NODE_14, Arrays.copyOf(mlx5, 16));

        List<CpuSet> groups = b.groupCpusEvenly().orElseThrow();
        assertEquals(128, groups.size());   // 16 nodes of 16 CPUs, 128 groups: 8 a node, 2 CPUs each
        assertTrue(groups.stream().allMatch(g -> g.size() == 2));

        for (int[] map : List.of(b.blkMqMapQueuesLegacy(), b.blkMqMapQueuesGrouped())) {
            assertEquals(256, map.length);
            assertTrue(Arrays.stream(map).allMatch(q -> q >= 0 && q < 128), "every CPU on one of the 128 queues");
        }

        List<CpuSet> mana61 = b.manaIrqSetup61();
        assertEquals(64, mana61.size());
        assertEquals(CpuSet.of(112), mana61.get(0));
        assertEquals(CpuSet.of(240), mana61.get(8));
        assertEquals(CpuSet.of(0), mana61.get(16));          // 6.1: after node 14, the other CPUs from 0 up
        List<CpuSet> mana66 = b.manaIrqSetup66();
        assertEquals(mana61.subList(0, 16), mana66.subList(0, 16));
        assertEquals(CpuSet.of(96), mana66.get(16));         // 6.6: after node 14, ring 1 = nodes 12, 13, 15 at distance 11
        List<CpuSet> mana612 = b.manaIrqSetup612();
        assertEquals(64, mana612.size());
        assertEquals(CpuSet.of(112, 240), mana612.get(0));   // a whole core per IRQ

        assertEquals(List.of(10, 11, 12, 32), Arrays.stream(b.numaLevels().distances()).boxed().toList());
    }

    /** A {@link RoutinesBench} set up on {@code machine}. */
    static final class RoutinesBenchOn {
        final RoutinesBench bench = new RoutinesBench();

        RoutinesBenchOn(String machine) {
            bench.machine = machine;
            bench.setUp();
        }
    }

    /** The protocol benchmark's program answers over the protocol it names, as the model would. */
    @Test
    @org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable(named = "NUMASPREAD_SKIP_PYTHON", matches = "1",
            disabledReason = "NUMASPREAD_SKIP_PYTHON=1: the out-of-process example is not run in this build")
    void protocolBenchAsksTheExampleOverEitherProtocol() {
        for (String protocol : List.of("2", "1")) {
            ProtocolBench b = new ProtocolBench();
            b.protocol = protocol;
            b.setUp();
            try {
                ProtocolBench.Cursor c = new ProtocolBench.Cursor();
                for (int k = 0; k < 3; k++) {
                    Topology m = b.machines.get(c.next);
                    int node = m.nodeIds()[(c.next + 1) % m.nodeIds().length];
                    int[] got = b.localSpread(c);
                    assertArrayEquals(dev.numaspread.model.spread.LocalSpread.localSpreadCpus(ProtocolBench.K612, m, node,
                            2 * m.numOnlineCpus() + 1), got, protocol + ": " + m.name());
                }
                assertEquals(Integer.parseInt(protocol), b.program.protocol());
            } finally {
                b.tearDown();
            }
        }
    }
}
