package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The NIC drivers of spec/nic.md on one small machine, every expected value worked out by hand
 * from the drivers' source (6.1.192, 6.12.117, 7.3.4).
 */
class NicQueuesTest {

    static final KernelRelease V6_1 = KernelRelease.of(6, 1), V6_10 = KernelRelease.of(6, 10), V6_11 = KernelRelease.of(6, 11),
            V6_12 = KernelRelease.of(6, 12), V6_13 = KernelRelease.of(6, 13), V6_14 = KernelRelease.of(6, 14),
            V6_15 = KernelRelease.of(6, 15), V6_16 = KernelRelease.of(6, 16), V6_17 = KernelRelease.of(6, 17),
            V7_3 = KernelRelease.of(7, 3);

    /** 3 nodes of 2 CPUs, CPUs 1 and 3 offline: online 0, 2, 4, 5. Node 2 is nearer to node 0 (20) than node 1 (30). */
    static Topology fourOnline() {
        return TopologyBuilder.machine("4-online").node(0, "0-1").node(1, "2-3").node(2, "4-5").online("0,2,4-5")
                .distances(new int[]{10, 30, 20}, new int[]{30, 10, 20}, new int[]{20, 20, 10}).build();
    }

    /** The IRQs as text: {@code label setting cpus}, one per IRQ, in vector order. */
    static List<String> irqs(NicQueues q) {
        return q.irqs().stream().map(QueueIrq::toString).toList();
    }

    static List<CpuSet> sets(String... lists) {
        return java.util.Arrays.stream(lists).map(CpuSet::parseText).toList();
    }

    @Test
    void NIC_1_forcedMaskWithAnOnlineCpuIsShownElseTheDefault() {
        Topology m = fourOnline();
        QueueIrq forced = new QueueIrq(QueueIrq.Role.RX, 0, CpuSet.parseList("1,4"), AffinitySetting.FORCED);
        assertEquals(CpuSet.parseList("1,4"), Affinity.shown(m, 0, forced));    // offline CPU 1 kept in the mask
        QueueIrq offline = new QueueIrq(QueueIrq.Role.RX, 0, CpuSet.of(3), AffinitySetting.FORCED);
        assertEquals(CpuSet.of(2), Affinity.shown(m, 1, offline));              // node 1's online CPUs
        assertEquals(CpuSet.parseList("0,2,4-5"), Affinity.shown(m, -1, offline));
        QueueIrq hint = new QueueIrq(QueueIrq.Role.RX, 0, CpuSet.of(4), AffinitySetting.HINT);
        assertEquals(CpuSet.of(0), Affinity.shown(m, 0, hint));
        QueueIrq none = new QueueIrq(QueueIrq.Role.CONFIG, 0, CpuSet.EMPTY, AffinitySetting.NONE);
        assertEquals(CpuSet.parseList("4-5"), Affinity.shown(m, 2, none));
    }

    @Test
    void NIC_1_aCpulessDeviceNodeGetsEveryOnlineCpu() {
        Topology m = TopologyBuilder.machine("cpuless").node(0, "0-1").node(1, "").build();
        assertEquals(CpuSet.parseList("0-1"), Affinity.irqSetupAffinity(m, 1));
    }

    @Test
    void NIC_2_pairsGetConsecutiveGroupsOfOnlineCpusTheFirstOnesOneMore() {
        NicQueues q = VirtioNet.virtioNetIrqs(V6_12, fourOnline(), 3);
        assertEquals(List.of("config none none", "rx 0 forced 0,2", "tx 0 forced 0,2", "rx 1 forced 4", "tx 1 forced 4",
                "rx 2 forced 5", "tx 2 forced 5"), irqs(q));
        assertEquals(sets("0,2", "4", "5"), q.xps());
        assertEquals(sets("0,2,4-5"), VirtioNet.virtioNetIrqs(V6_1, fourOnline(), 1).xps());
        assertEquals(VirtioNet.virtioNetIrqs(V6_1, fourOnline(), 3), VirtioNet.virtioNetIrqs(V7_3, fourOnline(), 3));
    }

    @Test
    void NIC_3_pairsBeyondTheOnlineCpusAreLeftAlone() {
        NicQueues q = VirtioNet.virtioNetIrqs(V7_3, fourOnline(), 6);
        assertEquals(List.of("config none none", "rx 0 forced 0", "tx 0 forced 0", "rx 1 forced 2", "tx 1 forced 2",
                "rx 2 forced 4", "tx 2 forced 4", "rx 3 forced 5", "tx 3 forced 5",
                "rx 4 none none", "tx 4 none none", "rx 5 none none", "tx 5 none none"), irqs(q));
        assertEquals(sets("0", "2", "4", "5"), q.xps());
    }

    @Test
    void NIC_4_enaForcesIoIrqIToCpuIdIModOnline() {
        NicQueues q = Ena.enaIrqs(V6_12, fourOnline(), 6);
        // min(6, 4 online) = 4 I/O IRQs on CPU ids 0, 1, 2, 3: two of them offline.
        assertEquals(List.of("management forced 0", "rx-tx 0 forced 0", "rx-tx 1 forced 1", "rx-tx 2 forced 2", "rx-tx 3 forced 3"), irqs(q));
        assertEquals(List.of(), q.xps());
        assertEquals(CpuSet.parseList("0,2,4-5"), Affinity.shown(fourOnline(), -1, q.irq(QueueIrq.Role.RX_TX, 1).orElseThrow()));
        assertEquals(Ena.enaIrqs(V6_1, fourOnline(), 2), Ena.enaIrqs(V7_3, fourOnline(), 2));
    }

    @Test
    void NIC_5_gveBefore617BlockIToCpuIdIModActive() {
        NicQueues q = Gve.gveIrqs(V6_16, fourOnline(), 2, 3);
        assertEquals(List.of("tx 0 forced 0", "tx 1 forced 1", "tx 2 forced 2", "rx 0 forced 0", "rx 1 forced 1", "rx 2 forced 2",
                "management none none"), irqs(q));
        assertEquals(sets("0", "1", "2"), q.xps());
        // 6 queue pairs on 4 online CPUs: active = 4, so RX 0 (block 6) is on CPU 2 and RX 2 on CPU 0.
        NicQueues six = Gve.gveIrqs(V6_1, fourOnline(), -1, 6);
        assertEquals("rx 0 forced 2", six.irq(QueueIrq.Role.RX, 0).orElseThrow().toString());
        assertEquals("rx 2 forced 0", six.irq(QueueIrq.Role.RX, 2).orElseThrow().toString());
        assertEquals(sets("0", "1", "2", "3", "0", "1"), six.xps());
    }

    @Test
    void NIC_6_gveFrom617WalksTheDeviceNodeAndRestartsForReceive() {
        NicQueues q = Gve.gveIrqs(V6_17, fourOnline(), 2, 3);
        assertEquals(List.of("tx 0 forced 4", "tx 1 forced 5", "tx 2 forced 4", "rx 0 forced 4", "rx 1 forced 5", "rx 2 forced 4",
                "management none none"), irqs(q));
        assertEquals(sets("0", "1", "2"), q.xps());       // XPS was left as before 6.17
        NicQueues noNode = Gve.gveIrqs(V7_3, fourOnline(), -1, 3);
        assertEquals(List.of("tx 0 forced 0", "tx 1 forced 1", "tx 2 forced 2", "rx 0 forced 0", "rx 1 forced 1", "rx 2 forced 2",
                "management none none"), irqs(noNode));
        Topology cpuless = TopologyBuilder.machine("cpuless").node(0, "0-1").node(1, "").build();
        assertEquals("tx 0 forced none", Gve.gveIrqs(V7_3, cpuless, 1, 1).irqs().get(0).toString());
        assertThrows(IllegalArgumentException.class, () -> Gve.gveIrqs(V7_3, fourOnline(), 5, 1));
    }

    @Test
    void NIC_7_iceBefore615CpuVIfOnlineForcedThenOnlyAHint() {
        NicQueues q = Ice.iceIrqs(V6_10, fourOnline(), 2, 4);
        assertEquals(List.of("rx-tx 0 forced 0", "rx-tx 1 forced none", "rx-tx 2 forced 2", "rx-tx 3 forced none"), irqs(q));
        assertEquals(sets("0", "none", "2", "none"), q.xps());
        assertEquals(List.of("rx-tx 0 hint 0", "rx-tx 1 hint none", "rx-tx 2 hint 2", "rx-tx 3 hint none"),
                irqs(Ice.iceIrqs(V6_11, fourOnline(), 2, 4)));
        assertEquals(Ice.iceIrqs(V6_11, fourOnline(), 2, 4), Ice.iceIrqs(V6_14, fourOnline(), -1, 4));
    }

    @Test
    void NIC_8_iceFrom615SpreadsFromNode0WhateverTheDevicesNode() {
        // Local spread from node 0: 0, then node 2 (20): 4, 5, then node 1 (30): 2.
        NicQueues q = Ice.iceIrqs(V6_15, fourOnline(), 1, 4);
        assertEquals(List.of("rx-tx 0 forced 0", "rx-tx 1 forced 4", "rx-tx 2 forced 5", "rx-tx 3 forced 2"), irqs(q));
        assertEquals(sets("0", "4", "5", "2"), q.xps());
        assertEquals(q, Ice.iceIrqs(V7_3, fourOnline(), 2, 4));
    }

    @Test
    void NIC_9_i40eHintsTheVthOnlineCpu() {
        NicQueues q = I40e.i40eIrqs(V6_12, fourOnline(), 5);
        assertEquals(List.of("rx-tx 0 hint 0", "rx-tx 1 hint 2", "rx-tx 2 hint 4", "rx-tx 3 hint 5", "rx-tx 4 hint 0"), irqs(q));
        assertEquals(sets("0", "2", "4", "5", "0"), q.xps());
    }

    @Test
    void NIC_10_bnxtLocalSpreadFromTheDeviceNodeForcedUntil612() {
        // 6.1, classic: node 1's CPU 2, then the others by id.
        assertEquals(List.of("rx-tx 0 forced 2", "rx-tx 1 forced 0"), irqs(Bnxt.bnxtIrqs(V6_1, fourOnline(), 1, 2)));
        // 6.12, rings: 2, then node 2 (20), then node 0 (30).
        assertEquals(List.of("rx-tx 0 forced 2", "rx-tx 1 forced 4", "rx-tx 2 forced 5"), irqs(Bnxt.bnxtIrqs(V6_12, fourOnline(), 1, 3)));
        assertEquals(List.of("rx-tx 0 hint 2", "rx-tx 1 hint 4", "rx-tx 2 hint 5"), irqs(Bnxt.bnxtIrqs(V6_13, fourOnline(), 1, 3)));
        assertEquals(Bnxt.bnxtIrqs(V6_13, fourOnline(), 1, 3), Bnxt.bnxtIrqs(V7_3, fourOnline(), 1, 3));
    }

    @Test
    void NIC_11_bnxtXpsFrom610SpreadsTheOnlineCpusOverTheQueues() {
        // Spread from node 1 for the 4 online CPUs: 2, 4, 5, 0; queue q takes i = q, q + 3.
        assertEquals(sets("0,2", "4", "5"), Bnxt.bnxtIrqs(V6_10, fourOnline(), 1, 3).xps());
        assertEquals(List.of(), Bnxt.bnxtIrqs(KernelRelease.of(6, 9), fourOnline(), 1, 3).xps());
        // More rings than online CPUs: the last queues get no CPU.
        assertEquals(sets("2", "4", "5", "0", "none"), Bnxt.bnxtIrqs(V7_3, fourOnline(), 1, 5).xps());
    }

    @Test
    void NIC_6_noNodeWalksEveryIdAndWrapsAtNrCpuIds() {
        // nr_cpu_ids 6, 7 queue pairs: the transmit walk wraps after CPU 5, and receive starts again at 0.
        NicQueues q = Gve.gveIrqs(V7_3, fourOnline(), -1, 7);
        assertEquals("tx 6 forced 0", q.irq(QueueIrq.Role.TX, 6).orElseThrow().toString());
        assertEquals("rx 5 forced 5", q.irq(QueueIrq.Role.RX, 5).orElseThrow().toString());
        assertEquals("rx 6 forced 0", q.irq(QueueIrq.Role.RX, 6).orElseThrow().toString());
    }

    @Test
    void NIC_11_aMachineWithoutNumaLevelsGivesNoCpuFrom63() {
        // A distance past 255: 6.3+ builds no NUMA levels and cpumask_local_spread() answers nr_cpu_ids (LVL-4).
        Topology m = TopologyBuilder.machine("no-levels").expect("slit-invalid").node(0, "0-1").node(1, "2-3")
                .distances(new int[]{10, 300}, new int[]{300, 10}).build();
        NicQueues q = Bnxt.bnxtIrqs(V6_12, m, 0, 2);
        assertEquals(List.of("rx-tx 0 forced none", "rx-tx 1 forced none"), irqs(q));
        assertEquals(sets("none", "none"), q.xps());
    }

    @Test
    void releasesBefore61AndCountsBelowOneAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ena.enaIrqs(KernelRelease.of(5, 15), fourOnline(), 1));
        assertEquals("kernel 5.15: ena-irqs is modelled for 6.1..7.3 (the oldest release whose driver source was read)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> VirtioNet.virtioNetIrqs(V6_12, fourOnline(), 0));
        assertEquals("virtio-net-irqs: queue pairs = 0; expected 1 or more", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Ice.iceIrqs(V7_3,
                TopologyBuilder.machine("no-node-0").node(1, "0-1").build(), -1, 1));
        KernelRelease v5_15 = KernelRelease.of(5, 15);
        Topology m = fourOnline();
        for (java.util.function.BiFunction<KernelRelease, Integer, NicQueues> f : List.<java.util.function.BiFunction<KernelRelease, Integer, NicQueues>>of(
                (k, n) -> VirtioNet.virtioNetIrqs(k, m, n), (k, n) -> Ena.enaIrqs(k, m, n), (k, n) -> Gve.gveIrqs(k, m, -1, n),
                (k, n) -> Ice.iceIrqs(k, m, -1, n), (k, n) -> I40e.i40eIrqs(k, m, n), (k, n) -> Bnxt.bnxtIrqs(k, m, -1, n))) {
            assertThrows(IllegalArgumentException.class, () -> f.apply(v5_15, 1));
            assertThrows(IllegalArgumentException.class, () -> f.apply(V7_3, 0));
        }
    }
}
