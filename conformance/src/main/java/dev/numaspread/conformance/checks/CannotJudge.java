package dev.numaspread.conformance.checks;

/**
 * A check could not judge its rule for this implementation (it cannot show what the rule is
 * about, as a process cannot show lock behaviour): the rule is NOT-VERIFIED with {@link #getMessage()}
 * as the reason, never PASS. Thrown by a check body.
 */
public final class CannotJudge extends RuntimeException {
    public CannotJudge(String reason) {
        super(reason);
    }
}
