package dev.numaspread.kernel.host;

/** A program run on this machine that could not start, failed, or outlived its timeout; the message says which and why. */
public final class HostCommandException extends RuntimeException {
    public HostCommandException(String message) {
        super(message);
    }
}
