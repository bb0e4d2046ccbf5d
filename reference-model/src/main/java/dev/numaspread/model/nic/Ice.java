package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * ice's queue-vector IRQs and XPS (spec/nic.md NIC-6, NIC-7), drivers/net/ethernet/intel/ice,
 * read in 6.1, 6.12, 7.2 and 7.3.
 */
public final class Ice {
    private Ice() {}

    /**
     * The node {@code netif_set_affinity_auto()} spreads from in 6.15+: {@code dev_to_node(&netdev->dev)}
     * read before {@code register_netdev()}, when the netdev's device has not been through
     * {@code device_initialize()} and keeps the zero of its allocation.
     */
    static final int NETDEV_NODE_BEFORE_REGISTER = 0;

    /**
     * The IRQs and XPS masks of an ice device of {@code vectors} queue vectors, each with one
     * receive and one transmit queue ({@code ice-IF-TxRx-V}):
     * <ul>
     *   <li>before 6.15: vector {@code v}'s mask is CPU {@code v} when CPU {@code v} is online, else
     *       empty ({@code ice_vsi_alloc_q_vector()}); forced until 6.10, only a hint from 6.11
     *       (dee55767dc8c "ice: use irq_update_affinity_hint()");</li>
     *   <li>from 6.15 (4063af296762 "ice: use napi's irq affinity and rmap IRQ notifiers"):
     *       {@code netif_set_affinity_auto()} gives NAPI {@code v} the CPU
     *       {@code cpumask_local_spread(v, 0)}, forced with {@code irq_set_affinity()} when the
     *       NAPI is enabled: node 0 whatever the device's node ({@link #NETDEV_NODE_BEFORE_REGISTER}).</li>
     * </ul>
     * The XPS map of transmit queue {@code v} is vector {@code v}'s mask in every release.
     *
     * @param node    the device's node, or NUMA_NO_NODE (-1): read by no release
     * @param vectors the queue vectors, 1 or more
     * @throws IllegalArgumentException for 6.15+ on a machine without node 0, where the model has no
     *                                  answer for {@code cpumask_local_spread(v, 0)}
     */
    public static NicQueues iceIrqs(KernelRelease kernel, Topology machine, int node, int vectors) {
        NicQueues.require(kernel, "ice-irqs", "vectors", vectors);
        List<CpuSet> masks = new ArrayList<>();
        AffinitySetting setting;
        if (kernel.atLeast(6, 15)) {
            for (int cpu : LocalSpread.localSpreadCpus(kernel, machine, NETDEV_NODE_BEFORE_REGISTER, vectors))
                masks.add(Affinity.cpu(machine, cpu));
            setting = AffinitySetting.FORCED;
        } else {
            for (int v = 0; v < vectors; v++) masks.add(machine.online().contains(v) ? CpuSet.of(v) : CpuSet.EMPTY);
            setting = kernel.atLeast(6, 11) ? AffinitySetting.HINT : AffinitySetting.FORCED;
        }
        List<QueueIrq> irqs = new ArrayList<>();
        for (int v = 0; v < vectors; v++) irqs.add(new QueueIrq(QueueIrq.Role.RX_TX, v, masks.get(v), setting));
        return new NicQueues(irqs, masks);
    }
}
