package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slips that need more than 64 CPUs, which the generated machines of MANA and of the interrupt
 * masks and groups never have (16 and 32 CPUs at most): MANA's 64-queue cap (SIB-9), and a mask or
 * group kept in one word (MQ-9, GRP-10, MQ-8), which sparse generated machines (CPU ids past 63)
 * also reject ({@code ReachZooTest}). Scenarios on the 96- and 160-CPU machines reject them through
 * the certifier, and pass for the reference model.
 */
class LargeMachineZooTest {

    static void assertFails(Implementation impl, String kernel, String rule) {
        Certificate c = Certifier.standard().certify(impl, CertifyOptions.defaults("java:" + impl.getClass().getName())
                .withKernel(KernelRelease.parse(kernel)).withRule(rule));
        RuleResult r = c.results().stream().filter(x -> x.rule().equals(rule) && x.kernel().isPresent()).findFirst()
                .orElseThrow(() -> new AssertionError(rule + " not judged for " + impl.name() + ":\n" + ConsoleCertificate.render(c)));
        assertTrue(r.verdict() instanceof Verdict.Fail, impl.name() + " should fail " + rule + " on " + kernel + ":\n" + ConsoleCertificate.render(c, r));
    }

    @Test @Proves("SIB-9") void SIB_9_rejects_manaQueuesNotCapped() { assertFails(new ManaQueuesNotCapped(), "6.12", "SIB-9"); }
    @Test @Proves("SIB-9") void SIB_9_rejects_manaQueuesNotCappedOn73() { assertFails(new ManaQueuesNotCapped(), "7.3", "SIB-9"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_groupsInOneWord() { assertFails(new GroupsInOneWord(), "6.12", "GRP-10"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_groupsInOneWordOn73() { assertFails(new GroupsInOneWord(), "7.3", "GRP-10"); }
    @Test @Proves("MQ-8") void MQ_8_rejects_groupsInOneWordOn73() { assertFails(new GroupsInOneWord(), "7.3", "MQ-8"); }
    @Test @Proves("MQ-9") void MQ_9_rejects_irqMasksInOneWord() { assertFails(new IrqMasksInOneWord(), "7.3", "MQ-9"); }

    @Test
    void theScenariosPassForTheReferenceModel() {
        for (String tag : new String[]{"@SIB-9", "@MQ-9", "@GRP-10", "@MQ-8"}) {
            StringBuilder out = new StringBuilder();
            assertEquals(0, FeaturesRejectZooTest.runTagged(new ReferenceModel(), tag, "classpath:numaspread/features", out), out.toString());
        }
    }
}
