package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

import static dev.numaspread.conformance.certify.FakeImplementations.*;
import static org.junit.jupiter.api.Assertions.*;

class CertifierTest {

    static final LocalDate TODAY = LocalDate.of(2026, 6, 1);

    static Certifier certifier(List<Check> checks) {
        return new Certifier(registry(), () -> checks, FeatureSuite.none(), () -> TODAY);
    }

    static CertifyOptions options() {
        return CertifyOptions.defaults("java:acme.Spread").withSettings(new Settings(20, 0x5eedL, Duration.ofSeconds(5)));
    }

    static RuleResult result(Certificate c, String rule) {
        return c.results().stream().filter(r -> r.rule().equals(rule)).findFirst()
                .orElseThrow(() -> new AssertionError("no result for " + rule + " in " + c.results()));
    }

    @Test
    void passingChecksGivePassWithTriesAndSeed() {
        Certificate c = certifier(List.of(LOCAL_FIRST, WRAP)).certify(new Spread(), options());
        RuleResult ls1 = result(c, "LS-1");
        assertEquals("PASS", ls1.verdict().label());
        assertEquals(20, ls1.tries());
        assertEquals(Optional.of(KernelRelease.of(6, 1)), ls1.kernel());
        assertEquals("Local CPUs come first", ls1.title());
        assertEquals("spec/local-spread.md:3", ls1.location());
        assertEquals("PASS", result(c, "LS-2").verdict().label());
        assertEquals(1, result(c, "LS-2").tries());
    }

    @Test
    void ruleWithoutCheckIsNotVerifiedAndFailsTheExitCode() {
        Certificate c = certifier(List.of(LOCAL_FIRST, WRAP)).certify(new Spread(), options());
        assertEquals("NOT-VERIFIED", result(c, "LS-4").verdict().label());
        assertEquals(1, c.exitCode());
        // Every MUST rule passed; LS-5, an EXACT rule, is NOT-VERIFIED, so the level stays at contract.
        assertEquals("contract", c.levelReached());
    }

    @Test
    void ruleOutsideItsKernelRangeIsNotJudged() {
        Certificate c = certifier(List.of(LOCAL_FIRST, WRAP, CRASHING)).certify(new Spread(), options());
        assertTrue(c.results().stream().noneMatch(r -> r.rule().equals("LS-3")), "LS-3 is 6.3+, the claim is 6.1");
    }

    @Test
    void allPassGivesExitZeroAndExact() {
        Certificate c = certifier(List.of(LOCAL_FIRST, WRAP)).certify(new Spread(), options().withRule("LS-1"));
        assertEquals(1, c.claimed().size());
        assertEquals(0, c.exitCode());
        assertEquals("exact", c.levelReached());
    }

    @Test
    void failingCheckGivesFailWithShrunkMachineAndReplay() {
        Certificate c = certifier(List.of(LOCAL_FIRST, WRAP)).certify(new NodesVisitedById(), options());
        RuleResult ls1 = result(c, "LS-1");
        Verdict.Fail f = assertInstanceOf(Verdict.Fail.class, ls1.verdict());
        assertEquals("localSpread(i=0, node=1)", f.counterexample().call());
        assertEquals("a CPU of node 1", f.counterexample().expected());
        assertEquals("cpu 0 (node 0)", f.counterexample().actual());
        assertEquals("are nodes visited by id?", f.counterexample().hint());
        assertEquals(Optional.of(dev.numaspread.model.topology.TopoFormat.write(TWO_NODES)), f.counterexample().machine());
        assertEquals("check LS_1_localCpusComeFirst", f.source());
        assertEquals("numaspread certify --impl java:acme.Spread --kernel 6.1 --tries 20 --seed 0x5eed --budget 5 --rule LS-1", ls1.replay());
        assertEquals(1, c.exitCode());
        assertEquals("none", c.levelReached());
    }

    @Test
    void crashingCheckIsAnInternalErrorNamingTheKitNeverPass() {
        Certificate c = certifier(List.of(CRASHING)).certify(new Spread(),
                options().withKernel(KernelRelease.of(6, 1)));
        // LS-3 is 6.3+: certify a 6.12 claim instead.
        Certificate c12 = certifier(List.of(CRASHING)).certify(new Spread() {
            @Override public List<dev.numaspread.conformance.spi.Claim> claims() {
                return List.of(dev.numaspread.conformance.spi.Claim.of("local-spread", "6.12"));
            }
        }, options());
        Verdict.InternalError e = assertInstanceOf(Verdict.InternalError.class, result(c12, "LS-3").verdict());
        assertTrue(e.reason().matches("the kit's check LS_3_crashes broke at FakeImplementations\\.java:\\d+: boom <b>; the reference"
                + " model's answer breaks it too, so this is a bug of numaspread: please report it with the replay line"), e.reason());
        assertEquals("check LS_3_crashes", e.source());
        assertEquals(3, c12.exitCode());
        assertTrue(c.results().stream().noneMatch(r -> r.rule().equals("LS-3")));
    }

    @Test
    void unclaimedRoutineIsNotClaimed() {
        Certificate c = certifier(List.of(LOCAL_FIRST, GROUPS)).certify(new Spread(), options());
        RuleResult grp = result(c, "GRP-1");
        assertEquals(new Verdict.NotClaimed("group-cpus"), grp.verdict());
        assertEquals(Optional.empty(), grp.kernel());
        assertTrue(grp.isAccepted());
    }

    @Test
    void ruleOfASpecFileCheckedForAnotherRoutineBelongsToThatRoutine() {
        Certificate c = certifier(List.of(LOCAL_FIRST, NEAREST_NODE)).certify(new Spread(), options());
        assertEquals(new Verdict.NotClaimed("local-spread-nearest-node"), result(c, "LS-5").verdict());
        assertEquals(1, c.results().stream().filter(r -> r.rule().equals("LS-5")).count());
        // Without a check naming it elsewhere, the spec file decides: LS-5 is local-spread's and nothing proves it.
        Certificate bare = certifier(List.of(LOCAL_FIRST)).certify(new Spread(), options());
        assertEquals("NOT-VERIFIED", result(bare, "LS-5").verdict().label());
    }

    @Test
    void nondeterministicAnswerIsError() {
        Certificate c = certifier(List.of(WRAP)).certify(new Flaky(), options());
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, result(c, "LS-2").verdict());
        assertEquals("localSpreadCpus(node=1, count=5) for kernel 6.1 is nondeterministic: first [2, 3, 0, 1, 2], "
                + "then [3, 3, 0, 1, 2]; expected the same answer twice", e.reason());
    }

    /** Where a hung call was, innermost frame first, down to the implementation's method: the rest is the kit's. */
    static final String HANGING_STACK = "; it was at (java\\.lang\\.Thread\\.\\w+\\(\\w+(\\.java:\\d+)?\\), called from )+"
            + "dev\\.numaspread\\.conformance\\.certify\\.FakeImplementations\\$Hanging\\.localSpreadCpus\\(FakeImplementations\\.java:\\d+\\)";

    @Test
    void hangingCallTimesOutAsError() {
        Certificate c = certifier(List.of(WRAP)).certify(new Hanging(), options().withCallTimeout(Duration.ofMillis(200)));
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, result(c, "LS-2").verdict());
        assertTrue(e.reason().matches(java.util.regex.Pattern.quote("localSpreadCpus(node=1, count=5) for kernel 6.1 did not return"
                + " within 200 ms; expected an answer (per-call timeout)") + HANGING_STACK), e.reason());
    }

    @Test
    void callThatIgnoresTheInterruptIsLeftBehindAndTheNextCheckRuns() {
        Certificate c = certifier(List.of(WRAP, LOCAL_FIRST)).certify(new Unstoppable(5), options().withCallTimeout(Duration.ofMillis(200)));
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, result(c, "LS-2").verdict());
        assertTrue(e.reason().matches(java.util.regex.Pattern.quote("localSpreadCpus(node=1, count=5) for kernel 6.1 did not return"
                + " within 200 ms; expected an answer (per-call timeout); it was at ") + ".*"
                + "dev\\.numaspread\\.conformance\\.certify\\.FakeImplementations\\$Unstoppable\\.localSpreadCpus\\(FakeImplementations\\.java:\\d+\\)"
                + java.util.regex.Pattern.quote("; interrupted, it did not return within 200 ms more, so the kit left it running and went on")),
                e.reason());
        assertEquals("PASS", result(c, "LS-1").verdict().label());
        assertEquals(20, result(c, "LS-1").tries());
    }

    @Test
    void claimedButUnsupportedRoutineIsError() {
        Certificate c = certifier(List.of(WRAP)).certify(new Liar(), options());
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, result(c, "LS-2").verdict());
        assertTrue(e.reason().startsWith("the implementation claims local-spread for kernel 6.1 but localSpreadCpus(node=1, count=5)"
                + " threw UnsupportedOperationException"), e.reason());
    }

    @Test
    void wrongShapeIsError() {
        Certificate c = certifier(List.of(WRAP)).certify(new ShortAnswer(), options());
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, result(c, "LS-2").verdict());
        assertEquals("localSpreadCpus(node=1, count=5) for kernel 6.1 returned 4 CPUs for count 5; expected the SPI's shape", e.reason());
    }

    @Test
    void crashingImplementationIsError() {
        Certificate c = certifier(List.of(WRAP)).certify(new Crashing(), options());
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, result(c, "LS-2").verdict());
        assertEquals("localSpreadCpus(node=1, count=5) for kernel 6.1 crashed: java.lang.NullPointerException: masks", e.reason());
    }

    @Test
    void waivedFailureIsWaivedAndKeepsExitZero() {
        Waivers w = Waivers.parse("LS-1 2026-12-31 nodes by id until acme 2.0\n", "waivers.txt");
        Certificate c = certifier(List.of(LOCAL_FIRST, WRAP)).certify(new NodesVisitedById(), options().withWaivers(w));
        Verdict.Waived v = assertInstanceOf(Verdict.Waived.class, result(c, "LS-1").verdict());
        assertEquals("FAIL", v.underlying().label());
        assertEquals("waivers.txt:1", v.waiver().location());
        assertEquals("PASS", result(c, "LS-2").verdict().label());
        assertEquals(1, c.exitCode(), "LS-4 is NOT-VERIFIED");
        Certificate only = certifier(List.of(LOCAL_FIRST, WRAP)).certify(new NodesVisitedById(), options().withWaivers(w).withRule("LS-1"));
        assertEquals("WAIVED", result(only, "LS-1").verdict().label());
        assertEquals(0, only.exitCode());
        assertEquals("none", only.levelReached());
    }

    @Test
    void waivedRuleThatPassesIsUnexpectedPass() {
        Waivers w = Waivers.parse("# acme\nLS-1 2026-12-31 nodes by id\n", "waivers.txt");
        Certificate c = certifier(List.of(LOCAL_FIRST)).certify(new Spread(), options().withWaivers(w));
        Verdict.UnexpectedPass v = assertInstanceOf(Verdict.UnexpectedPass.class, result(c, "LS-1").verdict());
        assertEquals("waivers.txt:2", v.waiver().location());
        assertEquals(1, c.exitCode());
    }

    @Test
    void expiredWaiverIsIgnoredWithANote() {
        Waivers w = Waivers.parse("LS-1 2026-01-31 nodes by id\n", "waivers.txt");
        Certificate c = certifier(List.of(LOCAL_FIRST)).certify(new NodesVisitedById(), options().withWaivers(w));
        assertEquals("FAIL", result(c, "LS-1").verdict().label());
        assertEquals(List.of("waivers.txt:1: waiver of LS-1 expired on 2026-01-31; the rule is judged as usual"), c.notes());
    }

    @Test
    void badWaiverLineNamesFileAndLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Waivers.parse("\nLS-1 soon because\n", "w.txt"));
        assertEquals("w.txt:2: found expiry 'soon'; expected a date YYYY-MM-DD", e.getMessage());
    }

    /** Found by the fuzz campaign (ReaderFuzzTest): a rule id of 115,000 digits was quoted whole. */
    @Test
    void aSecondWaiverQuotesAtMostSixtyCharactersOfItsRule() {
        String rule = "MQ-" + "9".repeat(1000);
        assertEquals("w.txt:2: found a second waiver of " + rule.substring(0, 60) + "... (first at w.txt:1); expected one waiver per rule",
                assertThrows(IllegalArgumentException.class, () -> Waivers.parse(rule + " 2026-12-31 a\n" + rule + " 2026-12-31 b\n", "w.txt")).getMessage());
    }

    @Test
    void kernelFilterKeepsOnlyThatRelease() {
        Certificate c = certifier(List.of(LOCAL_FIRST)).certify(new Spread(), options().withKernel(KernelRelease.of(6, 12)));
        assertTrue(c.claims().isEmpty());
        assertEquals(1, c.exitCode());
        assertEquals("the implementation claims no routine for kernel 6.12; it claims [local-spread@6.1]", c.notes().get(0));
    }

    @Test
    void guardPassesImmutableListsAndRejectsNullMasks() {
        dev.numaspread.conformance.spi.Implementation masks = new Spread() {
            @Override public List<dev.numaspread.conformance.spi.Claim> claims() {
                return List.of(dev.numaspread.conformance.spi.Claim.of("hop-masks", "6.12"));
            }
            @Override public List<dev.numaspread.model.cpu.CpuSet> hopMasks(KernelRelease k, dev.numaspread.model.topology.Topology m, int node) {
                return node == 0 ? List.of(dev.numaspread.model.cpu.CpuSet.parseList("0-1"))
                        : java.util.Arrays.asList(dev.numaspread.model.cpu.CpuSet.parseList("2-3"), null);
            }
        };
        GuardedImplementation g = new GuardedImplementation(masks, masks.claims(), Duration.ofSeconds(5), true);
        assertEquals(List.of(dev.numaspread.model.cpu.CpuSet.parseList("0-1")), g.hopMasks(KernelRelease.of(6, 12), TWO_NODES, 0));
        ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> g.hopMasks(KernelRelease.of(6, 12), TWO_NODES, 1));
        assertEquals("hopMasks(node=1) for kernel 6.12 returned a null mask; expected the SPI's shape", e.getMessage());
        NotClaimedCall n = assertThrows(NotClaimedCall.class, () -> g.localSpreadCpus(KernelRelease.of(6, 12), TWO_NODES, 0, 1));
        assertEquals("calls local-spread for kernel 6.12, which is not claimed", n.getMessage());
        g.close();
    }

    @Test
    void processReplayQuotesTheCommand() {
        CertifyOptions o = CertifyOptions.defaults("process:python3 spread.py").withSettings(new Settings(5, 0x1f, Duration.ofSeconds(1)));
        assertEquals("numaspread certify --impl 'process:python3 spread.py' --kernel 6.12 --tries 5 --seed 0x1f --budget 1 --rule LS-3",
                Certifier.replay(o, KernelRelease.of(6, 12), "LS-3"));
    }

    /** A program started before the certification (to check it starts) said hello then: that wait is not in it. */
    @Test
    void timeInsideAProgramCountsOnlyWhileTheCertificationRuns() {
        class StartedEarlier extends Spread implements dev.numaspread.conformance.spi.RemoteImplementation {
            @Override public int maxConcurrentCalls() { return 1; }
            @Override public dev.numaspread.conformance.spi.Traffic traffic() {
                return new dev.numaspread.conformance.spi.Traffic(1, 1, Duration.ofSeconds(30));   // the hello, before
            }
            @Override public void askTwice(boolean on) {}
        }
        Certificate c = certifier(List.of(LOCAL_FIRST, WRAP)).certify(new StartedEarlier(), options());
        assertEquals(Duration.ZERO, c.workload().insideImplementation(), c.workload().text());
        assertEquals(c.workload().total(), c.workload().inKit(), c.workload().text());
    }
}
