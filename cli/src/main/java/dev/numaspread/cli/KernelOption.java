package dev.numaspread.cli;

import dev.numaspread.model.kernel.KernelRelease;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * Reads {@code text}, a comma-separated list ({@code 6.1,6.12,7.3}), as releases in the order
     * given, each as {@link #release} reads it. A series named twice ({@code 6.12,6.12} or
     * {@code 6.12,6.12.3}: a profile is a series) is kept once, where it first appears, and one
     * note line on {@code err} says so: one column per series, never the same column twice.
     *
     * @throws IllegalArgumentException for the first piece that is not a modelled release (an empty one included)
     */
    static List<KernelRelease> releases(String text, PrintWriter err, String command) {
        List<KernelRelease> out = new ArrayList<>();
        List<KernelRelease> twice = new ArrayList<>();
        // -1 keeps empty pieces, so ',,' is refused as a release rather than read as none.
        for (String piece : text.split(",", -1)) {
            KernelRelease k = release(piece, err, command);
            if (!out.contains(k)) out.add(k);
            else if (!twice.contains(k)) twice.add(k);
        }
        if (!twice.isEmpty())
            err.println("numaspread " + command + ": note: --kernel " + text.strip() + " names the series "
                    + String.join(", ", twice.stream().map(KernelRelease::toString).toList()) + " more than once; "
                    + (twice.size() == 1 ? "it is" : "each is") + " printed once");
        return List.copyOf(out);
    }
}
