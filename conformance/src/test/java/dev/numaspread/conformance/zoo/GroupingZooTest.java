package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.BlkMqChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.GroupCpusChecks;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The grouping zoo: each known-bad implementation is rejected by its rule; the reference model passes every check. */
class GroupingZooTest {

    static final Settings SETTINGS = Settings.defaults().withTries(300);

    static List<Check> checks() {
        List<Check> all = new ArrayList<>(new GroupCpusChecks().checks());
        all.addAll(new BlkMqChecks().checks());
        return all;
    }

    static Check check(String rule) {
        return checks().stream().filter(c -> c.rule().equals(rule)).findFirst().orElseThrow(() -> new AssertionError("no check for " + rule));
    }

    static void assertRejectedBy(Implementation impl, String kernel, String rule) {
        CheckResult r = CheckRunner.run(check(rule), impl, KernelRelease.parse(kernel), SETTINGS);
        CheckResult.Failed failed = assertInstanceOf(CheckResult.Failed.class, r, impl.name() + " on " + kernel + " under " + rule + ": " + r);
        assertEquals(rule, failed.violation().rule(), failed.violation().getMessage());
    }

    @Test @Proves("GRP-9") void GRP_9_rejects_zeroGroupsCrash() { assertRejectedBy(new ZeroGroupsCrash(), "6.16", "GRP-9"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_stableSort() { assertRejectedBy(new StableSort(), "6.12", "GRP-10"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_stableSortOnPre2024() { assertRejectedBy(new StableSort(), "6.1", "GRP-10"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_heapsortsSwapped() { assertRejectedBy(new HeapsortsSwapped(), "6.12", "GRP-10"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_heapsortTailOf611In610() { assertRejectedBy(new HeapsortTailOf611In69(), "6.10", "GRP-10"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_heapsortTailOf611In69() { assertRejectedBy(new HeapsortTailOf611In69(), "6.9", "GRP-10"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_roundingInsteadOfFloor() { assertRejectedBy(new RoundingInsteadOfFloor(), "6.12", "GRP-10"); }
    @Test @Proves("GRP-10") void GRP_10_rejects_zeroGroupsCrashOn616() { assertRejectedBy(new ZeroGroupsCrash(), "6.16", "GRP-10"); }
    @Test @Proves("GRP-7") void GRP_7_rejects_stageTwoFromGroupZero() { assertRejectedBy(new StageTwoFromGroupZero(), "6.12", "GRP-7"); }
    @Test @Proves("GRP-6") void GRP_6_rejects_stageTwoFromGroupZero() { assertRejectedBy(new StageTwoFromGroupZero(), "6.12", "GRP-6"); }
    @Test @Proves("GRP-5") void GRP_5_rejects_siblingsSplit() { assertRejectedBy(new SiblingsSplit(), "6.12", "GRP-5"); }
    @Test @Proves("GRP-3") void GRP_3_rejects_nodeWithoutGroup() { assertRejectedBy(new NodeWithoutGroup(), "6.12", "GRP-3"); }
    @Test @Proves("GRP-2") void GRP_2_rejects_nodeWithoutGroup() { assertRejectedBy(new NodeWithoutGroup(), "6.12", "GRP-2"); }
    @Test @Proves("MQ-7") void MQ_7_rejects_masksNotReused() { assertRejectedBy(new MasksNotReused(), "6.17", "MQ-7"); }
    @Test @Proves("MQ-3") void MQ_3_rejects_legacyMapOnNewKernel() { assertRejectedBy(new LegacyMapOnNewKernel(), "6.12", "MQ-3"); }
    @Test @Proves("MQ-8") void MQ_8_rejects_legacyMapOnNewKernel() { assertRejectedBy(new LegacyMapOnNewKernel(), "6.12", "MQ-8"); }
    @Test @Proves("MQ-4") void MQ_4_rejects_newMapOnLegacyKernel() { assertRejectedBy(new NewMapOnLegacyKernel(), "6.1", "MQ-4"); }
    @Test @Proves("MQ-2") void MQ_2_rejects_newMapOnLegacyKernel() { assertRejectedBy(new NewMapOnLegacyKernel(), "6.1", "MQ-2"); }
    @Test @Proves("MQ-5") void MQ_5_rejects_nullFallbackToQueueZero() { assertRejectedBy(new NullFallbackToQueueZero(), "6.16", "MQ-5"); }
    @Test @Proves("GRP-15") void GRP_15_rejects_clustersStableSort() { assertRejectedBy(new ClustersStableSort(), "7.3", "GRP-15"); }
    @Test @Proves("GRP-15") void GRP_15_rejects_clustersDealtAsCounted() { assertRejectedBy(new ClustersDealtAsCounted(), "7.3", "GRP-15"); }
    @Test @Proves("GRP-13") void GRP_13_rejects_clusterStepWhenOutnumbered() { assertRejectedBy(new ClusterStepWhenOutnumbered(), "7.3", "GRP-13"); }
    @Test @Proves("GRP-13") void GRP_13_rejects_noFallbackForEmptyClusterMask() { assertRejectedBy(new NoFallbackForEmptyClusterMask(), "7.3", "GRP-13"); }
    @Test @Proves("GRP-13") void GRP_13_rejects_noFallbackForEmptyClusterMaskOn70() { assertRejectedBy(new NoFallbackForEmptyClusterMask(), "7.0", "GRP-13"); }
    @Test @Proves("MQ-7") void MQ_7_rejects_masksByNumgrps() { assertRejectedBy(new MasksByNumgrps(), "7.3", "MQ-7"); }
    @Test @Proves("MQ-7") void MQ_7_rejects_masksByNumgrpsOn617() { assertRejectedBy(new MasksByNumgrps(), "6.17", "MQ-7"); }
    @Test @Proves("MQ-10") void MQ_10_rejects_setsAdvanceBySize() { assertRejectedBy(new SetsAdvanceBySize(), "6.17", "MQ-10"); }

    /** Every possible CPU in group 0, the other groups empty: a partition, but no spreading at all. */
    static final class OneGroupHoldsEveryCpu extends GroupingZooMember {
        @Override
        public java.util.Optional<List<dev.numaspread.model.cpu.CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
            if (numgrps == 0) return reference.groupCpusEvenly(kernel, machine, 0);
            List<dev.numaspread.model.cpu.CpuSet> out = new ArrayList<>();
            for (int g = 0; g < numgrps; g++) out.add(g == 0 ? machine.possible() : dev.numaspread.model.cpu.CpuSet.EMPTY);
            return java.util.Optional.of(out);
        }
    }

    /**
     * GRP-4 used to count a node's groups from the answer: one group holding every CPU was "one
     * group of n CPUs, evenly sized", a vacuous pass. The count is GRP-3's to judge against the
     * machine, so GRP-4 now judges only the stages where that answer is right (a stage of one CPU),
     * and GRP-3 rejects it.
     */
    @Test
    @Proves({"GRP-3", "GRP-4", "GRP-5"})
    void GRP_4_judgesNothing_whenOneGroupHoldsEveryCpu_andGrp3Rejects() {
        KernelRelease k = KernelRelease.parse("6.12");
        CheckResult r4 = CheckRunner.run(check("GRP-4"), new OneGroupHoldsEveryCpu(), k, SETTINGS);
        CheckResult.Passed p = assertInstanceOf(CheckResult.Passed.class, r4, r4.toString());
        assertTrue(p.judged() * 20 < p.tries(), "judged " + p.judged() + " of " + p.tries() + "; before, every try passed");
        CheckResult r5 = CheckRunner.run(check("GRP-5"), new OneGroupHoldsEveryCpu(), k, SETTINGS);
        assertTrue(r5 instanceof CheckResult.NotApplicable, r5.toString());
        assertRejectedBy(new OneGroupHoldsEveryCpu(), "6.12", "GRP-3");
    }

    /**
     * A node none of whose CPUs is in a group used to crash the GRP-4 check inside the kit
     * ({@code BigFraction(n, 0)}), and the certificate blamed the implementation. Now GRP-4 judges
     * the stages GRP-3 accepts and leaves the node to GRP-3, with no exception anywhere.
     */
    @Test
    @Proves("GRP-4")
    void GRP_4_nodeWithoutGroup_isGrp3sMatter_notACrash() {
        CheckResult r = CheckRunner.run(check("GRP-4"), new NodeWithoutGroup(), KernelRelease.parse("6.12"), SETTINGS);
        assertTrue(r instanceof CheckResult.Passed || r instanceof CheckResult.NotApplicable, r.toString());
        if (r instanceof CheckResult.Passed p) assertTrue(p.judged() < p.tries(), "the tries where GRP-3 breaks judge nothing: " + p);
    }

    /**
     * The shrinker's counterexample for split siblings is small: by hand, one node of two SMT-2
     * cores numbered apart ({0,2} {1,3}) and 2 groups already shows it; allow some slack.
     */
    @Test
    @Proves("GRP-5")
    void GRP_5_counterexampleOfSiblingsSplitIsSmall() {
        CheckResult r = CheckRunner.run(check("GRP-5"), new SiblingsSplit(), KernelRelease.parse("6.12"), SETTINGS);
        CheckResult.Failed f = assertInstanceOf(CheckResult.Failed.class, r);
        Topology m = f.violation().machine().orElseThrow();
        assertTrue(m.nodes().size() <= 2 && m.possible().size() <= 8,
                "shrunk counterexample has " + m.nodes().size() + " nodes and " + m.possible().size() + " CPUs; want <= 2 and <= 8:\n"
                        + f.topo().orElseThrow());
    }

    // M14 (cpus_read_lock taken inside group_cpus_evenly) changes lock order, not the groups, so no
    // grouping check can see it: SiblingSpreadZooTest.HP_6_rejects_groupCpusTakesHotplugLock catches it through
    // the hotplug explorer (HP-6).

    @Test
    @Proves({"GRP-1", "GRP-2", "GRP-3", "GRP-4", "GRP-5", "GRP-6", "GRP-7", "GRP-8", "GRP-9", "GRP-10", "GRP-11", "GRP-12",
            "GRP-13", "GRP-14", "GRP-15", "MQ-1", "MQ-2", "MQ-3", "MQ-4", "MQ-5", "MQ-6", "MQ-7", "MQ-8", "MQ-9", "MQ-10"})
    void referenceModelPassesEveryCheck() {
        ReferenceModel model = new ReferenceModel();
        RuleRegistry rules = RuleRegistry.load(dev.numaspread.conformance.bundle.Bundle.directory(dev.numaspread.conformance.bundle.Bundle
                .findCheckout(java.nio.file.Path.of("").toAbsolutePath()).orElseThrow()));
        java.util.Set<String> ran = new java.util.TreeSet<>();
        for (String k : List.of("6.1", "6.2", "6.12", "6.16", "6.17", "7.0", "7.3")) {
            KernelRelease kernel = KernelRelease.parse(k);
            for (Check c : checks()) {
                boolean claimed = model.claims().stream().anyMatch(cl -> cl.routine() == c.routine() && cl.kernel().equals(kernel));
                if (!claimed || !rules.byId(c.rule()).orElseThrow().appliesTo(kernel)) continue;
                CheckResult r = CheckRunner.run(c, model, kernel, SETTINGS.withTries(100));
                if (!ZooVerdicts.passesOrOutOfRange(c, kernel, r)) fail(c.name() + " on " + k + ": " + r);
                ran.add(c.name());
            }
        }
        assertEquals(checks().size(), ran.size(), "every check ran on some release: " + ran);
    }

    /** The zoo's plain grouping without a slip is the reference model, so rejections come from the slips. */
    @Test
    void slippedGroupingWithoutSlipIsTheModel() {
        Topology m = TopologyBuilder.machine("mixed").node(0, "0-3,8-11").node(1, "4-7").node(3, "12-13")
                .siblings("0,8", "1,9", "2,10", "3,11", "4-5", "6-7", "12-13").possible("0-13").present("0-11").online("0-10").build();
        // From 7.0 with clusters: stated ones (two of 2 cores, one of 3 with an offline CPU), and assumed ones.
        Topology clustered = TopologyBuilder.machine("clustered").node(0, "0-11").node(1, "12-21")
                .siblings("0-1", "2-3", "4-5", "6-7", "8-9", "10-11", "12-13", "14-15", "16-17", "18-19", "20-21")
                .cluster("0-3").cluster("4-7").cluster("8-11").cluster("12-17").cluster("18-21").possible("0-21").present("0-21").online("0-21").build();
        for (Topology t : List.of(m, clustered, clustered.withOnline(CpuSet.parseList("0-16,18-21"))))
            for (String k : List.of("6.1", "6.12", "7.0", "7.3"))
                for (int n = 1; n <= 24; n++)
                    assertEquals(GroupCpusEvenly.groupCpusEvenly(KernelRelease.parse(k), t, n).orElseThrow(),
                            SlippedGrouping.group(KernelRelease.parse(k), t, n, SlippedGrouping.Slip.NONE), t.name() + " " + k + " numgrps " + n);
        assertTrue(Routine.GROUP_CPUS.id().equals("group-cpus"));
    }
}
