package dev.numaspread.kernel.source;

import dev.numaspread.kernel.cache.CacheLock;
import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.debian.DebianArchive;
import dev.numaspread.kernel.debian.DebianPackage;
import dev.numaspread.kernel.debian.FetchFailure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code kernel-src:debian-X.Y}: the tree of Debian's {@code linux-source-X.Y} package (the
 * release's source with Debian's patches, a tarball {@code /usr/src/linux-source-X.Y.tar.xz}), of
 * which only the top Makefile and {@link KernelTree#FILES} are unpacked, into the cache
 * ({@code CACHE/kernel-src/trees/}), once per tarball.
 *
 * <p>The package is the one apt installed on this machine ({@code apt-get install linux-source-6.12}:
 * bookworm has 6.1 and 6.12, trixie-backports 7.3), or else the newest in Debian's archive, fetched
 * into the cache through the {@code kernel:} route's private apt configuration ({@link #fetched}).
 */
public final class DebianSourceTree {
    private DebianSourceTree() {}

    private static final Pattern NAME = Pattern.compile("debian-(\\d{1,2})\\.(\\d{1,3})");

    /** True when {@code tree} is a {@code debian-X.Y} shorthand rather than a folder. */
    public static boolean names(String tree) {
        return NAME.matcher(tree).matches() && !Files.isDirectory(Path.of(tree));
    }

    /** Where the package puts its tarball. */
    static Path tarball(String series) {
        return Path.of("/usr/src", "linux-source-" + series + ".tar.xz");
    }

    /**
     * The tree {@code debian-X.Y} stands for, unpacked into the cache when it is not there yet.
     *
     * @throws UnusableTree when the package is not installed or its tarball lacks a file
     */
    public static Path tree(String name, Path cacheRoot, Consumer<String> progress) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) throw new UnusableTree(name + ": expected debian-X.Y, as debian-6.12");
        String series = m.group(1) + "." + m.group(2);
        String top = "linux-source-" + series;
        Path trees = ShimBuild.folder(cacheRoot).resolve("trees");
        if (Files.isRegularFile(tarball(series))) return unpack(tarball(series), top, trees, progress);
        return fetched(top, cacheRoot, trees, progress);
    }

    /**
     * The tree of Debian's package {@code top} ({@code linux-source-7.3}), newest version in the
     * archive, downloaded through the private apt configuration of the {@code kernel:} route
     * ({@link DebianArchive}, never the machine's apt sources) when no earlier run unpacked it. Only
     * the files of the tree are kept; the package and its tarball are removed once read.
     */
    static Path fetched(String top, Path cacheRoot, Path trees, Consumer<String> progress) {
        KernelCache cache = new KernelCache(cacheRoot);
        DebianArchive archive = new DebianArchive(cache, progress);
        try {
            DebianPackage p = archive.index().newest(new DebianPackage.Dependency(top, "", ""))
                    .orElseThrow(() -> new UnusableTree("debian-" + top.substring("linux-source-".length()) + ": Debian's archive has no "
                            + top + " (" + String.join(", ", DebianArchive.suites()) + "); expected a series Debian packages, as 6.1, 6.12 or 7.3"));
            Path kept = trees.resolve(top + "_" + p.version().replace(':', '%'));
            if (Files.isRegularFile(kept.resolve(".complete"))) return kept;
            // One download of a package at a time, across JVMs too: two would share debs/kernel-src.
            return CacheLock.holding(trees.resolve(top + ".lock"), () -> {
                if (Files.isRegularFile(kept.resolve(".complete"))) return kept;
                Path debs = cache.debs().resolve("kernel-src");
                Path deb = archive.download(p, debs);
                Path unpacked = debs.resolve("unpacked-" + top);
                try {
                    archive.unpack(deb, unpacked);
                    Path tree = unpack(unpacked.resolve("usr/src").resolve(top + ".tar.xz"), top, trees, progress);
                    if (!Files.exists(kept)) Files.move(tree, kept);
                    return kept;
                } finally {
                    delete(unpacked);
                    Files.deleteIfExists(deb);
                }
            });
        } catch (FetchFailure e) {
            throw new UnusableTree(top + ": " + e.getMessage() + "; expected Debian's archive reachable (or apt-get install " + top + ")");
        } catch (IOException e) {
            throw new UnusableTree(trees + ": cannot keep the tree (" + e.getMessage() + "); expected a writable cache");
        }
    }

    /**
     * The Makefile and the files of {@link KernelTree#FILES} of the tarball {@code tarXz} (whose
     * members lie under {@code top/}), in a folder of {@code trees} named after the tarball's name,
     * size and time: unpacked now unless an earlier run did.
     *
     * @throws UnusableTree when the tarball is missing or lacks a file
     */
    public static Path unpack(Path tarXz, String top, Path trees, Consumer<String> progress) {
        if (!Files.isRegularFile(tarXz))
            throw new UnusableTree(tarXz + ": not found; expected Debian's package " + top + " installed (apt-get install " + top
                    + "; bookworm has linux-source-6.1 and linux-source-6.12, trixie-backports linux-source-7.3), or a tree's folder");
        String stamp;
        try {
            stamp = top + "-" + Files.size(tarXz) + "-" + Files.getLastModifiedTime(tarXz).toMillis();
        } catch (IOException e) {
            throw new UnusableTree(tarXz + ": cannot be read (" + e.getMessage() + ")");
        }
        Path dir = trees.resolve(stamp);
        if (Files.isRegularFile(dir.resolve(".complete"))) return dir;
        // One unpacking of a tarball at a time, across JVMs too: whoever waited finds the folder.
        try {
            return CacheLock.holding(trees.resolve(stamp + ".lock"),
                    () -> Files.isRegularFile(dir.resolve(".complete")) ? dir : unpackInto(tarXz, top, trees, dir, progress));
        } catch (IOException e) {
            throw new UnusableTree(trees + ": cannot lock " + stamp + " (" + e.getMessage() + "); expected a writable cache");
        }
    }

    private static Path unpackInto(Path tarXz, String top, Path trees, Path dir, Consumer<String> progress) {
        progress.accept("kernel-src: unpacking the Makefile and " + String.join(", ", KernelTree.FILES) + " of " + tarXz + " into " + dir
                + " (the whole tarball is read once: some seconds)");
        Path tmp;
        try {
            Files.createDirectories(trees);
            tmp = Files.createTempDirectory(trees, "unpack-");
        } catch (IOException e) {
            throw new UnusableTree(trees + ": cannot create a folder (" + e.getMessage() + "); expected a writable cache");
        }
        try {
            List<String> cmd = new ArrayList<>(List.of("tar", "-xJf", tarXz.toString(), "-C", tmp.toString(), "--strip-components=1",
                    top + "/Makefile"));
            for (String f : KernelTree.FILES) cmd.add(top + "/" + f);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().put("LC_ALL", "C");
            Process p = pb.start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(600, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new UnusableTree(tarXz + ": tar ran past 600 s; expected it to read the tarball in a minute");
            }
            if (p.exitValue() != 0)
                throw new UnusableTree(tarXz + ": tar could not take the files out (" + out.lines().findFirst().orElse("exit " + p.exitValue())
                        + "); expected " + top + "/Makefile and " + String.join(", ", KernelTree.FILES) + " in it");
            Files.writeString(tmp.resolve(".complete"), tarXz + "\n");
            try {
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                // A run without the lock (an older numaspread) unpacked the same tarball meanwhile
                // (rename(2) onto a full folder: ENOTEMPTY, a plain FileSystemException in Java).
                if (!Files.isRegularFile(dir.resolve(".complete"))) throw e;
            }
        } catch (IOException e) {
            throw new UnusableTree(tarXz + ": cannot unpack (" + e.getMessage() + "); expected tar and xz (Debian: apt-get install tar xz-utils)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnusableTree(tarXz + ": interrupted while unpacking");
        } finally {
            delete(tmp);
        }
        return dir;
    }

    private static void delete(Path p) {
        if (!Files.exists(p)) return;
        try (Stream<Path> all = Files.walk(p)) {
            all.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // Litter in the cache at worst.
        }
    }
}
