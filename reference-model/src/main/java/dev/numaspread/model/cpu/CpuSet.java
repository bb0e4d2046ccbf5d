package dev.numaspread.model.cpu;

import dev.numaspread.model.input.InputText;
import dev.numaspread.model.input.Printable;

import java.util.ArrayList;
import java.util.Arrays;
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
 *
 * <p>Over 450 lines on purpose (issue 26): one value type and its operations, as the kernel's cpumask
 * API has them.
 */
public final class CpuSet implements Iterable<Integer>, Comparable<CpuSet> {

    /**
     * {@code NR_CPUS}: CPU ids are 0 to {@value} - 1. The largest {@code NR_CPUS} of the
     * architectures modelled, x86-64's with {@code MAXSMP} ({@code arch/x86/Kconfig});
     * every reader refuses a larger id at its token, so no set, no index and no loop grows past it
     * (spec/formats.md FMT-16).
     */
    public static final int NR_CPUS = 8192;

    private static final long[] NO_WORDS = new long[0];
    public static final CpuSet EMPTY = new CpuSet(0, NO_WORDS);

    /**
     * Bit {@code c % 64} of word {@code c / 64 - base} is CPU {@code c}; no leading or trailing zero
     * words, so a set is as long as its span (a core of CPUs 8190-8191 is one word, not 128), and
     * equal sets have equal fields.
     */
    private final int base;
    private final long[] words;

    private CpuSet(int base, long[] words) {
        int lo = 0, hi = words.length;
        while (hi > 0 && words[hi - 1] == 0) hi--;
        while (lo < hi && words[lo] == 0) lo++;
        this.base = lo == hi ? 0 : base + lo;
        this.words = lo == 0 && hi == words.length ? words : Arrays.copyOfRange(words, lo, hi);
    }

    /** The set of the given CPU ids. */
    public static CpuSet of(int... cpus) {
        Builder b = builder();
        for (int c : cpus) b.add(c);
        return b.build();
    }

    /**
     * The set {@code first..last}, both included; empty when {@code last < first}.
     *
     * @throws IllegalArgumentException when a CPU of the range is negative or not below {@link #NR_CPUS}
     */
    public static CpuSet range(int first, int last) {
        if (last < first) return EMPTY;
        checkId(first);
        checkId(last);
        return builder().addRange(first, last).build();
    }

    public static CpuSet ofStream(IntStream cpus) {
        Builder b = builder();
        cpus.forEach(b::add);
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    private static void checkId(int cpu) {
        if (cpu < 0) throw new IllegalArgumentException("cpu id " + cpu + " is negative");
        if (cpu >= NR_CPUS)
            throw new IllegalArgumentException("cpu id " + cpu + " is past NR_CPUS; expected CPU ids 0-" + (NR_CPUS - 1) + " (spec/formats.md FMT-16)");
    }

    /** A mutable accumulator for building one {@link CpuSet}; holds only the words between its lowest and highest CPU. */
    public static final class Builder {
        private int base;
        private long[] words = NO_WORDS;

        public Builder add(int cpu) {
            checkId(cpu);
            int w = cpu >>> 6;
            cover(w, w);
            words[w - base] |= 1L << (cpu & 63);
            return this;
        }

        /** Adds {@code first..last} a word at a time; both must be valid CPU ids. */
        Builder addRange(int first, int last) {
            int fw = first >>> 6, lw = last >>> 6;
            cover(fw, lw);
            for (int w = fw; w <= lw; w++) {
                long m = -1L;
                if (w == fw) m &= -1L << (first & 63);
                if (w == lw) m &= -1L >>> (63 - (last & 63));
                words[w - base] |= m;
            }
            return this;
        }

        /**
         * Adds the CPUs {@code c} of {@code first..last} with {@code (c - first) mod group < used}
         * (the kernel's {@code a-b:used/group}), a word at a time. Why a word costs O(1): the
         * pattern repeats every {@code group} bits, so for {@code group <= 64} the bits of any word
         * are a 64-bit window of the pattern written out twice ({@code pattern}, 128 bits) starting
         * at {@code (64w - first) mod group}; for a larger group a word meets at most two groups.
         */
        Builder addStrided(int first, int last, int used, int group) {
            if (used == group) return addRange(first, last);
            int fw = first >>> 6, lw = last >>> 6;
            cover(fw, lw);
            if (group <= 64) {
                long lo = 0, hi = 0;   // bits 0..127 of the pattern
                for (int k = 0; k < 128; k++)
                    if (k % group < used) { if (k < 64) lo |= 1L << k; else hi |= 1L << (k - 64); }
                for (int w = fw; w <= lw; w++) {
                    int offset = Math.floorMod(64 * w - first, group);
                    long m = offset == 0 ? lo : (lo >>> offset) | (hi << (64 - offset));
                    if (w == fw) m &= -1L << (first & 63);
                    if (w == lw) m &= -1L >>> (63 - (last & 63));
                    words[w - base] |= m;
                }
            } else {
                for (int start = first; start <= last; start += group) addRange(start, Math.min(last, start + used - 1));
            }
            return this;
        }

        public Builder addAll(CpuSet set) {
            if (set.words.length == 0) return this;
            cover(set.base, set.base + set.words.length - 1);
            for (int i = 0; i < set.words.length; i++) words[set.base + i - base] |= set.words[i];
            return this;
        }

        public Builder remove(int cpu) {
            int w = (cpu >>> 6) - base;
            if (cpu >= 0 && w >= 0 && w < words.length) words[w] &= ~(1L << (cpu & 63));
            return this;
        }

        public boolean contains(int cpu) {
            int w = (cpu >>> 6) - base;
            return cpu >= 0 && w >= 0 && w < words.length && (words[w] & (1L << (cpu & 63))) != 0;
        }

        public CpuSet build() {
            return new CpuSet(base, words.clone());
        }

        /** Makes words {@code lo..hi} (absolute indexes) part of the array, growing it at either end by doubling. */
        private void cover(int lo, int hi) {
            if (words.length == 0) {
                base = lo;
                words = new long[Math.max(2, hi - lo + 1)];
                return;
            }
            int end = base + words.length;
            if (lo >= base && hi < end) return;
            int newBase = lo >= base ? base : Math.max(0, Math.min(lo, end - 2 * words.length));
            int newEnd = hi < end ? end : Math.min(NR_CPUS / 64, Math.max(hi + 1, newBase + 2 * words.length));
            long[] grown = new long[newEnd - newBase];
            System.arraycopy(words, 0, grown, base - newBase, words.length);
            words = grown;
            base = newBase;
        }
    }

    // ---------------------------------------------------------------- queries

    /** Word {@code w} (absolute index), 0 outside the set's span. */
    private long word(int w) {
        int i = w - base;
        return i >= 0 && i < words.length ? words[i] : 0;
    }

    public boolean contains(int cpu) {
        return cpu >= 0 && (word(cpu >>> 6) & (1L << (cpu & 63))) != 0;
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
        return words.length == 0 ? -1 : base * 64 + Long.numberOfTrailingZeros(words[0]);
    }

    /** The highest CPU id, or -1 for the empty set. */
    public int last() {
        if (words.length == 0) return -1;
        int w = words.length - 1;
        return (base + w) * 64 + 63 - Long.numberOfLeadingZeros(words[w]);
    }

    /** The lowest CPU id {@code >= from} in the set, or -1 if there is none. */
    public int next(int from) {
        if (words.length == 0 || from >= (base + words.length) * 64) return -1;
        if (from < base * 64) return first();
        int w = (from >>> 6) - base;
        long word = words[w] & (-1L << (from & 63));
        while (true) {
            if (word != 0) return (base + w) * 64 + Long.numberOfTrailingZeros(word);
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
                return (base + w) * 64 + Long.numberOfTrailingZeros(word);
            }
            n -= count;
        }
        return -1;
    }

    public boolean isSubsetOf(CpuSet other) {
        for (int w = 0; w < words.length; w++)
            if ((words[w] & ~other.word(base + w)) != 0) return false;
        return true;
    }

    public boolean intersects(CpuSet other) {
        int lo = Math.max(base, other.base), hi = Math.min(base + words.length, other.base + other.words.length);
        for (int w = lo; w < hi; w++) if ((words[w - base] & other.words[w - other.base]) != 0) return true;
        return false;
    }

    // ---------------------------------------------------------------- algebra

    public CpuSet and(CpuSet other) {
        int lo = Math.max(base, other.base), hi = Math.min(base + words.length, other.base + other.words.length);
        if (hi <= lo) return EMPTY;
        long[] r = new long[hi - lo];
        for (int w = lo; w < hi; w++) r[w - lo] = words[w - base] & other.words[w - other.base];
        return new CpuSet(lo, r);
    }

    public CpuSet or(CpuSet other) {
        if (other.words.length == 0) return this;
        if (words.length == 0) return other;
        int lo = Math.min(base, other.base), hi = Math.max(base + words.length, other.base + other.words.length);
        long[] r = new long[hi - lo];
        System.arraycopy(words, 0, r, base - lo, words.length);
        for (int i = 0; i < other.words.length; i++) r[other.base + i - lo] |= other.words[i];
        return new CpuSet(lo, r);
    }

    public CpuSet andNot(CpuSet other) {
        if (!intersects(other)) return this;
        long[] r = words.clone();
        for (int i = 0; i < r.length; i++) r[i] &= ~other.word(base + i);
        return new CpuSet(base, r);
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
            for (long word = words[w]; word != 0; word &= word - 1) out[k++] = (base + w) * 64 + Long.numberOfTrailingZeros(word);
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
        if (nrCpuIds > NR_CPUS) throw new IllegalArgumentException("nr_cpu_ids " + nrCpuIds + " is past NR_CPUS " + NR_CPUS);
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
        long w = word(g >>> 1);
        return (g & 1) == 0 ? w & 0xffffffffL : w >>> 32;
    }

    /**
     * Reads a hex mask as {@code smp_affinity} prints it or as a user writes it: comma-separated
     * 32-bit groups, most significant first, leading zeros optional, an optional {@code 0x}; at
     * most {@code NR_CPUS / 32} groups, ASCII hex digits only.
     *
     * @throws IllegalArgumentException naming the offending text
     */
    public static CpuSet parseMask(String text) {
        String t = text.strip();
        if (t.startsWith("0x") || t.startsWith("0X")) t = t.substring(2);
        if (t.isEmpty()) throw new IllegalArgumentException("empty hex mask; expected hex digits such as 0f");
        int groups = 1;
        for (int i = 0; i < t.length(); i++)
            if (t.charAt(i) == ',' && ++groups > NR_CPUS / 32)
                throw new IllegalArgumentException("hex mask " + Printable.quote(text) + " has more than " + NR_CPUS / 32
                        + " groups; expected at most " + NR_CPUS / 32 + " 32-bit groups (NR_CPUS " + NR_CPUS + ", spec/formats.md FMT-16)");
        String[] parts = t.split(",", -1);
        Builder b = builder();
        for (int k = 0; k < parts.length; k++) {
            String g = parts[k].strip();
            if (g.isEmpty() || g.length() > 8 || !g.chars().allMatch(CpuSet::isHexDigit))
                throw new IllegalArgumentException("hex mask group " + Printable.quote(g) + " in " + Printable.quote(text)
                        + "; expected 1 to 8 hex digits per comma-separated 32-bit group");
            long bits = Long.parseLong(g, 16);
            int base = 32 * (parts.length - 1 - k);
            for (int bit = 0; bit < 32; bit++) if ((bits & (1L << bit)) != 0) b.add(base + bit);
        }
        return b.build();
    }

    private static boolean isHexDigit(int ch) {
        return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
    }

    /**
     * Reads a CPU list in any dialect users have: {@code 0-7,128-135}; single ids; kernel group
     * syntax {@code a-b:used/group} ({@code 0-1023:2/256}); util-linux strides {@code a-b:s};
     * numactl's space-separated ids, {@code ", "} separators and a trailing {@code (count)}; an
     * empty text is the empty set. {@code N} (the last CPU) is accepted only through
     * {@link #parseList(String, int)}. Ids are ASCII digits below {@link #NR_CPUS}; a piece costs
     * at most one pass over {@code NR_CPUS / 64} words, whatever its range.
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
        int i = 0, n = t.length();
        while (i < n) {
            while (i < n && isSeparator(t.charAt(i))) i++;
            int start = i;
            while (i < n && !isSeparator(t.charAt(i))) i++;
            if (i > start) addListPiece(b, t.substring(start, i), text, lastCpu);
        }
        return b.build();
    }

    private static boolean isSeparator(char ch) {
        return ch == ',' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == 0x0b;
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
                throw new IllegalArgumentException("cpu list piece " + Printable.quote(piece) + " in " + Printable.quote(text)
                        + ": expected used/group with 0 < used <= group");
        }
        int dash = range.indexOf('-', 1);
        int lo = number(dash < 0 ? range : range.substring(0, dash), piece, text, lastCpu);
        int hi = dash < 0 ? lo : number(range.substring(dash + 1), piece, text, lastCpu);
        if (hi < lo)
            throw new IllegalArgumentException("cpu list piece " + Printable.quote(piece) + " in " + Printable.quote(text)
                    + ": range ends before it starts");
        b.addStrided(lo, hi, used, group);
    }

    /** A CPU id (or a stride count) of a piece: ASCII digits, below {@link #NR_CPUS}. */
    private static int number(String s, String piece, String text, int lastCpu) {
        if (s.equals("N") && lastCpu >= 0) return lastCpu;
        long v = InputText.decimalValue(s);
        if (v < 0)
            throw new IllegalArgumentException("cpu list piece " + Printable.quote(piece) + " in " + Printable.quote(text)
                    + ": " + Printable.quote(s) + " is not a CPU id; expected a list such as 0-7,128-135");
        if (v >= NR_CPUS)
            throw new IllegalArgumentException("cpu list piece " + Printable.quote(piece) + " in " + Printable.quote(text)
                    + ": " + Printable.cut(s) + " is past NR_CPUS; expected CPU ids 0-" + (NR_CPUS - 1) + " (spec/formats.md FMT-16)");
        return (int) v;
    }

    // ---------------------------------------------------------------- identity

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet other && base == other.base && Arrays.equals(words, other.words);
    }

    @Override
    public int hashCode() {
        return 31 * base + Arrays.hashCode(words);
    }

    /** Ascending lexicographic order of the CPU sequences (so {@code 0-1} before {@code 2}). */
    @Override
    public int compareTo(CpuSet other) {
        int a = first(), b = other.first();
        while (a >= 0 && b >= 0) {
            if (a != b) return Integer.compare(a, b);
            a = next(a + 1);
            b = other.next(b + 1);
        }
        return Boolean.compare(a >= 0, b >= 0);
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
