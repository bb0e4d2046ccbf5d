package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the machine generators give: the simplest machine, valid machines, size limits, determinism. */
class MachinesTest {

    static void assertOneNodeOneCpu(Topology m) {
        assertEquals(1, m.nodes().size());
        assertEquals(0, m.nodes().get(0).id());
        assertEquals(CpuSet.of(0), m.possible());
        assertEquals(CpuSet.of(0), m.present());
        assertEquals(CpuSet.of(0), m.online());
        assertEquals(List.of(CpuSet.of(0)), m.smtSiblings());
        assertTrue(m.nodes().get(0).hasMemory());
        assertEquals(10, m.distance(0, 0));
        assertEquals(List.of(), m.clusters());
    }

    @Test
    void simplestDraw_isOneNodeWithOneCpu_allOnline() {
        assertOneNodeOneCpu(Machines.any().simplest());
        assertOneNodeOneCpu(Machines.realistic().simplest());
        assertOneNodeOneCpu(Machines.edgeCases().simplest());
    }

    /** Strict validation: the structural rules (the constructor) and the kernel's value rules. */
    @Test
    void everyGeneratedMachine_passesStrictValidation_withinTheCpuLimit() {
        for (long seed = 0; seed < 600; seed++) {
            Topology m = Machines.any().sample(seed);
            long s = seed;
            assertEquals(List.of(), KernelValueRules.violations(m), () -> "seed " + s + ":\n" + Machines.describe(m));
            assertFalse(MachineClass.needsLenientValidation(m));
            assertTrue(m.possible().size() <= Machines.DEFAULT_MAX_CPUS, "seed " + seed);
            assertTrue(m.nodes().size() <= Machines.MAX_NODES, "seed " + seed);
        }
    }

    @Test
    void everyEdgeCaseFamily_isDrawnAndValid() {
        java.util.TreeSet<String> seen = new java.util.TreeSet<>();
        for (long seed = 0; seed < 400; seed++) {
            Topology m = Machines.edgeCases().sample(seed);
            long s = seed;
            assertEquals(List.of(), KernelValueRules.violations(m), () -> "seed " + s + ":\n" + Machines.describe(m));
            seen.add(m.source());
        }
        for (String family : EdgeCases.FAMILIES)
            assertTrue(seen.contains(Machines.EDGE + family), "family never drawn: " + family);
    }

    @Test
    void invalidDistances_areTaggedLenient_andBreakAKernelValueRule() {
        for (long seed = 0; seed < 200; seed++) {
            Topology m = Machines.invalidDistances().sample(seed);
            assertTrue(MachineClass.needsLenientValidation(m), m.source());
            assertFalse(KernelValueRules.violations(m).isEmpty(), m::toString);
        }
    }

    @Test
    void smallerCpuLimit_isRespected() {
        for (Gen<Topology> g : List.of(Machines.any(8), Machines.realistic(8), Machines.edgeCases(8), Machines.any(1)))
            for (long seed = 0; seed < 100; seed++) {
                Topology m = g.sample(seed);
                assertTrue(m.possible().size() <= 8, m::toString);
            }
        for (long seed = 0; seed < 100; seed++) assertEquals(1, Machines.any(1).sample(seed).possible().size());
    }

    @Test
    void sameSeed_givesTheSameMachine() {
        for (long seed = 0; seed < 50; seed++)
            assertEquals(Machines.any().sample(seed), Machines.any().sample(seed));
    }

    @Test
    void draws_stayInsideTheMachine() {
        for (long seed = 0; seed < 200; seed++) {
            Topology m = Machines.any().sample(seed);
            int node = Machines.nodeWithOnlineCpus(m).sample(seed);
            assertFalse(m.onlineCpusOf(node).isEmpty(), "seed " + seed);
            assertTrue(m.online().contains(Machines.onlineCpu(m).sample(seed)));
            assertTrue(m.possible().contains(Machines.possibleCpu(m).sample(seed)));
            assertTrue(Machines.cpuSubsets(m).sample(seed).isSubsetOf(m.possible()));
            CpuSet some = Machines.nonEmptyCpuSubsets(m.online()).sample(seed);
            assertFalse(some.isEmpty());
            assertTrue(some.isSubsetOf(m.online()));
            int groups = Machines.groupCounts(m).sample(seed);
            int most = Math.max(2 * m.possible().size(), Math.max(m.possible().size(), m.nodes().size()) + 1);
            assertTrue(groups >= 1 && groups <= most, "groups " + groups);
            int i = Machines.spreadIndex(m).sample(seed);
            assertTrue(i >= 0 && i < 3 * m.numOnlineCpus());
            int any = Machines.nodeOrNoNode(m).sample(seed);
            assertTrue(any == -1 || m.hasNode(any));
        }
        Topology m = Machines.any().simplest();
        assertEquals(0, Machines.nodeWithOnlineCpus(m).simplest());
        assertEquals(CpuSet.EMPTY, Machines.cpuSubsets(m).simplest());
        assertEquals(1, Machines.groupCounts(m).simplest());
    }
}
