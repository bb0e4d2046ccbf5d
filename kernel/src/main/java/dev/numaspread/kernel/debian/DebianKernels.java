package dev.numaspread.kernel.debian;

import dev.numaspread.kernel.cache.CacheLock;
import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.cache.KernelFiles;
import dev.numaspread.model.kernel.KernelRelease;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Debian kernels: which packages make one release, and the release fetched into the cache
 * ({@code kernels/RELEASE/root/}, the packages unpacked, plus {@code kernel.properties}).
 *
 * <p>A release is {@code linux-image-REL-unsigned} (6.x: image and modules in one package) or
 * {@code linux-binary-unsigned-REL} with {@code linux-modules-REL} and {@code linux-base-REL} (7.x),
 * plus {@code linux-headers-REL}, its {@code -common} headers and {@code linux-kbuild-*}, found by
 * following the headers' {@code Depends}. Only the generic {@code -amd64} flavour is used (not
 * {@code -cloud-amd64}, {@code -rt-amd64}).
 */
public final class DebianKernels {

    private final DebianArchive archive;
    private final Consumer<String> progress;
    private final Optional<Integer> hostDebian;
    private final Supplier<PackageIndex> index;

    public DebianKernels(DebianArchive archive, Consumer<String> progress) {
        this(archive, archive::index, progress, hostDebianMajor());
    }

    /** Kernels resolved against {@code index} as seen from a machine running Debian {@code hostDebian} (tests). */
    DebianKernels(DebianArchive archive, Supplier<PackageIndex> index, Consumer<String> progress, Optional<Integer> hostDebian) {
        this.archive = archive;
        this.index = index;
        this.progress = progress;
        this.hostDebian = hostDebian;
    }

    public KernelCache cache() {
        return archive.cache();
    }

    /** The packages of one release, the Debian version they share and the suite that built them. */
    public record KernelPackages(String release, String version, String suite, List<DebianPackage> packages) {
        public KernelPackages {
            packages = List.copyOf(packages);
        }

        public KernelRelease series() {
            return KernelSource.seriesOf(release);
        }

        public long size() {
            return packages.stream().mapToLong(DebianPackage::size).sum();
        }
    }

    /**
     * The release a Debian source names: the newest upstream version of the series that has headers
     * (older point releases keep only their signed images); of its builds, the one made for this
     * machine's Debian release when there is one (6.12.117 is built for Debian 12 and 13: a Debian 12
     * machine builds modules for the first with its own compiler).
     *
     * @throws FetchFailure when the archive has no such kernel
     */
    public KernelPackages resolve(KernelSource source) {
        PackageIndex index = this.index.get();
        if (source instanceof KernelSource.DebianSeries s) return packages(index, newestOf(index, s.series()));
        if (source instanceof KernelSource.DebianRelease r) {
            if (image(index, r.release()).isEmpty())
                throw new FetchFailure("kernel " + r.release() + ": no such Debian package (linux-image-" + r.release() + "-unsigned or "
                        + "linux-binary-unsigned-" + r.release() + "); Debian's archive has " + String.join(", ", releases(index)));
            return packages(index, r.release());
        }
        throw new IllegalArgumentException("a folder is no Debian kernel: " + source);
    }

    /** The releases with headers in the index, one line each, newest series first. */
    public static List<String> releases(PackageIndex index) {
        return index.names().stream().map(DebianKernels::releaseOfImage).flatMap(Optional::stream).distinct()
                .filter(r -> !index.versions("linux-headers-" + r).isEmpty())
                .sorted(Comparator.comparing(KernelSource::seriesOf).reversed()
                        .thenComparing(Comparator.comparing((String r) -> image(index, r).orElseThrow().version(), DebianVersion.ORDER).reversed())
                        .thenComparing(Comparator.naturalOrder())).toList();
    }

    private static final Pattern IMAGE = Pattern.compile("linux-(?:image-(.+)-unsigned|binary-unsigned-(.+))");

    static Optional<String> releaseOfImage(String packageName) {
        Matcher m = IMAGE.matcher(packageName);
        if (!m.matches()) return Optional.empty();
        String rel = m.group(1) != null ? m.group(1) : m.group(2);
        return KernelSource.RELEASE.matcher(rel).matches() ? Optional.of(rel) : Optional.empty();
    }

    private static Optional<DebianPackage> image(PackageIndex index, String release) {
        for (String name : List.of("linux-binary-unsigned-" + release, "linux-image-" + release + "-unsigned")) {
            List<DebianPackage> v = index.versions(name);
            if (!v.isEmpty()) return Optional.of(v.get(v.size() - 1));
        }
        return Optional.empty();
    }

    private String newestOf(PackageIndex index, KernelRelease series) {
        List<String> candidates = releases(index).stream().filter(r -> KernelSource.seriesOf(r).equals(series)).toList();
        if (candidates.isEmpty())
            throw new FetchFailure("debian-" + series + ": Debian's archive has no " + series + " kernel with headers (it has "
                    + String.join(", ", releases(index).stream().map(r -> KernelSource.seriesOf(r).toString()).distinct().toList())
                    + "; suites " + String.join(", ", DebianArchive.suites()) + ")");
        Comparator<String> newestUpstream = Comparator.comparing(r -> DebianVersion.upstream(image(index, r).orElseThrow().version()),
                DebianVersion.ORDER);
        Comparator<String> forThisMachine = Comparator.comparing(r -> hostDebian.map(d -> r.contains("+deb" + d + "-")).orElse(false));
        Comparator<String> newestBuild = Comparator.comparing(r -> image(index, r).orElseThrow().version(), DebianVersion.ORDER);
        return candidates.stream().max(newestUpstream.thenComparing(forThisMachine).thenComparing(newestBuild)).orElseThrow();
    }

    private KernelPackages packages(PackageIndex index, String release) {
        DebianPackage image = image(index, release).orElseThrow();
        String abi = release.substring(0, release.length() - "-amd64".length());
        LinkedHashMap<String, DebianPackage> chosen = new LinkedHashMap<>();
        List<DebianPackage> todo = new ArrayList<>();
        todo.add(image);
        for (String name : List.of("linux-modules-" + release, "linux-headers-" + release)) {
            DebianPackage.Dependency same = new DebianPackage.Dependency(name, "=", image.version());
            index.newest(same).ifPresent(todo::add);
        }
        if (todo.stream().noneMatch(p -> p.name().startsWith("linux-headers-")))
            throw new FetchFailure("kernel " + release + ": Debian's archive has its image but not linux-headers-" + release
                    + "; a probe module cannot be built without them");
        while (!todo.isEmpty()) {
            DebianPackage p = todo.remove(0);
            if (chosen.putIfAbsent(p.name(), p) != null) continue;
            for (List<DebianPackage.Dependency> entry : p.depends()) {
                Optional<DebianPackage.Dependency> pick = entry.stream().filter(d -> belongs(d.name(), release, abi))
                        .max(Comparator.comparing(d -> d.name().endsWith("-unsigned")));
                if (pick.isEmpty()) continue;
                DebianPackage dep = index.newest(pick.get()).orElseThrow(() -> new FetchFailure("kernel " + release + ": "
                        + p.name() + " needs " + pick.get() + ", which Debian's archive does not have"));
                todo.add(dep);
            }
        }
        String suite = index.versions("linux-headers-" + release).stream().filter(h -> h.version().equals(image.version()))
                .map(DebianPackage::suite).findFirst().orElse(image.suite());
        return new KernelPackages(release, image.version(), suite, new ArrayList<>(chosen.values()));
    }

    // The packages of this release (its headers, -common headers, modules, base) and the kbuild tools;
    // never the signed image (a meta package of signed parts) nor a debug package.
    private static boolean belongs(String name, String release, String abi) {
        if (name.endsWith("-dbg") || name.equals("linux-image-" + release)) return false;
        if (name.startsWith("linux-kbuild-")) return true;
        return name.startsWith("linux-") && (name.endsWith("-" + release) || name.endsWith("-" + release + "-unsigned")
                || name.equals("linux-headers-" + abi + "-common"));
    }

    // ------------------------------------------------------------------ the cache

    /** The kernel files of a release already fetched; empty when it is not in the cache (or only partly). */
    public Optional<KernelFiles> cached(String release) {
        Path dir = cache().kernel(release);
        Path props = dir.resolve(PROPERTIES);
        if (!Files.isRegularFile(props)) return Optional.empty();
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(props, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.of(files(release, dir, p.getProperty("suite", "")));
    }

    /** The releases in the cache, newest series first. */
    public List<String> cachedReleases() {
        Path kernels = cache().kernels();
        if (!Files.isDirectory(kernels)) return List.of();
        try (Stream<Path> s = Files.list(kernels)) {
            return s.filter(d -> Files.isRegularFile(d.resolve(PROPERTIES))).map(d -> d.getFileName().toString())
                    .filter(r -> KernelSource.RELEASE.matcher(r).matches())
                    .sorted(Comparator.comparing(KernelSource::seriesOf).reversed().thenComparing(Comparator.naturalOrder())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What {@code kernel.properties} of a cached release says ({@code version}, {@code suite}, {@code packages}). */
    public Properties properties(String release) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(cache().kernel(release).resolve(PROPERTIES), StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    static final String PROPERTIES = "kernel.properties";

    /**
     * The release a source names, fetched into the cache when it is not there yet: a series is
     * resolved against the archive (when the archive cannot be reached, the newest cached release of
     * the series is used, with a warning).
     */
    public KernelFiles fetch(KernelSource source) {
        // One fetch at a time, in this JVM (boots side by side) and across processes.
        try {
            return CacheLock.holding(cache().kernels().resolve(".fetch-lock"), () -> fetchLocked(source));
        } catch (IOException e) {
            throw new FetchFailure(cache().kernels() + ": cannot lock the cache (" + e.getMessage() + ")");
        }
    }

    private KernelFiles fetchLocked(KernelSource source) {
        if (source instanceof KernelSource.DebianRelease r) {
            Optional<KernelFiles> have = cached(r.release());
            if (have.isPresent()) return have.get();
        }
        KernelPackages k;
        try {
            k = resolve(source);
        } catch (FetchFailure e) {
            if (source instanceof KernelSource.DebianSeries s) {
                Optional<String> have = cachedReleases().stream().filter(r -> KernelSource.seriesOf(r).equals(s.series())).findFirst();
                if (have.isPresent()) {
                    progress.accept("warning: " + e.getMessage() + "; using the cached " + have.get());
                    return cached(have.get()).orElseThrow();
                }
            }
            throw e;
        }
        return cached(k.release()).orElseGet(() -> fetch(k));
    }

    /** Downloads and unpacks the packages of {@code k} into {@code kernels/RELEASE/}, replacing what was there. */
    public KernelFiles fetch(KernelPackages k) {
        Path dir = cache().kernel(k.release());
        Path partial = cache().kernels().resolve(k.release() + ".partial-" + ProcessHandle.current().pid());
        progress.accept("fetching Linux " + k.release() + " (Debian " + k.version() + ", " + k.suite() + "): " + k.packages().size()
                + " packages, " + DebianArchive.megabytes(k.size()));
        try {
            deleteTree(partial);
            Files.createDirectories(partial.resolve("root"));
            Path debs = cache().debs().resolve(k.release());
            for (DebianPackage p : k.packages()) {
                Path deb = archive.download(p, debs);
                archive.unpack(deb, partial.resolve("root"));
                Files.delete(deb);
            }
            Properties props = new Properties();
            props.setProperty("release", k.release());
            props.setProperty("series", k.series().toString());
            props.setProperty("version", k.version());
            props.setProperty("suite", k.suite());
            props.setProperty("packages", String.join(" ", k.packages().stream().map(DebianPackage::pinned).toList()));
            try (Writer w = Files.newBufferedWriter(partial.resolve(PROPERTIES), StandardCharsets.UTF_8)) {
                props.store(w, "numaspread: a Debian kernel fetched from " + k.suite());
            }
            deleteTree(dir);
            Files.move(partial, dir);
        } catch (IOException e) {
            throw new FetchFailure(dir + ": cannot write the kernel into the cache (" + e.getMessage() + ")");
        } finally {
            try {
                deleteTree(partial);
            } catch (IOException ignored) {
                // a partial folder left behind is replaced by the next fetch
            }
        }
        return cached(k.release()).orElseThrow();
    }

    /** The files of a release unpacked under {@code dir/root}: 6.x keeps the image in /boot, 7.x beside its modules. */
    static KernelFiles files(String release, Path dir, String suite) {
        Path root = dir.resolve("root");
        Path modules = Files.isDirectory(root.resolve("usr/lib/modules/" + release)) ? root.resolve("usr/lib/modules/" + release)
                : root.resolve("lib/modules/" + release);
        Path image = Stream.of(root.resolve("boot/vmlinuz-" + release), modules.resolve("vmlinuz.unsigned"), modules.resolve("vmlinuz"))
                .filter(Files::isRegularFile).findFirst().orElse(root.resolve("boot/vmlinuz-" + release));
        Optional<String> buildSuite = suite.isEmpty() || hostSuiteBuilds(suite) ? Optional.empty() : Optional.of(baseSuite(suite));
        return new KernelFiles(release, image, modules, root.resolve("usr/src/linux-headers-" + release), dir, buildSuite,
                "Debian " + suite);
    }

    /** {@code trixie} of {@code trixie-backports}, {@code bookworm} of {@code bookworm-security}. */
    static String baseSuite(String suite) {
        int dash = suite.indexOf('-');
        return dash < 0 ? suite : suite.substring(0, dash);
    }

    private static final Map<String, Integer> SUITE_MAJOR = Map.of("bookworm", 12, "trixie", 13, "sid", 99);

    // This machine's compiler and C library build modules for kernels of its own Debian release.
    private static boolean hostSuiteBuilds(String suite) {
        Integer major = SUITE_MAJOR.get(baseSuite(suite));
        return major != null && hostDebianMajor().map(major::equals).orElse(false);
    }

    /** This machine's Debian major release ({@code /etc/debian_version}: 12 of {@code 12.11}); empty elsewhere. */
    public static Optional<Integer> hostDebianMajor() {
        try {
            String v = Files.readString(Path.of("/etc/debian_version")).strip();
            Matcher m = Pattern.compile("(\\d+)(\\..*)?").matcher(v);
            return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(q);
        }
    }
}
