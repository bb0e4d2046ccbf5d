package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.spi.Claim;

/**
 * A check or scenario called a routine for a release the implementation does not claim. Not a
 * failure: that check or scenario does not apply to this implementation, and is left out.
 */
public final class NotClaimedCall extends RuntimeException {
    private final transient Claim claim;

    public NotClaimedCall(Claim claim) {
        super("not claimed: " + claim.routine().id() + " for kernel " + claim.kernel());
        this.claim = claim;
    }

    public Claim claim() {
        return claim;
    }
}
