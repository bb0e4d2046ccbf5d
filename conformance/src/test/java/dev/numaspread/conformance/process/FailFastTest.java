package dev.numaspread.conformance.process;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A broken program is certified at once: every claimed rule gets its ERROR, and the kit starts
 * the program twice in all (the first run and one restart), not once per request, per shrink
 * step or per scenario. Counted through the runs file {@link FakeProcess} appends to.
 */
class FailFastTest {

    static Certificate certify(ProcessImplementation p, long timeoutMillis) {
        return Certifier.standard().certify(p, CertifyOptions.defaults("process:fake").withCallTimeout(Duration.ofMillis(timeoutMillis)));
    }

    static void everyClaimedRuleIsError(Certificate c) {
        List<RuleResult> claimed = c.claimed();
        assertFalse(claimed.isEmpty(), "no claimed rule was judged");
        for (RuleResult r : claimed)
            assertInstanceOf(Verdict.Error.class, r.verdict(), () -> r.rule() + " is " + r.verdict().label() + "; expected ERROR");
        assertEquals(1, c.exitCode());
    }

    @Test
    void programThatCrashesAfterHelloRunsTwice(@TempDir Path dir) throws Exception {
        Path runs = dir.resolve("runs");
        Certificate c;
        try (ProcessImplementation p = ProcessImplementationTest.fake("crash-after-hello", "2", 20_000, runs.toString())) {
            c = certify(p, 20_000);
        }
        everyClaimedRuleIsError(c);
        assertEquals(2, Files.readAllLines(runs).size());
        String reasons = c.claimed().stream().map(r -> ((Verdict.Error) r.verdict()).reason()).reduce("", (a, b) -> a + "\n" + b);
        assertTrue(reasons.contains("exited with status 4; stderr: panic in run 1"), reasons);
        assertTrue(reasons.contains("exited with status 4; stderr: panic in run 2"), reasons);
    }

    @Test
    void programThatHangsRunsTwice(@TempDir Path dir) throws Exception {
        Path runs = dir.resolve("runs");
        Certificate c;
        try (ProcessImplementation p = ProcessImplementationTest.fake("hang", "2", 20_000, runs.toString())) {
            p.setRequestTimeout(Duration.ofMillis(1500));   // hello gets at least 10 s: the JVM starts slowly
            c = certify(p, 1500);
        }
        everyClaimedRuleIsError(c);
        assertEquals(2, Files.readAllLines(runs).size());
        String reasons = c.claimed().stream().map(r -> ((Verdict.Error) r.verdict()).reason()).reduce("", String::concat);
        assertTrue(reasons.contains("no answer within 1500 ms (per-request timeout)"), reasons);
    }
}
