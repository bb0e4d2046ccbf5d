package dev.numaspread.kernel.source;

import dev.numaspread.conformance.process.ProcessImplementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.model.kernel.KernelRelease;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The implementation {@code --impl kernel-src:TREE} names: the kernel's own grouping family
 * ({@code lib/group_cpus.c} with {@code lib/sort.c}, {@code block/blk-mq-cpumap.c},
 * {@code kernel/irq/affinity.c}) of the source tree TREE, compiled unmodified against our shim
 * ({@code kernel-shim/}) into a program that speaks the process protocol, run through the kit's
 * {@link ProcessImplementation} like any other program.
 *
 * <p>It claims {@code group-cpus}, {@code blk-mq-map} and {@code irq-affinity-masks} for the release
 * of TREE's Makefile ({@code 7.3} of {@code 7.3.4}; TREE {@code debian-X.Y} is Debian's
 * {@code linux-source-X.Y}, {@link DebianSourceTree}), or for {@code --kernel} when given (a patched
 * 6.12 tree certified as 6.12, say). The program is kept in the cache ({@link ShimBuild}), so a
 * second certification of the same tree starts at once.
 */
public final class KernelSrc {
    private KernelSrc() {}

    /** The prefix of the {@code --impl} value. */
    public static final String PREFIX = "kernel-src:";

    /** The routines a tree answers. */
    public static final List<Routine> ROUTINES = List.of(Routine.GROUP_CPUS, Routine.BLK_MQ_MAP, Routine.IRQ_AFFINITY_MASKS);

    /** True when {@code spec} is a {@code kernel-src:} value. */
    public static boolean names(String spec) {
        return spec.strip().startsWith(PREFIX);
    }

    /**
     * The program of the tree {@code spec} names ({@code kernel-src:TREE}), compiled when needed.
     *
     * @param kernel    the release to claim instead of the tree's own ({@code --kernel})
     * @param timeout   the per-request timeout
     * @param cacheRoot numaspread's cache ({@code $NUMASPREAD_CACHE} or {@code ~/.cache/numaspread})
     * @param progress  where a line goes when something takes time
     * @throws UnusableTree (a usage error) when TREE is no kernel tree, lacks a file, claims a release
     *                      without the routines or does not compile against the shim
     */
    public static ProcessImplementation open(String spec, Optional<KernelRelease> kernel, Duration timeout, Path cacheRoot,
                                             Consumer<String> progress) {
        String tree = spec.strip().substring(PREFIX.length()).strip();
        if (tree.length() >= 2 && (tree.startsWith("'") && tree.endsWith("'") || tree.startsWith("\"") && tree.endsWith("\"")))
            tree = tree.substring(1, tree.length() - 1);
        if (tree.isEmpty())
            throw new UnusableTree("--impl kernel-src: no tree; expected kernel-src:TREE, a kernel source tree's folder or debian-X.Y");
        boolean debian = DebianSourceTree.names(tree);
        KernelTree t = KernelTree.open(debian ? DebianSourceTree.tree(tree, cacheRoot, progress) : Path.of(tree));
        KernelRelease claimed = claimed(t, kernel);
        TreeForms forms = TreeForms.of(t);
        Path program = new ShimBuild(ShimBuild.folder(cacheRoot), "gcc", progress).program(t, forms);
        progress.accept("kernel-src: " + forms.describe());
        List<String> command = new ArrayList<>(List.of(program.toString(), "--name", name(t, debian ? tree : t.root().toString(), claimed),
                "--kernel", claimed.toString()));
        for (Routine r : ROUTINES) command.add(r.id());
        return new ProcessImplementation(command, timeout);
    }

    /**
     * numaspread's cache ({@link KernelCache}): {@code $NUMASPREAD_CACHE}, or {@code ${XDG_CACHE_HOME:-~/.cache}/numaspread}.
     *
     * @param env the environment ({@code System::getenv}; tests give their own)
     */
    public static Path cacheRoot(java.util.function.Function<String, String> env) {
        java.util.Map<String, String> vars = new java.util.HashMap<>();
        for (String v : List.of("NUMASPREAD_CACHE", "XDG_CACHE_HOME")) if (env.apply(v) != null) vars.put(v, env.apply(v));
        return KernelCache.fromEnvironment(vars, Path.of(System.getProperty("user.home"))).root();
    }

    /**
     * The name the program gives in hello: {@code kernel-src linux-7.3.4 (/src/linux)}, {@code
     * kernel-src linux-7.3.4 (debian-7.3)}, with {@code as 6.9} when claimed as another release.
     */
    static String name(KernelTree t, String where, KernelRelease claimed) {
        return "kernel-src linux-" + t.version() + " (" + where + ")" + (claimed.equals(t.series()) ? "" : " as " + claimed);
    }

    /**
     * The release the tree is certified as: {@code kernel}, else its Makefile's series.
     *
     * @throws UnusableTree a release the model does not know, or one without group_cpus_evenly()
     */
    static KernelRelease claimed(KernelTree t, Optional<KernelRelease> kernel) {
        KernelRelease k = t.claimed(kernel);
        String why = kernel.isPresent() ? "--kernel " + k : t.file("Makefile") + ": " + t.version();
        if (k.compareTo(KernelRelease.NEWEST) > 0)
            throw new UnusableTree(why + " is past the newest release numaspread models (" + KernelRelease.NEWEST
                    + "); expected a tree of 6.1 or 6.3 to " + KernelRelease.NEWEST + ", or --kernel X.Y to certify it as a modelled release");
        if (k.before(6, 1) || k.equals(KernelRelease.of(6, 2)))
            throw new UnusableTree(why + " has no group_cpus_evenly() in numaspread's model; expected 6.1 (its stable backport)"
                    + " or 6.3 to " + KernelRelease.NEWEST);
        return k;
    }
}
