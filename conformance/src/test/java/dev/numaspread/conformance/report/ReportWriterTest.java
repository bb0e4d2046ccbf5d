package dev.numaspread.conformance.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Counterexample;
import dev.numaspread.conformance.certify.Evidence;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.*;

class ReportWriterTest {

    static final String EVIL = "<script>alert(\"x\")</script> & 'co'";

    static Certificate certificate() {
        Counterexample x = new Counterexample("localSpread(i=0, node=1)", "a CPU of node 1 (online 4-7)", "cpu 0 (node 0) " + EVIL,
                "are nodes visited by distance from node 1, or by node id?",
                Optional.of("topology two\npossible 0-7\navailable: 2 nodes (0-1)\nnode 0 cpus: 0 1 2 3\nnode 1 cpus: 4 5 6 7\n"));
        RuleResult fail = new RuleResult("LS-3", "Local CPUs come first", "MUST", "spec/local-spread.md:41",
                Optional.of(KernelRelease.of(6, 12)), new Verdict.Fail(x, 37, "check LS_3_localCpusComeFirst"),
                List.of(Evidence.failed("check LS_3_localCpusComeFirst", 37, x)),
                "numaspread certify --impl java:acme.Spread --kernel 6.12 --tries 200 --seed 0x1f3a9c --rule LS-3");
        RuleResult pass = new RuleResult("LS-1", "The wrap " + EVIL, "MUST", "spec/local-spread.md:10",
                Optional.of(KernelRelease.of(6, 12)), new Verdict.Pass(200), List.of(Evidence.passed("check LS_1", 200)), "");
        RuleResult notClaimed = new RuleResult("GRP-1", "Every CPU in one group", "MUST", "spec/group-cpus.md:3",
                Optional.empty(), new Verdict.NotClaimed("group-cpus"), List.of(), "");
        return new Certificate("acme " + EVIL, "java:acme.Spread", List.of(Claim.of("local-spread", "6.12")), "0.1.0",
                new Settings(200, 0x1f3a9cL, Duration.ofSeconds(20)), Instant.parse("2026-06-01T10:00:00Z"),
                Instant.parse("2026-06-01T10:00:02Z"), List.of(pass, fail, notClaimed), List.of("note " + EVIL));
    }

    @Test
    void consoleCertificatePrintsOneLinePerRuleAndTheFailureBlock() {
        String text = ConsoleCertificate.render(certificate());
        assertTrue(text.contains("PASS LS-1 The wrap " + EVIL + " (MUST; kernel 6.12) tries 200 seed 0x1f3a9c\n"), text);
        assertTrue(text.contains(String.join("\n",
                "FAIL LS-3 Local CPUs come first (MUST; kernel 6.12; implementation \"acme " + EVIL + "\")",
                "  rule      spec/local-spread.md:41",
                "  from      check LS_3_localCpusComeFirst",
                "  call      localSpread(i=0, node=1)",
                "  expected  a CPU of node 1 (online 4-7)",
                "  actual    cpu 0 (node 0) " + EVIL,
                "  hint      are nodes visited by distance from node 1, or by node id?",
                "  seed      0x1f3a9c; shrunk machine (paste into fixtures/topologies/):",
                "            topology two",
                "            possible 0-7",
                "            available: 2 nodes (0-1)",
                "            node 0 cpus: 0 1 2 3",
                "            node 1 cpus: 4 5 6 7",
                "  replay    numaspread certify --impl java:acme.Spread --kernel 6.12 --tries 200 --seed 0x1f3a9c --rule LS-3",
                "")), text);
        assertTrue(text.contains("NOT-CLAIMED GRP-1 Every CPU in one group (MUST) routine group-cpus not claimed\n"), text);
        assertTrue(text.endsWith("1 PASS, 1 FAIL, 1 NOT-CLAIMED; level reached: none; exit 1\n"), text);
    }

    @Test
    void consoleCertificateFoldsSeveralNotClaimedRulesIntoOneLineUnlessAskedToListThem() {
        Certificate one = certificate();
        List<RuleResult> results = new java.util.ArrayList<>(one.results());
        results.add(new RuleResult("GRP-2", "Groups and local spread agree", "MUST", "spec/group-cpus.md:9",
                Optional.empty(), new Verdict.NotClaimed("group-cpus"), List.of(), ""));
        results.add(new RuleResult("PP-1", "A pool allocates on its node", "MUST", "spec/page-pool.md:3",
                Optional.empty(), new Verdict.NotClaimed("page-pool"), List.of(), ""));
        Certificate c = new Certificate(one.implementation(), one.implSpec(), one.claims(), one.suiteVersion(), one.settings(),
                one.started(), one.finished(), results, one.notes());
        String folded = ConsoleCertificate.render(c);
        assertFalse(folded.contains("NOT-CLAIMED GRP-1 "), folded);
        assertTrue(folded.contains("\nNOT-CLAIMED 3 rules of routines group-cpus, page-pool, not claimed (--list-not-claimed lists them)\n"
                + "note: note "), folded);
        assertTrue(folded.endsWith("1 PASS, 1 FAIL, 3 NOT-CLAIMED; level reached: none; exit 1\n"), folded);
        String listed = ConsoleCertificate.render(c, true);
        for (String line : List.of("NOT-CLAIMED GRP-1 Every CPU in one group (MUST) routine group-cpus not claimed\n",
                "NOT-CLAIMED GRP-2 Groups and local spread agree (MUST) routine group-cpus not claimed\n",
                "NOT-CLAIMED PP-1 A pool allocates on its node (MUST) routine page-pool not claimed\n"))
            assertTrue(listed.contains(line), listed);
        assertFalse(listed.contains("NOT-CLAIMED 3 rules"), listed);
    }

    @Test
    void htmlEscapesEveryString() {
        String html = ReportWriter.html(certificate());
        assertFalse(html.contains("<script"), "no script element may reach the page");
        assertFalse(html.contains(EVIL));
        assertTrue(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;"));
        assertEquals("&lt;a href=&quot;x&quot;&gt;&amp;&#39;", ReportWriter.esc("<a href=\"x\">&'"));
        assertEquals("\\x07", ReportWriter.esc("\u0007"));
    }

    @Test
    void jsonHasTheRuleFieldsAndTheRun() throws Exception {
        JsonNode j = new ObjectMapper().readTree(ReportWriter.json(certificate()));
        assertEquals("acme " + EVIL, j.get("implementation").asText());
        assertEquals("local-spread", j.get("claims").get(0).get("routine").asText());
        assertEquals("0x1f3a9c", j.get("settings").get("seed").asText());
        assertEquals("2026-06-01T10:00:00Z", j.get("started").asText());
        assertEquals(1, j.get("exitCode").asInt());
        JsonNode fail = j.get("rules").get(1);
        assertEquals("LS-3", fail.get("id").asText());
        assertEquals("FAIL", fail.get("verdict").asText());
        assertEquals("MUST", fail.get("level").asText());
        assertEquals("6.12", fail.get("kernel").asText());
        assertEquals(37, fail.get("tries").asInt());
        assertEquals("localSpread(i=0, node=1)", fail.get("counterexample").get("call").asText());
        assertTrue(fail.get("counterexample").get("machine").asText().startsWith("topology two\n"));
        assertTrue(j.get("rules").get(2).get("kernel").isNull());
    }

    @Test
    void junitXmlParsesAndCountsVerdicts() throws Exception {
        String xml = ReportWriter.junit(certificate());
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        assertEquals("3", d.getDocumentElement().getAttribute("tests"));
        assertEquals("1", d.getDocumentElement().getAttribute("failures"));
        assertEquals("1", d.getDocumentElement().getAttribute("skipped"));
        assertEquals(1, d.getElementsByTagName("failure").getLength());
        assertEquals("cpu 0 (node 0) " + EVIL, ((org.w3c.dom.Element) d.getElementsByTagName("failure").item(0)).getAttribute("message"));
    }

    @Test
    void writeAllWritesFourFiles(@TempDir Path dir) throws Exception {
        List<Path> files = ReportWriter.writeAll(certificate(), dir.resolve("report"));
        assertEquals(List.of("report.json", "report.md", "report.html", "junit.xml"),
                files.stream().map(p -> p.getFileName().toString()).toList());
        String md = Files.readString(files.get(1));
        assertTrue(md.contains("| FAIL | LS-3 | Local CPUs come first | MUST | 6.12 | 37 |"), md);
        // Outside code blocks (where Markdown shows text literally) markup is escaped.
        assertTrue(md.startsWith("# numaspread certificate: acme &lt;script&gt;"), md);
    }

    @Test
    void htmlPutsFailuresFirstLinksThemAndFoldsNotClaimed() {
        String html = ReportWriter.html(certificate());
        int fail = html.indexOf("<a href=\"#r-LS-3-6.12\">FAIL</a>"), pass = html.indexOf(">PASS</td>"), folded = html.indexOf("<details id=\"not-claimed\">");
        assertTrue(fail > 0 && fail < pass, "the failure's row comes before the pass, linked to its details");
        assertTrue(pass < folded && html.indexOf(">NOT-CLAIMED</td>") > folded, "NOT-CLAIMED rows sit inside the folded details");
        assertTrue(html.contains("<section class=\"detail\" id=\"r-LS-3-6.12\">"), html);
        // The LS-3 counterexample describes its answer ("a CPU of node 1"): the machine is drawn alone, and says so.
        assertTrue(html.contains("The rule describes its answer instead of giving a placement: the machine is drawn alone."), html);
        assertTrue(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"placement\""), html);
    }

    @Test
    void placementsParseFromTheFormsTheChecksPrint() {
        assertEquals(List.of("4", "6", "", "0"), slots("4, 6, -1, 0"));
        assertEquals(List.of("0-3", "4-7"), slots("[0-3 | 4-7]"));
        assertEquals(List.of("0-1", "", "2"), slots("[0-1 | none | 2]"));
        assertEquals("group", dev.numaspread.conformance.picture.Placement.parse("x", "[0-1 | 2,4]",
                dev.numaspread.conformance.picture.Placement.setWordOf("groupCpusEvenly(numgrps=2) on ...")).orElseThrow().word());
        assertEquals(List.of("1,3", "0,2"), slots("0:1 1:0 2:1 3:0"));
        assertEquals(Optional.empty(), dev.numaspread.conformance.picture.Placement.parse("x", "a CPU of node 1 (online 4-7)"));
        assertEquals(Optional.empty(), dev.numaspread.conformance.picture.Placement.parse("x", "KernelBug BUG"));
    }

    private static List<String> slots(String text) {
        return dev.numaspread.conformance.picture.Placement.parse("x", text).orElseThrow().slots().stream()
                .map(dev.numaspread.model.cpu.CpuSet::toList).toList();
    }

    /** A name, a note and an answer carrying what a terminal or an XML parser would act on (FMT-19). */
    static final String HOSTILE = "acme\ufffe\u001b[31m\ud800\u202e\r\u0085";

    static Certificate hostile() {
        Certificate c = certificate();
        List<RuleResult> results = c.results().stream().map(r -> r.verdict() instanceof Verdict.Fail f
                ? new RuleResult(r.rule(), r.title(), r.level(), r.location(), r.kernel(),
                        new Verdict.Fail(new Counterexample(f.counterexample().call(), f.counterexample().expected(), "cpu 0 " + HOSTILE,
                                f.counterexample().hint(), f.counterexample().machine()), 37, f.source()), r.evidence(), r.replay())
                : r).toList();
        return new Certificate(HOSTILE, "process:./acme" + HOSTILE, c.claims(), c.suiteVersion(), c.settings(), c.started(), c.finished(),
                results, List.of("note " + HOSTILE));
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("FMT-19")
    void FMT_19_everyReportIsPrintableAndJunitXmlIsWellFormed(@TempDir Path dir) throws Exception {
        Certificate c = hostile();
        for (String out : List.of(ReportWriter.json(c), ReportWriter.markdown(c), ReportWriter.html(c), ReportWriter.junit(c), ConsoleCertificate.render(c)))
            assertEquals(dev.numaspread.model.input.Printable.ofLines(out), out, "every character printable:\n" + out);
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(ReportWriter.junit(c).getBytes(StandardCharsets.UTF_8)));
        assertEquals("numaspread certify acme\\u{fffe}\\x1b[31m\\u{d800}\\u{202e}\\r\\x85", d.getDocumentElement().getAttribute("name"));
        JsonNode j = new ObjectMapper().readTree(ReportWriter.json(c));
        assertEquals("acme\\u{fffe}\\x1b[31m\\u{d800}\\u{202e}\\r\\x85", j.get("implementation").asText());
        assertTrue(ConsoleCertificate.render(c).contains("  actual    cpu 0 acme\\u{fffe}\\x1b[31m\\u{d800}\\u{202e}\\r\\x85\n"));
        List<Path> files = ReportWriter.writeAll(c, dir);
        for (Path f : files) assertArrayEquals(Files.readString(f).getBytes(StandardCharsets.UTF_8), Files.readAllBytes(f), f + " is UTF-8 as written");
    }
}
