package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A check run over a small scope ({@code --exhaustive}) or on a shard's share ({@code --shard}): what it concludes. */
class ExhaustiveAndShardedCheckTest {

    static final Settings SETTINGS = new Settings(200, 0x5eed, Duration.ofSeconds(30));

    static CheckResult run(Settings s, Check.Body body) {
        return CheckRunner.run(Check.of("TEST-1", CheckRunnerTest.ANY_ROUTINE, "TEST_1_body", body), new ReferenceModel(),
                KernelRelease.parse("6.12"), s);
    }

    @Test
    void exhaustive_passesAfterEveryMachineOfTheScope_andCountsThem() {
        CheckResult r = run(SETTINGS.withExhaustive(1), ctx -> ctx.forAll(Machines.realistic(), m -> ctx.implementation().numaLevels(ctx.kernel(), m)));
        assertEquals(new CheckResult.Passed(7, 7, java.util.List.of(), 7, 7), r);
    }

    @Test
    void exhaustive_failure_isAMachineOfTheScope() {
        CheckResult r = run(SETTINGS.withExhaustive(2), ctx -> ctx.forAll(Machines.realistic(), m -> {
            ctx.implementation().numaLevels(ctx.kernel(), m);
            if (!m.online().equals(m.possible())) throw Violation.of("TEST-1", "numaLevels()", "every CPU online", m.online().toList()).on(m);
        }));
        CheckResult.Failed f = assertInstanceOf(CheckResult.Failed.class, r);
        Topology m = f.violation().machine().orElseThrow();
        assertEquals(2, m.possible().size(), "two CPUs, one of them not online, is the least that breaks it");
        assertEquals(1, m.nodes().size());
    }

    @Test
    void exhaustive_cutByTheBudget_isNotVerified_withTheCasesItReached() {
        CheckResult r = run(SETTINGS.withExhaustive(1).withBudget(Duration.ofSeconds(1)), ctx -> ctx.forAll(
                Gen.ints(0, Integer.MAX_VALUE - 2), x -> ctx.implementation().numaLevels(ctx.kernel(), Machines.realistic().simplest())));
        CheckResult.NotVerified n = assertInstanceOf(CheckResult.NotVerified.class, r);
        assertTrue(n.reason().startsWith("the 1 s budget ended the walk of the small scope 1 after "), n.reason());
        assertTrue(n.reason().endsWith(" before the end of the space; raise it with --budget SECONDS or lower --exhaustive"), n.reason());
    }

    @Test
    void exhaustive_whereNoMachineFits_judgesNothing_andSaysWhy() {
        CheckResult r = run(SETTINGS.withExhaustive(1), ctx -> ctx.forAll(Machines.realistic(Machines.Options.DEFAULT.withAtLeastCpuNodes(2)),
                m -> ctx.implementation().numaLevels(ctx.kernel(), m)));
        assertEquals(new CheckResult.NotApplicable("no input of the small scope 1 fits the check (it needs a larger machine or a shape"
                + " the scope leaves out)"), r);
    }

    @Test
    void shard_runsItsShareOfTheTries() {
        CheckResult r = run(SETTINGS.withShard(new Shard(2, 3)), ctx -> ctx.forAll(Machines.any(), s -> s.withTries(37),
                m -> ctx.implementation().numaLevels(ctx.kernel(), m)));
        assertEquals(new CheckResult.Passed(12, 12), r);   // slots 1, 4, ..., 34 of 0..36
    }

    @Test
    void shard_holdingNoneOfACheckstries_judgesNothing_andSaysWhy() {
        CheckResult r = run(SETTINGS.withShard(new Shard(3, 4)), ctx -> ctx.forAll(Machines.any(), s -> s.withTries(2),
                m -> ctx.implementation().numaLevels(ctx.kernel(), m)));
        assertEquals(new CheckResult.NotApplicable("shard 3/4 holds none of this check's 2 tries"), r);
    }
}
