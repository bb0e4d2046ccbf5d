package dev.numaspread.model.nic;

/**
 * How a driver sets an IRQ's affinity (spec/nic.md NIC-1): the three things a NIC driver of
 * 6.1 to 7.3 does with the mask it computes for a queue IRQ.
 */
public enum AffinitySetting {
    /**
     * The mask is applied: {@code irq_set_affinity_and_hint()}, its deprecated alias
     * {@code irq_set_affinity_hint()}, or {@code irq_set_affinity()}. It fails, leaving the
     * default affinity, when the mask has no online CPU.
     */
    FORCED("forced"),
    /**
     * Only recorded in {@code /proc/irq/N/affinity_hint}: {@code irq_update_affinity_hint()}. The
     * IRQ keeps the default affinity until something else (irqbalance, a user) writes one.
     */
    HINT("hint"),
    /** Nothing is set: the IRQ keeps the default affinity ({@code request_irq()} alone). */
    NONE("none");

    private final String id;

    AffinitySetting(String id) {
        this.id = id;
    }

    /** The word the protocol and the command line use: {@code forced}, {@code hint}, {@code none}. */
    public String id() {
        return id;
    }

    /** The setting whose {@link #id()} is {@code id}. */
    public static java.util.Optional<AffinitySetting> byId(String id) {
        for (AffinitySetting s : values()) if (s.id.equals(id)) return java.util.Optional.of(s);
        return java.util.Optional.empty();
    }

    @Override
    public String toString() {
        return id;
    }
}
