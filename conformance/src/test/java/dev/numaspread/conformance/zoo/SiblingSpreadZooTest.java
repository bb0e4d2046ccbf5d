package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckFamily;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.HotplugChecks;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.checks.SiblingSpreadChecks;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The MANA / hotplug zoo: each known-bad implementation is rejected by the rule that names its
 * slip, with the phrase the check prints; the reference model passes every SIB and HP check.
 */
class SiblingSpreadZooTest {

    static final Settings SETTINGS = Settings.defaults().withTries(25).withSeed(0x5eedL);

    /** Runs every SIB and HP check whose routine {@code impl} claims at {@code kernel}: the failures, by rule. */
    static TreeMap<String, CheckResult.Failed> failures(Implementation impl, KernelRelease kernel) {
        return failures(impl, kernel, "");
    }

    /** The same, for the checks of {@code onlyRule} alone when it is not empty. */
    static TreeMap<String, CheckResult.Failed> failures(Implementation impl, KernelRelease kernel, String onlyRule) {
        TreeMap<String, CheckResult.Failed> out = new TreeMap<>();
        List<Check> checks = new ArrayList<>();
        for (CheckFamily f : List.of(new SiblingSpreadChecks(), new HotplugChecks())) checks.addAll(f.checks());
        for (Check c : checks) {
            if (!impl.claims().contains(new Claim(c.routine(), kernel))) continue;
            if (!onlyRule.isEmpty() && !c.rule().equals(onlyRule)) continue;
            CheckResult r = CheckRunner.run(c, impl, kernel, SETTINGS);
            if (r instanceof CheckResult.Errored e) fail(c.name() + " errored on " + impl.name() + " at " + kernel + ": " + e.cause(), e.cause());
            if (r instanceof CheckResult.Failed f) out.putIfAbsent(f.violation().rule(), f);
        }
        return out;
    }

    static void assertRejectedBy(Implementation impl, String kernel, String rule, String phrase) {
        TreeMap<String, CheckResult.Failed> f = failures(impl, KernelRelease.parse(kernel), rule);
        assertTrue(f.containsKey(rule), impl.name() + " at " + kernel + " should fail " + rule + "; failed " + f.keySet());
        String text = f.get(rule).violation().getMessage() + " / hint: " + f.get(rule).violation().hint();
        assertTrue(text.contains(phrase), "message of " + rule + " should contain '" + phrase + "': " + text);
    }

    @Proves({"SIB-1", "SIB-2", "SIB-3", "SIB-4", "SIB-5", "SIB-6", "SIB-7", "SIB-8", "SIB-9", "SIB-10", "SIB-11",
             "SIB-12", "SIB-13", "HP-1", "HP-2", "HP-3", "HP-4", "HP-5"})
    @ParameterizedTest
    @ValueSource(strings = {"6.2", "6.8", "6.9", "6.12", "6.17", "7.2"})
    void passes_referenceModel(String kernel) {
        assertEquals(new TreeMap<>(), failures(new ReferenceModel(), KernelRelease.parse(kernel)));
    }

    @Proves("SIB-1")
    @Test
    void SIB_1_rejects_singleCpuInsteadOfSiblingMask() {
        assertRejectedBy(new SingleCpuInsteadOfSiblingMask(), "6.9", "SIB-1", "topology_sibling_cpumask");
    }

    /**
     * The shrinker's counterexample for a single CPU instead of the sibling mask is small: by hand,
     * one node, one core of two online threads and one IRQ shows it; allow some slack.
     */
    @Proves("SIB-1")
    @Test
    void SIB_1_counterexampleOfSingleCpuIsSmall() {
        CheckResult.Failed f = failures(new SingleCpuInsteadOfSiblingMask(), KernelRelease.parse("6.9"), "SIB-1").get("SIB-1");
        assertNotNull(f, "SingleCpuInsteadOfSiblingMask should fail SIB-1");
        Topology m = f.violation().machine().orElseThrow();
        assertTrue(m.nodes().size() <= 2 && m.possible().size() <= 4,
                "shrunk counterexample has " + m.nodes().size() + " nodes and " + m.possible().size() + " CPUs; want <= 2 and <= 4:\n"
                        + f.topo().orElseThrow());
    }

    @Proves("SIB-9")
    @Test
    void SIB_9_rejects_hwcNeverSharesACore() {
        assertRejectedBy(new HwcNeverSharesACore(), "6.12", "SIB-9", "HWC");
    }

    @Proves("HP-3")
    @Test
    void HP_3_rejects_lockKeptOnAllocationFailure() {
        assertRejectedBy(new LockKeptOnAllocationFailure(), "6.9", "HP-3", "cpus_read_lock() released on return");
    }

    @Proves("SIB-7")
    @Test
    void SIB_7_rejects_skippedCoreNotCounted() {
        assertRejectedBy(new SkippedCoreNotCounted(), "6.17", "SIB-7", "skipped once");
    }

    @Proves("SIB-7")
    @Test
    void SIB_7_rejects_skipEveryPass() {
        assertRejectedBy(new SkipEveryPass(), "6.17", "SIB-7", "skipped once");
    }

    @Proves("SIB-10")
    @Test
    void SIB_10_rejects_irqSetupLinear() {
        assertRejectedBy(new IrqSetupLinear(), "6.17", "SIB-10", "HWC alone through irq_setup()");
    }

    /**
     * A slip only a CPU-less device node shows: no fixed machine of the HP checks has one, so the
     * rejection comes from a generated machine, shrunk to two nodes and at most two CPUs (by hand:
     * one node with one CPU, and the CPU-less device node).
     */
    @Proves("HP-3")
    @Test
    void HP_3_rejects_lockKeptWhenNodeHasNoCpus_onAShrunkGeneratedMachine() {
        assertRejectedBy(new LockKeptWhenNodeHasNoCpus(), "6.12", "HP-3", "cpus_read_lock() released on return");
        CheckResult.Failed f = failures(new LockKeptWhenNodeHasNoCpus(), KernelRelease.parse("6.12"), "HP-3").get("HP-3");
        Topology m = f.violation().machine().orElseThrow();
        assertTrue(m.source().contains("generated"), "the machine should be a generated one: " + m.source());
        assertFalse(f.shrunk().choices().isEmpty(), "a generated counterexample is shrunk: " + f.shrunk());
        assertTrue(m.nodes().size() == 2 && m.possible().size() <= 2,
                "shrunk counterexample has " + m.nodes().size() + " nodes and " + m.possible().size() + " CPUs; want 2 and <= 2:\n"
                        + f.topo().orElseThrow());
    }

    @Proves("HP-2")
    @Test
    void HP_2_rejects_unlockedSetup() {
        assertRejectedBy(new UnlockedSetup(), "6.9", "HP-2", "offline-target");
    }

    @Proves("HP-1")
    @Test
    void HP_1_rejects_lockTakenAfterSizing() {
        assertRejectedBy(new LockTakenAfterSizing(), "6.9", "HP-1", "stale-count");
    }

    /** Under the old grading (a num_online_cpus() read before the event made any run stale-count) nothing rejected this slip. */
    @Proves("HP-4")
    @Test
    void HP_4_rejects_spreadOutsideTheLock() {
        assertRejectedBy(new SpreadOutsideTheLock(), "6.17", "HP-4", "mixed");
    }

    @Proves("SIB-13")
    @Test
    void SIB_13_rejects_linearWhenQueuesFitCpus() {
        assertRejectedBy(new LinearWhenQueuesFitCpus(), "7.2", "SIB-13", "linear only when the usable vectors exceed the online CPUs");
    }

    @Proves("SIB-3")
    @Test
    void SIB_3_rejects_nextHopBeforeExhausted() {
        assertRejectedBy(new NextHopBeforeExhausted(), "6.9", "SIB-3", "hops nearest first, each exhausted first");
    }

    @Proves("HP-6")
    @Test
    void HP_6_rejects_groupCpusTakesHotplugLock() {
        assertRejectedBy(new GroupCpusTakesHotplugLock(), "6.8", "HP-6", "deadlock");
    }
}
