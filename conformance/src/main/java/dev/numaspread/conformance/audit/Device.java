package dev.numaspread.conformance.audit;

import dev.numaspread.model.cpu.CpuSet;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A device the audit found on the machine: a driver's IRQ vectors, or a block device's hardware
 * queues, each with the CPUs the machine shows for it.
 *
 * @param name       {@code nvme0}, {@code mlx5 0000:08:00.0}, {@code nullb0}
 * @param kind       what placed its IRQs or queues, and so which routine the model runs
 * @param node       the device's node ({@code numa_node}); -1 is NUMA_NO_NODE
 * @param nodeSource the file that gave the node, or what was assumed
 * @param slots      its IRQ vectors or queues, ascending index
 * @param xps        a NIC's XPS maps (spec/nic.md)
 * @param nvme       how an nvme controller, or a disk of one, split its I/O queues (AUD-8)
 */
public record Device(String name, DeviceKind kind, int node, String nodeSource, List<Slot> slots, List<Xps> xps,
                     Optional<NvmeSplit> nvme) {

    public Device {
        slots = List.copyOf(slots);
        xps = List.copyOf(xps);
    }

    public Device(String name, DeviceKind kind, int node, String nodeSource, List<Slot> slots, List<Xps> xps) {
        this(name, kind, node, nodeSource, slots, xps, Optional.empty());
    }

    public Device(String name, DeviceKind kind, int node, String nodeSource, List<Slot> slots) {
        this(name, kind, node, nodeSource, slots, List.of());
    }

    /**
     * How nvme split a controller's I/O queues (spec/audit.md AUD-8): {@code ioIrqs} I/O vectors
     * ({@code nvme<c>q1} and up), the rest of a disk's hardware queues polled, and the vectors split
     * into write and read sets by the module's {@code write_queues}.
     *
     * @param controller  {@code nvme0}
     * @param ioIrqs      the controller's I/O vectors the machine shows
     * @param writeQueues the nvme module's {@code write_queues}, 0 when the snapshot lacks it
     * @param source      the file that gave {@code writeQueues}, or what was assumed
     */
    public record NvmeSplit(String controller, int ioIrqs, int writeQueues, String source) {}

    /**
     * A NIC's transmit queue as the machine shows it (spec/nic.md): its interface's
     * {@code queues/tx-Q/xps_cpus}.
     *
     * @param queue  {@code Q}
     * @param cpus   the CPUs of the XPS map (empty: none)
     * @param source the file
     */
    public record Xps(int queue, CpuSet cpus, String source) {}

    /** Slot count as the routine sees it: the highest index plus one (a missing slot is a difference). */
    public int count() {
        return slots.isEmpty() ? 0 : slots.get(slots.size() - 1).index() + 1;
    }

    /**
     * One IRQ vector or one hardware queue.
     *
     * @param index     vector index (the HWC, nvme's admin queue, virtio's config vector: 0) or queue number
     * @param label     {@code IRQ 45 (nvme0q1)} or {@code queue 3}
     * @param irq       the Linux IRQ number, for an IRQ vector
     * @param actual    {@code smp_affinity_list}, or the queue's {@code cpu_list}
     * @param effective {@code effective_affinity_list}, when the machine shows it
     * @param hint      {@code affinity_hint}, when the machine shows one that is not empty
     * @param isQueue   true for a slot that serves a queue (not a pre-vector, HWC or config vector)
     * @param source    the file {@code actual} came from
     */
    public record Slot(int index, String label, OptionalInt irq, CpuSet actual, Optional<CpuSet> effective,
                       Optional<CpuSet> hint, boolean isQueue, String source) {}
}
