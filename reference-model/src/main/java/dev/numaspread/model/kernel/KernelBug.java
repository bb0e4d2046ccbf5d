package dev.numaspread.model.kernel;

/**
 * The kernel itself fails here: a {@code BUG()}, an oops, a NULL or wild pointer dereference.
 * This is modelled behaviour of a release, not an error of the model or of the caller
 * (invalid input, a kernel bug and a broken model invariant are three different kinds, never mixed:
 * {@code InvalidInputException}, this, {@code IllegalStateException}).
 */
public final class KernelBug extends RuntimeException {

    private final String kind;

    /**
     * @param kind a short stable word for the failure: {@code BUG}, {@code oops}, {@code wild-pointer}
     * @param message what the kernel would hit and why, with the commit that fixed or caused it
     */
    public KernelBug(String kind, String message) {
        super(kind + ": " + message);
        this.kind = kind;
    }

    public String kind() {
        return kind;
    }
}
