package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.PropertyGaveUp;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CheckRunner on the property engine: shrunk violations by rule, replay seeds, errors never passing. */
class CheckRunnerTest {

    static final Settings SETTINGS = new Settings(200, 0x5eed, Duration.ofSeconds(30));
    static final Routine ANY_ROUTINE = Routine.values()[0];

    static CheckResult run(Check.Body body) {
        return CheckRunner.run(Check.of("TEST-1", ANY_ROUTINE, "TEST_1_body", body), new ReferenceModel(),
                KernelRelease.parse("6.12"), SETTINGS);
    }

    @Test
    void violation_isShrunk_andKeepsItsRule() {
        CheckResult r = run(ctx -> ctx.forAll(Machines.any(), m -> {
            if (m.numOnlineCpus() >= 3)
                throw Violation.of("TEST-1", "numOnlineCpus()", "at most 2", String.valueOf(m.numOnlineCpus())).on(m);
        }));
        CheckResult.Failed f = assertInstanceOf(CheckResult.Failed.class, r);
        assertEquals("TEST-1", f.violation().rule());
        assertEquals("3", f.violation().actual());
        assertEquals(3, f.violation().machine().orElseThrow().numOnlineCpus());
        assertTrue(f.shrunk().input().contains("online 0-2"), f.shrunk().input());
        assertTrue(f.shrunk().steps() > 0);
    }

    /** A machine and a node, as most checks draw them: the report's text is still the machine's .topo. */
    record MachineAndNode(Topology machine, int node) {}

    @Test
    void shrunkCounterexample_isTopoText_thatReadsBackToTheViolationsMachine() {
        Gen<MachineAndNode> gen = Machines.any().flatMap(m -> Machines.nodeOrNoNode(m).map(n -> new MachineAndNode(m, n)));
        CheckResult r = run(ctx -> ctx.forAll(gen, c -> {
            Topology m = c.machine();
            if (m.nodes().size() >= 2 && m.smtSiblings().stream().anyMatch(g -> g.size() > 1))
                throw Violation.of("TEST-2", "nodes()", "one node or no SMT", m.nodes().size() + " nodes with SMT").on(m);
        }));
        CheckResult.Failed f = assertInstanceOf(CheckResult.Failed.class, r);
        Topology m = f.violation().machine().orElseThrow();
        assertEquals(f.topo().orElseThrow(), f.shrunk().input());
        assertEquals(m, TopoFormat.read(f.shrunk().input(), "counterexample.topo").topology(), f.shrunk().input());
        // Shrunk by hand: two nodes, one SMT-2 core each, is the least that breaks the property.
        assertEquals(2, m.nodes().size(), f.shrunk().input());
        assertTrue(m.possible().size() <= 4, f.shrunk().input());
        assertFalse(f.shrunk().choices().isEmpty());
    }

    @Test
    void passingProperty_countsItsTries_andTuningOverridesTheSettings() {
        CheckResult r = run(ctx -> ctx.forAll(Machines.any(), s -> s.withTries(37), m -> { }));
        assertEquals(new CheckResult.Passed(37), r);
    }

    @Test
    void propertyThatGivesUp_isAnError() {
        CheckResult r = run(ctx -> ctx.forAll(Gen.ints(0, 3).filter(x -> x > 3), x -> { }));
        CheckResult.Errored e = assertInstanceOf(CheckResult.Errored.class, r);
        assertInstanceOf(PropertyGaveUp.class, e.cause());
    }

    @Test
    void otherException_isAnError_withTheShrunkInput() {
        CheckResult r = run(ctx -> ctx.forAll(Gen.ints(0, 1000), x -> {
            if (x >= 100) throw new ArithmeticException("x " + x);
        }));
        CheckResult.Errored e = assertInstanceOf(CheckResult.Errored.class, r);
        assertEquals("x 100", e.cause().getMessage());
        assertEquals("100", e.shrunk().input());
    }
}
