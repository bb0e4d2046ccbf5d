package dev.numaspread.kernel.source;

import dev.numaspread.model.kernel.KernelRelease;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kernel source tree as far as the grouping family needs it: its release, read from the top
 * {@code Makefile} ({@code VERSION}, {@code PATCHLEVEL}, {@code SUBLEVEL}, {@code EXTRAVERSION}),
 * and the four files compiled against the shim ({@link #FILES}). Nothing of the tree is copied
 * into this repository; {@link ShimBuild} copies the files into a build folder of its own.
 *
 * @param root    the tree's top folder, absolute
 * @param version what its Makefile says, as {@code make kernelversion} prints it: {@code 7.3.4}, {@code 6.19-rc3}
 * @param series  the release {@code version} is a point release of: {@code 7.3}
 */
public record KernelTree(Path root, String version, KernelRelease series) {

    /** The files of the grouping family, as paths inside a tree, in the order they are compiled. */
    public static final List<String> FILES = List.of("lib/group_cpus.c", "lib/sort.c", "block/blk-mq-cpumap.c",
            "kernel/irq/affinity.c");

    private static final Pattern MAKE_VARIABLE = Pattern.compile("^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\\s*=\\s*(\\S*)\\s*$",
            Pattern.MULTILINE);

    /**
     * The tree at {@code root}.
     *
     * @throws UnusableTree {@code TREE: no such folder}, {@code TREE/Makefile: ...; expected the top
     *                      Makefile of a kernel tree}, or a missing file of {@link #FILES}
     */
    public static KernelTree open(Path root) {
        Path top = root.toAbsolutePath().normalize();
        if (!Files.isDirectory(top))
            throw new UnusableTree(root + ": no such folder; expected a kernel source tree (the folder holding its Makefile,"
                    + " lib/ and block/), or debian-X.Y for Debian's linux-source-X.Y");
        Path makefile = top.resolve("Makefile");
        if (!Files.isRegularFile(makefile))
            throw new UnusableTree(makefile + ": not found; expected the top Makefile of a kernel source tree"
                    + " (VERSION = 7, PATCHLEVEL = 3, ...)");
        String text = read(makefile);
        String[] v = new String[4];
        Matcher m = MAKE_VARIABLE.matcher(text);
        List<String> names = List.of("VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION");
        while (m.find()) {
            int i = names.indexOf(m.group(1));
            if (v[i] == null) v[i] = m.group(2);
        }
        if (v[0] == null || v[1] == null || !v[0].matches("\\d{1,3}") || !v[1].matches("\\d{1,3}"))
            throw new UnusableTree(makefile + ": found " + (v[0] == null ? "no VERSION line" : v[1] == null ? "no PATCHLEVEL line"
                    : "VERSION = " + v[0] + ", PATCHLEVEL = " + v[1]) + "; expected the top Makefile of a kernel source tree"
                    + " (VERSION = 7, PATCHLEVEL = 3, ...)");
        String version = v[0] + "." + v[1] + (v[2] != null && !v[2].isEmpty() && !v[2].equals("0") ? "." + v[2] : "")
                + (v[3] != null ? v[3] : "");
        KernelTree tree = new KernelTree(top, version, KernelRelease.of(Integer.parseInt(v[0]), Integer.parseInt(v[1])));
        for (String f : FILES)
            if (!Files.isRegularFile(tree.file(f)))
                throw new UnusableTree(tree.file(f) + ": not found; expected " + what(f) + " in a kernel source tree of "
                        + tree.version + (f.equals("lib/group_cpus.c") ? " (group_cpus_evenly() is in lib/ from 6.3, and in 6.1.y"
                        + " as a stable backport; older releases keep it inside kernel/irq/affinity.c, which kernel-src does not build)" : ""));
        return tree;
    }

    /** The file {@code relative} of this tree ({@code lib/group_cpus.c}). */
    public Path file(String relative) {
        return root.resolve(relative);
    }

    /** The text of {@code relative} (one of {@link #FILES} or the Makefile). */
    public String text(String relative) {
        return read(file(relative));
    }

    /** What the file holds, for messages. */
    static String what(String file) {
        return switch (file) {
            case "lib/group_cpus.c" -> "group_cpus_evenly()";
            case "lib/sort.c" -> "the kernel's sort()";
            case "block/blk-mq-cpumap.c" -> "blk_mq_map_queues()";
            case "kernel/irq/affinity.c" -> "irq_create_affinity_masks()";
            default -> "a file";
        };
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UnusableTree(p + ": cannot be read (" + e.getMessage() + "); expected a readable file");
        }
    }

    /** The release this tree is certified as: {@code kernel} when given, else its series. */
    public KernelRelease claimed(Optional<KernelRelease> kernel) {
        return kernel.orElse(series);
    }
}
