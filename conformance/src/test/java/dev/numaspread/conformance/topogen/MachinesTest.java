package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyValidation;
import dev.numaspread.model.topology.TopologyValidation.Mode;
import dev.numaspread.model.topology.TopologyWarning;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
        assertTrue(m.clustersAssumed());   // simplest: no clusters drawn, each core its own (TOPO-12)
    }

    @Test
    void simplestDraw_isOneNodeWithOneCpu_allOnline() {
        assertOneNodeOneCpu(Machines.any().simplest());
        assertOneNodeOneCpu(Machines.realistic().simplest());
        assertOneNodeOneCpu(Machines.edgeCases().simplest());
    }

    /** Validates {@code m} in strict mode: a broken kernel rule throws. */
    static List<TopologyWarning> validate(Topology m) {
        return TopologyValidation.validate(m, Mode.STRICT);
    }

    /** Strict validation: the structural rules (the constructor) and the kernel's value rules (TopologyValidation). */
    @Test
    void everyGeneratedMachine_passesStrictValidation_withinTheCpuLimit() {
        for (long seed = 0; seed < 600; seed++) {
            Topology m = Machines.any().sample(seed);
            long s = seed;
            assertEquals(Set.of(), TopoDocument.of(m).expect(), () -> "seed " + s + ":\n" + TopoFormat.write(m));
            assertDoesNotThrow(() -> validate(m), () -> "seed " + s + ":\n" + TopoFormat.write(m));
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
            assertEquals(Set.of(), TopoDocument.of(m).expect(), () -> "seed " + s + ":\n" + TopoFormat.write(m));
            assertDoesNotThrow(() -> validate(m), () -> "seed " + s + ":\n" + TopoFormat.write(m));
            seen.add(m.source());
        }
        for (String family : EdgeCases.FAMILIES)
            assertTrue(seen.contains(Machines.EDGE + family), "family never drawn: " + family);
    }

    @Test
    void invalidDistances_breakAKernelValueRule_andTheirDocumentSaysSo() {
        for (long seed = 0; seed < 200; seed++) {
            Topology m = Machines.invalidDistances().sample(seed);
            assertEquals(Set.of(TopologyValidation.SLIT_INVALID), TopoDocument.of(m).expect(), m::toString);
            assertEquals(Mode.LENIENT, TopoDocument.of(m).mode(), m::toString);
            assertThrows(InvalidTopologyException.class, () -> TopologyValidation.validate(m, Mode.STRICT), m::toString);
            assertTrue(TopologyValidation.validate(m, Mode.LENIENT).stream().anyMatch(w -> w.code().equals(TopologyValidation.SLIT_INVALID)), m::toString);
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
            int node = MachineDraws.nodeWithOnlineCpus(m).sample(seed);
            assertFalse(m.onlineCpusOf(node).isEmpty(), "seed " + seed);
            assertTrue(m.online().contains(MachineDraws.onlineCpu(m).sample(seed)));
            assertTrue(m.possible().contains(MachineDraws.possibleCpu(m).sample(seed)));
            assertTrue(MachineDraws.cpuSubsets(m).sample(seed).isSubsetOf(m.possible()));
            CpuSet some = MachineDraws.nonEmptyCpuSubsets(m.online()).sample(seed);
            assertFalse(some.isEmpty());
            assertTrue(some.isSubsetOf(m.online()));
            int groups = MachineDraws.groupCounts(m).sample(seed);
            int most = Math.max(2 * m.possible().size(), Math.max(m.possible().size(), m.nodes().size()) + 1);
            assertTrue(groups >= 1 && groups <= most, "groups " + groups);
            int i = MachineDraws.spreadIndex(m).sample(seed);
            assertTrue(i >= 0 && i < 3 * m.numOnlineCpus());
            int any = MachineDraws.nodeOrNoNode(m).sample(seed);
            assertTrue(any == -1 || m.hasNode(any));
        }
        Topology m = Machines.any().simplest();
        assertEquals(0, MachineDraws.nodeWithOnlineCpus(m).simplest());
        assertEquals(CpuSet.EMPTY, MachineDraws.cpuSubsets(m).simplest());
        assertEquals(1, MachineDraws.groupCounts(m).simplest());
    }

    /** FMT-11 for generated machines: the report's .topo text reads back to the same machine, lenient ones included. */
    @Test
    void writtenText_readsBackToTheSameMachine() {
        for (long seed = 0; seed < 25; seed++) {
            for (Topology m : List.of(Machines.any().sample(seed), Machines.invalidDistances().sample(seed))) {
                String text = TopoFormat.write(m);
                assertEquals(m, TopoFormat.read(text, "generated.topo").topology(), text);
            }
        }
    }

    @Test
    void options_narrowTheDraw() {
        Machines.Options two = Machines.Options.DEFAULT.withMaxNodes(3).withAtLeastCpuNodes(2).withMaxCpus(12);
        Machines.Options smt = Machines.Options.DEFAULT.withSmt(Machines.Smt.ALWAYS).withMaxCpus(8);
        Machines.Options plain = Machines.Options.DEFAULT.withSmt(Machines.Smt.NEVER).withSymmetricDistances().withAllPresent();
        for (long seed = 0; seed < 200; seed++) {
            Topology a = Machines.realistic(two).sample(seed);
            long cpuNodes = a.nodes().stream().filter(n -> !n.cpus().isEmpty()).count();
            assertTrue(cpuNodes >= 2 && a.nodes().size() <= 3 && a.possible().size() <= 12, () -> TopoFormat.write(a));
            Topology b = Machines.realistic(smt).sample(seed);
            assertTrue(b.possible().size() <= 8 && b.smtSiblings().stream().anyMatch(g -> g.size() >= 2), () -> TopoFormat.write(b));
            Topology c = Machines.realistic(plain).sample(seed);
            assertTrue(c.smtSiblings().stream().allMatch(g -> g.size() == 1), () -> TopoFormat.write(c));
            assertTrue(c.distances().isSymmetric(), () -> TopoFormat.write(c));
            assertEquals(c.possible(), c.present(), () -> TopoFormat.write(c));
        }
        for (Machines.Options o : List.of(two, smt, plain)) {
            Topology simplest = Machines.realistic(o).simplest();
            assertDoesNotThrow(() -> validate(simplest));
        }
        assertEquals(2, Machines.realistic(two).simplest().nodes().size());
        assertEquals(List.of(CpuSet.of(0, 1)), Machines.realistic(smt).simplest().smtSiblings());
        assertThrows(IllegalArgumentException.class, () -> Machines.Options.DEFAULT.withSmt(Machines.Smt.ALWAYS).withAtLeastCpuNodes(3).withMaxCpus(5));
    }
}
