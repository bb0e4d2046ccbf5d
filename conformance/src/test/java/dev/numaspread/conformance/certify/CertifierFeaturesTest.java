package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.steps.ImplementationUnderTest;
import dev.numaspread.conformance.spi.ReferenceModel;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

import static dev.numaspread.conformance.certify.CertifierTest.result;
import static org.junit.jupiter.api.Assertions.*;

/** The certifier runs Cucumber scenarios against the implementation and maps them to rules. */
class CertifierFeaturesTest {

    static final FeatureSuite SUITE = new FeatureSuite(Optional.of("certify-fixtures/features"),
            List.of("dev.numaspread.conformance.certify.glue"));

    static Certificate certify(dev.numaspread.conformance.spi.Implementation impl) {
        return new Certifier(FakeImplementations.registry(), List::of, SUITE, () -> LocalDate.of(2026, 6, 1))
                .certify(impl, CertifyOptions.defaults("java:x").withSettings(new Settings(3, 1, Duration.ofSeconds(1))));
    }

    @Test
    void scenariosProveTheirTaggedRules() {
        Certificate c = certify(new FakeImplementations.Spread());
        RuleResult ls1 = result(c, "LS-1");
        assertEquals("PASS", ls1.verdict().label());
        assertEquals(List.of("scenario features/local-spread.feature:7 \"a driver on node 1 gets node 1's CPUs first\""),
                ls1.evidence().stream().map(Evidence::source).toList().stream()
                        .map(s -> s.replace("certify-fixtures/", "")).toList());
        // The 6.12 scenario calls a release the implementation does not claim: left out, not failed.
        assertEquals(1, result(c, "LS-2").evidence().size());
        assertEquals("PASS", result(c, "LS-2").verdict().label());
        assertEquals("NOT-VERIFIED", result(c, "LS-4").verdict().label());
        assertInstanceOf(ReferenceModel.class, ImplementationUnderTest.get(), "the certifier resets the implementation under test");
    }

    /** A scenario that exercises local spread proves its rule for a local-spread claim, whatever family the rule belongs to. */
    @Test
    void aScenarioOfAnotherFamilyRunsForTheRoutineItExercises() {
        Certificate c = certify(new FakeImplementations.Spread());
        RuleResult grp2 = result(c, "GRP-2");
        assertEquals("PASS", grp2.verdict().label());
        assertEquals(java.util.Optional.of(dev.numaspread.model.kernel.KernelRelease.of(6, 1)), grp2.kernel());
        assertEquals(List.of("scenario features/group-cpus.feature:7 \"node 1's CPUs come first from node 1\""),
                grp2.evidence().stream().map(Evidence::source).map(s -> s.replace("certify-fixtures/", "")).toList());

        Verdict.Fail f = assertInstanceOf(Verdict.Fail.class, result(certify(new FakeImplementations.NodesVisitedById()), "GRP-2").verdict());
        assertTrue(f.counterexample().call().contains("group-cpus.feature:7"), f.counterexample().call());
        // GRP-1 belongs to group-cpus, which Spread does not claim, and no scenario of it ran.
        assertEquals("NOT-CLAIMED", result(c, "GRP-1").verdict().label());
    }

    @Test
    void failedScenarioIsFailWithItsAssertion() {
        Certificate c = certify(new FakeImplementations.NodesVisitedById());
        Verdict.Fail f = assertInstanceOf(Verdict.Fail.class, result(c, "LS-1").verdict());
        assertTrue(f.counterexample().actual().startsWith("CPUs of the plan ==> expected: <2-3> but was: <0-1>"),
                f.counterexample().actual());
        assertTrue(f.counterexample().call().endsWith("local-spread.feature:7 \"a driver on node 1 gets node 1's CPUs first\""),
                f.counterexample().call());
    }

    @Test
    void hangingImplementationInAScenarioIsError() {
        Certificate c = new Certifier(FakeImplementations.registry(), List::of, SUITE, () -> LocalDate.of(2026, 6, 1))
                .certify(new FakeImplementations.Hanging(), CertifyOptions.defaults("java:x").withCallTimeout(Duration.ofMillis(100)));
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, result(c, "LS-1").verdict());
        assertTrue(e.reason().matches(java.util.regex.Pattern.quote("localSpreadCpus(node=1, count=2) for kernel 6.1 did not return"
                + " within 100 ms; expected an answer (per-call timeout)") + CertifierTest.HANGING_STACK), e.reason());
    }

    @Test
    void aScenarioCallThatIgnoresTheInterruptStopsTheFeatureRunWithError() {
        Certificate c = new Certifier(FakeImplementations.registry(), List::of, SUITE, () -> LocalDate.of(2026, 6, 1))
                .certify(new FakeImplementations.Unstoppable(2), CertifyOptions.defaults("java:x").withCallTimeout(Duration.ofMillis(100)));
        String reason = "localSpreadCpus(node=1, count=2) for kernel 6.1 did not return within 100 ms; expected an answer"
                + " (per-call timeout); it was at ";
        String leftBehind = "; interrupted, it did not return within 100 ms more, so the kit left it running and went on";
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, result(c, "LS-1").verdict());
        assertTrue(e.reason().startsWith(reason) && e.reason().endsWith(leftBehind), e.reason());
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("the feature run stopped: " + reason) && n.endsWith(leftBehind)),
                c.notes().toString());
        assertInstanceOf(ReferenceModel.class, ImplementationUnderTest.get(), "the certifier resets the implementation under test");
    }
}
