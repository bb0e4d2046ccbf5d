package dev.numaspread.model.hotplug;

import dev.numaspread.model.input.HasId;

import java.util.Optional;

/**
 * What one run of a routine under hotplug gave, as the {@link InterleavingExplorer} names it
 * (spec/hotplug.md). Declaration order is grading order: a run gets the first outcome that
 * applies to it. An {@link OutcomeTable} grades each outcome.
 */
public enum Outcome implements HasId {
    /** The kernel reached {@code BUG()} (a {@code KernelBug}). */
    BUG {
        @Override public String id() {
            return "BUG";   // as the kernel prints it
        }
    },
    /** The routine returned with {@code cpus_read_lock()} still held. */
    LOCK_LEAKED,
    /** An affinity named a CPU that was offline when it was set. */
    OFFLINE_TARGET,
    /** The result equals the plan of the machine before the events. */
    SAME_PLAN,
    /** The result equals the plan of the machine after one or all of the events. */
    PLAN_AFTER_EVENT,
    /**
     * Not a plan, yet each spread saw one machine: the online CPUs changed only before the first
     * affinity (a run that set none included) or between two holds of {@code cpus_read_lock()},
     * so what was read before (a count, a mask) or set in an earlier hold belongs to another
     * machine. Judged from the affinities, the CPUs online when each was set and the holds they
     * were set in; never from which services were read, so a read that nothing uses changes no
     * outcome (HP-4).
     */
    STALE_COUNT,
    /** Anything else: the online CPUs changed between two affinities that no hold ended between, inside a spread. */
    MIXED;

    /** The outcome whose id (what reports, tables and features print: {@code offline-target}) is {@code id}; empty when none is. */
    public static Optional<Outcome> byId(String id) {
        return HasId.byId(Outcome.class, id);
    }

    @Override
    public String toString() {
        return id();
    }
}
