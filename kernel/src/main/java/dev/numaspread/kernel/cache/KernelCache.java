package dev.numaspread.kernel.cache;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where numaspread keeps what it fetches and builds for real kernels: {@code $NUMASPREAD_CACHE}, or
 * {@code ${XDG_CACHE_HOME:-~/.cache}/numaspread}. Nothing is written outside it (never /boot, never
 * the machine's apt state).
 *
 * <pre>
 * apt/                    the private apt configuration: sources.list, lists/, cache/, status
 * debs/                   packages being downloaded (removed once unpacked)
 * kernels/RELEASE/        one kernel: root/ (its packages unpacked), kernel.properties, probe/, guest/
 * build-roots/SUITE/      a Debian chroot whose compiler and C library build a release's modules
 * </pre>
 */
public record KernelCache(Path root) {

    /**
     * The cache this process uses: from the environment, as the class comment says; the system
     * property {@code numaspread.cache}, when set, overrides it (tests).
     */
    public static KernelCache fromEnvironment() {
        String property = System.getProperty("numaspread.cache");
        if (property != null && !property.isBlank()) return new KernelCache(Path.of(property).toAbsolutePath());
        return fromEnvironment(System.getenv(), Path.of(System.getProperty("user.home")));
    }

    /** The cache that {@code env} and {@code home} name (tests). */
    public static KernelCache fromEnvironment(Map<String, String> env, Path home) {
        Optional<String> own = nonEmpty(env.get("NUMASPREAD_CACHE"));
        if (own.isPresent()) return new KernelCache(Path.of(own.get()).toAbsolutePath());
        Path xdg = nonEmpty(env.get("XDG_CACHE_HOME")).map(Path::of).orElse(home.resolve(".cache"));
        return new KernelCache(xdg.toAbsolutePath().resolve("numaspread"));
    }

    private static Optional<String> nonEmpty(String s) {
        return s == null || s.isBlank() ? Optional.empty() : Optional.of(s);
    }

    /** The private apt configuration's folder. */
    public Path apt() {
        return root.resolve("apt");
    }

    /** Where packages are downloaded before they are unpacked. */
    public Path debs() {
        return root.resolve("debs");
    }

    /** All cached kernels, one folder per release. */
    public Path kernels() {
        return root.resolve("kernels");
    }

    /** The folder of one kernel release ({@code 7.3.4+deb13-amd64}). */
    public Path kernel(String release) {
        return kernels().resolve(release);
    }

    /** The chroot of one Debian suite ({@code trixie}). */
    public Path buildRoot(String suite) {
        return root.resolve("build-roots").resolve(suite);
    }
}
