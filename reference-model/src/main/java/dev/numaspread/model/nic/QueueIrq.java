package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.HasId;

import java.util.Objects;

/**
 * One IRQ of a NIC as its driver sets it up (spec/nic.md): what it serves, the mask the driver
 * computes for it and how the driver sets that mask.
 *
 * @param role    what the IRQ serves
 * @param queue   the queue (pair, ring, block) it serves, from 0; 0 for the management and config IRQs
 * @param mask    the mask the driver computes; empty when it computes none ({@link AffinitySetting#NONE}),
 *                or when its CPU is not a CPU of the machine (ice's offline vector CPU, gve's CPU-less node)
 * @param setting how the driver sets it
 */
public record QueueIrq(Role role, int queue, CpuSet mask, AffinitySetting setting) {

    public QueueIrq {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(mask, "mask");
        Objects.requireNonNull(setting, "setting");
        if (queue < 0) throw new IllegalArgumentException("queue " + queue + "; expected 0 or more");
    }

    /** What an IRQ serves, in the words the kernel names it with ({@code input.0}, {@code Tx-Rx-0}, {@code mgmnt}). */
    public enum Role implements HasId {
        /** A receive queue: virtio-net's {@code input.Q}, gve's RX notify block. */
        RX,
        /** A transmit queue: virtio-net's {@code output.Q}, gve's TX notify block. */
        TX,
        /** A receive and a transmit queue on one vector: {@code TxRx-Q}, ena's {@code Tx-Rx-Q}. */
        RX_TX,
        /** The device's management vector: ena's {@code ena-mgmnt}, gve's {@code gve-mgmnt}. */
        MANAGEMENT,
        /** virtio's configuration-change vector, {@code virtioN-config}. */
        CONFIG;

        /** True for the roles that serve a queue. */
        public boolean isQueue() {
            return this == RX || this == TX || this == RX_TX;
        }

        /** The role whose {@link #id()} (the word the protocol and the command line use: {@code rx}, {@code rx-tx}, ...) is {@code id}. */
        public static java.util.Optional<Role> byId(String id) {
            return HasId.byId(Role.class, id);
        }

        @Override
        public String toString() {
            return id();
        }
    }

    /** {@code rx 3}, {@code management}: the IRQ in the words of a report. */
    public String label() {
        return role.isQueue() ? role.id() + " " + queue : role.id();
    }

    @Override
    public String toString() {
        return label() + " " + setting.id() + " " + mask.toText();
    }
}
