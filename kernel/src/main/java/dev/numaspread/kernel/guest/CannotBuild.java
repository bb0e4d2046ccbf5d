package dev.numaspread.kernel.guest;

/**
 * A machine, or a change of it, that the emulator or the booted kernel cannot give: QEMU has no way
 * to express it (split SMT numbering on this QEMU, an L2 cluster of several cores before QEMU 10,
 * an arm64 machine), or the kernel refuses it (x86 CPU 0 offline). The message says which feature
 * and why; it is never the implementation's fault, so a check that meets it does not apply.
 */
public final class CannotBuild extends RuntimeException {
    public CannotBuild(String message) {
        super(message);
    }
}
