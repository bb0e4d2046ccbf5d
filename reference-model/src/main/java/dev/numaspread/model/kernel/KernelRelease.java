package dev.numaspread.model.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Linux release series {@code major.minor} (a profile: {@code --kernel 6.12}), modelled as that
 * series' current stable point release (6.1 = 6.1.192, 6.12 = 6.12.117, 7.3 = 7.3.4: the kernels of
 * fixtures/kernel-runs). Point releases are not told apart: {@code 6.12.3} and
 * {@code 6.12.117+deb12-amd64} both mean the series 6.12 ({@link #isPointOrUname}); where a stable
 * backport changed behaviour, the routine documents it.
 *
 * <p>{@link #NEWEST} is the one place that says how far the model goes: every release range of the
 * model and of spec/ ({@code 6.9+}) ends there, so modelling the next release changes that constant
 * and the rules that change.
 */
public record KernelRelease(int major, int minor) implements Comparable<KernelRelease> {

    // At most 4 digits each: no release number has more, and parsing them can never overflow.
    private static final Pattern TEXT = Pattern.compile("v?([0-9]{1,4})\\.([0-9]{1,4})([.\\-+].*)?", Pattern.DOTALL);

    public KernelRelease {
        if (major < 2 || minor < 0) throw new IllegalArgumentException("kernel release " + major + "." + minor);
    }

    /** The oldest release the project models: {@code cpumask_local_spread} appeared in 4.1. */
    public static final KernelRelease OLDEST = new KernelRelease(4, 1);
    /** The newest release the project models: the one constant to move when a release is added. */
    public static final KernelRelease NEWEST = new KernelRelease(7, 3);

    /**
     * The last minor release of each finished major series, indexed by major: 3.19, 4.20, 5.19,
     * 6.19 (Linus moves to the next major after about twenty minors; 7.0 followed 6.19).
     */
    private static final int[] LAST_MINOR = {-1, -1, 39, 19, 20, 19, 19};

    public static KernelRelease of(int major, int minor) {
        return new KernelRelease(major, minor);
    }

    /**
     * Reads {@code 6.12}, {@code v6.1}, a point release {@code 6.12.3} or a full uname such as
     * {@code 6.12.117+deb12-amd64}, as the series it belongs to. Whether the release exists or is
     * modelled is not checked here; see {@link #modelled(String)}.
     *
     * @throws IllegalArgumentException "kernel release 'x': expected MAJOR.MINOR such as 6.12"
     */
    public static KernelRelease parse(String text) {
        Matcher m = TEXT.matcher(text.strip());
        if (!m.matches())
            throw new IllegalArgumentException("kernel release " + dev.numaspread.model.input.Printable.quote(text) + ": expected MAJOR.MINOR such as 6.12");
        return new KernelRelease(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** True when {@code text} names more than a series: a point release ({@code 6.12.3}) or a uname. */
    public static boolean isPointOrUname(String text) {
        Matcher m = TEXT.matcher(text.strip());
        return m.matches() && m.group(3) != null;
    }

    /**
     * The series {@code text} names, when the project models it.
     *
     * @throws IllegalArgumentException for text that is no release, a release that never existed
     *         ("kernel release '6.20' never existed (6.19 was the last 6.x; 7.0 followed); ..."), or
     *         one outside {@link #OLDEST}..{@link #NEWEST}; every message names the newest modelled release
     */
    public static KernelRelease modelled(String text) {
        KernelRelease k = parse(text);
        String t = "kernel release " + dev.numaspread.model.input.Printable.quote(text.strip());
        String expected = "; expected " + OLDEST + " to " + NEWEST + " (the newest modelled release is " + NEWEST + ")";
        if (k.compareTo(NEWEST) > 0) throw new IllegalArgumentException(t + " is not modelled yet" + expected);
        if (!k.exists())
            throw new IllegalArgumentException(t + " never existed (" + k.major + "." + LAST_MINOR[k.major] + " was the last "
                    + k.major + ".x; " + (k.major + 1) + ".0 followed)" + expected);
        if (k.compareTo(OLDEST) < 0)
            throw new IllegalArgumentException(t + " is before " + OLDEST + ", where cpumask_local_spread appeared" + expected);
        return k;
    }

    /**
     * True when Linus released this series: up to the last minor of its major (3.19, 4.20, 5.19,
     * 6.19), and in the current major up to {@link #NEWEST}. Releases past NEWEST are not known.
     */
    public boolean exists() {
        Watch.cut(this, Watch.Kind.EXISTS, OLDEST);
        return released();
    }

    private boolean released() {
        if (major < LAST_MINOR.length) return LAST_MINOR[major] >= 0 && minor <= LAST_MINOR[major];
        return major == NEWEST.major && minor <= NEWEST.minor;
    }

    /** Every release the project models, {@link #OLDEST} to {@link #NEWEST}, ascending. */
    public static List<KernelRelease> modelledReleases() {
        List<KernelRelease> out = new ArrayList<>();
        for (int major = OLDEST.major; major <= NEWEST.major; major++)
            for (int minor = 0; of(major, minor).exists(); minor++) {
                KernelRelease k = of(major, minor);
                if (k.compareTo(OLDEST) >= 0) out.add(k);
            }
        return out;
    }

    public boolean atLeast(int major, int minor) {
        KernelRelease x = new KernelRelease(major, minor);
        Watch.cut(this, Watch.Kind.AT_LEAST, x);
        return order(x) >= 0;
    }

    public boolean before(int major, int minor) {
        return !atLeast(major, minor);
    }

    /** True when {@code this >= x}. */
    public boolean atLeast(KernelRelease x) {
        Watch.cut(this, Watch.Kind.AT_LEAST, x);
        Watch.cut(x, Watch.Kind.AT_MOST, this);
        return order(x) >= 0;
    }

    /** True when {@code from <= this <= to}. */
    public boolean between(KernelRelease from, KernelRelease to) {
        Watch.cut(this, Watch.Kind.AT_LEAST, from);
        Watch.cut(from, Watch.Kind.AT_MOST, this);
        Watch.cut(this, Watch.Kind.AT_MOST, to);
        Watch.cut(to, Watch.Kind.AT_LEAST, this);
        return order(from) >= 0 && order(to) <= 0;
    }

    @Override
    public int compareTo(KernelRelease o) {
        Watch.cut(this, Watch.Kind.ORDER, o);
        Watch.cut(o, Watch.Kind.ORDER, this);
        return order(o);
    }

    private int order(KernelRelease o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KernelRelease r)) return false;
        Watch.cut(this, Watch.Kind.EQUALS, r);
        Watch.cut(r, Watch.Kind.EQUALS, this);
        return major == r.major && minor == r.minor;
    }

    @Override
    public int hashCode() {
        Watch.readWhole(this);
        return 31 * major + minor;
    }

    @Override
    public int major() {
        Watch.readWhole(this);
        return major;
    }

    @Override
    public int minor() {
        Watch.readWhole(this);
        return minor;
    }

    @Override
    public String toString() {
        Watch.readWhole(this);
        return major + "." + minor;
    }

    /**
     * What a run reads of the release it is given: the census of input classes (conformance's
     * {@code InputClassCensusTest}) runs a check once and counts its draws for every release the
     * run could not tell from the one it was given. A run that reads a release only by comparing it
     * ({@link #atLeast}, {@link #before}, {@link #between}, {@link #compareTo}, {@link #equals})
     * takes the same path, so draws the same inputs, for every release that answers each comparison
     * it made alike ({@link #standsFor}); a run that reads anything else of it (its numbers, text or
     * hash) stands for that release alone. A watch follows one instance, made anew
     * for the run ({@link #release()}), so a comparison of two other releases (the code's constants,
     * a release a call names) is no reading of it; it notes comparisons made on any thread while it
     * is open (a race's threads), and one watch is open at a time. Outside a watch the cost is one
     * volatile read per comparison.
     */
    public static final class Watch implements AutoCloseable {
        /** How a comparison with a release {@code x} answers for a release {@code r}. */
        enum Kind {
            AT_LEAST, AT_MOST, ORDER, EQUALS, EXISTS;

            int answer(KernelRelease r, KernelRelease x) {
                int o = r.order(x);
                return switch (this) {
                    case AT_LEAST -> o >= 0 ? 1 : 0;
                    case AT_MOST -> o <= 0 ? 1 : 0;
                    case ORDER -> Integer.signum(o);
                    case EQUALS -> o == 0 ? 1 : 0;
                    case EXISTS -> r.released() ? 1 : 0;
                };
            }
        }

        private record Cut(Kind kind, int major, int minor) {}

        private static volatile Watch open;

        private final KernelRelease release;
        private final java.util.Set<Cut> cuts = java.util.concurrent.ConcurrentHashMap.newKeySet();
        private volatile boolean whole;

        private Watch(KernelRelease release) {
            this.release = release;
        }

        /**
         * Opens a watch on a fresh instance of {@code k}.
         *
         * @throws IllegalStateException when a watch is open already
         */
        public static synchronized Watch of(KernelRelease k) {
            if (open != null) throw new IllegalStateException("a watch of " + open.release.major + "." + open.release.minor + " is open");
            Watch w = new Watch(new KernelRelease(k.major, k.minor));
            open = w;
            return w;
        }

        /** The release to give the run: the instance this watch follows. */
        public KernelRelease release() {
            return release;
        }

        /**
         * True when the run, so far, could not tell {@code other} from {@link #release()}: it read
         * the release only by comparisons, and {@code other} answers each of them as the release did.
         */
        public boolean standsFor(KernelRelease other) {
            if (whole) return release.order(other) == 0;
            for (Cut c : cuts) {
                KernelRelease x = new KernelRelease(c.major(), c.minor());
                if (c.kind().answer(release, x) != c.kind().answer(other, x)) return false;
            }
            return true;
        }

        /** True when the run read more than comparisons of the release: it stands for that release alone. */
        public boolean readWhole() {
            return whole;
        }

        @Override
        public void close() {
            synchronized (Watch.class) {
                if (open == this) open = null;
            }
        }

        /** {@code watched} (when it is the watched instance) was compared with {@code x} as {@code kind} says. */
        static void cut(KernelRelease watched, Kind kind, KernelRelease x) {
            Watch w = open;
            if (w != null && w.release == watched && x != watched) w.cuts.add(new Cut(kind, x.major, x.minor));
        }

        static void readWhole(KernelRelease r) {
            Watch w = open;
            if (w != null && w.release == r) w.whole = true;
        }
    }
}
