package dev.numaspread.kernel.probe;

import dev.numaspread.kernel.cache.CacheLock;
import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.cache.KernelFiles;
import dev.numaspread.kernel.host.HostCommand;
import dev.numaspread.kernel.host.HostCommandException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Builds the probe module ({@code numaspread_probe.ko}) against one kernel's build tree, and the
 * guest agent, each once per version of their sources ({@link ProbeSources}).
 *
 * <p>A Debian release of this machine's Debian is built here, with the compiler its headers name
 * ({@code gcc-12} on Debian 12); a release of another suite in that suite's {@link BuildRoot}. A
 * Debian headers tree names its {@code -common} tree and the kbuild tools by absolute paths under
 * {@code /usr/src}; here a one-line Makefile includes the cached copy instead, and in a build root
 * the trees are copied to those paths for the build and removed after it. BTF generation is
 * skipped ({@code CONFIG_DEBUG_INFO_BTF_MODULES=}): a module loads without it, and pahole is not
 * needed. A folder the user built is built with {@code make -C TREE M=...} as any module is.
 */
public final class ProbeBuild {

    private final KernelCache cache;
    private final Consumer<String> progress;

    public ProbeBuild(KernelCache cache, Consumer<String> progress) {
        this.cache = cache;
        this.progress = progress;
    }

    /** Where the module for {@code k} is (or will be) kept. */
    public static Path modulePath(KernelFiles k) {
        return k.work().resolve("probe-" + ProbeSources.hash(ProbeSources.MODULE)).resolve("numaspread_probe.ko");
    }

    /** The agent binary, shared by every release. */
    public Path agentPath() {
        return cache.root().resolve("guest").resolve("agent-" + ProbeSources.hash(ProbeSources.AGENT));
    }

    /**
     * The probe module for {@code k}, built now when it is not cached.
     *
     * @throws ProbeBuildFailure naming the tool or the compiler's last lines
     */
    public Path module(KernelFiles k) {
        Path ko = modulePath(k);
        if (Files.isRegularFile(ko)) return ko;
        try {
            return CacheLock.holding(ko.resolveSibling(".lock"), () -> {
                if (Files.isRegularFile(ko)) return ko;
                Path built = k.buildSuite().isPresent() ? buildInRoot(k, k.buildSuite().get()) : buildHere(k);
                Files.copy(built, ko.resolveSibling("numaspread_probe.ko.tmp"), StandardCopyOption.REPLACE_EXISTING);
                Files.move(ko.resolveSibling("numaspread_probe.ko.tmp"), ko, StandardCopyOption.ATOMIC_MOVE);
                return ko;
            });
        } catch (IOException e) {
            throw new ProbeBuildFailure(ko.getParent() + ": " + e.getMessage());
        } catch (HostCommandException e) {
            throw new ProbeBuildFailure("building the probe for " + k.release() + ": " + e.getMessage());
        }
    }

    static final List<String> MAKE_OPTIONS = List.of("CONFIG_DEBUG_INFO_BTF_MODULES=", "PAHOLE=true", "RESOLVE_BTFIDS=true");

    private Path buildHere(KernelFiles k) throws IOException {
        if (!HostCommand.installed("make"))
            throw new ProbeBuildFailure("building the probe for " + k.release() + " needs make (apt-get install make gcc)");
        Path work = k.work().resolve("probe-build");
        BuildRoot.deleteTree(work);
        ProbeSources.write(ProbeSources.MODULE, work);
        List<String> cmd = new ArrayList<>(List.of("make", "-s"));
        Optional<Path> debianRoot = debianRootOf(k.buildTree());
        if (debianRoot.isPresent()) {
            String compiler = compilerOf(k.buildTree());
            if (!HostCommand.installed(compiler) && !HostCommand.installed("x86_64-linux-gnu-" + compiler))
                throw new ProbeBuildFailure("building the probe for " + k.release() + " needs " + compiler + ", the compiler its headers"
                        + " name (apt-get install " + compiler + ")");
            Path kdir = work.resolve("kdir");
            Files.createDirectories(kdir);
            String makefile = Files.readString(k.buildTree().resolve("Makefile"));
            Files.writeString(kdir.resolve("Makefile"), makefile.replace("/usr/src/", debianRoot.get().resolve("usr/src") + "/"));
            cmd.addAll(List.of("-C", kdir.toString(), "M=" + work, "KBUILD_OUTPUT=" + k.buildTree()));
        } else {
            cmd.addAll(List.of("-C", k.buildTree().toString(), "M=" + work));
        }
        cmd.addAll(MAKE_OPTIONS);
        cmd.add("modules");
        progress.accept("building the probe module for " + k.release() + " (about 20 s)");
        HostCommand.Output out = HostCommand.of(cmd).in(work).timeout(Duration.ofMinutes(10)).run();
        if (!out.ok() || !Files.isRegularFile(work.resolve("numaspread_probe.ko")))
            throw new ProbeBuildFailure("building the probe for " + k.release() + " failed: " + out.tail(4));
        return work.resolve("numaspread_probe.ko");
    }

    private Path buildInRoot(KernelFiles k, String suite) throws IOException {
        Path root = debianRootOf(k.buildTree()).orElseThrow(() -> new ProbeBuildFailure(k.buildTree() + ": not a Debian headers tree"));
        BuildRoot br = new BuildRoot(cache, suite, progress);
        String compiler = compilerOf(k.buildTree());
        // One build in a root at a time, its making included: the trees copied in are one release's.
        return CacheLock.holding(br.dir().resolveSibling(suite + ".lock"), () -> {
            Path chroot = br.ensure(compiler);
            // The headers name /usr/src/... and ../../lib/linux-kbuild-...: put the trees where they say.
            List<Path> copied = new ArrayList<>();
            for (String top : List.of("usr/src", "usr/lib"))
                try (Stream<Path> s = Files.list(root.resolve(top))) {
                    for (Path p : s.filter(p -> p.getFileName().toString().startsWith("linux-")).toList()) {
                        Path into = chroot.resolve(top).resolve(p.getFileName().toString());
                        BuildRoot.deleteTree(into);
                        Files.createDirectories(into.getParent());
                        HostCommand.of("cp", "-a", p.toString(), into.toString()).timeout(Duration.ofMinutes(5)).run()
                                .orThrow("copying " + p.getFileName() + " into the build root");
                        copied.add(into);
                    }
                }
            String dirInRoot = "/build/numaspread-" + k.release();
            Path work = chroot.resolve(dirInRoot.substring(1));
            try {
                BuildRoot.deleteTree(work);
                ProbeSources.write(ProbeSources.MODULE, work);
                List<String> cmd = new ArrayList<>(List.of("make", "-s", "-C", "/usr/src/linux-headers-" + k.release(), "M=" + dirInRoot));
                cmd.addAll(MAKE_OPTIONS);
                cmd.add("modules");
                progress.accept("building the probe module for " + k.release() + " in the " + suite + " build root (about 30 s)");
                HostCommand.Output out = br.run(cmd, Duration.ofMinutes(10));
                if (!out.ok() || !Files.isRegularFile(work.resolve("numaspread_probe.ko")))
                    throw new ProbeBuildFailure("building the probe for " + k.release() + " in " + chroot + " failed: " + out.tail(4));
                Path keep = k.work().resolve("probe-build");
                BuildRoot.deleteTree(keep);
                Files.createDirectories(keep);
                Files.copy(work.resolve("numaspread_probe.ko"), keep.resolve("numaspread_probe.ko"));
                return keep.resolve("numaspread_probe.ko");
            } finally {
                BuildRoot.deleteTree(work);
                for (Path p : copied) BuildRoot.deleteTree(p);
            }
        });
    }

    /** The unpacked root above a Debian headers tree ({@code ROOT/usr/src/linux-headers-REL}); empty for a kernel the user built. */
    static Optional<Path> debianRootOf(Path buildTree) {
        Path src = buildTree.getParent();
        if (src == null || !src.getFileName().toString().equals("src") || !Files.isRegularFile(buildTree.resolve(".kernelvariables")))
            return Optional.empty();
        return Optional.of(src.getParent().getParent());
    }

    private static final Pattern COMPILER = Pattern.compile("\\)(gcc-\\d+)\\b");

    /** The compiler a Debian headers tree names in {@code .kernelvariables}: {@code gcc-14} of {@code CC = ... $(CROSS_COMPILE)gcc-14}. */
    static String compilerOf(Path buildTree) throws IOException {
        Matcher m = COMPILER.matcher(Files.readString(buildTree.resolve(".kernelvariables")));
        return m.find() ? m.group(1) : "gcc";
    }

    /**
     * The static guest agent, compiled with this machine's gcc when not cached.
     *
     * @throws ProbeBuildFailure when gcc or a static C library is missing
     */
    public Path agent() {
        Path bin = agentPath();
        if (Files.isExecutable(bin)) return bin;
        if (!HostCommand.installed("gcc"))
            throw new ProbeBuildFailure("building the guest agent needs gcc and a static C library (apt-get install gcc libc6-dev)");
        try {
            return CacheLock.holding(bin.resolveSibling(".agent-lock"), () -> {
                if (Files.isExecutable(bin)) return bin;
                Path dir = bin.getParent().resolve("agent-build");
                BuildRoot.deleteTree(dir);
                ProbeSources.write(ProbeSources.AGENT, dir);
                progress.accept("building the guest agent (static, once)");
                HostCommand.Output out = HostCommand.of("gcc", "-static", "-O2", "-o", "agent", "agent.c").in(dir)
                        .timeout(Duration.ofMinutes(5)).run();
                if (!out.ok()) throw new ProbeBuildFailure("building the guest agent failed: " + out.tail(3));
                Files.move(dir.resolve("agent"), bin, StandardCopyOption.ATOMIC_MOVE);
                BuildRoot.deleteTree(dir);
                return bin;
            });
        } catch (IOException e) {
            throw new ProbeBuildFailure(bin.getParent() + ": " + e.getMessage());
        } catch (HostCommandException e) {
            throw new ProbeBuildFailure("building the guest agent: " + e.getMessage());
        }
    }
}
