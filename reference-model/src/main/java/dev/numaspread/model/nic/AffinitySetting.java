package dev.numaspread.model.nic;

import dev.numaspread.model.input.HasId;

/**
 * How a driver sets an IRQ's affinity (spec/nic.md NIC-1): the three things a NIC driver of
 * 6.1 to 7.3 does with the mask it computes for a queue IRQ.
 */
public enum AffinitySetting implements HasId {
    /**
     * The mask is applied: {@code irq_set_affinity_and_hint()}, its deprecated alias
     * {@code irq_set_affinity_hint()}, or {@code irq_set_affinity()}. It fails, leaving the
     * default affinity, when the mask has no online CPU.
     */
    FORCED,
    /**
     * Only recorded in {@code /proc/irq/N/affinity_hint}: {@code irq_update_affinity_hint()}. The
     * IRQ keeps the default affinity until something else (irqbalance, a user) writes one.
     */
    HINT,
    /** Nothing is set: the IRQ keeps the default affinity ({@code request_irq()} alone). */
    NONE;

    /** The setting whose {@link #id()} (the word the protocol and the command line use: {@code forced}, {@code hint}, {@code none}) is {@code id}. */
    public static java.util.Optional<AffinitySetting> byId(String id) {
        return HasId.byId(AffinitySetting.class, id);
    }

    @Override
    public String toString() {
        return id();
    }
}
