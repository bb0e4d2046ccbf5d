package dev.numaspread.kernel.guest;

/**
 * A guest that did not answer: it did not boot in time, panicked, hung, or its probe could not be
 * loaded. The message ends with the last lines of the guest's console.
 */
public final class GuestFailure extends RuntimeException {
    public GuestFailure(String message) {
        super(message);
    }

    public GuestFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
