package dev.numaspread.conformance.spi;

/**
 * The implementation under certification misbehaved in a way no rule describes: it crashed, hung
 * past the per-call timeout, answered garbage, broke the SPI's shape, answered differently to the
 * same call, or does not implement a routine it claims. The certifier turns it into ERROR with
 * this message as the reason; it is never a pass.
 *
 * <p>The kit's guard throws it around every call; an implementation may throw it too, when it
 * cannot answer for a reason of its own (the process driver does when its program dies, hangs or
 * answers garbage). It lives in the SPI so that both sides can name it.
 */
public final class ImplementationFailure extends RuntimeException {
    public ImplementationFailure(String message) {
        super(message);
    }

    public ImplementationFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
