package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Topology;

/**
 * What {@code /proc/irq/N/smp_affinity_list} shows for a NIC's IRQ once its driver has set it
 * up (spec/nic.md NIC-1): the driver's mask where the driver forced it and the mask has an online
 * CPU, else the default affinity that {@code irq_setup_affinity()} gave the IRQ when it started.
 */
public final class Affinity {
    private Affinity() {}

    /**
     * The affinity {@code irq_setup_affinity()} gives a non-managed IRQ of a device on
     * {@code node} when the IRQ starts: the online CPUs of {@code irq_default_affinity} (every CPU,
     * without the {@code irqaffinity=} boot option), narrowed to the online CPUs of the device's
     * node when that node has one. kernel/irq/manage.c (6.1, 7.3 read); the PCI core gives each
     * MSI-X vector its device's node.
     *
     * @param node the device's node, or NUMA_NO_NODE (-1)
     */
    public static CpuSet irqSetupAffinity(Topology machine, int node) {
        CpuSet online = machine.online();
        if (node == Numa.NUMA_NO_NODE || !machine.hasNode(node)) return online;
        CpuSet local = machine.onlineCpusOf(node);
        return local.isEmpty() ? online : local;
    }

    /**
     * What the IRQ shows after its driver set it up: its mask when the setting is
     * {@link AffinitySetting#FORCED} and the mask has an online CPU ({@code irq_do_set_affinity()}
     * keeps the whole mask, offline CPUs included, and refuses a mask without an online CPU with
     * -EINVAL); otherwise {@link #irqSetupAffinity}.
     */
    public static CpuSet shown(Topology machine, int node, QueueIrq irq) {
        if (irq.setting() == AffinitySetting.FORCED && irq.mask().intersects(machine.online())) return irq.mask();
        return irqSetupAffinity(machine, node);
    }

    /**
     * What a vector allocated with a non-managed affinity descriptor shows once started: a pre or
     * post vector of {@code irq_create_affinity_masks()} (nvme's admin queue, virtio's config
     * vector), whose descriptor mask is the default affinity. {@code alloc_descs()} gives the IRQ
     * the node of the mask's first CPU and marks its affinity set, so {@code irq_setup_affinity()}
     * starts it on the mask's online CPUs (all online CPUs when it has none), narrowed to that
     * node's online CPUs when it has some: on a NUMA machine, node 0's, whatever the device's node.
     * kernel/irq/irqdesc.c alloc_descs() and kernel/irq/manage.c irq_setup_affinity() (6.1, 7.3
     * read); the booted device runs of fixtures/kernel-runs show it in 6.1, 6.12 and 7.3.
     */
    public static CpuSet descriptorVectorShown(Topology machine, CpuSet mask) {
        CpuSet set = mask.and(machine.online());
        if (set.isEmpty()) set = machine.online();
        int first = mask.first();
        if (first < 0 || first >= machine.nrCpuIds() || !machine.possible().contains(first)) return set;
        CpuSet local = set.and(machine.onlineCpusOf(machine.nodeOf(first)));
        return local.isEmpty() ? set : local;
    }

    /** {@code {cpu}} when {@code cpu} is a CPU id of the machine, else the empty set (a mask naming no CPU of it). */
    static CpuSet cpu(Topology machine, int cpu) {
        return cpu >= 0 && cpu < machine.nrCpuIds() ? CpuSet.of(cpu) : CpuSet.EMPTY;
    }
}
