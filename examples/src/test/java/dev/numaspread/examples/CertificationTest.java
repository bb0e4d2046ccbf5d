package dev.numaspread.examples;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.spi.Claim;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The example certified through the kit: for each of its claims, every check of the kit for that
 * routine passes on that release, 100 tries per property. A failure prints the check's violation
 * (rule, call, expected, actual, machine) or the exception it errored with.
 */
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
                        fail(check.name() + " on Linux " + claim.kernel() + " failed (seed " + f.seed() + "): "
                                + f.violation().getMessage() + (f.shrunk().input().isEmpty() ? "" : "\nshrunk input:\n" + f.shrunk().input()));
                    if (r instanceof CheckResult.Errored e)
                        fail(check.name() + " on Linux " + claim.kernel() + " errored (seed " + e.seed() + "): " + e.cause(), e.cause());
                }));
            }
        }
        return tests;
    }
}
