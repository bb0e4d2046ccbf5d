package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The NIC drivers of the example against the worked examples of spec/nic.md (NIC-2 to NIC-11),
 * on the spec's machine: 3 nodes of 2 CPUs, CPUs 1 and 3 offline, node 2 nearer to nodes 0 and 1
 * than they are to each other. Expected values are the spec's; the reference model is not consulted.
 */
class NicExamplesTest {
    private static final KernelRelease V6_1 = KernelRelease.of(6, 1), V6_12 = KernelRelease.of(6, 12), V7_3 = KernelRelease.of(7, 3);
    private final KernelStyleSpread example = new KernelStyleSpread();

    static Topology fourOnline() {
        return TopologyBuilder.machine("4-online").node(0, "0-1").node(1, "2-3").node(2, "4-5").online("0,2,4-5")
                .distances(new int[]{10, 30, 20}, new int[]{30, 10, 20}, new int[]{20, 20, 10}).build();
    }

    private static List<String> irqs(NicQueues q) {
        return q.irqs().stream().map(QueueIrq::toString).toList();
    }

    private static List<CpuSet> sets(String... lists) {
        return Arrays.stream(lists).map(CpuSet::parseText).toList();
    }

    @Test
    void NIC_2_threePairsOnFourOnlineCpus() {
        assertEquals(sets("0,2", "4", "5"), example.virtioNetIrqs(V7_3, fourOnline(), -1, 3).xps());
        assertEquals(sets("0,2,4-5"), example.virtioNetIrqs(V6_1, fourOnline(), -1, 1).xps());
    }

    @Test
    void NIC_3_sixPairsLeaveFourAndFiveAlone() {
        NicQueues q = example.virtioNetIrqs(V6_12, fourOnline(), -1, 6);
        assertEquals("rx 4 none none", q.irq(QueueIrq.Role.RX, 4).orElseThrow().toString());
        assertEquals(sets("0", "2", "4", "5"), q.xps());
    }

    @Test
    void NIC_4_enaOnCpuIdsZeroToThree() {
        assertEquals(List.of("management forced 0", "rx-tx 0 forced 0", "rx-tx 1 forced 1", "rx-tx 2 forced 2", "rx-tx 3 forced 3"),
                irqs(example.enaIrqs(V6_12, fourOnline(), -1, 6)));
    }

    @Test
    void NIC_5_and_6_gveBeforeAndFrom617() {
        assertEquals(List.of("tx 0 forced 0", "tx 1 forced 1", "tx 2 forced 2", "rx 0 forced 0", "rx 1 forced 1", "rx 2 forced 2",
                "management none none"), irqs(example.gveIrqs(V6_12, fourOnline(), 2, 3)));
        assertEquals(List.of("tx 0 forced 4", "tx 1 forced 5", "tx 2 forced 4", "rx 0 forced 4", "rx 1 forced 5", "rx 2 forced 4",
                "management none none"), irqs(example.gveIrqs(V7_3, fourOnline(), 2, 3)));
    }

    @Test
    void NIC_7_and_8_iceCpuVThenNode0() {
        assertEquals(List.of("rx-tx 0 forced 0", "rx-tx 1 forced none", "rx-tx 2 forced 2", "rx-tx 3 forced none"),
                irqs(example.iceIrqs(V6_1, fourOnline(), 1, 4)));
        assertEquals(List.of("rx-tx 0 hint 0", "rx-tx 1 hint none", "rx-tx 2 hint 2"), irqs(example.iceIrqs(V6_12, fourOnline(), 1, 3)));
        assertEquals(List.of("rx-tx 0 forced 0", "rx-tx 1 forced 4", "rx-tx 2 forced 5", "rx-tx 3 forced 2"),
                irqs(example.iceIrqs(V7_3, fourOnline(), 1, 4)));
    }

    @Test
    void NIC_9_i40eHints() {
        assertEquals(List.of("rx-tx 0 hint 0", "rx-tx 1 hint 2", "rx-tx 2 hint 4", "rx-tx 3 hint 5", "rx-tx 4 hint 0"),
                irqs(example.i40eIrqs(V6_12, fourOnline(), 1, 5)));
    }

    @Test
    void NIC_10_and_11_bnxt() {
        assertEquals(List.of("rx-tx 0 forced 2", "rx-tx 1 forced 0", "rx-tx 2 forced 4"), irqs(example.bnxtIrqs(V6_1, fourOnline(), 1, 3)));
        NicQueues q = example.bnxtIrqs(V6_12, fourOnline(), 1, 3);
        assertEquals(List.of("rx-tx 0 forced 2", "rx-tx 1 forced 4", "rx-tx 2 forced 5"), irqs(q));
        assertEquals(sets("0,2", "4", "5"), q.xps());
        assertEquals(List.of("rx-tx 0 hint 2", "rx-tx 1 hint 4", "rx-tx 2 hint 5"), irqs(example.bnxtIrqs(V7_3, fourOnline(), 1, 3)));
        assertEquals(List.of(), example.bnxtIrqs(V6_1, fourOnline(), 1, 3).xps());
    }
}
