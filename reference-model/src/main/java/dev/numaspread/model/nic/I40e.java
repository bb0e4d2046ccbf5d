package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * i40e's queue-vector IRQs and XPS (spec/nic.md NIC-8): {@code i40e_vsi_request_irq_msix()} and
 * {@code i40e_config_xps_tx_ring()} in drivers/net/ethernet/intel/i40e/i40e_main.c, read in 6.1,
 * 6.12, 7.2 and 7.3 (the same).
 */
public final class I40e {
    private I40e() {}

    /**
     * The IRQs and XPS masks of an i40e device of {@code vectors} queue vectors
     * ({@code i40e-IF-TxRx-V}): vector {@code v} gets only the hint
     * {@code cpumask_local_spread(v, NUMA_NO_NODE)}, the {@code v}-th online CPU wrapping,
     * whatever the device's node ({@code irq_update_affinity_hint()}); the XPS map of transmit
     * queue {@code v} is that CPU.
     *
     * @param vectors the queue vectors, 1 or more
     */
    public static NicQueues i40eIrqs(KernelRelease kernel, Topology machine, int vectors) {
        NicQueues.require(kernel, "i40e-irqs", "vectors", vectors);
        List<CpuSet> masks = new ArrayList<>();
        for (int cpu : LocalSpread.localSpreadCpus(kernel, machine, Numa.NUMA_NO_NODE, vectors)) masks.add(Affinity.cpu(machine, cpu));
        List<QueueIrq> irqs = new ArrayList<>();
        for (int v = 0; v < vectors; v++) irqs.add(new QueueIrq(QueueIrq.Role.RX_TX, v, masks.get(v), AffinitySetting.HINT));
        return new NicQueues(irqs, masks);
    }
}
