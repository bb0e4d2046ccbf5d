package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;

import java.util.List;

/**
 * What a NIC driver sets up for its queues (spec/nic.md): each IRQ it requests, in MSI-X vector
 * order, and the XPS mask of each transmit queue it configures.
 *
 * @param irqs the IRQs, in the order of their MSI-X vectors
 * @param xps  the CPUs of transmit queue {@code q}'s XPS map ({@code /sys/class/net/IF/queues/tx-q/xps_cpus}),
 *             for each queue the driver configures; empty when the driver sets no XPS
 */
public record NicQueues(List<QueueIrq> irqs, List<CpuSet> xps) {

    public NicQueues {
        irqs = List.copyOf(irqs);
        xps = List.copyOf(xps);
    }

    /** The oldest release whose NIC drivers were read: the NIC routines are modelled from it on. */
    public static final dev.numaspread.model.kernel.KernelRelease SINCE = dev.numaspread.model.kernel.KernelRelease.of(6, 1);

    /**
     * Returns normally when {@code kernel} is modelled for the NIC routine {@code routine} and
     * {@code queues} is a queue count a driver can be asked for.
     *
     * @throws IllegalArgumentException "kernel 5.15: ena-irqs is modelled for 6.1..7.3 (...)", or for a count below 1
     */
    static void require(dev.numaspread.model.kernel.KernelRelease kernel, String routine, String what, int queues) {
        dev.numaspread.model.kernel.Releases.requireModelled(kernel, routine, SINCE,
                "the oldest release whose driver source was read");
        if (queues < 1) throw new IllegalArgumentException(routine + ": " + what + " = " + queues + "; expected 1 or more");
    }

    /** The IRQ of {@code role} and {@code queue}, if the driver requests one. */
    public java.util.Optional<QueueIrq> irq(QueueIrq.Role role, int queue) {
        return irqs.stream().filter(i -> i.role() == role && i.queue() == queue).findFirst();
    }

    @Override
    public String toString() {
        return "irqs " + irqs + ", xps " + CpuSet.toText(xps);
    }
}
