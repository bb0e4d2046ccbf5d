package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MANA's IRQ setup in the example against the sources' own numbers: seed 004's table (2 nodes x 32
 * cores x 2 threads, 64 IRQs on node 0), the example in the comment of 4607617af1b4 "net: mana:
 * explain irq_setup() algorithm" (2 nodes, 4 cores, 8 CPUs) and the HWC rule of 8afefc361209
 * "net: mana: Assigning IRQ affinity on HT cores" ({@code mana_gd_setup_irqs()}, 6.9). Expected
 * values are the sources' or derived by hand from them; the reference model is not consulted.
 */
class ManaExamplesTest {
    private static final KernelRelease LINUX_6_9 = KernelRelease.of(6, 9);
    private static final KernelRelease LINUX_6_12 = KernelRelease.of(6, 12);
    private final KernelStyleSpread example = new KernelStyleSpread();

    /** Seed 004: 2 nodes x 32 cores x 2 threads, siblings adjacent (CPUs 2c, 2c+1). */
    static Topology seed004() {
        return GroupingExamplesTest.machine(2, 64, true, null);
    }

    /** The kernel comment's machine: 2 nodes, 4 cores, 8 CPUs, siblings adjacent. */
    static Topology commentMachine() {
        return GroupingExamplesTest.machine(2, 4, true, null);
    }

    private static List<CpuSet> masks(String... lists) {
        List<CpuSet> out = new ArrayList<>();
        for (String l : lists) out.add(l.isEmpty() ? CpuSet.EMPTY : CpuSet.parseList(l));
        return out;
    }

    /** irq_setup() as mana_gd_setup_irqs() runs it: under the caller's cpus_read_lock(). */
    private List<CpuSet> irqSetup(Machine m, int node, int len) {
        m.cpusReadLock();
        List<CpuSet> out = example.irqSetup(m.kernel(), m, node, len, false);
        m.cpusReadUnlock();
        return out;
    }

    // ------------------------------------------------------------------ irq_setup()

    @Test
    void SIB_5_seed004TableIrqKGetsCore2kMod32() {
        for (KernelRelease kernel : List.of(LINUX_6_9, LINUX_6_12)) {
            Machine m = Machine.boot(seed004(), kernel);
            List<CpuSet> got = irqSetup(m, 0, 64);
            assertEquals(64, got.size(), "Linux " + kernel + ": 64 IRQs assigned");
            for (int k = 0; k < 64; k++) {
                int c = 2 * (k % 32);
                assertEquals(CpuSet.of(c, c + 1), got.get(k), "Linux " + kernel + ": IRQ " + k);
                // The machine recorded the same affinity for IRQ k: the result is what was set.
                assertEquals(CpuSet.of(c, c + 1), m.affinities().get(k), "Linux " + kernel + ": recorded affinity of IRQ " + k);
            }
        }
    }

    @Test
    void SIB_3_kernelCommentExampleTwoPassesOverNode0ThenNode1() {
        Machine m = Machine.boot(commentMachine(), LINUX_6_12);
        assertEquals(masks("0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), irqSetup(m, 0, 8));
    }

    @Test
    void SIB_4_threeIrqsGiveCore01TwoAndCore23One() {
        Machine m = Machine.boot(commentMachine(), LINUX_6_12);
        assertEquals(masks("0-1", "2-3", "0-1"), irqSetup(m, 0, 3));
    }

    @Test
    void SIB_8_irqsBeyondTheLastHopAreNotTouched() {
        Machine m = Machine.boot(commentMachine(), LINUX_6_12);
        assertEquals(masks("0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), irqSetup(m, 0, 11));
        assertEquals(8, m.affinityCalls().size(), "IRQs 8-10 get no irq_set_affinity_and_hint()");
    }

    @Test
    void SIB_8_numaNoNodeIsOneHopOfEveryOnlineCpu() {
        Machine m = Machine.boot(commentMachine(), LINUX_6_12);
        assertEquals(masks("0-1", "2-3", "4-5", "6-7", "0-1", "2-3", "4-5", "6-7"), irqSetup(m, -1, 9));
    }

    @Test
    void SIB_1_anOfflineSiblingLeavesItsCoreWithOneCpu() {
        // CPU 1 offline: core 0 is {0} alone. Hop 0 (node 0) has 3 CPUs in 2 cores, weight 3: the first
        // pass gives 0 | 2-3 (weight 1), the second pass completes, 0 | 2-3 (weight -1), then node 1.
        Machine m = Machine.boot(commentMachine().withOnline(CpuSet.parseList("0,2-7")), LINUX_6_12);
        assertEquals(masks("0", "2-3", "0", "2-3", "4-5"), irqSetup(m, 0, 5));
    }

    // ------------------------------------------------------------------ mana_gd_setup_irqs()

    @Test
    void SIB_9_vectorsOnlinePlusOneHwcSingleCpuSharesQueue1sCore() {
        // 8 online CPUs: min(8, 64) + 1 = 9 vectors > 8, so the HWC gets cpumask_local_spread(0, 0) = 0
        // and the 8 queues go through irq_setup() from vector 1: vector 1 gets 0-1, the HWC's core.
        Machine m = Machine.boot(commentMachine(), LINUX_6_12);
        assertEquals(masks("0", "0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), example.manaSetupIrqs(LINUX_6_12, m, 0));
        assertEquals(0, m.lockDepth());
    }

    @Test
    void SIB_9_hwcOnNode1TakesNode1sFirstCpu() {
        // cpumask_local_spread(0, 1) is node 1's first CPU, 4; vector 1 shares its core 4-5.
        Machine m = Machine.boot(commentMachine(), LINUX_6_12);
        assertEquals(masks("4", "4-5", "6-7", "4-5", "6-7", "0-1", "2-3", "0-1", "2-3"), example.manaSetupIrqs(LINUX_6_12, m, 1));
    }

    @Test
    void SIB_9_fourGrantedVectorsAllGoThroughIrqSetupHwcFirst() {
        Machine m = Machine.boot(Machine.Config.of(commentMachine(), LINUX_6_12).withGrantedVectors(4));
        assertEquals(masks("0-1", "2-3", "0-1", "2-3"), example.manaSetupIrqs(LINUX_6_12, m, 0));
    }

    @Test
    void SIB_9_seed004Machine65VectorsHwcTakesCore0() {
        // 128 online: min(128, 64) + 1 = 65 <= 128, so the HWC is irq_setup()'s IRQ 0. Ring 0-63 has
        // weight 64: two passes of 32 cores (vectors 0-63), then vector 64 on node 1's first core.
        Machine m = Machine.boot(seed004(), LINUX_6_9);
        List<CpuSet> got = example.manaSetupIrqs(LINUX_6_9, m, 0);
        assertEquals(65, got.size());
        for (int k = 0; k < 64; k++) assertEquals(CpuSet.of(2 * (k % 32), 2 * (k % 32) + 1), got.get(k), "vector " + k);
        assertEquals(CpuSet.of(64, 65), got.get(64), "vector 64");
    }

    @Test
    void SIB_8_cpulessNodeHwcFromLocalSpreadQueuesUntouched() {
        // Node 1 has no CPU: 4 online, 5 vectors > 4, the HWC takes cpumask_local_spread(0, 1), which
        // from 6.7 searches the nearest node with CPUs: CPU 0. No hop for node 1: the queues keep none.
        Topology t = TopoText.parse("""
                siblings 0-1 2-3
                node 0 cpus: 0-3
                node 1 cpus:
                node distances:
                node 0 1
                0: 10 20
                1: 20 10
                """, "cpuless-node.topo");
        Machine m = Machine.boot(t, LINUX_6_12);
        assertEquals(masks("0", "", "", "", ""), example.manaSetupIrqs(LINUX_6_12, m, 1));
    }

    @Test
    void HP_3_failedAllocationReturnsNothingAndReleasesTheLock() {
        Machine m = Machine.boot(Machine.Config.of(commentMachine(), LINUX_6_12).withGrantedVectors(1));
        assertEquals(List.of(), example.manaSetupIrqs(LINUX_6_12, m, 0));
        assertEquals(0, m.lockDepth());
        assertEquals(List.of("cpus_read_lock", "num_online_cpus", "pci_alloc_irq_vectors", "cpus_read_unlock"),
                m.calls().stream().map(Machine.ServiceCall::service).toList());
    }

    @Test
    void HP_1_lockHeldFromSizingToTheLastAffinity() {
        Machine m = Machine.boot(commentMachine(), LINUX_6_12);
        example.manaSetupIrqs(LINUX_6_12, m, 0);
        List<Machine.ServiceCall> calls = m.calls();
        assertEquals("cpus_read_lock", calls.get(0).service());
        assertEquals("cpus_read_unlock", calls.get(calls.size() - 1).service());
        for (Machine.ServiceCall c : calls.subList(1, calls.size()))
            assertTrue(c.lockDepth() == 1, c + " runs under cpus_read_lock()");
        assertEquals(9, m.affinityCalls().size());
        assertEquals(0, m.lockDepth());
    }

    // ------------------------------------------------------------------ 6.17+ (spec/sibling-spread.md SIB-7, SIB-10, SIB-13)

    private static final KernelRelease LINUX_6_17 = KernelRelease.of(6, 17);
    private static final KernelRelease LINUX_7_3 = KernelRelease.of(7, 3);

    /** SIB-7: kernel comment machine, 4 IRQs on node 0 with skip_first_cpu: 2-3, 0-1, 2-3, 4-5. */
    @Test
    void SIB_7_skipFirstCpuSkipsCore01OnceAndCountsIt() {
        Machine m = Machine.boot(commentMachine(), LINUX_7_3);
        m.cpusReadLock();
        List<CpuSet> got = example.irqSetup(LINUX_7_3, m, 0, 4, true);
        m.cpusReadUnlock();
        assertEquals(masks("2-3", "0-1", "2-3", "4-5"), got);
    }

    /** SIB-10: kernel comment machine, dynamic MSI-X, max_msix 5: HWC 0-1; queues 2-3, 0-1, 2-3, 4-5 (6.17 and 7.3). */
    @Test
    void SIB_10_dynamicMsixMaxMsix5KeepsTheHwcCore() {
        for (KernelRelease kernel : List.of(LINUX_6_17, LINUX_7_3)) {
            Machine m = Machine.boot(Machine.Config.of(commentMachine(), kernel).withDynamicMsix(true).withGrantedVectors(5));
            assertEquals(masks("0-1", "2-3", "0-1", "2-3", "4-5"), GdmaMain.manaGdSetupIrqs(kernel, m, 0), "Linux " + kernel);
            assertEquals(0, m.lockDepth(), "Linux " + kernel + ": both holds released");
        }
    }

    /** SIB-10: unlimited vectors before 7.2: HWC 0-1, then the eight queues of SIB-3 without skipping. */
    @Test
    void SIB_10_dynamicMsixUnlimitedBefore7_2() {
        Machine m = Machine.boot(Machine.Config.of(commentMachine(), LINUX_6_17).withDynamicMsix(true));
        assertEquals(masks("0-1", "0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), GdmaMain.manaGdSetupIrqs(LINUX_6_17, m, 0));
    }

    /** SIB-13: the commit's VM (one node, cores 0-1 and 2-3), max_msix 64: HWC 0-1; queues 0, 1, 2, 3; max_msix 4: 2-3, 0-1, 2-3. */
    @Test
    void SIB_13_onePerOnlineCpuFrom7_2() {
        Topology vm = GroupingExamplesTest.machine(1, 4, true, null);
        Machine m = Machine.boot(Machine.Config.of(vm, LINUX_7_3).withDynamicMsix(true).withGrantedVectors(64));
        assertEquals(masks("0-1", "0", "1", "2", "3"), example.manaSetupIrqs(LINUX_7_3, m, 0));
        Machine m4 = Machine.boot(Machine.Config.of(vm, LINUX_7_3).withDynamicMsix(true).withGrantedVectors(4));
        assertEquals(masks("0-1", "2-3", "0-1", "2-3"), example.manaSetupIrqs(LINUX_7_3, m4, 0));
    }
}
