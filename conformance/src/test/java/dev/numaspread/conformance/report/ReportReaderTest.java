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
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertTrue(notJson.startsWith("r.json:1:1: invalid JSON (Unrecognized token 'x'")
                && notJson.endsWith("); expected a report.json of numaspread certify"), notJson);
        assertRefused(json -> json.replace("\"verdict\" : \"FAIL\"", "\"verdict\" : \"MAYBE\""),
                "r.json:/rules/1/verdict: found 'MAYBE'; expected one of PASS, FAIL, ERROR, NOT-CLAIMED, WAIVED, UNEXPECTED-PASS,"
                        + " NOT-VERIFIED, INTERNAL-ERROR");
    }

    static final java.util.regex.Pattern NEWLINE = java.util.regex.Pattern.compile("\n");

    /** The report of {@link ReportWriterTest#certificate()} edited by {@code edit} is refused with {@code message}. */
    static void assertRefused(java.util.function.UnaryOperator<String> edit, String message) {
        String json = ReportWriter.json(ReportWriterTest.certificate());
        String edited = edit.apply(json);
        assertTrue(!edited.equals(json), "the edit changed nothing");
        assertEquals(message, assertThrows(ReportReader.BadReport.class, () -> ReportReader.parse("r.json", edited)).getMessage());
    }

    /** Found by the second campaign (issue 25): a report's own summary and verdicts were taken on trust. */
    @Test
    void aReportThatContradictsItselfIsRefused() {
        // PASS with nothing behind it.
        assertRefused(json -> json.replaceFirst("(?s)\"evidence\" : \\[ \\{\\s*\"source\" : \"check LS_1\".*?\\} \\]", "\"evidence\" : [ ]"),
                "r.json:/rules/0/tries: found 200; expected 0, what its evidence adds up to");
        assertRefused(json -> json.replaceFirst("(?s)\"tries\" : 200,\\s*\"judged\" : 200,(.*?)\"evidence\" : \\[ \\{\\s*\"source\" : \"check LS_1\".*?\\} \\]",
                        "\"tries\" : 0, \"judged\" : 0,$1\"evidence\" : [ ]"),
                "r.json:/rules/0/evidence: found no evidence for PASS; expected the checks and scenarios behind it");
        // A PASS whose source judged nothing.
        assertRefused(json -> json.replace("\"judged\" : 200,", "\"judged\" : 0,"),
                "r.json:/rules/0/evidence/0/judged: found a source that passed having judged nothing; expected a pass to have reached the implementation");
        // A FAIL turned into a PASS.
        assertRefused(json -> json.replace("\"verdict\" : \"FAIL\"", "\"verdict\" : \"PASS\""),
                "r.json:/rules/1/verdict: found PASS but its evidence gives FAIL; expected the verdict its evidence gives");
        assertRefused(json -> json.replace("\"outcome\" : \"FAILED\"", "\"outcome\" : \"GREAT\""),
                "r.json:/rules/1/evidence/0/outcome: found 'GREAT'; expected one of [PASSED, FAILED, ERRORED, NOT_VERIFIED, KIT_FAILED]");
        // Exit code, counts and level that are not the rules'.
        assertRefused(json -> json.replace("\"exitCode\" : 1", "\"exitCode\" : 0"),
                "r.json:/exitCode: found 0; expected 1, the exit code its rules give");
        assertRefused(json -> json.replace("\"FAIL\" : 1", "\"FAIL\" : 0"), "r.json:/counts/FAIL: found 0; expected 1, the FAIL results its rules hold");
        // Tries that overflow, or are negative.
        assertRefused(json -> json.replaceFirst("\"tries\" : 200,(\\s*)\"judged\"", "\"tries\" : 4294967496,$1\"judged\""),
                "r.json:/rules/0/tries: found '4294967496'; expected a whole number 0 to 2147483647");
        assertRefused(json -> json.replace("\"tries\" : 37,", "\"tries\" : -37,"),
                "r.json:/rules/1/tries: found '-37'; expected a whole number 0 to 2147483647");
        // A key twice: which of the two counts is not JSON's to say.
        assertRefused(json -> json.replace("\"rules\" : [", "\"rules\" : [ ], \"rules\" : ["),
                "r.json:36:25: invalid JSON (Duplicate field 'rules'); expected a report.json of numaspread certify");
    }

    /** Found by the second campaign: Jackson's words, no position, for deep nesting and bad bytes. */
    @Test
    void whatIsNotJsonTextIsRefusedWithItsPosition() {
        String deep = "[".repeat(100) + "]".repeat(100);
        String m = assertThrows(ReportReader.BadReport.class, () -> ReportReader.parse("r.json", deep)).getMessage();
        assertEquals("r.json:1:66: invalid JSON (Document nesting depth (65) exceeds the maximum allowed (64)); expected a report.json of numaspread certify", m);
        assertTrue(!m.contains("com.fasterxml") && !m.contains("Exception"), m);
    }

    @Test
    void aReportFileIsReadAsBoundedText(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path bad = dir.resolve("report.json");
        java.nio.file.Files.write(bad, new byte[]{'{', ' ', '"', (byte) 0xff, '"', ':', '1', '}'});
        assertEquals(bad + ":1:4: byte 0xff is not UTF-8; expected UTF-8 text",
                assertThrows(ReportReader.BadReport.class, () -> ReportReader.read(bad)).getMessage());
        java.nio.file.Path big = dir.resolve("big.json");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(1L << 30);   // sparse: 1 GB on paper, nothing on disk
        }
        assertEquals(big + ": a file of 1073741824 bytes; expected a report.json of numaspread certify of at most 16 MiB (spec/formats.md FMT-17)",
                assertThrows(ReportReader.BadReport.class, () -> ReportReader.read(big)).getMessage());
    }

    /** Found by the second campaign: a lone surrogate in a shard's title made merge-reports exit 3 without its reports. */
    @Test
    void textFromAReportIsMadePrintable() {
        String json = ReportWriter.json(ReportWriterTest.certificate()).replace("Local CPUs come first", "Local \\ud800 \\u001b]0;pwned\\u0007");
        Certificate c = ReportReader.parse("r.json", json);
        assertEquals("Local \\u{d800} \\x1b]0;pwned\\x07", c.results().get(1).title());
        assertTrue(ReportWriter.markdown(c).contains("Local \\\\u{d800} \\\\x1b]0;pwned\\\\x07"), ReportWriter.markdown(c));
    }
}
