package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Slips that only a rare input shows: an index past 255 or 65535 (LS-2 asks past a 16-bit index in
 * one try in ten), and nothing left to spread (MQ-9 draws 0 spread vectors). Each is rejected by
 * its rule with default settings, and the reference model passes those checks.
 */
class LargeIndexAndNullZooTest {

    static void assertRejectedBy(dev.numaspread.conformance.spi.Implementation impl, String kernel, String rule) {
        CheckResult.Failed f = LocalSpreadZooTest.rejection(impl, KernelRelease.parse(kernel), rule);
        assertEquals(rule, f.violation().rule(), f.violation().getMessage());
    }

    @Test @Proves("LS-2") void LS_2_rejects_indexInAByte() { assertRejectedBy(new NarrowIndex.IndexInAByte(), "6.12", "LS-2"); }
    @Test @Proves("LS-2") void LS_2_rejects_indexInAShort() { assertRejectedBy(new NarrowIndex.IndexInAShort(), "7.3", "LS-2"); }
    @Test @Proves("LS-2") void LS_2_rejects_indexInAShortOnClassicSpread() { assertRejectedBy(new NarrowIndex.IndexInAShort(), "6.1", "LS-2"); }
    @Test @Proves("MQ-9") void MQ_9_rejects_defaultMasksWhenNothingToSpread() { assertRejectedBy(new DefaultMasksWhenNothingToSpread(), "7.3", "MQ-9"); }
    @Test @Proves("MQ-9") void MQ_9_rejects_defaultMasksWhenNothingToSpreadOn612() { assertRejectedBy(new DefaultMasksWhenNothingToSpread(), "6.12", "MQ-9"); }

    @Test
    void theReferenceModelPassesLs2AndMq9() {
        ReferenceModel model = new ReferenceModel();
        for (String k : new String[]{"6.1", "6.12", "7.3"})
            for (Check check : AllChecks.all())
                if (check.rule().equals("LS-2") || check.rule().equals("MQ-9")) {
                    CheckResult r = CheckRunner.run(check, model, KernelRelease.parse(k), LocalSpreadZooTest.SETTINGS);
                    assertInstanceOf(CheckResult.Passed.class, r, check.name() + " on " + k + ": " + r);
                }
    }
}
