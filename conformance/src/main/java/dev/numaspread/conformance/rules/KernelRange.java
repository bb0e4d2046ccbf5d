package dev.numaspread.conformance.rules;

import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel releases a rule holds in, as the {@code kernels:} field writes them: {@code all},
 * {@code none} (an unmerged proposal), {@code 6.3+}, {@code 6.7}, {@code 4.1-6.2}, or a comma
 * separated list of these ({@code 4.1-5.8, 5.11-6.2}); a parenthesised note may follow
 * ({@code 6.3+ (hop rings)}).
 */
public final class KernelRange {

    private static final Pattern PART = Pattern.compile("(\\d+\\.\\d+)(\\+|-(\\d+\\.\\d+))?");
    private static final Pattern NOTE = Pattern.compile("^(.*?)\\s*\\(.*\\)\\s*$");

    /** One interval of releases, both ends included; {@code to} is absent for "and later", up to {@link KernelRelease#NEWEST}. */
    private record Span(KernelRelease from, KernelRelease to) {
        boolean includes(KernelRelease k) {
            return k.compareTo(from) >= 0 && k.compareTo(to == null ? KernelRelease.NEWEST : to) <= 0;
        }
    }

    private final String text;
    private final List<Span> spans;
    private final boolean all;

    private KernelRange(String text, List<Span> spans, boolean all) {
        this.text = text;
        this.spans = List.copyOf(spans);
        this.all = all;
    }

    /**
     * The range that {@code text} writes.
     *
     * @throws IllegalArgumentException "found ...; expected all, none, X.Y, X.Y+ or X.Y-A.B ..."
     */
    public static KernelRange parse(String text) {
        String t = text.strip();
        Matcher note = NOTE.matcher(t);
        String ranges = note.matches() ? note.group(1) : t;
        if (ranges.equals("all")) return new KernelRange(t, List.of(), true);
        if (ranges.equals("none")) return new KernelRange(t, List.of(), false);
        List<Span> spans = new ArrayList<>();
        for (String part : ranges.split(",", -1)) {
            Matcher m = PART.matcher(part.strip());
            if (!m.matches())
                throw new IllegalArgumentException("found \"" + part.strip() + "\" in kernels \"" + t
                        + "\"; expected all, none, X.Y, X.Y+ or X.Y-A.B, separated by commas");
            KernelRelease from = existing(m.group(1), part, t);
            KernelRelease to = m.group(2) == null ? from : m.group(3) == null ? null : existing(m.group(3), part, t);
            if (to != null && to.compareTo(from) < 0)
                throw new IllegalArgumentException("found \"" + part.strip() + "\" in kernels \"" + t
                        + "\", a range that ends before it starts; expected X.Y-A.B with X.Y <= A.B");
            spans.add(new Span(from, to));
        }
        return new KernelRange(t, spans, false);
    }

    private static KernelRelease existing(String release, String part, String text) {
        KernelRelease k = KernelRelease.parse(release);
        if (!k.exists() && k.compareTo(KernelRelease.NEWEST) < 0)
            throw new IllegalArgumentException("found \"" + part.strip() + "\" in kernels \"" + text + "\": release " + k
                    + " never existed; expected releases " + KernelRelease.OLDEST + " to " + KernelRelease.NEWEST + " (7.0 follows 6.19)");
        if (k.compareTo(KernelRelease.NEWEST) > 0)
            throw new IllegalArgumentException("found \"" + part.strip() + "\" in kernels \"" + text + "\": release " + k
                    + " is past the newest modelled release; expected releases " + KernelRelease.OLDEST + " to " + KernelRelease.NEWEST);
        return k;
    }

    /** True when the rule holds in release {@code k} (a range {@code X.Y+} ends at the newest modelled release). */
    public boolean includes(KernelRelease k) {
        if (all) return true;
        for (Span s : spans) if (s.includes(k)) return true;
        return false;
    }

    /**
     * The releases where the range starts and ends, ascending without repeats: the first and last
     * release of each interval ({@code 6.1, 6.3+} gives 6.1, 6.3 and the newest; {@code all} the
     * oldest and the newest modelled release). Where a rule's behaviour may change, so where a
     * census of its checks looks (spec/rules.md RULE-6).
     */
    public List<KernelRelease> ends() {
        java.util.TreeSet<KernelRelease> out = new java.util.TreeSet<>();
        if (all) {
            out.add(KernelRelease.OLDEST);
            out.add(KernelRelease.NEWEST);
        }
        for (Span s : spans) {
            out.add(s.from());
            out.add(s.to() == null ? KernelRelease.NEWEST : s.to());
        }
        return List.copyOf(out);
    }

    /**
     * The boundaries of the range, as spec/boundaries.md writes them: {@code from X} where a span
     * starts at X (X is not the oldest modelled release) and {@code up to X} where a span ends at X
     * (X is not the newest); in the order the spans are written. {@code all} and {@code none} have
     * none. {@code 6.1, 6.3+} gives {@code from 6.1}, {@code up to 6.1}, {@code from 6.3}.
     */
    public List<String> edges() {
        List<String> out = new ArrayList<>();
        for (Span s : spans) {
            if (!s.from().equals(KernelRelease.OLDEST)) out.add("from " + s.from());
            if (s.to() != null && !s.to().equals(KernelRelease.NEWEST)) out.add("up to " + s.to());
        }
        return List.copyOf(out);
    }

    /** True for {@code none}: a rule of a proposal that no release merged. */
    public boolean isNone() {
        return !all && spans.isEmpty();
    }

    /** The text as written in the spec. */
    @Override
    public String toString() {
        return text;
    }
}
