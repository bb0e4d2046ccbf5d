package dev.numaspread.conformance.gen;

/**
 * A property could not be judged (no try ran, too many discards). Thrown by callers that turn a
 * {@link PropertyResult.GaveUp} into an error; a certifier reports it as ERROR, never as a pass.
 */
public final class PropertyGaveUp extends RuntimeException {
    private final long seed;

    public PropertyGaveUp(String message, long seed) {
        super(message);
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }
}
