package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.AffinitySetting;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The known-bad NIC drivers of spec/nic.md: one plausible slip per driver (and the behaviour a
 * release had before a commit changed it), each overriding one routine of the model.
 */
final class NicZoo {
    private NicZoo() {}

    /** The same queues with every IRQ passed through {@code change}. */
    static NicQueues mapIrqs(NicQueues q, UnaryOperator<QueueIrq> change) {
        List<QueueIrq> irqs = new ArrayList<>();
        for (QueueIrq i : q.irqs()) irqs.add(change.apply(i));
        return new NicQueues(irqs, q.xps());
    }

    static QueueIrq withSetting(QueueIrq i, AffinitySetting s) {
        return new QueueIrq(i.role(), i.queue(), i.mask(), s);
    }

    /** virtio-net slip: the left-over CPUs go to the last pairs instead of the first. */
    static final class StragglersToTheLastPairs extends Delegating {
        @Override public NicQueues virtioNetIrqs(KernelRelease k, Topology m, int node, int queues) {
            int n = m.numOnlineCpus(), curr = Math.min(queues, n), stride = n / curr, extra = n % curr;
            int[] cpus = m.online().toArray();
            List<CpuSet> groups = new ArrayList<>();
            int next = 0;
            for (int i = 0; i < curr; i++) {
                CpuSet.Builder g = CpuSet.builder();
                for (int j = stride + (i >= curr - extra ? 1 : 0); j > 0; j--) g.add(cpus[next++]);
                groups.add(g.build());
            }
            NicQueues model = super.virtioNetIrqs(k, m, node, queues);
            return new NicQueues(mapIrqs(model, i -> i.role().isQueue() && i.queue() < curr
                    ? new QueueIrq(i.role(), i.queue(), groups.get(i.queue()), i.setting()) : i).irqs(), groups);
        }
    }

    /** ena slip: the {@code i}-th online CPU ({@code cpumask_local_spread(i, NUMA_NO_NODE)}) where ena takes CPU id {@code i mod online}. */
    static final class EnaNthOnlineCpu extends Delegating {
        @Override public NicQueues enaIrqs(KernelRelease k, Topology m, int node, int queues) {
            return mapIrqs(super.enaIrqs(k, m, node, queues), i -> i.role() == QueueIrq.Role.RX_TX
                    ? new QueueIrq(i.role(), i.queue(), CpuSet.of(m.online().nth(i.queue() % m.numOnlineCpus())), i.setting()) : i);
        }
    }

    /** gve 6.17+ slip: the receive blocks go on walking the node instead of starting again at its first CPU. */
    static final class GveReceiveContinuesTheWalk extends Delegating {
        @Override public NicQueues gveIrqs(KernelRelease k, Topology m, int node, int queues) {
            NicQueues model = super.gveIrqs(k, m, node, queues);
            if (node < 0 || m.onlineCpusOf(node).isEmpty()) return model;
            int[] cpus = m.onlineCpusOf(node).toArray();
            return mapIrqs(model, i -> i.role() == QueueIrq.Role.RX
                    ? new QueueIrq(i.role(), i.queue(), CpuSet.of(cpus[(queues + i.queue()) % cpus.length]), i.setting()) : i);
        }
    }

    /** ice 6.15+ slip: spread from the device's node (what the series' review asked for) instead of node 0. */
    static final class IceSpreadsFromTheDeviceNode extends Delegating {
        @Override public NicQueues iceIrqs(KernelRelease k, Topology m, int node, int queues) {
            NicQueues model = super.iceIrqs(k, m, node, queues);
            int[] spread = LocalSpread.localSpreadCpus(k, m, node, queues);
            List<CpuSet> masks = new ArrayList<>();
            for (int c : spread) masks.add(c < m.nrCpuIds() ? CpuSet.of(c) : CpuSet.EMPTY);
            return new NicQueues(mapIrqs(model, i -> new QueueIrq(i.role(), i.queue(), masks.get(i.queue()), i.setting())).irqs(), masks);
        }
    }

    /** ice 6.11 - 6.14: still forced, as before dee55767dc8c "ice: use irq_update_affinity_hint()". */
    static final class IceForcedAfter611 extends Delegating {
        @Override public NicQueues iceIrqs(KernelRelease k, Topology m, int node, int queues) {
            return mapIrqs(super.iceIrqs(k, m, node, queues), i -> withSetting(i, AffinitySetting.FORCED));
        }
    }

    /** i40e slip: the hint forced ({@code irq_set_affinity_hint()} where i40e calls {@code irq_update_affinity_hint()}). */
    static final class I40eForcesItsHint extends Delegating {
        @Override public NicQueues i40eIrqs(KernelRelease k, Topology m, int node, int queues) {
            return mapIrqs(super.i40eIrqs(k, m, node, queues), i -> withSetting(i, AffinitySetting.FORCED));
        }
    }

    /** bnxt 6.13+: still forced, as before fcf42409c6e1 "bnxt_en: use irq_update_affinity_hint()". */
    static final class BnxtForcedAfter613 extends Delegating {
        @Override public NicQueues bnxtIrqs(KernelRelease k, Topology m, int node, int queues) {
            return mapIrqs(super.bnxtIrqs(k, m, node, queues), i -> withSetting(i, AffinitySetting.FORCED));
        }
    }

    /** bnxt slip: each transmit queue's XPS map is its own IRQ's CPU, not every online CPU dealt out over the queues. */
    static final class BnxtXpsIsTheIrqCpu extends Delegating {
        @Override public NicQueues bnxtIrqs(KernelRelease k, Topology m, int node, int queues) {
            NicQueues model = super.bnxtIrqs(k, m, node, queues);
            if (model.xps().isEmpty()) return model;
            return new NicQueues(model.irqs(), model.irqs().stream().map(QueueIrq::mask).toList());
        }
    }
}
