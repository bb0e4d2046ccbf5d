package dev.numaspread.kernel.probe;

import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.host.HostCommand;
import dev.numaspread.kernel.host.HostCommandException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A chroot of one Debian suite ({@code build-roots/SUITE/}) whose compiler and C library build
 * modules for kernels of that suite. Debian's 7.x kbuild tools (fixdep, modpost, objtool) are
 * linked against glibc 2.38 and its headers ask for gcc 14 (trixie) or 16 (sid); a Debian 12 machine
 * has glibc 2.36 and gcc 12, so those modules are built inside a chroot made once with
 * {@code debootstrap --variant=minbase} (about 150 MB, 3 to 8 minutes on 2 cores).
 *
 * <p>Commands run as {@code unshare --mount --pid --fork --mount-proc=ROOT/proc chroot ROOT ...}:
 * objtool reads {@code /proc/self}, and the private mount and PID namespaces leave nothing mounted
 * behind. This needs root (or, for a user, unprivileged user namespaces: {@code --map-root-user}).
 *
 * @param cache    the cache whose {@code build-roots/} holds the chroot
 * @param suite    the Debian suite ({@code trixie})
 * @param progress where a line goes when something takes time (debootstrap, apt-get)
 */
public record BuildRoot(KernelCache cache, String suite, Consumer<String> progress) {

    public Path dir() {
        return cache.buildRoot(suite);
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** The root folder, made with debootstrap when missing, with {@code compiler} (gcc-14) installed. */
    public Path ensure(String compiler) {
        Path dir = dir();
        Path ready = dir.resolve(".numaspread-ready");
        if (!Files.exists(ready)) create(compiler);
        if (!Files.isExecutable(dir.resolve("usr/bin/x86_64-linux-gnu-" + compiler))) {
            progress.accept("installing " + compiler + " into the " + suite + " build root");
            run(List.of("apt-get", "-q", "-y", "--no-install-recommends", "install", compiler), Duration.ofMinutes(20))
                    .orThrow("installing " + compiler + " into " + dir);
        }
        return dir;
    }

    private void create(String compiler) {
        if (!HostCommand.installed("debootstrap"))
            throw new ProbeBuildFailure("building modules for a Debian " + suite + " kernel needs a " + suite + " chroot, made with"
                    + " debootstrap, which is not installed (apt-get install debootstrap)");
        if (!isRoot())
            throw new ProbeBuildFailure("building modules for a Debian " + suite + " kernel needs a " + suite + " chroot; making one with"
                    + " debootstrap needs root: run 'numaspread kernel fetch' once as root, or use a kernel of this machine's Debian release");
        Path dir = dir();
        Path partial = dir.resolveSibling(suite + ".partial");
        progress.accept("making a Debian " + suite + " build root with debootstrap in " + dir + " (once; 3 to 8 minutes): "
                + "its " + compiler + " and C library build the probe for " + suite + " kernels");
        try {
            deleteTree(partial);
            Files.createDirectories(partial.getParent());
            List<String> include = new ArrayList<>(List.of("make", compiler, "libelf1t64", "libssl3t64", "zlib1g"));
            HostCommand.Output out = HostCommand.of("debootstrap", "--variant=minbase", "--include=" + String.join(",", include), suite,
                    partial.toString(), "http://deb.debian.org/debian").timeout(Duration.ofMinutes(40)).run();
            if (!out.ok()) {
                String log = partial.resolve("debootstrap/debootstrap.log").toString();
                throw new ProbeBuildFailure("debootstrap of " + suite + " into " + partial + " failed: " + out.tail(3) + " (see " + log + ")");
            }
            deleteTree(dir);
            Files.move(partial, dir);
            Files.writeString(dir.resolve(".numaspread-ready"), "made by numaspread for building probe modules\n");
        } catch (IOException e) {
            throw new ProbeBuildFailure(dir + ": " + e.getMessage());
        } catch (HostCommandException e) {
            throw new ProbeBuildFailure("debootstrap of " + suite + ": " + e.getMessage());
        }
    }

    /** Runs {@code argv} inside the root, with /proc mounted in a private namespace. */
    public HostCommand.Output run(List<String> argv, Duration timeout) {
        List<String> cmd = new ArrayList<>(List.of("unshare"));
        if (!isRoot()) cmd.add("--map-root-user");
        cmd.addAll(List.of("--mount", "--pid", "--fork", "--mount-proc=" + dir().resolve("proc"), "chroot", dir().toString()));
        cmd.addAll(argv);
        try {
            return HostCommand.of(cmd).env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").env("LC_ALL", "C").timeout(timeout).run();
        } catch (HostCommandException e) {
            throw new ProbeBuildFailure("running " + String.join(" ", argv.subList(0, Math.min(2, argv.size()))) + " in the " + suite
                    + " build root: " + e.getMessage());
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (var s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(q);
        }
    }
}
