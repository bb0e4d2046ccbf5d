package dev.numaspread.conformance.junit;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.Counterexample;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.certify.Waivers;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JUnit 5 route judged as a third party meets it: subclasses of {@link Certification} run
 * through the JUnit Platform launcher, and their tests' names and outcomes read back. The
 * certifications here claim local spread for one release with few tries; the example project
 * (examples/junit-tck, run by mvn verify through the invoker) certifies with the defaults.
 */
class CertificationTest {

    static final KernelRelease V6_1 = KernelRelease.of(6, 1);

    /** The reference model, claiming local spread for 6.1 only. */
    static class LocalSpreadOf61 implements Implementation {
        final ReferenceModel model = new ReferenceModel();
        @Override public String name() { return "model local-spread 6.1"; }
        @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.1")); }
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            return model.localSpreadCpus(k, m, node, count);
        }
    }

    /** The slip LS-3 names: every online CPU by id, whatever the node. */
    static final class NodesVisitedById extends LocalSpreadOf61 {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            int[] cpus = new int[count];
            for (int i = 0; i < count; i++) cpus[i] = m.online().nth(i % m.numOnlineCpus());
            return cpus;
        }
    }

    // Nested, so Surefire does not run them by itself (it leaves out classes with a '$').
    static class Correct extends Certification {
        @Override protected Implementation implementation() { return new LocalSpreadOf61(); }
        @Override protected CertifyOptions options(CertifyOptions fromProperties) {
            return fromProperties.withSettings(fromProperties.settings().withTries(40));
        }
    }

    static final class Wrong extends Correct {
        @Override protected Implementation implementation() { return new NodesVisitedById(); }
    }

    static final class ClaimsNothing extends Certification {
        @Override protected Implementation implementation() {
            return new Implementation() {
                @Override public String name() { return "claims nothing"; }
                @Override public List<Claim> claims() { return List.of(); }
            };
        }
    }

    /** What the launcher reported of one dynamic test: its outcome and the message it carried. */
    record Outcome(TestExecutionResult.Status status, String message, Optional<Throwable> error) {}

    /** The dynamic tests of {@code testClass} by display name, as a build tool sees them. */
    static Map<String, Outcome> run(Class<?> testClass) {
        Map<String, Outcome> out = new TreeMap<>();
        List<String> containerFailures = new ArrayList<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override public void executionSkipped(TestIdentifier id, String reason) {
                out.put(id.getDisplayName(), new Outcome(null, reason, Optional.empty()));
            }
            @Override public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                String message = result.getThrowable().map(Throwable::getMessage).orElse("");
                if (id.isTest()) out.put(id.getDisplayName(), new Outcome(result.getStatus(), message, result.getThrowable()));
                else if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL)
                    containerFailures.add(id.getDisplayName() + ": " + message);
            }
        };
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(testClass)).build(), listener);
        if (!containerFailures.isEmpty()) out.put("(container)", new Outcome(TestExecutionResult.Status.FAILED,
                String.join("\n", containerFailures), Optional.empty()));
        return out;
    }

    @Test
    void aCorrectImplementationPassesOneTestPerRuleAndRelease_unclaimedRulesAreSkipped() {
        Map<String, Outcome> tests = run(Correct.class);
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, tests.get("LS-3 Local CPUs come first [6.1]").status(), tests.toString());
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, tests.get("LS-1 Offline CPUs are never returned [6.1]").status());
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, tests.get("numaspread certificate").status());
        // Every claimed rule of 6.1 passes; nothing else passes.
        List<String> passed = tests.entrySet().stream().filter(e -> e.getValue().status() == TestExecutionResult.Status.SUCCESSFUL)
                .map(Map.Entry::getKey).filter(n -> !n.equals("numaspread certificate")).toList();
        assertTrue(passed.size() >= 6, "passed " + passed);
        assertTrue(passed.stream().allMatch(n -> n.matches("LS-\\d+ .+ \\[6\\.1]")), "passed " + passed);
        // A rule of a routine not claimed is aborted with the reason, never passed.
        Outcome grp = tests.entrySet().stream().filter(e -> e.getKey().startsWith("GRP-1 ")).findFirst().orElseThrow().getValue();
        assertEquals(TestExecutionResult.Status.ABORTED, grp.status());
        assertTrue(grp.message().startsWith("NOT-CLAIMED GRP-1 ") && grp.message().contains("routine group-cpus not claimed"),
                grp.message());
        assertTrue(tests.keySet().stream().noneMatch(n -> n.startsWith("GRP-1 ") && n.endsWith("]")),
                "a rule not claimed is named without a release: " + tests.keySet());
        assertTrue(Files.isRegularFile(Path.of("target", "numaspread-report", "Correct", "report.html")),
                "expected the reports in target/numaspread-report/Correct");
    }

    @Test
    void aWrongImplementationFailsItsRuleWithTheCertificateTextTheMachineAndTheReplay() {
        Map<String, Outcome> tests = run(Wrong.class);
        Outcome ls3 = tests.get("LS-3 Local CPUs come first [6.1]");
        assertEquals(TestExecutionResult.Status.FAILED, ls3.status(), tests.toString());
        assertTrue(ls3.error().orElseThrow() instanceof AssertionFailedError, ls3.error().toString());
        String m = ls3.message();
        assertTrue(m.startsWith("FAIL LS-3 Local CPUs come first (MUST; kernel 6.1; implementation \"model local-spread 6.1\")\n"), m);
        assertTrue(m.contains("\n  hint      are nodes visited by distance from node "), m);
        assertTrue(m.contains("shrunk machine (paste into fixtures/topologies/):\n") && m.contains("node distances:"), m);
        String replay = "mvn test -Dtest=" + Wrong.class.getName()
                + " -Dnumaspread.rule=LS-3 -Dnumaspread.kernel=6.1 -Dnumaspread.seed=0x5eed -Dnumaspread.tries=40";
        assertTrue(m.contains("\n  replay    cd " + Path.of("").toAbsolutePath() + " && " + replay), m);
        assertEquals(0, ls3.error().get().getStackTrace().length, "the kit's stack trace says nothing to the implementer");
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, tests.get("LS-1 Offline CPUs are never returned [6.1]").status());
        // The certificate test carries the summary; it fails only when nothing was judged.
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, tests.get("numaspread certificate").status());
    }

    @Test
    void anImplementationThatClaimsNothingFailsTheCertificateTest() {
        Map<String, Outcome> tests = run(ClaimsNothing.class);
        Outcome c = tests.get("numaspread certificate");
        assertEquals(TestExecutionResult.Status.FAILED, c.status(), tests.toString());
        assertEquals("numaspread certificate of \"claims nothing\": no rule judged; expected at least one claimed routine whose"
                + " rules are in this run\nnote: the implementation claims no routine", c.message());
        assertTrue(tests.values().stream().noneMatch(o -> o.status() == TestExecutionResult.Status.SUCCESSFUL), tests.toString());
    }

    // ------------------------------------------------------------ verdicts to JUnit outcomes

    static final Certificate CERTIFICATE = new Certificate("acme", "java:com.acme.Spread", List.of(Claim.of("local-spread", "6.1")),
            "test", Settings.defaults(), Instant.EPOCH, Instant.EPOCH, List.of(), List.of());

    static RuleResult result(Verdict v) {
        return new RuleResult("LS-3", "Local CPUs come first", "MUST", "spec/local-spread.md:39", Optional.of(V6_1), v, List.of(),
                "mvn test -Dnumaspread.rule=LS-3");
    }

    @Test
    void everyVerdictHasItsJUnitOutcome() {
        Certification.judge(CERTIFICATE, result(new Verdict.Pass(200)));
        Counterexample x = new Counterexample("localSpreadCpus(node=1, i=0..0)", "the CPUs of node 1 (1)", "0", "", Optional.empty());
        assertThrows(AssertionFailedError.class, () -> Certification.judge(CERTIFICATE, result(new Verdict.Fail(x, 3, "check LS_3"))));
        Waivers.Waiver w = Waivers.parse("LS-3 2099-01-01 known", "waivers.txt").of("LS-3").orElseThrow();
        assertThrows(AssertionFailedError.class, () -> Certification.judge(CERTIFICATE, result(new Verdict.UnexpectedPass(w, 200))));
        ImplementationFailure e = assertThrows(ImplementationFailure.class,
                () -> Certification.judge(CERTIFICATE, result(new Verdict.Error("timed out after 10 s", "check LS_3"))));
        assertTrue(e.getMessage().startsWith("ERROR LS-3 Local CPUs come first") && e.getMessage().contains("timed out after 10 s"),
                e.getMessage());
        IllegalStateException ie = assertThrows(IllegalStateException.class,
                () -> Certification.judge(CERTIFICATE, result(new Verdict.InternalError("boom", "check LS_3"))));
        assertTrue(ie.getMessage().startsWith("INTERNAL-ERROR LS-3 "), ie.getMessage());
        for (Verdict skipped : List.of(new Verdict.NotClaimed("local-spread"), new Verdict.NotVerified("6 of 200 tries ran"),
                new Verdict.Waived(w, new Verdict.Fail(x, 3, "check LS_3")))) {
            TestAbortedException a = assertThrows(TestAbortedException.class, () -> Certification.judge(CERTIFICATE, result(skipped)));
            assertTrue(a.getMessage().startsWith(skipped.label() + " LS-3 Local CPUs come first"), a.getMessage());
        }
    }

    @Test
    void namesAndSources() {
        assertEquals("LS-3 Local CPUs come first [6.1]", Certification.displayName(result(new Verdict.Pass(1))));
        assertEquals("LS-3 Local CPUs come first", Certification.displayName(new RuleResult("LS-3", "Local CPUs come first", "MUST",
                "", Optional.empty(), new Verdict.NotClaimed("local-spread"), List.of(), "")));
        assertEquals("classpath:/numaspread/spec/local-spread.md?line=39", Certification.specSource("spec/local-spread.md:39").toString());
        assertEquals("classpath:/numaspread/spec/README.md", Certification.specSource("").toString());
    }

    // ------------------------------------------------------------ system properties

    /** Waivers compare by identity: both sides of a comparison get this one. */
    static final Waivers NONE = Waivers.none();

    static CertificationProperties read(Map<String, String> p) {
        return CertificationProperties.read(p::get, dev.numaspread.conformance.certify.Certifier.standard());
    }

    @Test
    void theReplayPropertiesSelectRuleReleaseSeedAndTries() {
        CertificationProperties p = read(Map.of("numaspread.rule", "LS-3", "numaspread.kernel", "6.12", "numaspread.seed", "0x1f3a9c",
                "numaspread.tries", "50", "numaspread.once", "true", "numaspread.timeout.seconds", "3"));
        CertifyOptions o = p.options("java:com.acme.Spread");
        assertEquals(Optional.of("LS-3"), o.rule());
        assertEquals(Optional.of(KernelRelease.of(6, 12)), o.kernel());
        assertEquals(0x1f3a9cL, o.settings().seed());
        assertEquals(50, o.settings().tries());
        assertEquals(Duration.ofSeconds(3), o.callTimeout());
        assertEquals(false, o.repeatCalls());
        assertEquals("P -Dnumaspread.rule=LS-3 -Dnumaspread.kernel=6.12 -Dnumaspread.seed=0x1f3a9c -Dnumaspread.tries=50"
                + " -Dnumaspread.timeout.seconds=3 -Dnumaspread.once=true", CertificationProperties.replay("P", o, KernelRelease.of(6, 12), "LS-3"));
        // The replay line, read back, gives the same options: it replays what it says.
        CertificationProperties back = read(Map.of("numaspread.rule", "LS-3", "numaspread.kernel", "6.12", "numaspread.seed", "0x1f3a9c",
                "numaspread.tries", "50", "numaspread.timeout.seconds", "3", "numaspread.once", "true"));
        assertEquals(o.withWaivers(NONE), back.options("java:com.acme.Spread").withWaivers(NONE));
        // A seed printed as Long.toHexString of a negative seed reads back.
        assertEquals(-2L, read(Map.of("numaspread.seed", "0xfffffffffffffffe")).settings().seed());
        // Nothing set: the kit's defaults.
        CertificationProperties d = read(Map.of());
        assertEquals(CertifyOptions.defaults("x").withSettings(new Settings(Settings.DEFAULT_TRIES, Settings.DEFAULT_SEED,
                Settings.DEFAULT_BUDGET)).withWaivers(NONE), d.options("x").withWaivers(NONE));
        assertTrue(d.waivers().all().isEmpty());
    }

    @Test
    void aPropertyThatIsNotUnderstoodIsAnErrorNamingIt() {
        assertEquals("-Dnumaspread.rule=LS_3: found no rule 'LS_3'; did you mean LS-3? (the LS rules are LS-1 to LS-",
                message(Map.of("numaspread.rule", "LS_3")).replaceAll("LS-1 to LS-\\d+\\)$", "LS-1 to LS-"));
        assertTrue(message(Map.of("numaspread.kernel", "6.20")).startsWith("-Dnumaspread.kernel=6.20: "));
        assertEquals("-Dnumaspread.tries=lots: not a number; expected 1 to 1000000", message(Map.of("numaspread.tries", "lots")));
        assertEquals("-Dnumaspread.tries=0: out of range; expected 1 to 1000000", message(Map.of("numaspread.tries", "0")));
        assertEquals("-Dnumaspread.seed=x: not a number; expected decimal or 0x hex, as 0x5eed", message(Map.of("numaspread.seed", "x")));
        assertEquals("-Dnumaspread.once=yes: expected true or false", message(Map.of("numaspread.once", "yes")));
    }

    private static String message(Map<String, String> p) {
        return assertThrows(IllegalArgumentException.class, () -> read(p)).getMessage();
    }

    @Test
    void aWaiverFileFromTheProperties() throws Exception {
        Path f = Files.createTempFile("waivers", ".txt");
        Files.writeString(f, "LS-3 2099-12-31 our node order is by id for now\n");
        CertificationProperties p = read(Map.of("numaspread.waivers", f.toString()));
        assertEquals(LocalDate.of(2099, 12, 31), p.waivers().of("LS-3").orElseThrow().expires());
        Files.delete(f);
    }
}
