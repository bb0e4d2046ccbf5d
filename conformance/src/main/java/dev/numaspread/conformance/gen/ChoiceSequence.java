package dev.numaspread.conformance.gen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A recorded choice sequence: for each choice its value and bounds, plus the spans (one per draw)
 * that group them. Immutable.
 *
 * <p>A choice is stored and replayed as its <em>index</em>: {@code value - lower}, so index 0 is
 * the lower bound, the simplest value. Replaying an index under other bounds clamps it to
 * {@code upper - lower}; replaying past the end reads index 0. So every edit of a sequence
 * (deleted, zeroed, lowered, swapped choices) replays to some valid value.
 *
 * <h2>Simpler</h2>
 * One total order, shortlex over the indices: a shorter sequence is simpler; between sequences of
 * equal length, the lexicographically smaller index sequence is simpler. Why shortlex: length
 * counts how much was drawn (nodes, list elements, CPUs), so shorter means less structure; among
 * equal structure, smaller early choices (SMT width, node count, cores) matter most because later
 * draws depend on them. The order is well founded on sequences no longer than a given one, so a
 * shrinker that only accepts strictly simpler sequences ends.
 *
 * <pre>
 *   indices      simpler than          why
 *   [0]          [0, 0]                shorter
 *   [5, 9]       [0, 0, 0]             shorter, whatever the values
 *   [0, 9]       [1, 0]                same length; first difference 0 &lt; 1
 *   [3, 1, 15]   [3, 2, 0]             same length; first difference 1 &lt; 2
 *   [2, 2]       [2, 2]                not simpler: equal
 * </pre>
 */
public final class ChoiceSequence implements Comparable<ChoiceSequence> {

    public static final ChoiceSequence EMPTY = new ChoiceSequence(new int[0], new int[0], new int[0], List.of(), Map.of(), 0);

    private final int[] values;
    private final int[] lowers;
    private final int[] uppers;
    private final List<Span> spans;   // ascending start; an outer span before the spans it holds
    private final SortedMap<Integer, Rewrites> rewrites;   // span index -> what its draw can be rewritten to
    private final int scope;          // the small scope it was enumerated in; 0: a random draw or its replay

    ChoiceSequence(int[] values, int[] lowers, int[] uppers, List<Span> spans, Map<Integer, Rewrites> rewrites, int scope) {
        this.values = values;
        this.lowers = lowers;
        this.uppers = uppers;
        this.spans = List.copyOf(spans);
        this.rewrites = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(rewrites));
        this.scope = scope;
    }

    /** The small scope this sequence was enumerated in ({@link Recorder#enumerating}); 0 for random draws and replays. */
    public int scope() {
        return scope;
    }

    /** The rewrites the generators offered, by span index ({@link #spans()}): what the shrinker may put in a span's place. */
    public SortedMap<Integer, Rewrites> rewrites() {
        return rewrites;
    }

    /**
     * The indices with every outermost span that has a literal form replaced by it: the same
     * values, read element by element ({@link Rewrites}). Equal to {@link #indices()} when no
     * generator offered one.
     */
    public int[] literalIndices() {
        List<Integer> out = new ArrayList<>();
        int at = 0;
        for (Map.Entry<Integer, Rewrites> e : rewrites.entrySet()) {
            Span s = spans.get(e.getKey());
            if (s.start() < at) continue;   // inside a span already rewritten
            java.util.Optional<int[]> form = e.getValue().literalForm();
            if (form.isEmpty()) continue;
            for (int i = at; i < s.start(); i++) out.add(index(i));
            for (int v : form.get()) out.add(v);
            at = s.end();
        }
        for (int i = at; i < values.length; i++) out.add(index(i));
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The number of choices. */
    public int size() {
        return values.length;
    }

    /** The value of choice {@code i}, within its bounds. */
    public int value(int i) {
        return values[i];
    }

    public int lower(int i) {
        return lowers[i];
    }

    public int upper(int i) {
        return uppers[i];
    }

    /** The index of choice {@code i}: {@code value - lower}; 0 is the simplest. */
    public int index(int i) {
        return values[i] - lowers[i];
    }

    /** The largest index choice {@code i} could take: {@code upper - lower}. */
    public int maxIndex(int i) {
        return uppers[i] - lowers[i];
    }

    /** The indices of all choices, in draw order: what {@link Recorder#replaying(int[])} takes. */
    public int[] indices() {
        int[] out = new int[values.length];
        for (int i = 0; i < out.length; i++) out[i] = index(i);
        return out;
    }

    /** The spans, in ascending start order (an enclosing span before the spans inside it). */
    public List<Span> spans() {
        return spans;
    }

    /** True when this sequence comes strictly before {@code other} in the shortlex order. */
    public boolean isSimplerThan(ChoiceSequence other) {
        return compareTo(other) < 0;
    }

    /** Shortlex over the indices (see the class comment). */
    @Override
    public int compareTo(ChoiceSequence other) {
        return compareShortlex(indices(), other.indices());
    }

    /** Shortlex over two index arrays: shorter first, then lexicographically. */
    public static int compareShortlex(int[] a, int[] b) {
        if (a.length != b.length) return Integer.compare(a.length, b.length);
        return Arrays.compare(a, b);
    }

    /**
     * The indices parsed back from {@link #indicesText()} ({@code "3 0 1"}), for replaying a reported
     * counterexample.
     *
     * @throws IllegalArgumentException when a token is not a non-negative integer
     */
    public static int[] parseIndices(String text) {
        String t = text.strip();
        if (t.startsWith("[") && t.endsWith("]")) t = t.substring(1, t.length() - 1);
        if (t.isBlank()) return new int[0];
        String[] parts = t.split("[\\s,]+");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("choice indices: found \"" + parts[i] + "\" at position " + i
                        + "; expected a non-negative integer");
            }
            if (out[i] < 0)
                throw new IllegalArgumentException("choice indices: found " + out[i] + " at position " + i
                        + "; expected a non-negative integer");
        }
        return out;
    }

    /** The indices as {@code "3 0 1"}; {@link #parseIndices(String)} reads it back. */
    public String indicesText() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) sb.append(' ');
            sb.append(index(i));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChoiceSequence c && Arrays.equals(values, c.values) && Arrays.equals(lowers, c.lowers)
                && Arrays.equals(uppers, c.uppers) && spans.equals(c.spans) && scope == c.scope;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values) * 31 + spans.hashCode();
    }

    /** The choices as {@code value in lower..upper}, for a failure report. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("choices [");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(values[i]).append(" in ").append(lowers[i]).append("..").append(uppers[i]);
        }
        return sb.append(']').toString();
    }
}
