package dev.numaspread.examples;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Routine;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The example certified through the kit, 100 tries per property.
 *
 * <p>{@link #everyCheckOfEveryClaimPasses()} runs every check of {@link AllChecks} for each claim
 * (routine, release) straight through {@link CheckRunner}: the MANA routines included.
 *
 * <p>{@link #certifierAcceptsEveryClaim()} runs the {@link Certifier} (checks and scenarios) as
 * {@code numaspread certify} does: every claimed rule must be accepted.
 *
 * <p>The two share nothing (each makes its own example, checks and certifier), so they run side by
 * side ({@link ExecutionMode#CONCURRENT}): this class is most of its module's test time.
 */
@Execution(ExecutionMode.CONCURRENT)
class CertificationTest {
    private static final Settings SETTINGS = Settings.defaults().withTries(100);

    @TestFactory
    List<DynamicTest> everyCheckOfEveryClaimPasses() {
        KernelStyleSpread example = new KernelStyleSpread();
        List<Check> checks = AllChecks.all();
        List<DynamicTest> tests = new ArrayList<>();
        for (Claim claim : example.claims()) {
            for (Check check : checks) {
                if (check.routine() != claim.routine()) continue;
                tests.add(DynamicTest.dynamicTest(claim + " " + check.name(), () -> {
                    CheckResult r = CheckRunner.run(check, example, claim.kernel(), SETTINGS);
                    if (r instanceof CheckResult.Failed f)
                        fail(check.name() + " on Linux " + claim.kernel() + " failed (seed " + f.seed() + "): " + f.violation().getMessage()
                                + (f.shrunk().input().isEmpty() ? "" : "\nshrunk input:\n" + f.shrunk().input()));
                    if (r instanceof CheckResult.Errored e)
                        fail(check.name() + " on Linux " + claim.kernel() + " errored (seed " + e.seed() + "): " + e.cause(), e.cause());
                }));
            }
        }
        return tests;
    }

    @Test
    void certifierAcceptsEveryClaim() {
        KernelStyleSpread example = new KernelStyleSpread();
        Certificate c = Certifier.standard().certify(example, CertifyOptions.defaults("example").withSettings(SETTINGS));
        List<String> problems = new ArrayList<>();
        for (RuleResult r : c.claimed()) {
            if (r.isAccepted()) continue;
            problems.add(r.verdict().label() + " " + r.rule() + " on Linux " + r.kernel().map(Object::toString).orElse("?") + ": " + r.verdict());
        }
        assertEquals(List.of(), problems, "certificate counts " + c.counts() + "; notes " + c.notes());
        // Issue 27: each NIC driver's rules claimed and accepted for the releases people run (spec/nic.md;
        // gve and ice change rules at 6.17 and 6.15).
        List<String> nic = new ArrayList<>();
        for (String k : List.of("6.1", "6.12", "7.3")) {
            boolean late = k.equals("7.3");
            for (String rule : List.of("NIC-1", "NIC-2", "NIC-3", "NIC-4", late ? "NIC-6" : "NIC-5", late ? "NIC-8" : "NIC-7", "NIC-9", "NIC-10", "NIC-11"))
                nic.add(rule + " on Linux " + k);
        }
        List<String> accepted = c.claimed().stream().filter(RuleResult::isAccepted)
                .map(r -> r.rule() + " on Linux " + r.kernel().map(Object::toString).orElse("?")).toList();
        assertEquals(List.of(), nic.stream().filter(x -> !accepted.contains(x)).toList(), "NIC rules not claimed and accepted");
    }
}
