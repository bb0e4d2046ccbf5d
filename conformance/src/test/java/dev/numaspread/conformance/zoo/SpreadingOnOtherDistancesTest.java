package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The routines that measure 6.19+ levels with another distance than the scheduler's are rejected by LVL-8 when
 * certified as a user certifies them (checks and scenarios, 7.3), and the scenarios that do it
 * pass for the reference model: the generators of the routines' own rules draw no SNC machine.
 */
class SpreadingOnOtherDistancesTest {

    static final KernelRelease V7_3 = KernelRelease.of(7, 3);

    @TestFactory
    List<DynamicTest> everyMemberFailsLvl8() {
        List<DynamicTest> tests = new ArrayList<>();
        for (SpreadingOnOtherDistances.Member m : SpreadingOnOtherDistances.all())
            tests.add(DynamicTest.dynamicTest("LVL_8_rejects_" + m.name(), () -> {
                Certificate c = Certifier.standard().certify(m, CertifyOptions.defaults("java:" + m.getClass().getName())
                        .withKernel(V7_3).withRule("LVL-8"));
                RuleResult r = c.results().stream().filter(x -> x.rule().equals("LVL-8") && x.kernel().isPresent()).findFirst()
                        .orElseThrow(() -> new AssertionError("LVL-8 not judged for " + m.name() + ":\n" + ConsoleCertificate.render(c)));
                assertTrue(r.verdict() instanceof Verdict.Fail, m.name() + " should fail LVL-8:\n" + ConsoleCertificate.render(c, r));
            }));
        return tests;
    }

    @Test
    @Proves("LVL-8")
    void LVL_8_scenariosPassForTheReferenceModel() {
        StringBuilder out = new StringBuilder();
        byte status = FeaturesRejectZooTest.runTagged(new ReferenceModel(), "@LVL-8", "classpath:numaspread/features", out);
        assertEquals(0, status, out.toString());
    }
}
