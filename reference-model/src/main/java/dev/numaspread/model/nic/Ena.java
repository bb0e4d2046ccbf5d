package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * ena's IRQs (spec/nic.md NIC-3): {@code ena_setup_mgmnt_intr()} and {@code ena_setup_io_intr()}
 * in drivers/net/ethernet/amazon/ena/ena_netdev.c, read in 6.1, 6.12, 7.2 and 7.3 (the same).
 */
public final class Ena {
    private Ena() {}

    /** {@code ENA_MAX_NUM_IO_QUEUES}. */
    static final int MAX_NUM_IO_QUEUES = 128;

    /**
     * The IRQs of an ena device offering {@code queues} I/O queues. The driver uses
     * {@code min(queues, num_online_cpus(), 128)} of them; the management IRQ (vector 0) is forced
     * to the first online CPU, and I/O IRQ {@code i} (vector {@code i + 1}) to the CPU whose
     * <em>id</em> is {@code i mod num_online_cpus()}, online or not: no NUMA, no online mask. An
     * offline id makes the set fail and the IRQ keeps its default affinity (NIC-1). No XPS.
     *
     * @param queues the I/O queues the device offers, 1 or more
     */
    public static NicQueues enaIrqs(KernelRelease kernel, Topology machine, int queues) {
        NicQueues.require(kernel, "ena-irqs", "queues", queues);
        int online = machine.numOnlineCpus();
        int io = Math.min(Math.min(queues, online), MAX_NUM_IO_QUEUES);
        List<QueueIrq> irqs = new ArrayList<>();
        irqs.add(new QueueIrq(QueueIrq.Role.MANAGEMENT, 0, CpuSet.of(machine.online().first()), AffinitySetting.FORCED));
        for (int i = 0; i < io; i++)
            irqs.add(new QueueIrq(QueueIrq.Role.RX_TX, i, Affinity.cpu(machine, i % online), AffinitySetting.FORCED));
        return new NicQueues(irqs, List.of());
    }
}
