package dev.numaspread.model.siblingspread;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.HotplugRoutine;
import dev.numaspread.model.hotplug.InterleavingExplorer;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** MANA irq_setup and mana_gd_setup_irqs; expected values from seed 004, derived by hand from gdma_main.c. */
class SiblingSpreadTest {

    static final KernelRelease V6_8 = KernelRelease.of(6, 8);
    static final KernelRelease V6_9 = KernelRelease.of(6, 9);
    static final KernelRelease V6_17 = KernelRelease.of(6, 17);

    /** Seed 004: 2 nodes x 32 cores x 2 threads, siblings adjacent (128 CPUs). */
    static Topology manaMachine() {
        return TopologyBuilder.machine("mana-2node-32c-smt2").node(0, "0-63").node(1, "64-127").smtAdjacent(2).build();
    }

    /** The example of commit 4607617af1b4 "net: mana: explain irq_setup() algorithm": 2 nodes, 4 cores, 8 CPUs. */
    static Topology commentMachine() {
        return TopologyBuilder.machine("2node-4core-8cpu").node(0, "0-3").node(1, "4-7").smtAdjacent(2).build();
    }

    /** irq_setup() on a machine no event disturbs. */
    static List<CpuSet> irqSetupPlan(KernelRelease kernel, Topology machine, int node, int len, boolean skipFirstCpu) {
        return SiblingSpread.irqSetup(Machine.boot(machine, kernel), node, len, skipFirstCpu);
    }

    /** mana_gd_setup_irqs() on a machine no event disturbs. */
    static List<CpuSet> manaSetupIrqsPlan(Machine.Config config, int node) {
        return SiblingSpread.manaSetupIrqs(Machine.boot(config), node);
    }

    static List<CpuSet> lists(String... l) {
        List<CpuSet> out = new ArrayList<>();
        for (String s : l) out.add(s.isEmpty() ? CpuSet.EMPTY : CpuSet.parseList(s));
        return out;
    }

    @Test
    void SIB_1_seed004TableOneIrqPerCoreThenSecondPass() {
        List<CpuSet> plan = irqSetupPlan(V6_9, manaMachine(), 0, 64, false);
        assertEquals(64, plan.size());
        for (int k = 0; k < 64; k++) {
            int c = 2 * (k % 32);
            assertEquals(CpuSet.of(c, c + 1), plan.get(k), "IRQ " + k);
        }
        // The seed's printed rows (1-based IRQ column): 1 -> 0-1, 25 -> 48-49, 32 -> 62-63, 33 -> 0-1, 64 -> 62-63.
        assertEquals("48-49", plan.get(24).toList());
        assertEquals("0-1", plan.get(32).toList());
        assertEquals("62-63", plan.get(63).toList());
    }

    @Test
    void SIB_11_before69EachIrqGetsCpuK() {
        List<CpuSet> plan = irqSetupPlan(V6_8, manaMachine(), 0, 64, false);
        for (int k = 0; k < 64; k++) assertEquals(CpuSet.of(k), plan.get(k), "IRQ " + k);
    }

    @Test
    void SIB_2_kernelCommentExample() {
        assertEquals(lists("0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"),
                irqSetupPlan(V6_9, commentMachine(), 0, 8, false));
        assertEquals(lists("4-5", "6-7", "4-5", "6-7", "0-1", "2-3", "0-1", "2-3"),
                irqSetupPlan(V6_9, commentMachine(), 1, 8, false));
    }

    @Test
    void SIB_8_moreIrqsThanCpusLeavesTheRestUntouched() {
        assertEquals(8, irqSetupPlan(V6_9, commentMachine(), 0, 11, false).size());
    }

    @Test
    void SIB_8_noNumaNodeIsOneHopOfAllOnlineCpus() {
        assertEquals(lists("0-1", "2-3", "4-5", "6-7", "0-1", "2-3", "4-5", "6-7"),
                irqSetupPlan(V6_9, commentMachine(), Numa.NUMA_NO_NODE, 9, false));
    }

    @Test
    void SIB_8_cpulessNodeAssignsNothing() {
        Topology t = TopologyBuilder.machine("cpuless").node(0, "0-3").node(1, "").smtAdjacent(2).build();
        assertEquals(List.of(), irqSetupPlan(V6_9, t, 1, 4, false));
    }

    @Test
    void SIB_3_maskIsTheOnlineSiblingMask() {
        // Cpu 3 offline: core 1 is {2}; ring 0-2 has W = 3 and takes 0-1, 2, 0-1, 2 (SIB-6), then hop 1.
        Topology t = commentMachine().withOnline(CpuSet.parseList("0-2,4-7"));
        assertEquals(lists("0-1", "2", "0-1", "2", "4-5"), irqSetupPlan(V6_9, t, 0, 5, false));
    }

    @Test
    void SIB_6_unequalSiblingCountsOverAssignTheRing() {
        // Ring {0,1,2}, cores {0,1} and {2}: W = 3; pass 1 -> 0-1, 2 (W = 1); pass 2 -> 0-1, 2 (W = -1).
        Topology t = TopologyBuilder.machine("odd-core").node(0, "0-2").node(1, "3-4").siblings("0-1", "2", "3", "4").build();
        assertEquals(lists("0-1", "2", "0-1", "2", "3"), irqSetupPlan(V6_9, t, 0, 5, false));
    }

    @Test
    void SIB_7_skipFirstCpuSkipsCoreZeroOnceAndCountsIt() {
        // Ring 0-3, W = 4: core 0 skipped (W 3), 2-3 (W 2); pass 2: 0-1 (W 1), 2-3 (W 0); hop 1: 4-5.
        assertEquals(lists("2-3", "0-1", "2-3", "4-5"), irqSetupPlan(V6_17, commentMachine(), 0, 4, true));
    }

    @Test
    void SIB_7_skipFirstCpuIsRefusedBefore617() {
        assertThrows(IllegalArgumentException.class, () -> irqSetupPlan(V6_9, commentMachine(), 0, 4, true));
    }

    @Test
    void SIB_9_hwcSharesCoreWithQueueOneWhenVectorsExceedOnline() {
        // 8 online: nvec = min(8, 64) + 1 = 9 > 8: HWC on local_spread(0, 0) = 0, queues from IRQ 1.
        List<CpuSet> got = manaSetupIrqsPlan(Machine.Config.of(commentMachine(), V6_9), 0);
        assertEquals(lists("0", "0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), got);
    }

    @Test
    void SIB_9_hwcTakesFirstCoreWhenVectorsFitOnline() {
        List<CpuSet> got = manaSetupIrqsPlan(Machine.Config.of(commentMachine(), V6_9).withGrantedVectors(4), 0);
        assertEquals(lists("0-1", "2-3", "0-1", "2-3"), got);
    }

    @Test
    void SIB_9_manaMachineSizesAt65Vectors() {
        // 128 online: nvec = min(128, 64) + 1 = 65 <= 128: all 65 through irq_setup; 32 cores of node 0 twice, then node 1.
        List<CpuSet> got = manaSetupIrqsPlan(Machine.Config.of(manaMachine(), V6_9), 0);
        assertEquals(65, got.size());
        assertEquals("0-1", got.get(0).toList());
        assertEquals("0-1", got.get(32).toList());
        assertEquals("64-65", got.get(64).toList());
    }

    @Test
    void HP_3_allocationFailureReleasesTheLock() {
        Machine m = Machine.boot(Machine.Config.of(commentMachine(), V6_9).withGrantedVectors(1));
        assertEquals(List.of(), SiblingSpread.manaSetupIrqs(m, 0));
        assertEquals(0, m.lockDepth());
    }

    @Test
    void SIB_10_dynamicPathHwcFirstCoreThenQueuesSkipIt() {
        // Dynamic MSI-X: HWC alone -> 0-1; max_msix 5: usable 5 <= 8 online, so queues skip core 0.
        Machine.Config c = Machine.Config.of(commentMachine(), V6_17).withDynamicMsix(true).withGrantedVectors(5);
        assertEquals(lists("0-1", "2-3", "0-1", "2-3", "4-5"), manaSetupIrqsPlan(c, 0));
    }

    @Test
    void SIB_10_dynamicPathOnePerCpuPlusOneSharesHwcCore() {
        // usable = min(max, 8 + 1) = 9 > 8: no skip; the first queue shares the HWC's core.
        Machine.Config c = Machine.Config.of(commentMachine(), V6_17).withDynamicMsix(true);
        assertEquals(lists("0-1", "0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), manaSetupIrqsPlan(c, 0));
    }

    @Test
    void SIB_9_staticPath617KeepsTheHwcRule() {
        List<CpuSet> got = manaSetupIrqsPlan(Machine.Config.of(commentMachine(), V6_17), 0);
        assertEquals(lists("0", "0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), got);
    }

    @Test
    void SIB_5_aShorterPlanIsAPrefixOfALongerOne() {
        // irq_setup() stops when len runs out: the plan for n IRQs is the first n of any longer plan.
        List<CpuSet> full = irqSetupPlan(V6_9, manaMachine(), 1, 200, false);
        assertEquals(128, full.size()); // two passes over the 32 cores of node 1, two over node 0, then no hop is left
        for (int n = 0; n <= full.size(); n += 7) assertEquals(full.subList(0, n), irqSetupPlan(V6_9, manaMachine(), 1, n, false));
    }

    // Found by mutation testing (docs/mutation-testing.md): the vector-count boundaries, the lock of
    // the 6.17 dynamic path and the races' routine were not pinned by any test.

    @Test
    void SIB_9_vectorsEqualToOnlineAllGoThroughIrqSetup() {
        // Granted 8 on 8 online: nvec = 8 is not more than the online CPUs, so the HWC is vector 0 of
        // irq_setup(): hop 0 (0-3, W = 4) twice over its two cores, then hop 1 (4-7) the same.
        List<CpuSet> all = lists("0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7");
        assertEquals(all, manaSetupIrqsPlan(Machine.Config.of(commentMachine(), V6_9).withGrantedVectors(8), 0));
        assertEquals(all, manaSetupIrqsPlan(Machine.Config.of(commentMachine(), V6_17).withGrantedVectors(8), 0));
    }

    @Test
    void SIB_10_usableEqualToOnlineSkipsTheHwcCore() {
        // max_msix 8: usable = min(8, 8 + 1) = 8 <= 8 online: skip_first_cpu. HWC 0-1; 7 queues: core 0
        // skipped (W 3), 2-3 (W 2); pass 2: 0-1, 2-3 (W 0); hop 1: 4-5, 6-7, 4-5, 6-7.
        Machine.Config c = Machine.Config.of(commentMachine(), V6_17).withDynamicMsix(true).withGrantedVectors(8);
        assertEquals(lists("0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), manaSetupIrqsPlan(c, 0));
    }

    @Test
    void HP_3_dynamicAndStaticPathsOf617ReleaseTheLock() {
        for (boolean dyn : new boolean[]{false, true}) {
            Machine m = Machine.boot(Machine.Config.of(commentMachine(), V6_17).withDynamicMsix(dyn));
            assertEquals(9, SiblingSpread.manaSetupIrqs(m, 0).size());
            assertEquals(0, m.lockDepth(), "dynamic MSI-X " + dyn);
        }
    }

    @Test
    void HP_1_racesExploreTheReleasesRoutine() {
        // The undisturbed run of each exploration is the routine's plan: SIB-9's and SIB-2's examples.
        Machine.Config c = Machine.Config.of(commentMachine(), V6_9);
        assertEquals(Optional.of(lists("0", "0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7")),
                InterleavingExplorer.explore(c, m -> SiblingSpread.manaSetupIrqs(m, 0), OutcomeTable.ofManaSetupIrqs(V6_9)).plan());
        HotplugRoutine<List<CpuSet>> irqSetup = m -> SiblingSpread.irqSetup(m, 0, 8, false);
        assertEquals(Optional.of(lists("0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7")),
                InterleavingExplorer.explore(c, irqSetup.underCpusReadLock(), OutcomeTable.ATOMIC).plan());
    }

    // 5316394b1752 "net: mana: Optimize irq affinity for low vcpu configs" (7.2): its example is a
    // 4-vCPU VM of two cores {0,1} and {2,3}, the HWC and 4 queues on the dynamic MSI-X path.

    static final KernelRelease V7_1 = KernelRelease.of(7, 1);
    static final KernelRelease V7_2 = KernelRelease.of(7, 2);

    static Topology fourVcpus() {
        return TopologyBuilder.machine("mana-1node-2c-smt2").node(0, "0-3").smtAdjacent(2).build();
    }

    @Test
    void SIB_13_oneQueuePerOnlineCpuGetsThatCpuAloneFrom72() {
        // max_msix 64: usable = min(64, 4 + 1) = 5 > 4 online: HWC through irq_setup() (0-1), queue k on CPU k-1.
        Machine.Config c = Machine.Config.of(fourVcpus(), V7_2).withDynamicMsix(true).withGrantedVectors(64);
        assertEquals(lists("0-1", "0", "1", "2", "3"), manaSetupIrqsPlan(c, 0));
    }

    @Test
    void SIB_13_withoutTheFixTheSameQueuesTakeWholeCores() {
        // The commit's "before" column: irq_setup() without skip over cores 0-1, 2-3, twice (6.17).
        Machine.Config c = Machine.Config.of(fourVcpus(), KernelRelease.of(6, 17)).withDynamicMsix(true).withGrantedVectors(64);
        assertEquals(lists("0-1", "0-1", "2-3", "0-1", "2-3"), manaSetupIrqsPlan(c, 0));
    }

    /** 5316394b1752 (7.2, Cc stable) reached 7.1.y and 6.18.y; 7.0.y is not known to have it. */
    @Test
    void SIB_13_theStableSeriesWithTheFixSpreadLinearly() {
        for (KernelRelease k : new KernelRelease[]{V7_1, KernelRelease.of(6, 18)}) {
            Machine.Config c = Machine.Config.of(fourVcpus(), k).withDynamicMsix(true).withGrantedVectors(64);
            assertEquals(lists("0-1", "0", "1", "2", "3"), manaSetupIrqsPlan(c, 0), k.toString());
        }
        Machine.Config c = Machine.Config.of(fourVcpus(), KernelRelease.of(7, 0)).withDynamicMsix(true).withGrantedVectors(64);
        assertEquals(lists("0-1", "0-1", "2-3", "0-1", "2-3"), manaSetupIrqsPlan(c, 0));
    }

    @Test
    void SIB_13_queuesThatFitTheCpusStayNumaAware() {
        // max_msix 4: usable 4 <= 4 online: irq_setup() with skip_first_cpu, as in 6.17.
        Machine.Config c = Machine.Config.of(fourVcpus(), V7_2).withDynamicMsix(true).withGrantedVectors(4);
        assertEquals(lists("0-1", "2-3", "0-1", "2-3"), manaSetupIrqsPlan(c, 0));
        // The static path is unchanged: 5 vectors > 4 CPUs, the HWC on CPU 0 and irq_setup() from vector 1.
        assertEquals(lists("0", "0-1", "2-3", "0-1", "2-3"), manaSetupIrqsPlan(Machine.Config.of(fourVcpus(), V7_2), 0));
    }

    @Test
    void HP_4_aCpuGoneOfflineSinceTheSizingLeavesTheLastQueueUntouched() {
        // cpu 3 goes offline between the sizing (num_online_cpus() = 4, usable 5) and the queues' lock:
        // 4 queues over the 3 online CPUs 0-2; queue 4 keeps its affinity, as the commit's comment says.
        Machine.Config c = Machine.Config.of(fourVcpus(), V7_2).withDynamicMsix(true).withGrantedVectors(64);
        var x = InterleavingExplorer.explore(c, m -> SiblingSpread.manaSetupIrqs(m, 0), OutcomeTable.ofManaSetupIrqs(V7_2),
                InterleavingExplorer.Scope.only(dev.numaspread.model.hotplug.HotplugEvent.offline(3)));
        assertEquals(List.of(), x.forbidden(), x.report());
        // The second cpus_read_lock() of the run is the queues'; the event arriving just before it:
        var beforeQueuesLock = x.interleavings().stream()
                .filter(i -> i.arrivals().get(0).beforeCall().equals("cpus_read_lock()")).reduce((a, b) -> b).orElseThrow();
        assertEquals(dev.numaspread.model.hotplug.Outcome.STALE_COUNT, beforeQueuesLock.outcome(), x.report());
        assertEquals(Optional.of(lists("0-1", "0", "1", "2", "")), beforeQueuesLock.result(), x.report());
    }
}
