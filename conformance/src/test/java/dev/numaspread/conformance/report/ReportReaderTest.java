package dev.numaspread.conformance.report;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Counterexample;
import dev.numaspread.conformance.certify.Evidence;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.certify.Waivers;
import dev.numaspread.conformance.certify.Workload;
import dev.numaspread.conformance.checks.GradedRuns;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.model.hotplug.Outcome;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** report.json read back is the certificate it was written from: written again, every format is the same. */
class ReportReaderTest {

    /** Every verdict, interleavings, a workload, an exhaustive shard. */
    static Certificate everyVerdict() {
        KernelRelease k = KernelRelease.of(6, 12);
        Waivers.Waiver w = new Waivers.Waiver("HP-1", LocalDate.of(2027, 1, 31), "known race", "waivers.txt:3");
        Counterexample x = new Counterexample("irqSetup(count=2)", "no offline CPU", "cpu 1 (offline)", "hint", Optional.empty(), "A sentence.");
        GradedRuns g = new GradedRuns(OutcomeTable.ATOMIC, 3, new TreeMap<>(Map.of(Outcome.SAME_PLAN, 40, Outcome.PLAN_AFTER_EVENT, 2)));
        List<RuleResult> rules = List.of(
                new RuleResult("HP-1", "Atomic", "MUST", "spec/hotplug.md:5", Optional.of(k),
                        new Verdict.Waived(w, new Verdict.Fail(x, 12, "check HP_1")),
                        List.of(new Evidence("check HP_1", Evidence.Outcome.FAILED, 12, 12, Optional.of(x), "", List.of(g), 0, 0)), "replay hp1"),
                new RuleResult("HP-2", "No offline CPU", "MUST", "spec/hotplug.md:9", Optional.of(k), new Verdict.UnexpectedPass(
                        new Waivers.Waiver("HP-2", LocalDate.of(2027, 1, 31), "", "waivers.txt:4"), 7),
                        List.of(Evidence.passed("check HP_2", 7, 7, List.of(g), 7, 3)), ""),
                new RuleResult("LS-1", "Online", "MUST", "spec/local-spread.md:3", Optional.of(k), new Verdict.Error("hung", "check LS_1"),
                        List.of(Evidence.errored("check LS_1", "hung")), ""),
                new RuleResult("LS-2", "Wrap", "MUST", "spec/local-spread.md:9", Optional.of(k), new Verdict.InternalError("broke", "check LS_2"),
                        List.of(Evidence.kitFailed("check LS_2", "broke")), ""),
                new RuleResult("LS-3", "Local", "MUST", "spec/local-spread.md:19", Optional.of(k), new Verdict.NotVerified("budget"),
                        List.of(Evidence.notVerified("check LS_3", 4, "budget"), Evidence.passed("scenario f:1 \"a\"", 1)), ""));
        Settings s = new Settings(200, 0xfedcba9876543210L, Duration.ofSeconds(30)).withExhaustive(2).withShard(new Shard(2, 3));
        return new Certificate("acme", "java:acme.Spread", List.of(Claim.of("irq-setup", "6.12"), Claim.of("local-spread", "6.12")), "1.0.0", s,
                Instant.parse("2026-06-01T10:00:00Z"), Instant.parse("2026-06-01T10:01:00Z"), rules, List.of("a note"),
                new Workload(100, 20, 5, Duration.ofMillis(60_000), Duration.ofMillis(12_345), Duration.ofMillis(40_000)));
    }

    @Test
    void readBack_writesTheSameFiles() {
        for (Certificate c : List.of(ReportWriterTest.certificate(), everyVerdict())) {
            Certificate back = ReportReader.parse("report.json", ReportWriter.json(c));
            assertEquals(ReportWriter.json(c), ReportWriter.json(back));
            assertEquals(ReportWriter.markdown(c), ReportWriter.markdown(back));
            assertEquals(ReportWriter.junit(c), ReportWriter.junit(back));
            assertEquals(ConsoleCertificate.render(c), ConsoleCertificate.render(back));
        }
    }

    @Test
    void notAReport_isRefusedNamingWhereAndWhat() {
        String notJson = assertThrows(ReportReader.BadReport.class, () -> ReportReader.parse("r.json", "x")).getMessage();
        org.junit.jupiter.api.Assertions.assertTrue(notJson.startsWith("r.json:1: not JSON (Unrecognized token 'x'")
                && notJson.endsWith("); expected a report.json of numaspread certify"), notJson);
        String json = ReportWriter.json(ReportWriterTest.certificate()).replace("\"verdict\" : \"FAIL\"", "\"verdict\" : \"MAYBE\"");
        assertEquals("r.json: rule LS-3 (kernel 6.12): verdict \"MAYBE\"; expected a report.json of numaspread certify",
                assertThrows(ReportReader.BadReport.class, () -> ReportReader.parse("r.json", json)).getMessage());
    }
}
