package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Every known-bad implementation of the zoo with the release and the rule that reject it, as the
 * zoo tests name them: one list for tests that look at the whole zoo at once (the size of its
 * shrunk counterexamples). A new zoo member belongs here too.
 */
final class ZooCatalogue {
    private ZooCatalogue() {}

    /**
     * One member: its name, the implementation to certify, the release, the rule that rejects it,
     * and the checks that run (the kit's checks of that rule, or a family built around the slip).
     */
    record Entry(String name, Implementation impl, KernelRelease kernel, String rule, Supplier<List<Check>> checks, boolean ownFamily) {
        /** The checks of {@link #rule()} whose routine the implementation claims for {@link #kernel()} (all of them for a family of its own). */
        List<Check> ruleChecks() {
            List<Check> out = new ArrayList<>();
            for (Check c : checks.get())
                if (c.rule().equals(rule) && (ownFamily || impl.claims().contains(new Claim(c.routine(), kernel)))) out.add(c);
            return out;
        }
    }

    static Entry kit(Implementation impl, String kernel, String rule) {
        return new Entry(impl.name(), impl, KernelRelease.parse(kernel), rule, AllChecks::all, false);
    }

    static List<Entry> all() {
        List<Entry> out = new ArrayList<>();
        for (LocalSpreadZooTest.Member m : LocalSpreadZooTest.members())
            out.add(new Entry(m.impl().name(), m.impl(), m.kernel(), m.rule(), AllChecks::all, false));
        for (LocalSpreadZooTest.Member m : NicZooTest.members())
            out.add(new Entry(m.impl().name(), m.impl(), m.kernel(), m.rule(), AllChecks::all, false));
        out.add(kit(new ZeroGroupsCrash(), "6.16", "GRP-9"));
        out.add(kit(new StableSort(), "6.12", "GRP-10"));
        out.add(kit(new StableSort(), "6.1", "GRP-10"));
        out.add(kit(new HeapsortsSwapped(), "6.12", "GRP-10"));
        out.add(kit(new HeapsortTailOf611In69(), "6.10", "GRP-10"));
        out.add(kit(new RoundingInsteadOfFloor(), "6.12", "GRP-10"));
        out.add(kit(new StageTwoFromGroupZero(), "6.12", "GRP-7"));
        out.add(kit(new StageTwoFromGroupZero(), "6.12", "GRP-6"));
        out.add(kit(new SiblingsSplit(), "6.12", "GRP-5"));
        out.add(kit(new NodeWithoutGroup(), "6.12", "GRP-3"));
        out.add(kit(new NodeWithoutGroup(), "6.12", "GRP-2"));
        out.add(kit(new MasksNotReused(), "6.17", "MQ-7"));
        out.add(kit(new MasksByNumgrps(), "7.3", "MQ-7"));
        out.add(kit(new ClustersStableSort(), "7.3", "GRP-15"));
        out.add(kit(new ClustersDealtAsCounted(), "7.3", "GRP-15"));
        out.add(kit(new ClusterStepWhenOutnumbered(), "7.3", "GRP-13"));
        out.add(kit(new NoFallbackForEmptyClusterMask(), "7.3", "GRP-13"));
        out.add(kit(new ClusterStepSkipped(), "7.3", "GRP-11"));
        out.add(kit(new LegacyMapOnNewKernel(), "6.12", "MQ-3"));
        out.add(kit(new LegacyMapOnNewKernel(), "6.12", "MQ-8"));
        out.add(kit(new NewMapOnLegacyKernel(), "6.1", "MQ-4"));
        out.add(kit(new NewMapOnLegacyKernel(), "6.1", "MQ-2"));
        out.add(kit(new NullFallbackToQueueZero(), "6.16", "MQ-5"));
        out.add(kit(new SetsAdvanceBySize(), "6.17", "MQ-10"));
        out.add(kit(new SingleCpuInsteadOfSiblingMask(), "6.9", "SIB-1"));
        out.add(kit(new HwcNeverSharesACore(), "6.12", "SIB-9"));
        out.add(kit(new LockKeptOnAllocationFailure(), "6.9", "HP-3"));
        out.add(kit(new SkippedCoreNotCounted(), "6.17", "SIB-7"));
        out.add(kit(new SkipEveryPass(), "6.17", "SIB-7"));
        out.add(kit(new IrqSetupLinear(), "6.17", "SIB-10"));
        out.add(kit(new LockKeptWhenNodeHasNoCpus(), "6.12", "HP-3"));
        out.add(kit(new UnlockedSetup(), "6.9", "HP-2"));
        out.add(kit(new LockTakenAfterSizing(), "6.9", "HP-1"));
        out.add(kit(new SpreadOutsideTheLock(), "6.17", "HP-4"));
        out.add(kit(new LinearWhenQueuesFitCpus(), "7.2", "SIB-13"));
        out.add(kit(new NextHopBeforeExhausted(), "6.9", "SIB-3"));
        out.add(kit(new GroupCpusTakesHotplugLock(), "6.8", "HP-6"));
        out.add(kit(new NarrowIndex.IndexInAByte(), "6.12", "LS-2"));
        out.add(kit(new NarrowIndex.IndexInAShort(), "7.3", "LS-2"));
        out.add(kit(new DefaultMasksWhenNothingToSpread(), "7.3", "MQ-9"));
        // Issue 24: the reach gaps (ReachZooTest).
        out.add(kit(new HopMasksInOneWord(), "7.3", "HOP-2"));
        out.add(kit(new GroupsInOneWord(), "6.1", "GRP-1"));
        out.add(kit(new NummasksFromNrCpuIds(), "7.3", "GRP-14"));
        out.add(kit(new ClusterNotCutAtNode(), "7.3", "GRP-1"));
        out.add(kit(new SetsAdvanceBySize(), "7.3", "MQ-10"));
        out.add(kit(new NummasksCountsPossibleCpus(), "7.3", "GRP-14"));
        out.add(kit(new GroupsTruncatedAtCpus(), "7.3", "GRP-1"));
        for (SlippedPagePool.Slip slip : SlippedPagePool.Slip.values()) {
            String rule = PAGE_POOL_RULES.get(slip.ordinal());
            out.add(new Entry("zoo page pool " + slip, new ReferenceModel(), KernelRelease.of(6, 12), rule,
                    () -> PagePoolZooTest.checksOf(slip).checks(), true));
        }
        return out;
    }

    /** The rule that rejects each page pool slip, in {@link SlippedPagePool.Slip} order (PagePoolZooTest). */
    private static final List<String> PAGE_POOL_RULES = pagePoolRules();

    private static List<String> pagePoolRules() {
        List<String> out = new ArrayList<>();
        for (SlippedPagePool.Slip s : SlippedPagePool.Slip.values()) {
            out.add(switch (s) {
                case RECYCLE_TESTS_NODE -> "PP-8";
                case REFILL_WHILE_CACHE_HOLDS_PAGES -> "PP-6";
                case UPDATE_KEEPS_CACHE, POLL_SETS_NID_WITHOUT_UPDATE -> "PP-3";
                case UPDATE_ON_EVERY_POLL -> "PP-2";
                case REFILL_SKIPS_FOREIGN_PAGE -> "PP-5";
                case PAGE_LOST_ON_FULL_RING -> "PP-7";
                case PFMEMALLOC_RECYCLED -> "PP-9";
                case POLL_USES_CREATION_CPU -> "PP-1";
                case REFILL_WITHOUT_NUMA_TEST -> "PP-4";
                case NUMA_MEM_ID_IGNORES_ARCH -> "PP-11";
                case SLOW_PATH_ON_NAPI_NODE -> "PP-12";
                default -> "PP-13";
            });
        }
        return out;
    }
}
