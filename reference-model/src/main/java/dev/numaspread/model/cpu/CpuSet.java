package dev.numaspread.model.cpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.stream.IntStream;

/**
 * An immutable set of CPU ids (a kernel {@code struct cpumask}), iterated in ascending id order.
 *
 * <p>Text forms are the kernel's own: {@link #toList()} prints {@code %*pbl} as
 * {@code /proc/irq/N/smp_affinity_list} shows it ({@code 0-7,128-135}), {@link #toMask(int)} prints
 * {@code %*pb} as {@code /proc/irq/N/smp_affinity} shows it. {@link #parseList(String)} reads every
 * list dialect a user has on hand (kernel ranges, {@code a-b:used/group}, util-linux strides
 * {@code a-b:s}, numactl's space-separated ids and {@code (count)} suffix).
 *
 * <p>A final class over {@code long[]} rather than a record, because a record holding an array
 * compares by identity.
 */
public final class CpuSet implements Iterable<Integer>, Comparable<CpuSet> {

    private static final long[] NO_WORDS = new long[0];
    public static final CpuSet EMPTY = new CpuSet(NO_WORDS);

    /** Bit {@code c % 64} of word {@code c / 64} is CPU {@code c}; no trailing zero words. */
    private final long[] words;

    private CpuSet(long[] words) {
        int n = words.length;
        while (n > 0 && words[n - 1] == 0) n--;
        this.words = n == words.length ? words : Arrays.copyOf(words, n);
    }

    /** The set of the given CPU ids. */
    public static CpuSet of(int... cpus) {
        Builder b = builder();
        for (int c : cpus) b.add(c);
        return b.build();
    }

    /** The set {@code first..last}, both included; empty when {@code last < first}. */
    public static CpuSet range(int first, int last) {
        Builder b = builder();
        for (int c = first; c <= last; c++) b.add(c);
        return b.build();
    }

    public static CpuSet ofStream(IntStream cpus) {
        Builder b = builder();
        cpus.forEach(b::add);
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A mutable accumulator for building one {@link CpuSet}. */
    public static final class Builder {
        private long[] words = new long[2];

        public Builder add(int cpu) {
            if (cpu < 0) throw new IllegalArgumentException("cpu id " + cpu + " is negative");
            int w = cpu >>> 6;
            if (w >= words.length) words = Arrays.copyOf(words, Math.max(w + 1, words.length * 2));
            words[w] |= 1L << (cpu & 63);
            return this;
        }

        public Builder addAll(CpuSet set) {
            set.forEachCpu(this::add);
            return this;
        }

        public Builder remove(int cpu) {
            int w = cpu >>> 6;
            if (cpu >= 0 && w < words.length) words[w] &= ~(1L << (cpu & 63));
            return this;
        }

        public boolean contains(int cpu) {
            int w = cpu >>> 6;
            return cpu >= 0 && w < words.length && (words[w] & (1L << (cpu & 63))) != 0;
        }

        public CpuSet build() {
            return new CpuSet(words.clone());
        }
    }

    // ---------------------------------------------------------------- queries

    public boolean contains(int cpu) {
        int w = cpu >>> 6;
        return cpu >= 0 && w < words.length && (words[w] & (1L << (cpu & 63))) != 0;
    }

    public boolean isEmpty() {
        return words.length == 0;
    }

    /** The number of CPUs in the set ({@code cpumask_weight}). */
    public int size() {
        int n = 0;
        for (long w : words) n += Long.bitCount(w);
        return n;
    }

    /** The lowest CPU id, or -1 for the empty set. */
    public int first() {
        return next(0);
    }

    /** The highest CPU id, or -1 for the empty set. */
    public int last() {
        if (words.length == 0) return -1;
        int w = words.length - 1;
        return w * 64 + 63 - Long.numberOfLeadingZeros(words[w]);
    }

    /** The lowest CPU id {@code >= from} in the set, or -1 if there is none. */
    public int next(int from) {
        if (from < 0) from = 0;
        int w = from >>> 6;
        if (w >= words.length) return -1;
        long word = words[w] & (-1L << (from & 63));
        while (true) {
            if (word != 0) return w * 64 + Long.numberOfTrailingZeros(word);
            if (++w == words.length) return -1;
            word = words[w];
        }
    }

    /**
     * The {@code n}-th CPU (0-based, ascending), or -1 when the set has {@code n} CPUs or fewer
     * ({@code cpumask_nth}, whose "none" is {@code >= nr_cpu_ids}).
     */
    public int nth(int n) {
        if (n < 0) return -1;
        for (int w = 0; w < words.length; w++) {
            int count = Long.bitCount(words[w]);
            if (n < count) {
                long word = words[w];
                for (int k = 0; k < n; k++) word &= word - 1; // drop the n lowest bits
                return w * 64 + Long.numberOfTrailingZeros(word);
            }
            n -= count;
        }
        return -1;
    }

    public boolean isSubsetOf(CpuSet other) {
        for (int w = 0; w < words.length; w++) {
            long o = w < other.words.length ? other.words[w] : 0;
            if ((words[w] & ~o) != 0) return false;
        }
        return true;
    }

    public boolean intersects(CpuSet other) {
        int n = Math.min(words.length, other.words.length);
        for (int w = 0; w < n; w++) if ((words[w] & other.words[w]) != 0) return true;
        return false;
    }

    // ---------------------------------------------------------------- algebra

    public CpuSet and(CpuSet other) {
        int n = Math.min(words.length, other.words.length);
        long[] r = new long[n];
        for (int w = 0; w < n; w++) r[w] = words[w] & other.words[w];
        return new CpuSet(r);
    }

    public CpuSet or(CpuSet other) {
        long[] r = Arrays.copyOf(words, Math.max(words.length, other.words.length));
        for (int w = 0; w < other.words.length; w++) r[w] |= other.words[w];
        return new CpuSet(r);
    }

    public CpuSet andNot(CpuSet other) {
        long[] r = words.clone();
        int n = Math.min(words.length, other.words.length);
        for (int w = 0; w < n; w++) r[w] &= ~other.words[w];
        return new CpuSet(r);
    }

    public CpuSet with(int cpu) {
        return contains(cpu) ? this : builder().addAll(this).add(cpu).build();
    }

    public CpuSet without(int cpu) {
        return contains(cpu) ? builder().addAll(this).remove(cpu).build() : this;
    }

    // ---------------------------------------------------------------- iteration

    public IntStream stream() {
        return IntStream.iterate(first(), c -> c >= 0, c -> next(c + 1));
    }

    /** The CPU ids, ascending. */
    public int[] toArray() {
        int[] out = new int[size()];
        int k = 0;
        for (int w = 0; w < words.length; w++)
            for (long word = words[w]; word != 0; word &= word - 1) out[k++] = w * 64 + Long.numberOfTrailingZeros(word);
        return out;
    }

    public void forEachCpu(java.util.function.IntConsumer action) {
        for (int c = first(); c >= 0; c = next(c + 1)) action.accept(c);
    }

    @Override
    public PrimitiveIterator.OfInt iterator() {
        return new PrimitiveIterator.OfInt() {
            int cursor = first();

            @Override
            public boolean hasNext() {
                return cursor >= 0;
            }

            @Override
            public int nextInt() {
                if (cursor < 0) throw new NoSuchElementException();
                int c = cursor;
                cursor = CpuSet.this.next(c + 1);
                return c;
            }
        };
    }

    // ---------------------------------------------------------------- text forms

    /**
     * The kernel's list form ({@code %*pbl}, {@code smp_affinity_list}): ascending, a run of two or
     * more CPUs as {@code a-b}, a lone CPU as {@code n}, comma separated; the empty set is "".
     */
    public String toList() {
        StringBuilder sb = new StringBuilder();
        int c = first();
        while (c >= 0) {
            int end = c;
            while (contains(end + 1)) end++;
            if (sb.length() > 0) sb.append(',');
            sb.append(c);
            if (end > c) sb.append('-').append(end);
            c = next(end + 1);
        }
        return sb.toString();
    }

    /**
     * The kernel's hex mask ({@code %*pb}, {@code smp_affinity}) for {@code nrCpuIds} bits.
     *
     * <p>Why the first group is short: the kernel prints {@code nr_cpu_ids} bits in 32-bit groups,
     * most significant group first. Every group but the first is 8 hex digits; the first holds the
     * remaining {@code r = nrCpuIds mod 32} bits (32 when the division is exact) and is printed
     * with {@code ceil(r / 4)} digits. So nr_cpu_ids 8 gives 2 digits ({@code 0f}), 40 gives
     * {@code 00,00000001}, 256 gives eight full groups.
     *
     * @throws IllegalArgumentException if a CPU of the set is {@code >= nrCpuIds}
     */
    public String toMask(int nrCpuIds) {
        if (nrCpuIds <= 0) throw new IllegalArgumentException("nr_cpu_ids " + nrCpuIds + " must be positive");
        if (last() >= nrCpuIds)
            throw new IllegalArgumentException("cpu " + last() + " does not fit in nr_cpu_ids " + nrCpuIds);
        int groups = (nrCpuIds + 31) / 32;
        int firstBits = nrCpuIds - 32 * (groups - 1);
        StringBuilder sb = new StringBuilder();
        for (int g = groups - 1; g >= 0; g--) {
            long bits = group32(g);
            int digits = g == groups - 1 ? (firstBits + 3) / 4 : 8;
            String hex = Long.toHexString(bits);
            for (int k = hex.length(); k < digits; k++) sb.append('0');
            sb.append(hex);
            if (g > 0) sb.append(',');
        }
        return sb.toString();
    }

    private long group32(int g) {
        int w = g >>> 1;
        if (w >= words.length) return 0;
        return (g & 1) == 0 ? words[w] & 0xffffffffL : words[w] >>> 32;
    }

    /**
     * Reads a hex mask as {@code smp_affinity} prints it or as a user writes it: comma-separated
     * 32-bit groups, most significant first, leading zeros optional, an optional {@code 0x}.
     *
     * @throws IllegalArgumentException naming the offending text
     */
    public static CpuSet parseMask(String text) {
        String t = text.strip();
        if (t.startsWith("0x") || t.startsWith("0X")) t = t.substring(2);
        if (t.isEmpty()) throw new IllegalArgumentException("empty hex mask; expected hex digits such as 0f");
        String[] groups = t.split(",", -1);
        Builder b = builder();
        for (int k = 0; k < groups.length; k++) {
            String g = groups[k].strip();
            if (g.isEmpty() || g.length() > 8 || !g.chars().allMatch(ch -> Character.digit(ch, 16) >= 0))
                throw new IllegalArgumentException("hex mask group '" + g + "' in '" + text
                        + "'; expected 1 to 8 hex digits per comma-separated 32-bit group");
            long bits = Long.parseLong(g, 16);
            int base = 32 * (groups.length - 1 - k);
            for (int bit = 0; bit < 32; bit++) if ((bits & (1L << bit)) != 0) b.add(base + bit);
        }
        return b.build();
    }

    /**
     * Reads a CPU list in any dialect users have: {@code 0-7,128-135}; single ids; kernel group
     * syntax {@code a-b:used/group} ({@code 0-1023:2/256}); util-linux strides {@code a-b:s};
     * numactl's space-separated ids, {@code ", "} separators and a trailing {@code (count)}; an
     * empty text is the empty set. {@code N} (the last CPU) is accepted only through
     * {@link #parseList(String, int)}.
     *
     * @throws IllegalArgumentException naming the offending piece and what was expected
     */
    public static CpuSet parseList(String text) {
        return parseList(text, -1);
    }

    /** As {@link #parseList(String)}, with {@code N} standing for {@code lastCpu} when it is >= 0. */
    public static CpuSet parseList(String text, int lastCpu) {
        String t = text.strip();
        int paren = t.indexOf('(');
        if (paren >= 0 && t.endsWith(")")) t = t.substring(0, paren).strip(); // numactl --cpu-compress count
        Builder b = builder();
        if (t.isEmpty()) return b.build();
        for (String piece : t.split("[,\\s]+")) {
            if (piece.isEmpty()) continue;
            addListPiece(b, piece, text, lastCpu);
        }
        return b.build();
    }

    private static void addListPiece(Builder b, String piece, String text, int lastCpu) {
        String range = piece;
        int used = 1;
        int group = 1;
        int colon = piece.indexOf(':');
        if (colon >= 0) {
            range = piece.substring(0, colon);
            String stride = piece.substring(colon + 1);
            int slash = stride.indexOf('/');
            if (slash >= 0) { // kernel: a-b:used/group
                used = number(stride.substring(0, slash), piece, text, lastCpu);
                group = number(stride.substring(slash + 1), piece, text, lastCpu);
            } else { // util-linux: a-b:stride
                used = 1;
                group = number(stride, piece, text, lastCpu);
            }
            if (used <= 0 || group <= 0 || used > group)
                throw new IllegalArgumentException("cpu list piece '" + piece + "' in '" + text
                        + "': expected used/group with 0 < used <= group");
        }
        int dash = range.indexOf('-', 1);
        int lo = number(dash < 0 ? range : range.substring(0, dash), piece, text, lastCpu);
        int hi = dash < 0 ? lo : number(range.substring(dash + 1), piece, text, lastCpu);
        if (hi < lo)
            throw new IllegalArgumentException("cpu list piece '" + piece + "' in '" + text
                    + "': range ends before it starts");
        for (int c = lo; c <= hi; c++) if ((c - lo) % group < used) b.add(c);
    }

    private static int number(String s, String piece, String text, int lastCpu) {
        if (s.equals("N") && lastCpu >= 0) return lastCpu;
        try {
            int v = Integer.parseInt(s);
            if (v < 0) throw new NumberFormatException();
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("cpu list piece '" + piece + "' in '" + text
                    + "': '" + s + "' is not a CPU id; expected a list such as 0-7,128-135");
        }
    }

    // ---------------------------------------------------------------- identity

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet other && Arrays.equals(words, other.words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words);
    }

    /** Ascending lexicographic order of the CPU sequences (so {@code 0-1} before {@code 2}). */
    @Override
    public int compareTo(CpuSet other) {
        Iterator<Integer> a = iterator();
        Iterator<Integer> b = other.iterator();
        while (a.hasNext() && b.hasNext()) {
            int c = Integer.compare(a.next(), b.next());
            if (c != 0) return c;
        }
        return Boolean.compare(a.hasNext(), b.hasNext());
    }

    /** The list form, so messages print kernel notation. */
    @Override
    public String toString() {
        return toList();
    }

    // ---------------------------------------------------------------- prose

    /**
     * The glossary's word for the empty set where people read: tables, steps, messages, reports.
     * The kernel's own formats print the empty set as the empty string (FMT-1).
     */
    public static final String NONE = "none";

    /** The set as tables, steps, messages and reports write it: the list form, {@value #NONE} for the empty set. */
    public String toText() {
        return isEmpty() ? NONE : toList();
    }

    /**
     * A sequence of sets (one per queue, IRQ, group or hop) as tables, steps, messages and reports
     * write it: {@code [0-3 | 4-7 | none]}, the sets in order, each as {@link #toText()}; {@code []}
     * for no set. {@link #parseTexts(String)} reads it back.
     */
    public static String toText(List<CpuSet> sets) {
        StringBuilder sb = new StringBuilder("[");
        for (CpuSet s : sets) sb.append(sb.length() == 1 ? "" : " | ").append(s.toText());
        return sb.append(']').toString();
    }

    /**
     * Reads a set as {@link #toText()} writes it: {@value #NONE} (or the empty text) is the empty
     * set, anything else a CPU list in any dialect {@link #parseList(String)} reads.
     *
     * @throws IllegalArgumentException naming the offending piece
     */
    public static CpuSet parseText(String text) {
        return text.strip().equals(NONE) ? EMPTY : parseList(text);
    }

    /**
     * Reads a sequence of sets as {@link #toText(List)} writes it: {@code [0-3 | 4-7 | none]}.
     *
     * @throws IllegalArgumentException when the text is not in brackets or a set does not read
     */
    public static List<CpuSet> parseTexts(String text) {
        String t = text.strip();
        if (!t.startsWith("[") || !t.endsWith("]"))
            throw new IllegalArgumentException("CPU sets '" + text + "'; expected them in brackets, such as [0-3 | 4-7 | none]");
        String inner = t.substring(1, t.length() - 1).strip();
        List<CpuSet> out = new ArrayList<>();
        if (inner.isEmpty()) return List.of();
        for (String piece : inner.split("\\|", -1)) out.add(parseText(piece));
        return List.copyOf(out);
    }
}
