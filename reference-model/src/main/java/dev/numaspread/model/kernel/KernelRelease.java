package dev.numaspread.model.kernel;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Linux release {@code major.minor} (a profile: {@code --kernel 6.12}). Stable point releases
 * are not told apart; where a stable backport changed behaviour, the routine documents it.
 */
public record KernelRelease(int major, int minor) implements Comparable<KernelRelease> {

    private static final Pattern TEXT = Pattern.compile("v?(\\d+)\\.(\\d+)(?:[.\\-+].*)?");

    public KernelRelease {
        if (major < 2 || minor < 0) throw new IllegalArgumentException("kernel release " + major + "." + minor);
    }

    /** The oldest release the project models: {@code cpumask_local_spread} appeared in 4.1. */
    public static final KernelRelease OLDEST = new KernelRelease(4, 1);
    /** The newest release the project models. */
    public static final KernelRelease NEWEST = new KernelRelease(6, 18);

    public static KernelRelease of(int major, int minor) {
        return new KernelRelease(major, minor);
    }

    /**
     * Reads {@code 6.12}, {@code v6.1}, or a full uname such as {@code 6.12.117+deb12-amd64}.
     *
     * @throws IllegalArgumentException "kernel release 'x': expected MAJOR.MINOR such as 6.12"
     */
    public static KernelRelease parse(String text) {
        Matcher m = TEXT.matcher(text.strip());
        if (!m.matches())
            throw new IllegalArgumentException("kernel release '" + text + "': expected MAJOR.MINOR such as 6.12");
        return new KernelRelease(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    public boolean atLeast(int major, int minor) {
        return compareTo(new KernelRelease(major, minor)) >= 0;
    }

    public boolean before(int major, int minor) {
        return !atLeast(major, minor);
    }

    /** True when {@code from <= this <= to}. */
    public boolean between(KernelRelease from, KernelRelease to) {
        return compareTo(from) >= 0 && compareTo(to) <= 0;
    }

    @Override
    public int compareTo(KernelRelease o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
