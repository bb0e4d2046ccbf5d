package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * virtio-net's queue IRQs and XPS (spec/nic.md NIC-2): {@code virtnet_set_affinity()} in
 * drivers/net/virtio_net.c, read in 6.1, 6.12, 7.2 and 7.3. 6.15's rewrite ("virtio_net: simplify
 * virtnet_set_affinity()", Yury Norov, 2d71780301e2) walks with {@code for_each_online_cpu_wrap}
 * and gives the same groups.
 */
public final class VirtioNet {
    private VirtioNet() {}

    /**
     * The IRQs and XPS masks of a virtio-net device offering {@code maxQueuePairs} queue pairs,
     * each virtqueue with a vector of its own (the first MSI-X policy virtio-pci tries).
     *
     * <p>The driver uses {@code curr = min(maxQueuePairs, num_online_cpus())} pairs. The online
     * CPUs, in ascending order from the first and wrapping, are cut into consecutive groups: each
     * pair gets {@code max(n / curr, 1)} CPUs and, when {@code n >= curr}, the first
     * {@code n mod curr} pairs one more (n = online CPUs). Pair {@code i}'s group is forced on its
     * receive and its transmit IRQ ({@code virtqueue_set_affinity()} ->
     * {@code irq_set_affinity_and_hint()}) and is the XPS map of transmit queue {@code i}. The
     * pairs the driver does not use keep their IRQs as requested, and the config IRQ has none set.
     *
     * @param maxQueuePairs the pairs the device offers ({@code max_queue_pairs}), 1 or more
     * @return vector 0 the config IRQ, then the receive and the transmit IRQ of each pair; one XPS
     *         mask per pair in use
     */
    public static NicQueues virtioNetIrqs(KernelRelease kernel, Topology machine, int maxQueuePairs) {
        NicQueues.require(kernel, "virtio-net-irqs", "queue pairs", maxQueuePairs);
        List<CpuSet> groups = groups(machine.online(), Math.min(maxQueuePairs, machine.numOnlineCpus()));
        List<QueueIrq> irqs = new ArrayList<>();
        irqs.add(new QueueIrq(QueueIrq.Role.CONFIG, 0, CpuSet.EMPTY, AffinitySetting.NONE));
        for (int i = 0; i < maxQueuePairs; i++) {
            boolean inUse = i < groups.size();
            CpuSet mask = inUse ? groups.get(i) : CpuSet.EMPTY;
            AffinitySetting setting = inUse ? AffinitySetting.FORCED : AffinitySetting.NONE;
            irqs.add(new QueueIrq(QueueIrq.Role.RX, i, mask, setting));
            irqs.add(new QueueIrq(QueueIrq.Role.TX, i, mask, setting));
        }
        return new NicQueues(irqs, groups);
    }

    /**
     * The group of each of {@code curr} pairs: consecutive online CPUs, ascending from the first
     * and wrapping (the walk of {@code cpumask_next_wrap}, 6.1 - 6.14, and
     * {@code for_each_online_cpu_wrap}, 6.15+: both start each group where the one before ended).
     */
    static List<CpuSet> groups(CpuSet online, int curr) {
        int n = online.size();
        int stride = Math.max(n / curr, 1);
        int stragglers = n >= curr ? n % curr : 0;
        int[] cpus = online.toArray();
        List<CpuSet> out = new ArrayList<>(curr);
        int next = 0;
        for (int i = 0; i < curr; i++) {
            CpuSet.Builder group = CpuSet.builder();
            for (int j = stride + (i < stragglers ? 1 : 0); j > 0; j--) {
                group.add(cpus[next]);
                next = (next + 1) % n;
            }
            out.add(group.build());
        }
        return out;
    }
}
