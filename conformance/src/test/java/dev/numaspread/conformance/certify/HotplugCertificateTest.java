package dev.numaspread.conformance.certify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.conformance.checks.GradedRuns;
import dev.numaspread.conformance.checks.HotplugChecks;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.report.ReportWriter;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Outcome;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hotplug rules on the certificate, as jcstress reports a test: interleavings explored, and each outcome's grade and count. */
class HotplugCertificateTest {

    static Certificate certify(String rule, String kernel, int tries) {
        Certifier certifier = new Certifier(RuleRegistry.load(), () -> new HotplugChecks().checks(), FeatureSuite.none(),
                () -> LocalDate.of(2026, 6, 1));
        CertifyOptions options = CertifyOptions.defaults("model").withKernel(KernelRelease.parse(kernel)).withRule(rule)
                .withSettings(new Settings(tries, 0x5eedL, Duration.ofSeconds(60)));
        return certifier.certify(new ReferenceModel(), options);
    }

    static Certificate certify(Implementation impl, String rule, String kernel) {
        Certifier certifier = new Certifier(RuleRegistry.load(), () -> new HotplugChecks().checks(), FeatureSuite.none(),
                () -> LocalDate.of(2026, 6, 1));
        CertifyOptions options = CertifyOptions.defaults("test").withKernel(KernelRelease.parse(kernel)).withRule(rule)
                .withSettings(new Settings(5, 0x5eedL, Duration.ofSeconds(60)));
        try {
            return certifier.certify(impl, options);
        } finally {
            if (impl instanceof AutoCloseable c) try { c.close(); } catch (Exception e) { throw new IllegalStateException(e); }
        }
    }

    /** {@link GroupCpusProcess} in {@code mode}, as {@code --impl process:'...'} starts it. */
    static Implementation process(String mode) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return Implementations.resolve("process:" + java + " -cp " + System.getProperty("java.class.path") + " "
                + GroupCpusProcess.class.getName() + " " + mode, Duration.ofSeconds(20));
    }

    static RuleResult only(Certificate c) {
        List<RuleResult> judged = c.results().stream().filter(r -> r.kernel().isPresent()).toList();
        assertEquals(1, judged.size(), judged.toString());
        return judged.get(0);
    }

    /**
     * A process that reports no hotplug services cannot show lock behaviour: whatever it answers,
     * HP-6 is NOT-VERIFIED with the reason (a well-formed but wrong answer), or ERROR (garbage);
     * never PASS, and the exit code is 1. (One that reports them is judged: KernelSrcCertifyTest.)
     */
    @Proves("HP-6")
    @Test
    void HP_6_isNeverPassForAnImplementationThatCannotShowItsLock() {
        Certificate wellFormed = certify(process("one-group"), "HP-6", "6.12");
        RuleResult r = only(wellFormed);
        assertEquals("NOT-VERIFIED", r.verdict().label(), r.toString());
        assertTrue(((Verdict.NotVerified) r.verdict()).reason().startsWith("check HP_6_groupCpusTakesNoHotplugLock: "
                + "groupCpusEvenly(numgrps=2) on a running machine made no call on it, so whether it takes cpus_read_lock()"
                + " cannot be seen (a program shows lock behaviour by reporting the hotplug services its routine used"), r.verdict().toString());
        assertEquals(1, wellFormed.exitCode());

        RuleResult garbage = only(certify(process("garbage"), "HP-6", "6.12"));
        assertEquals("ERROR", garbage.verdict().label(), garbage.toString());

        // A Java implementation that keeps the SPI's default for a running machine shows nothing either.
        Implementation topologyOnly = new Implementation() {
            public String name() { return "topology only"; }
            public List<Claim> claims() { return List.of(Claim.of("group-cpus", "6.12")); }
            public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease k, Topology t, int numgrps) {
                return new ReferenceModel().groupCpusEvenly(k, t, numgrps);
            }
        };
        assertEquals("NOT-VERIFIED", only(certify(topologyOnly, "HP-6", "6.12")).verdict().label());
        // The reference model reads the present mask through the machine and takes no lock: PASS.
        assertEquals("PASS", only(certify(new ReferenceModel(), "HP-6", "6.12")).verdict().label());
    }

    @Proves("HP-1")
    @Test
    void HP_1_theCertificateSaysHowManyInterleavingsWereExploredAndHowEachOutcomeWasGraded() throws Exception {
        Certificate c = certify("HP-1", "6.12", 5);
        RuleResult r = only(c);
        assertEquals("PASS", r.verdict().label());
        // Two checks name HP-1 (mana_gd_setup_irqs, irq_setup under the caller's lock); each explores
        // the 4 fixed machines and 5 generated ones, all graded by the atomic table of 6.12.
        assertEquals(1, r.graded().size());
        GradedRuns g = r.graded().get(0);
        assertEquals(OutcomeTable.ATOMIC, g.table());
        assertEquals(2 * (4 + 5), g.explorations());
        assertEquals(2 * 5, r.tries());
        assertEquals(0, g.forbidden());
        assertEquals(List.of(Outcome.SAME_PLAN, Outcome.PLAN_AFTER_EVENT), List.copyOf(g.counts().keySet()));
        assertTrue(g.runs() > 1000, g.summary());

        String console = ConsoleCertificate.render(c);
        assertTrue(console.contains("\n  explored  " + g.runs() + " interleavings in 18 explorations, graded atomic:\n"
                + "              outcome           grade         count  rule  reason\n"
                + String.format("              same-plan         ACCEPTABLE   %6d        hotplug deferred", g.counts().get(Outcome.SAME_PLAN))), console);
        assertTrue(console.contains("\n              offline-target    FORBIDDEN         0  HP-2  an IRQ was bound"), console);
        assertTrue(console.contains("\n              mixed             FORBIDDEN         0  HP-1  part of the plan"), console);

        JsonNode json = new ObjectMapper().readTree(ReportWriter.json(c));
        JsonNode hp1 = json.get("rules").get(0);
        assertEquals("HP-1", hp1.get("id").asText());
        JsonNode t = hp1.get("interleavings").get(0);
        assertEquals("atomic", t.get("table").asText());
        assertEquals(18, t.get("explorations").asInt());
        assertEquals(g.runs(), t.get("runs").asInt());
        assertEquals(7, t.get("outcomes").size());
        assertEquals("stale-count", t.get("outcomes").get(3).get("outcome").asText());
        assertEquals("HP-1", t.get("outcomes").get(3).get("rule").asText());
        assertEquals(0, t.get("outcomes").get(3).get("count").asInt());
        assertTrue(ReportWriter.markdown(c).contains("\n## Interleavings of HP-1 (kernel 6.12)\n\n```\n" + g.runs() + " interleavings"),
                ReportWriter.markdown(c));
    }
}
