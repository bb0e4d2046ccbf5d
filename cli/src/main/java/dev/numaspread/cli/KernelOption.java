package dev.numaspread.cli;

import dev.numaspread.model.kernel.KernelRelease;

import java.io.PrintWriter;

/** The {@code --kernel} option every command shares: a release the project models, by series. */
final class KernelOption {
    private KernelOption() {}

    /**
     * Reads {@code text} as a release the project models ({@link KernelRelease#OLDEST} to
     * {@link KernelRelease#NEWEST}). A point release or uname ({@code 6.12.3}) means its series; the
     * note saying so goes to {@code err} as one line.
     *
     * @throws IllegalArgumentException {@code --kernel '7.9': ...}, naming the newest modelled release
     */
    static KernelRelease release(String text, PrintWriter err, String command) {
        KernelRelease k;
        try {
            k = KernelRelease.modelled(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--kernel: " + e.getMessage());
        }
        if (KernelRelease.isPointOrUname(text))
            err.println("numaspread " + command + ": note: --kernel " + text.strip() + " means the series " + k
                    + ", modelled as its current stable point release");
        return k;
    }
}
