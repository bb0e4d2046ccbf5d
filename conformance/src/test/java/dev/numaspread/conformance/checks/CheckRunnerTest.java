package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.model.kernel.KernelBug;
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
        Gen<MachineAndNode> gen = Machines.any().flatMap(m -> MachineDraws.nodeOrNoNode(m).map(n -> new MachineAndNode(m, n)));
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
        CheckResult r = run(ctx -> ctx.forAll(Machines.any(), s -> s.withTries(37), m -> ctx.implementation().numaLevels(ctx.kernel(), m)));
        assertEquals(new CheckResult.Passed(37, 37), r);
    }

    @Test
    void triesThatNeverReachTheImplementation_judgeNothing_soTheCheckIsNotApplicable() {
        CheckResult r = run(ctx -> ctx.forAll(Machines.any(), s -> s.withTries(37), m -> { }));
        assertEquals(new CheckResult.NotApplicable("none of its 37 tries reached the implementation"), r);
    }

    @Test
    void triesThatSayNotApplicable_areRunButNotJudged() {
        CheckResult r = run(ctx -> ctx.forAll(Gen.ints(0, 9), x -> {
            ctx.implementation().numaLevels(ctx.kernel(), TWO);
            if (x % 2 == 1) throw new NotApplicable("odd: LS-1's business");
        }));
        CheckResult.Passed p = assertInstanceOf(CheckResult.Passed.class, r);
        assertEquals(200, p.tries());
        assertTrue(p.judged() > 50 && p.judged() < 150, "judged " + p.judged());
    }

    @Test
    void anEarlyReturn_beforeAnyCall_isNotApplicable_neverPass() {
        CheckResult r = run(ctx -> {
            if (ctx.kernel().atLeast(6, 3)) return;
            ctx.forAll(Machines.any(), m -> ctx.implementation().numaLevels(ctx.kernel(), m));
        });
        assertEquals(new CheckResult.NotApplicable("the check made no call to the implementation for kernel 6.12"), r);
    }

    @Test
    void aCheckThatCannotJudge_isNotVerified_withItsReason() {
        CheckResult r = run(ctx -> {
            ctx.implementation().numaLevels(ctx.kernel(), TWO);
            throw new CannotJudge("a process cannot show lock behaviour");
        });
        assertEquals(new CheckResult.NotVerified("a process cannot show lock behaviour", 0), r);
    }

    @Test
    void propertyThatGivesUp_isNotVerified() {
        CheckResult r = run(ctx -> ctx.forAll(Gen.ints(0, 3).filter(x -> x > 3), x -> { }));
        CheckResult.NotVerified n = assertInstanceOf(CheckResult.NotVerified.class, r);
        assertTrue(n.reason().startsWith("too few drawn inputs applied: seed 0x5eed: 0 tries ran and 2001 draws were discarded;"), n.reason());
    }

    @Test
    void aBudgetThatCutsTheTriesShort_isNotVerified_andSaysHowToRaiseIt() {
        CheckResult r = CheckRunner.run(Check.of("TEST-1", ANY_ROUTINE, "TEST_1_slow", ctx -> ctx.forAll(Gen.ints(0, 9), x -> {
            ctx.implementation().numaLevels(ctx.kernel(), TWO);
            sleep(60);
        })), new ReferenceModel(), KernelRelease.parse("6.12"), new Settings(200, 0x5eed, Duration.ofSeconds(1)));
        CheckResult.NotVerified n = assertInstanceOf(CheckResult.NotVerified.class, r);
        assertTrue(n.reason().matches("\\d+ of 200 tries ran in the 1 s budget; raise it with --budget SECONDS"
                + " \\(or -Dnumaspread.budget.seconds\\)"), n.reason());
        assertTrue(n.tries() > 0 && n.tries() < 200, n.reason());
    }

    @Test
    void theKitsOwnException_isAKitFailure_namingTheCheckAndWhere_withTheShrunkInput() {
        CheckResult r = run(ctx -> ctx.forAll(Gen.ints(0, 1000), x -> {
            ctx.implementation().numaLevels(ctx.kernel(), TWO);
            if (x >= 100) throw new ArithmeticException("x " + x);
        }));
        CheckResult.KitFailed k = assertInstanceOf(CheckResult.KitFailed.class, r);
        assertTrue(k.failure().getMessage().matches("the kit's check TEST_1_body broke at CheckRunnerTest\\.java:\\d+: x 100;"
                + " the reference model's answer breaks it too, so this is a bug of numaspread: please report it with the replay line"),
                k.failure().getMessage());
        assertEquals("100", k.shrunk().input());
    }

    /** Answers every local spread with no CPU at all, and crashes the kernel where the model does not. */
    static class Garbage implements dev.numaspread.conformance.spi.Implementation {
        @Override public String name() { return "garbage"; }
        @Override public java.util.List<dev.numaspread.conformance.spi.Claim> claims() { return java.util.List.of(); }
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            return new int[0];
        }

        @Override public int[] numaLevels(KernelRelease kernel, Topology machine) {
            throw new KernelBug("BUG", "no levels today");
        }
    }

    static CheckResult runOn(dev.numaspread.conformance.spi.Implementation impl, Check.Body body) {
        return CheckRunner.run(Check.of("TEST-1", ANY_ROUTINE, "TEST_1_body", body), impl, KernelRelease.parse("6.12"), SETTINGS);
    }

    @Test
    void anExceptionTheAnswerCaused_isTheRulesFail_withItsMessageAndTheCall() {
        CheckResult r = runOn(new Garbage(), ctx -> ctx.forAll(Machines.any(), m -> {
            int first = ctx.implementation().localSpreadCpus(ctx.kernel(), m, 0, 1)[0];
            if (!m.online().contains(first)) throw Violation.of("TEST-1", "localSpread", "online", "offline");
        }));
        CheckResult.Failed f = assertInstanceOf(CheckResult.Failed.class, r);
        assertEquals("TEST-1", f.violation().rule());
        assertEquals("localSpreadCpus(node=0, count=1)", f.violation().call());
        assertEquals("an answer the check cannot judge: Index 0 out of bounds for length 0", f.violation().actual());
        assertEquals(1, f.violation().machine().orElseThrow().possible().size(), "shrunk to one CPU");
        assertEquals(f.topo().orElseThrow(), f.shrunk().input());
    }

    @Test
    void aKernelCrashTheCheckDidNotExpect_isTheRulesFail() {
        CheckResult r = runOn(new Garbage(), ctx -> ctx.implementation().numaLevels(ctx.kernel(), TWO));
        CheckResult.Failed f = assertInstanceOf(CheckResult.Failed.class, r);
        assertEquals("numaLevels()", f.violation().call());
        assertEquals("a kernel crash (BUG: no levels today)", f.violation().actual());
        assertEquals(TWO, f.violation().machine().orElseThrow());
    }

    @Test
    void anImplementationFailure_isAnError() {
        CheckResult r = runOn(new Garbage() {
            @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
                throw new ImplementationFailure("localSpreadCpus crashed: masks");
            }
        }, ctx -> ctx.forAll(Machines.any(), m -> ctx.implementation().localSpreadCpus(ctx.kernel(), m, 0, 1)));
        CheckResult.Errored e = assertInstanceOf(CheckResult.Errored.class, r);
        assertEquals("localSpreadCpus crashed: masks", e.cause().getMessage());
    }

    static final Topology TWO = dev.numaspread.model.topology.TopologyBuilder.machine("two").node(0, "0-1").node(1, "2-3")
            .distances(new int[]{10, 20}, new int[]{20, 10}).build();

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
