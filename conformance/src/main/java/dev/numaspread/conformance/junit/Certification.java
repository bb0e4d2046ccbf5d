package dev.numaspread.conformance.junit;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.Launch;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.report.ReportWriter;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ImplementationFailure;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Certifies an implementation inside your own JUnit 5 build: one test per rule and claimed
 * release. Extend it in your test sources and return your implementation:
 *
 * <pre>{@code
 * class AcmeSpreadTest extends Certification {
 *     @Override protected Implementation implementation() { return new AcmeSpread(); }
 * }
 * }</pre>
 *
 * <p>{@code mvn test} then runs the kit's checks and scenarios of every routine the
 * implementation claims ({@link Implementation#claims()}) and reports each rule and release as one
 * test, named {@code LS-3 Local CPUs come first [6.12]}:
 * <ul>
 *   <li>PASS passes;</li>
 *   <li>FAIL and UNEXPECTED-PASS fail with an {@link AssertionFailedError} whose message is the
 *       certificate's text: the rule's spec line, the call, expected and actual answers, the seed,
 *       the shrunk machine as {@code .topo} and the command that replays the rule;</li>
 *   <li>ERROR (the implementation crashed, hung, answered garbage) fails with an
 *       {@link ImplementationFailure}; INTERNAL-ERROR (the kit broke) with an
 *       {@link IllegalStateException};</li>
 *   <li>NOT-CLAIMED, NOT-VERIFIED and WAIVED are skipped (aborted, as an assumption that does not
 *       hold), with the reason: never passed.</li>
 * </ul>
 * A certificate in which nothing was judged (the implementation claims nothing, or nothing of what it
 * claims is in the run) fails one more test, {@code numaspread certificate}, which otherwise passes
 * and carries the summary.
 *
 * <p>The run is configured through system properties, as {@code mvn test -D...} passes them to the
 * test JVM (see {@link CertificationProperties}): {@code -Dnumaspread.rule=LS-3
 * -Dnumaspread.kernel=6.12 -Dnumaspread.seed=0x5eed -Dnumaspread.tries=200} replays one rule, and a
 * failure prints that line. Override {@link #options(CertifyOptions)} to fix options in code
 * (waivers, say). The reports ({@code report.html} and the others of {@code numaspread certify})
 * go to {@code target/numaspread-report/CLASS/}, or under {@code -Dnumaspread.report=DIR}.
 *
 * <p>Tests that run at the same time as this one must not certify too: the kit's scenarios find the
 * implementation under test in one place per JVM.
 */
public abstract class Certification {

    /** The implementation to certify: a fresh one. Its {@link Implementation#claims()} say what is judged. */
    protected abstract Implementation implementation();

    /**
     * The options of the run: {@code fromProperties} (every claim, the kit's defaults, changed by
     * the {@code numaspread.*} system properties) unless overridden. Return
     * {@code fromProperties.withWaivers(Waivers.read(Path.of("waivers.txt")))} to accept known
     * failures, say. Keep the rule, kernel, seed and tries of {@code fromProperties}, or the replay
     * line a failure prints will not replay it.
     */
    protected CertifyOptions options(CertifyOptions fromProperties) {
        return fromProperties;
    }

    /**
     * One test per rule and release of the certificate of {@link #implementation()}, then the
     * {@code numaspread certificate} test.
     *
     * @throws IllegalArgumentException a {@code numaspread.*} system property is not understood
     *                                  ({@code -Dnumaspread.rule=LS_3: found no rule 'LS_3'; did you mean LS-3?})
     */
    @TestFactory
    public final List<DynamicTest> certify() {
        Certifier kit = Certifier.standard();
        Implementation impl = implementation();
        CertificationProperties properties = CertificationProperties.read(System::getProperty, kit);
        CertifyOptions options = options(properties.options("java:" + impl.getClass().getName()));
        Optional<Path> reports = Optional.of(properties.report().orElse(Path.of("target", "numaspread-report"))
                .resolve(getClass().getSimpleName()));
        String replay = "cd " + Launch.shellWord(Path.of("").toAbsolutePath().toString()) + " && mvn test -Dtest=" + getClass().getName();
        return dynamicTests(kit, impl, options, replay, reports);
    }

    /**
     * The tests of the certificate of {@code impl} under {@code options}, for a test factory of
     * your own (several implementations in one class, say):
     * {@code return Certification.dynamicTests(new AcmeSpread(), CertificationProperties.fromSystem().options("acme"));}.
     * Replay lines name only the system properties; no report is written.
     */
    public static List<DynamicTest> dynamicTests(Implementation impl, CertifyOptions options) {
        return dynamicTests(Certifier.standard(), impl, options, "", Optional.empty());
    }

    /**
     * The tests of one certification.
     *
     * @param replayPrefix the command the replay line starts with ({@code cd DIR && mvn test -Dtest=CLASS}),
     *                     or empty for the system properties alone
     * @param reports      the folder the report files go to, if any
     */
    static List<DynamicTest> dynamicTests(Certifier kit, Implementation impl, CertifyOptions options, String replayPrefix,
                                          Optional<Path> reports) {
        Certificate c = kit.certify(impl, options);
        String reportLine = "";
        if (reports.isPresent()) {
            try {
                ReportWriter.writeAll(c, reports.get());
                reportLine = "report: " + reports.get().toAbsolutePath().resolve("report.html");
            } catch (UncheckedIOException e) {
                reportLine = "report: " + reports.get() + ": cannot write the reports (" + e.getMessage() + ")";
            }
        }
        List<DynamicTest> tests = new ArrayList<>();
        for (RuleResult r : c.results()) {
            RuleResult shown = new RuleResult(r.rule(), r.title(), r.level(), r.location(), r.kernel(), r.verdict(), r.evidence(),
                    r.kernel().map(k -> CertificationProperties.replay(replayPrefix, options, k, r.rule())).orElse(""));
            tests.add(DynamicTest.dynamicTest(displayName(r), specSource(r.location()), () -> judge(c, shown)));
        }
        String summary = ConsoleCertificate.summary(c);
        String notes = c.notes().isEmpty() ? "" : "\nnote: " + String.join("\nnote: ", c.notes());
        String report = reportLine;
        tests.add(DynamicTest.dynamicTest("numaspread certificate", specSource(""), () -> {
            System.out.println("numaspread certificate of \"" + c.implementation() + "\": " + summary + notes
                    + (report.isEmpty() ? "" : "\n" + report));
            if (c.claimed().isEmpty())
                throw quiet(new AssertionFailedError("numaspread certificate of \"" + c.implementation() + "\": no rule judged; "
                        + "expected at least one claimed routine whose rules are in this run" + notes));
        }));
        return tests;
    }

    /** {@code LS-3 Local CPUs come first [6.12]}; without the release for a rule that is not claimed. */
    static String displayName(RuleResult r) {
        return r.rule() + (r.title().isEmpty() ? "" : " " + r.title()) + r.kernel().map(k -> " [" + k + "]").orElse("");
    }

    /** Passes, fails, errs or aborts as the verdict says; the message is the certificate's text. */
    static void judge(Certificate c, RuleResult r) {
        Verdict v = r.verdict();
        String text = ConsoleCertificate.render(c, r).stripTrailing();
        if (v instanceof Verdict.Pass) return;
        if (v instanceof Verdict.Fail || v instanceof Verdict.UnexpectedPass) throw quiet(new AssertionFailedError(text));
        if (v instanceof Verdict.Error) throw quiet(new ImplementationFailure(text));
        if (v instanceof Verdict.InternalError) throw quiet(new IllegalStateException(text));
        if (v instanceof Verdict.NotClaimed || v instanceof Verdict.NotVerified || v instanceof Verdict.Waived)
            throw quiet(new TestAbortedException(text));
        throw new IllegalStateException("verdict " + v.label() + " of " + r.rule() + " has no JUnit outcome; a bug of numaspread");
    }

    /**
     * {@code t} without a stack trace: it would point into the kit, and the message already says
     * where (rule, call, machine, replay).
     */
    private static <T extends Throwable> T quiet(T t) {
        t.setStackTrace(new StackTraceElement[0]);
        return t;
    }

    /**
     * The rule's line in the spec the kit bundles, as a JUnit test source: an IDE opens it. Without a
     * location, the spec's README (how rules are written): every test has a source, so Surefire names
     * each by its display name alone.
     */
    static URI specSource(String location) {
        int colon = location.lastIndexOf(':');
        if (location.isEmpty() || colon < 0) return URI.create("classpath:/numaspread/spec/README.md");
        return URI.create("classpath:/numaspread/" + location.substring(0, colon) + "?line=" + location.substring(colon + 1));
    }
}
