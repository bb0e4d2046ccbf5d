package dev.numaspread.kernel.source;

/**
 * A kernel source tree that cannot be certified: not a kernel tree, a file missing, a form of a
 * routine we do not model, or a file that does not compile against the shim. Its message says
 * where ({@code TREE/lib/group_cpus.c:412}), what was found and what was expected; the command
 * line prints it as a usage error, never a stack trace.
 */
public final class UnusableTree extends IllegalArgumentException {
    public UnusableTree(String message) {
        super(message);
    }
}
