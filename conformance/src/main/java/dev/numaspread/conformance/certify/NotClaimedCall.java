package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.NotApplicable;
import dev.numaspread.conformance.spi.Claim;

/**
 * A check or scenario called a routine for a release the implementation does not claim. Not a
 * failure: that check or scenario does not apply to this implementation, and is left out.
 */
public final class NotClaimedCall extends NotApplicable {
    private final transient Claim claim;

    public NotClaimedCall(Claim claim) {
        super("calls " + claim.routine().id() + " for kernel " + claim.kernel() + ", which is not claimed");
        this.claim = claim;
    }

    public Claim claim() {
        return claim;
    }
}
