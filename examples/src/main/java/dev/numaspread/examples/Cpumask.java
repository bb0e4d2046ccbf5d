package dev.numaspread.examples;

/**
 * Plain {@code long[]} bitmaps and the few {@code include/linux/cpumask.h} operations the example
 * needs. Bit {@code cpu} lives in word {@code cpu / 64}. Every search answers "none" with
 * {@code nrCpuIds}, as the kernel's {@code cpumask_first()} family answers {@code >= nr_cpu_ids}.
 */
final class Cpumask {
    private Cpumask() {}

    static long[] alloc(int nrCpuIds) {
        return new long[(nrCpuIds + 63) >>> 6];
    }

    static void set(long[] mask, int cpu) {
        mask[cpu >>> 6] |= 1L << cpu;
    }

    static void clear(long[] mask, int cpu) {
        mask[cpu >>> 6] &= ~(1L << cpu);
    }

    static boolean test(long[] mask, int cpu) {
        return cpu >= 0 && (cpu >>> 6) < mask.length && (mask[cpu >>> 6] & (1L << cpu)) != 0;
    }

    /** {@code cpumask_test_and_clear_cpu()}. */
    static boolean testAndClear(long[] mask, int cpu) {
        boolean was = test(mask, cpu);
        if (was) clear(mask, cpu);
        return was;
    }

    static int weight(long[] mask) {
        int w = 0;
        for (long word : mask) w += Long.bitCount(word);
        return w;
    }

    static int weightAnd(long[] a, long[] b) {
        int w = 0;
        for (int i = 0; i < a.length; i++) w += Long.bitCount(a[i] & b[i]);
        return w;
    }

    static boolean isEmpty(long[] mask) {
        for (long word : mask) if (word != 0) return false;
        return true;
    }

    static boolean intersects(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) if ((a[i] & b[i]) != 0) return true;
        return false;
    }

    /** {@code cpumask_next(from - 1, mask)}: the lowest set bit {@code >= from}, or {@code nrCpuIds}. */
    static int nextFrom(long[] mask, int from, int nrCpuIds) {
        if (from < 0) from = 0;
        for (int w = from >>> 6; w < mask.length; w++) {
            long word = mask[w];
            if (w == from >>> 6) word &= -1L << from;
            if (word != 0) {
                int cpu = (w << 6) + Long.numberOfTrailingZeros(word);
                return Math.min(cpu, nrCpuIds);
            }
        }
        return nrCpuIds;
    }

    static int first(long[] mask, int nrCpuIds) {
        return nextFrom(mask, 0, nrCpuIds);
    }

    /** {@code cpumask_first_and()}; {@code cpumask_any_and()} is the same in practice. */
    static int firstAnd(long[] a, long[] b, int nrCpuIds) {
        for (int w = 0; w < a.length; w++) {
            long word = a[w] & b[w];
            if (word != 0) return Math.min((w << 6) + Long.numberOfTrailingZeros(word), nrCpuIds);
        }
        return nrCpuIds;
    }

    /** {@code cpumask_nth_and(n, a, b)}: the n-th (0-based) set bit of {@code a & b}, or {@code nrCpuIds}. */
    static int nthAnd(int n, long[] a, long[] b, int nrCpuIds) {
        return nthAndAndnot(n, a, b, null, nrCpuIds);
    }

    /** {@code cpumask_nth_and_andnot(n, a, b, c)}: the n-th set bit of {@code a & b & ~c}. */
    static int nthAndAndnot(int n, long[] a, long[] b, long[] c, int nrCpuIds) {
        if (n < 0) return nrCpuIds;
        for (int w = 0; w < a.length; w++) {
            long word = a[w] & b[w] & (c == null ? -1L : ~c[w]);
            int bits = Long.bitCount(word);
            if (n >= bits) {
                n -= bits;
                continue;
            }
            while (n-- > 0) word &= word - 1;     // drop the n lowest bits
            return Math.min((w << 6) + Long.numberOfTrailingZeros(word), nrCpuIds);
        }
        return nrCpuIds;
    }

    static long[] copy(long[] mask) {
        return mask.clone();
    }

    static long[] and(long[] a, long[] b) {
        long[] r = new long[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i] & b[i];
        return r;
    }

    static long[] andNot(long[] a, long[] b) {
        long[] r = new long[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i] & ~b[i];
        return r;
    }

    static void orInto(long[] dst, long[] src) {
        for (int i = 0; i < dst.length; i++) dst[i] |= src[i];
    }
}
