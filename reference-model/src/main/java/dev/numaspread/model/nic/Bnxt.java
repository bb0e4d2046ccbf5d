package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * bnxt_en's ring IRQs and XPS (spec/nic.md NIC-9, NIC-10): {@code bnxt_request_irq()} and
 * {@code bnxt_set_xps_mapping()} in drivers/net/ethernet/broadcom/bnxt/bnxt.c, read in 6.1, 6.12,
 * 7.2 and 7.3.
 */
public final class Bnxt {
    private Bnxt() {}

    /**
     * The IRQs and XPS masks of a bnxt device on {@code node} with {@code rings} completion rings,
     * each with a receive and a transmit ring ({@code IF-TxRx-I}), no traffic classes, as the
     * driver sets them when it first opens the device:
     * <ul>
     *   <li>ring {@code i}'s mask is {@code cpumask_local_spread(i, node)} of the release; forced
     *       until 6.12, only a hint from 6.13 (fcf42409c6e1 "bnxt_en: use irq_update_affinity_hint()");
     *       7.3 forces a mask again only when a user had set one before the IRQ was freed, which a
     *       first placement never has;</li>
     *   <li>XPS from 6.10 (8635ae8e99a6 "bnxt_en: Enable XPS by default on driver load"): transmit
     *       queue {@code q} gets every {@code cpumask_local_spread(i, node)} with
     *       {@code i < num_online_cpus()} and {@code i mod rings = q}; before 6.10 none.</li>
     * </ul>
     *
     * @param node  the device's node, or NUMA_NO_NODE (-1)
     * @param rings the completion rings, 1 or more
     * @throws dev.numaspread.model.kernel.KernelBug where the release's local spread fails (a CPU-less node in 6.3 - 6.6)
     */
    public static NicQueues bnxtIrqs(KernelRelease kernel, Topology machine, int node, int rings) {
        NicQueues.require(kernel, "bnxt-irqs", "rings", rings);
        int online = machine.numOnlineCpus();
        int[] spread = LocalSpread.localSpreadCpus(kernel, machine, node, Math.max(rings, online));
        AffinitySetting setting = kernel.atLeast(6, 13) ? AffinitySetting.HINT : AffinitySetting.FORCED;
        List<QueueIrq> irqs = new ArrayList<>();
        for (int i = 0; i < rings; i++) irqs.add(new QueueIrq(QueueIrq.Role.RX_TX, i, Affinity.cpu(machine, spread[i]), setting));
        List<CpuSet> xps = new ArrayList<>();
        if (kernel.atLeast(6, 10)) {
            List<CpuSet.Builder> maps = new ArrayList<>();
            for (int q = 0; q < rings; q++) maps.add(CpuSet.builder());
            for (int i = 0; i < online; i++) if (spread[i] < machine.nrCpuIds()) maps.get(i % rings).add(spread[i]);
            for (CpuSet.Builder b : maps) xps.add(b.build());
        }
        return new NicQueues(irqs, xps);
    }
}
