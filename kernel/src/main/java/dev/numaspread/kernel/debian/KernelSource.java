package dev.numaspread.kernel.debian;

import dev.numaspread.model.kernel.KernelRelease;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code kernel:SOURCE} names: the newest Debian build of a series ({@code debian-7.3}), one
 * Debian release ({@code 7.3.4+deb13-amd64}, {@code 6.1.0-57-amd64}), or a folder holding a kernel
 * the user built.
 */
public sealed interface KernelSource {

    /** {@code debian-X.Y}: the newest build of the series in Debian's archive. */
    record DebianSeries(KernelRelease series) implements KernelSource {
        @Override
        public String toString() {
            return "debian-" + series;
        }
    }

    /** One Debian kernel release, as {@code uname -r} prints it: {@code 7.3.4+deb13-amd64}. */
    record DebianRelease(String release) implements KernelSource {
        @Override
        public String toString() {
            return release;
        }
    }

    /** A folder with a kernel the user built: its {@code bzImage}, its modules and its build tree. */
    record Folder(Path dir) implements KernelSource {
        @Override
        public String toString() {
            return dir.toString();
        }
    }

    Pattern SERIES = Pattern.compile("debian-(\\d+)\\.(\\d+)");
    /** A Debian amd64 release: {@code 6.1.0-57-amd64}, {@code 6.12.117+deb12-amd64}, {@code 7.3.4+deb13-amd64}. */
    Pattern RELEASE = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.\\d+)?(?:-\\d+)?(?:\\+deb\\d+)?-amd64");

    /**
     * Reads a source as the command line gives it: {@code debian-X.Y}, a release, or else a folder
     * (a path with a {@code /}, or one that exists).
     *
     * @throws FetchFailure for text that is none of them
     */
    static KernelSource parse(String text) {
        Matcher s = SERIES.matcher(text);
        if (s.matches()) return new DebianSeries(KernelRelease.of(Integer.parseInt(s.group(1)), Integer.parseInt(s.group(2))));
        if (RELEASE.matcher(text).matches()) return new DebianRelease(text);
        if (text.contains("/") || java.nio.file.Files.isDirectory(Path.of(text))) return new Folder(Path.of(text));
        throw new FetchFailure("kernel source '" + text + "': expected debian-X.Y (debian-6.1, debian-6.12, debian-7.2, debian-7.3),"
                + " a Debian release (7.3.4+deb13-amd64, 6.1.0-57-amd64) or a folder with a kernel you built");
    }

    /** The series of a Debian release: {@code 7.3} of {@code 7.3.4+deb13-amd64}. */
    static KernelRelease seriesOf(String release) {
        Matcher m = RELEASE.matcher(release);
        if (!m.matches()) throw new IllegalArgumentException("not a Debian release: " + release);
        return KernelRelease.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }
}
