package dev.numaspread.conformance.checks;

/**
 * The kit itself broke while it judged: a check or its generator threw, and the reference model's
 * answer on the same input makes it throw as well, so the implementation's answer is not the
 * cause. The certificate reports an internal error (exit 3) naming the check, never a verdict on
 * the implementation.
 */
public final class KitFailure extends RuntimeException {
    public KitFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
