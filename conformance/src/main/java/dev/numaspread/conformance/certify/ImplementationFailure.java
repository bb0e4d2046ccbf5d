package dev.numaspread.conformance.certify;

/**
 * The implementation under certification misbehaved in a way no rule describes: it crashed, hung
 * past the per-call timeout, answered garbage, broke the SPI's shape, answered differently to the
 * same call, or does not implement a routine it claims. The certifier turns it into ERROR with
 * this message as the reason; it is never a pass.
 */
public final class ImplementationFailure extends RuntimeException {
    public ImplementationFailure(String message) {
        super(message);
    }

    public ImplementationFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
