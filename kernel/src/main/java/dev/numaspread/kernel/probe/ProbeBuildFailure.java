package dev.numaspread.kernel.probe;

/**
 * The probe module or the guest agent could not be built: a tool is missing (make, the release's
 * compiler, debootstrap), a build root could not be made, or the compiler failed. The message is
 * one line that names what failed and its last output lines.
 */
public final class ProbeBuildFailure extends RuntimeException {
    public ProbeBuildFailure(String message) {
        super(message);
    }
}
