package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Self-test of spec/nic.md: each NIC zoo member is rejected by its rule, by the checks and by the
 * scenarios of that rule, and the reference model passes every NIC check in the releases where
 * the drivers change.
 */
class NicZooTest {

    static final KernelRelease V6_12 = KernelRelease.of(6, 12), V7_3 = KernelRelease.of(7, 3);

    static List<LocalSpreadZooTest.Member> members() {
        return List.of(
                new LocalSpreadZooTest.Member(new NicZoo.StragglersToTheLastPairs(), V6_12, "NIC-2"),
                new LocalSpreadZooTest.Member(new NicZoo.EnaNthOnlineCpu(), V6_12, "NIC-4"),
                new LocalSpreadZooTest.Member(new NicZoo.GveReceiveContinuesTheWalk(), V7_3, "NIC-6"),
                new LocalSpreadZooTest.Member(new NicZoo.IceSpreadsFromTheDeviceNode(), V7_3, "NIC-8"),
                new LocalSpreadZooTest.Member(new NicZoo.IceForcedAfter611(), V6_12, "NIC-7"),
                new LocalSpreadZooTest.Member(new NicZoo.I40eForcesItsHint(), V6_12, "NIC-9"),
                new LocalSpreadZooTest.Member(new NicZoo.BnxtForcedAfter613(), V7_3, "NIC-10"),
                new LocalSpreadZooTest.Member(new NicZoo.BnxtXpsIsTheIrqCpu(), V6_12, "NIC-11"));
    }

    @TestFactory
    List<DynamicTest> zooMembersAreRejectedByTheirRule() {
        List<DynamicTest> tests = new ArrayList<>();
        for (LocalSpreadZooTest.Member m : members())
            tests.add(DynamicTest.dynamicTest(m.rule().replace('-', '_') + "_rejects_" + m.impl().name(),
                    () -> LocalSpreadZooTest.rejection(m.impl(), m.kernel(), m.rule())));
        return tests;
    }

    @TestFactory
    List<DynamicTest> zooMembersFailTheScenariosOfTheirRule() {
        List<DynamicTest> tests = new ArrayList<>();
        for (LocalSpreadZooTest.Member m : members())
            tests.add(DynamicTest.dynamicTest(m.rule().replace('-', '_') + "_scenariosReject_" + m.impl().name(), () -> {
                StringBuilder out = new StringBuilder();
                assertNotEquals(0, FeaturesRejectZooTest.runTagged(m, out), m.impl().name() + " passed every scenario tagged @" + m.rule());
            }));
        return tests;
    }

    @TestFactory
    List<DynamicTest> referenceModelPassesEveryNicCheck() {
        Implementation model = new ReferenceModel();
        List<DynamicTest> tests = new ArrayList<>();
        for (String k : new String[]{"6.1", "6.9", "6.10", "6.11", "6.12", "6.13", "6.14", "6.15", "6.16", "6.17", "7.3"}) {
            KernelRelease kernel = KernelRelease.parse(k);
            tests.add(DynamicTest.dynamicTest("passes_referenceModel_" + k, () -> {
                List<String> bad = new ArrayList<>();
                int ran = 0;
                for (Check check : AllChecks.all()) {
                    if (!check.rule().startsWith("NIC-") || !LocalSpreadZooTest.claims(model, check, kernel)) continue;
                    ran++;
                    CheckResult r = CheckRunner.run(check, model, kernel, LocalSpreadZooTest.SETTINGS.withTries(100));
                    if (!ZooVerdicts.passesOrOutOfRange(check, kernel, r)) bad.add(check.name() + ": " + LocalSpreadZooTest.describe(r));
                }
                assertTrue(ran >= 10, "kernel " + k + ": " + ran + " NIC checks ran");
                assertTrue(bad.isEmpty(), "kernel " + k + ": " + bad);
            }));
        }
        return tests;
    }
}
