package dev.numaspread.examples;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The example certified through the kit: for each of its claims, every check of the kit for that
 * routine passes on that release, 100 tries per property. A failure prints the check's violation
 * (rule, call, expected, actual, machine) or the exception it errored with.
 *
 * <p>One disagreement is known, and the example is kept as the sources say:
 * {@code group_cpus_evenly(0)} on 6.12. The kit (GRP-9 "kernels: 6.16+", GRP-10 through the
 * model) expects the ZERO_SIZE_PTR crash on every release before 6.16; the example returns NULL on
 * 6.12, because df831e977394 "lib/group_cpus: fix NULL pointer dereference from
 * group_cpus_evenly()" was queued for the 6.12 stable line as 9cb73a5ac87d (linux-stable-rc
 * queue/6.12, 2 July 2025; queue/6.1 did not take it), so 6.12.117, the 6.12 the kit pins with its
 * kernel runs, returns NULL (research/kernel-semantics.md §6.2 also says "stable 6.12.y"). For that
 * check and claim the test asserts the disagreement exactly, then certifies the example with only
 * the disputed answer changed to the kit's, so no other slip can hide behind it.
 */
class CertificationTest {
    private static final Settings SETTINGS = Settings.defaults().withTries(100);
    private static final KernelRelease LINUX_6_12 = KernelRelease.of(6, 12);

    @TestFactory
    List<DynamicTest> everyCheckOfEveryClaimPasses() {
        KernelStyleSpread example = new KernelStyleSpread();
        List<Check> checks = AllChecks.all();
        List<DynamicTest> tests = new ArrayList<>();
        for (Claim claim : example.claims()) {
            for (Check check : checks) {
                if (check.routine() != claim.routine()) continue;
                boolean disputed = check.name().equals("GRP_10_groupsAreTheKernels") && claim.kernel().equals(LINUX_6_12);
                tests.add(DynamicTest.dynamicTest(claim + " " + check.name(), () -> {
                    if (disputed) {
                        assertZeroGroupsDisagreement(CheckRunner.run(check, example, claim.kernel(), SETTINGS));
                        assertPassed(check, claim, CheckRunner.run(check, new CrashOnZeroGroups(example), claim.kernel(), SETTINGS));
                    } else {
                        assertPassed(check, claim, CheckRunner.run(check, example, claim.kernel(), SETTINGS));
                    }
                }));
            }
        }
        return tests;
    }

    private static void assertPassed(Check check, Claim claim, CheckResult r) {
        if (r instanceof CheckResult.Failed f)
            fail(check.name() + " on Linux " + claim.kernel() + " failed (seed " + f.seed() + "): " + f.violation().getMessage()
                    + (f.shrunk().input().isEmpty() ? "" : "\nshrunk input:\n" + f.shrunk().input()));
        if (r instanceof CheckResult.Errored e)
            fail(check.name() + " on Linux " + claim.kernel() + " errored (seed " + e.seed() + "): " + e.cause(), e.cause());
    }

    /** The kit's GRP-10 on 6.12 fails on numgrps=0 only: it wants the crash, the example answers NULL. */
    private static void assertZeroGroupsDisagreement(CheckResult r) {
        if (r instanceof CheckResult.Passed) return;    // the kit took the 6.12 backport: nothing left to dispute
        assertTrue(r instanceof CheckResult.Failed, "GRP-10 on 6.12: " + r);
        CheckResult.Failed f = (CheckResult.Failed) r;
        assertEquals("GRP-10", f.violation().rule());
        assertTrue(f.violation().call().contains("numgrps=0"), f.violation().getMessage());
        assertTrue(f.violation().expected().startsWith("kernel crash"), f.violation().getMessage());
        assertEquals("NULL", f.violation().actual(), f.violation().getMessage());
    }

    /** The example with the one disputed answer replaced by the kit's: a crash for numgrps=0 on 6.12. */
    private static final class CrashOnZeroGroups implements Implementation {
        private final KernelStyleSpread example;

        CrashOnZeroGroups(KernelStyleSpread example) {
            this.example = example;
        }

        @Override public String name() { return example.name() + ", crashing on group_cpus_evenly(0)"; }
        @Override public List<Claim> claims() { return example.claims(); }

        @Override
        public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
            if (numgrps == 0 && kernel.equals(LINUX_6_12))
                throw new KernelBug("oops", "group_cpus_evenly(0) writes through ZERO_SIZE_PTR (the kit's view of 6.12)");
            return example.groupCpusEvenly(kernel, machine, numgrps);
        }
    }
}
