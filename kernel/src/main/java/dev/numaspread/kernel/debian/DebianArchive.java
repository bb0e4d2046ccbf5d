package dev.numaspread.kernel.debian;

import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.host.HostCommand;
import dev.numaspread.kernel.host.HostCommandException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Debian's archive through a private apt configuration under the cache ({@code apt/}): its own
 * {@code sources.list}, lists, package cache and an empty dpkg status, passed to {@code apt-get} as
 * {@code -o} options, so the machine's apt sources, its package state and /boot are never read or
 * touched. Signatures are checked by apt against Debian's archive keyring
 * ({@code /usr/share/keyrings/debian-archive-keyring.gpg}).
 *
 * <p>Suites: bookworm (+ -updates, -security, -backports), trixie (+ -backports) and sid. As of
 * 2026-12 they hold Linux 6.1 (bookworm, bookworm-security), 6.12 (bookworm-security and
 * -backports built for Debian 12, trixie), 7.2 (trixie-backports, sid) and 7.3 (trixie-backports).
 *
 * <p>Use: {@link #index} (updating the lists when they are older than a day), {@link #download},
 * {@link #unpack}. Everything is run with {@code apt-get} and {@code dpkg-deb}, which a Debian or
 * Ubuntu machine has.
 */
public final class DebianArchive {

    /** The suites searched, with the mirror of each. */
    public static final List<String> SOURCES = List.of(
            "http://deb.debian.org/debian bookworm main",
            "http://deb.debian.org/debian bookworm-updates main",
            "http://deb.debian.org/debian bookworm-backports main",
            "http://deb.debian.org/debian-security bookworm-security main",
            "http://deb.debian.org/debian trixie main",
            "http://deb.debian.org/debian trixie-backports main",
            "http://deb.debian.org/debian sid main");

    static final Path KEYRING = Path.of("/usr/share/keyrings/debian-archive-keyring.gpg");

    /** Lists older than this are updated before a series is resolved. */
    static final Duration FRESH = Duration.ofHours(24);

    private final KernelCache cache;
    private final Consumer<String> progress;
    private PackageIndex index;

    public DebianArchive(KernelCache cache, Consumer<String> progress) {
        this.cache = cache;
        this.progress = progress;
    }

    public KernelCache cache() {
        return cache;
    }

    /** The {@code -o} options that make apt-get use the private configuration. */
    List<String> aptOptions() {
        Path apt = cache.apt();
        List<String> o = new ArrayList<>();
        for (String[] kv : new String[][]{
                {"Dir::Etc::SourceList", apt.resolve("sources.list").toString()},
                {"Dir::Etc::SourceParts", apt.resolve("sources.list.d").toString()},
                {"Dir::State::Lists", apt.resolve("lists").toString()},
                {"Dir::State::status", apt.resolve("status").toString()},
                {"Dir::Cache", apt.resolve("cache").toString()},
                {"APT::Architecture", "amd64"},
                {"APT::Architectures::", "amd64"},
                // Plain index files: PackageIndex reads them without a decompressor.
                {"Acquire::GzipIndexes", "false"},
                {"Acquire::Languages", "none"},
                {"Acquire::Retries", "2"},
                {"Debug::NoLocking", "true"}}) {
            o.add("-o");
            o.add(kv[0] + "=" + kv[1]);
        }
        // Root would hand downloads to the _apt user, who cannot write into a private cache.
        if ("root".equals(System.getProperty("user.name"))) {
            o.add("-o");
            o.add("APT::Sandbox::User=root");
        }
        return o;
    }

    private void writeConfiguration() {
        Path apt = cache.apt();
        try {
            Files.createDirectories(apt.resolve("lists/partial"));
            Files.createDirectories(apt.resolve("cache/archives/partial"));
            Files.createDirectories(apt.resolve("sources.list.d"));
            if (!Files.exists(apt.resolve("status"))) Files.writeString(apt.resolve("status"), "");
            StringBuilder sb = new StringBuilder("# numaspread's private apt sources: Debian kernels for real-kernel certification\n");
            for (String s : SOURCES) sb.append("deb [signed-by=").append(KEYRING).append("] ").append(s).append('\n');
            Files.writeString(apt.resolve("sources.list"), sb.toString());
        } catch (IOException e) {
            throw new FetchFailure(apt + ": cannot write the private apt configuration (" + e.getMessage() + ")");
        }
    }

    /** When the lists were last updated; empty when they never were. */
    public Optional<Instant> updated() {
        Path stamp = cache.apt().resolve("updated");
        try {
            return Files.exists(stamp) ? Optional.of(Files.getLastModifiedTime(stamp).toInstant()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Runs {@code apt-get update} on the private configuration.
     *
     * @throws FetchFailure when apt-get is missing or the archive cannot be reached and no lists are cached
     */
    public void update() {
        for (String tool : List.of("apt-get", "dpkg-deb"))
            if (!HostCommand.installed(tool))
                throw new FetchFailure(tool + " is not installed; fetching Debian kernels needs apt and dpkg (a Debian or Ubuntu machine)");
        if (!Files.isRegularFile(KEYRING))
            throw new FetchFailure(KEYRING + ": no such file; expected Debian's archive keyring (apt-get install debian-archive-keyring)");
        writeConfiguration();
        progress.accept("updating the package lists of Debian's archive (" + SOURCES.size() + " suites, about 30 MB) into " + cache.apt());
        List<String> cmd = new ArrayList<>(List.of("apt-get", "-q"));
        cmd.addAll(aptOptions());
        cmd.add("update");
        HostCommand.Output out;
        try {
            out = HostCommand.of(cmd).timeout(Duration.ofMinutes(15)).run();
        } catch (HostCommandException e) {
            throw new FetchFailure("updating Debian's package lists failed: " + e.getMessage());
        }
        // apt-get update exits 0 even when a suite could not be fetched; its W:/E: lines say so.
        List<String> problems = (out.out() + "\n" + out.err()).lines().filter(l -> l.startsWith("E:") || l.startsWith("Err:")).toList();
        if (!out.ok() || !problems.isEmpty()) {
            String why = problems.isEmpty() ? out.tail(3) : String.join(" | ", problems.subList(0, Math.min(3, problems.size())));
            throw new FetchFailure("updating Debian's package lists failed (is deb.debian.org reachable?): " + why);
        }
        try {
            Path stamp = cache.apt().resolve("updated");
            Files.writeString(stamp, Instant.now().toString() + "\n");
            Files.setLastModifiedTime(stamp, FileTime.from(Instant.now()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        index = null;
    }

    /**
     * The index of the kernel packages ({@code linux-*}) of every suite. Updates the lists first when
     * they are missing or older than a day; when the update fails but older lists exist, says so on the
     * progress line and uses them.
     */
    public PackageIndex index() {
        if (index != null) return index;
        Optional<Instant> when = updated();
        if (when.isEmpty() || when.get().isBefore(Instant.now().minus(FRESH))) {
            try {
                update();
            } catch (FetchFailure e) {
                if (when.isEmpty()) throw e;
                progress.accept("warning: " + e.getMessage() + "; using the lists of " + when.get());
            }
        }
        Path kept = cache.apt().resolve("kernel-packages");
        try {
            if (Files.isRegularFile(kept) && !Files.getLastModifiedTime(kept).toInstant().isBefore(updated().orElse(Instant.MAX))) {
                index = PackageIndex.readKept(kept);
                if (!index.isEmpty()) return index;
            }
        } catch (IOException | UncheckedIOException e) {
            // read the lists again below
        }
        index = PackageIndex.readLists(cache.apt().resolve("lists"), KERNEL_PACKAGES);
        if (!index.isEmpty()) index.write(kept);
        if (index.isEmpty())
            throw new FetchFailure(cache.apt().resolve("lists") + ": no kernel package in the cached lists; expected Debian's indices"
                    + " (remove " + cache.apt().resolve("updated") + " to update them)");
        return index;
    }

    static final Predicate<String> KERNEL_PACKAGES = n -> n.startsWith("linux-");

    /**
     * Downloads one package (apt checks its hash against the signed index) into {@code into} and returns the file.
     *
     * @throws FetchFailure when apt-get cannot get it
     */
    public Path download(DebianPackage p, Path into) {
        try {
            Files.createDirectories(into);
        } catch (IOException e) {
            throw new FetchFailure(into + ": cannot create the folder (" + e.getMessage() + ")");
        }
        progress.accept("downloading " + p.name() + " " + p.version() + " (" + p.suite() + ", " + megabytes(p.size()) + ")");
        List<String> cmd = new ArrayList<>(List.of("apt-get", "-q"));
        cmd.addAll(aptOptions());
        cmd.addAll(List.of("download", p.pinned()));
        HostCommand.Output out;
        try {
            out = HostCommand.of(cmd).in(into).timeout(Duration.ofMinutes(30)).run();
        } catch (HostCommandException e) {
            throw new FetchFailure("downloading " + p.pinned() + " failed: " + e.getMessage());
        }
        if (!out.ok()) throw new FetchFailure("downloading " + p.pinned() + " failed: " + out.tail(2));
        return downloaded(p, into).orElseThrow(() -> new FetchFailure("downloading " + p.pinned() + ": apt-get reported success but "
                + into + " holds no " + p.name() + "_*.deb"));
    }

    /** Downloads the newest version of package {@code name} (any suite) into {@code into}. */
    public Path download(String name, Optional<String> version, Path into) {
        DebianPackage.Dependency want = new DebianPackage.Dependency(name, version.isPresent() ? "=" : "", version.orElse(""));
        DebianPackage p = index().newest(want).orElseThrow(() -> new FetchFailure(want + ": not in Debian's archive ("
                + String.join(", ", suites()) + ")"));
        return download(p, into);
    }

    private static Optional<Path> downloaded(DebianPackage p, Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith(p.name() + "_") && f.getFileName().toString().endsWith(".deb"))
                    .filter(f -> versionInFileName(f.getFileName().toString()).equals(p.version()))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    // name_version_arch.deb, where apt writes an epoch's ':' as %3a.
    static String versionInFileName(String file) {
        String[] parts = file.substring(0, file.length() - ".deb".length()).split("_");
        return parts.length >= 3 ? parts[1].replace("%3a", ":") : "";
    }

    /**
     * Unpacks a package's files ({@code dpkg-deb -x}) under {@code into}; maintainer scripts are not run.
     *
     * @throws FetchFailure when dpkg-deb fails
     */
    public void unpack(Path deb, Path into) {
        try {
            Files.createDirectories(into);
            HostCommand.of("dpkg-deb", "-x", deb.toString(), into.toString()).timeout(Duration.ofMinutes(10)).run()
                    .orThrow("unpacking " + deb.getFileName());
        } catch (HostCommandException e) {
            throw new FetchFailure(e.getMessage());
        } catch (IOException e) {
            throw new FetchFailure(into + ": cannot create the folder (" + e.getMessage() + ")");
        }
    }

    /** The suite names of {@link #SOURCES}. */
    public static List<String> suites() {
        return SOURCES.stream().map(s -> s.split(" ")[1]).toList();
    }

    static String megabytes(long bytes) {
        return bytes < 1_000_000 ? Math.max(1, bytes / 1000) + " kB" : (bytes + 500_000) / 1_000_000 + " MB";
    }
}
