package dev.numaspread.conformance.audit;

import dev.numaspread.model.nic.QueueIrq;

/**
 * Where each IRQ of a NIC stands among its driver's vectors ({@code NicQueues#irqs()} order,
 * spec/nic.md), and the queue count a device of {@code count} vectors was given: what the audit
 * needs to put an IRQ named in {@code /proc/interrupts} beside the model's.
 */
final class NicLayout {
    private NicLayout() {}

    /**
     * The vector index of the IRQ of {@code role} and {@code queue} on a device of {@code queues}
     * queues: virtio-net config 0, then receive and transmit per pair; ena management 0, then one
     * per queue; gve the transmit blocks, the receive blocks, the management IRQ; ice, i40e and
     * bnxt one per queue.
     */
    static int index(DeviceKind kind, QueueIrq.Role role, int queue, int queues) {
        return switch (kind) {
            case VIRTIO_NET -> role == QueueIrq.Role.CONFIG ? 0 : 1 + 2 * queue + (role == QueueIrq.Role.TX ? 1 : 0);
            case ENA -> role == QueueIrq.Role.MANAGEMENT ? 0 : 1 + queue;
            case GVE -> role == QueueIrq.Role.MANAGEMENT ? 2 * queues : role == QueueIrq.Role.RX ? queues + queue : queue;
            case ICE, I40E, BNXT -> queue;
            default -> throw new IllegalArgumentException(kind + " is not a NIC");
        };
    }

    /** The queues of a device whose highest vector index plus one is {@code count}. */
    static int queues(DeviceKind kind, int count) {
        return switch (kind) {
            case VIRTIO_NET, GVE -> Math.max(1, count / 2);
            case ENA -> Math.max(1, count - 1);
            case ICE, I40E, BNXT -> Math.max(1, count);
            default -> throw new IllegalArgumentException(kind + " is not a NIC");
        };
    }
}
