package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.NotApplicable;
import dev.numaspread.conformance.topogen.MachinePool;

/**
 * The call was about a machine the implementation does not run on: an implementation bound to
 * machines of its own (a booted kernel answers only for the machine it booted on, {@code --impl
 * kernel:}) cannot be asked about a machine a check built for itself, a machine derived from a
 * drawn one, or a fixture it could not boot. Kit-owned "not applicable here": the try or scenario
 * judges nothing, so it is neither the implementation's ERROR nor a PASS; a rule that nothing else
 * judged is NOT-VERIFIED with {@link #getMessage()} among the reasons.
 */
public final class MachineOutOfReach extends NotApplicable {
    private final transient MachinePool pool;

    /**
     * Thrown by the implementation bound to {@code pool}, the pool of the run's settings: the guard
     * lets it through only from that pool, the kit's own (an implementation that throws the kit's
     * signals of its own accord is refused, GuardedImplementation).
     */
    public MachineOutOfReach(MachinePool pool, String reason) {
        super(reason);
        this.pool = pool;
    }

    /** True when {@code p} (the run's pool) raised it. */
    boolean raisedBy(MachinePool p) {
        return pool == p;
    }
}
