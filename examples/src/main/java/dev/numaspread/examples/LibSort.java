package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelRelease;

/**
 * The kernel's {@code sort()} (lib/sort.c), an in-place bottom-up heapsort that is not stable: the
 * order it leaves equal elements in is behaviour, because {@code group_cpus_evenly()} numbers its
 * groups in that order. Two variants:
 * <ul>
 *   <li>pre-2024 (6.1.192): one extraction per round, the sift-down path takes the left child
 *       when the children compare equal ({@code >= 0});</li>
 *   <li>2024 (6.12.117, spec/group-cpus.md GRP-10): 0e02ca29a563 "lib/sort: optimize heapsort with double-pop variation" extracts
 *       two elements per round, db946a422260 "lib/sort: optimize heapsort for equal elements in
 *       sift-down path" takes the right child on equality ({@code > 0}), and 41ed78043508 "lib/sort:
 *       optimize heapsort for handling final 2 or 3 elements" (6.11) settles the last two or three
 *       after the loop.</li>
 * </ul>
 * 6.9 and 6.10 ran a third variant (the last three popped one by one); this example claims neither.
 * Indexes here are element indexes; the kernel works in byte offsets, with the same arithmetic.
 */
final class LibSort {
    private LibSort() {}

    /**
     * The element type of the one caller: {@code struct node_groups} of lib/group_cpus.c, an
     * entry per node id; from 7.0 also an entry per cluster of one node, {@code id} then being
     * the cluster's number in the order the clusters were counted (GRP-15).
     */
    static final class NodeGroups {
        final int id;
        /** {@code ncpus} before the sort, {@code ngroups} after it (the kernel shares one unsigned field). */
        int count;

        NodeGroups(int id, int count) {
            this.id = id;
            this.count = count;
        }
    }

    /** {@code ncpus_cmp_func()}: the unsigned difference read as an int, so UINT_MAX sorts as -1. */
    static int ncpusCmp(NodeGroups l, NodeGroups r) {
        return l.count - r.count;
    }

    /** {@code sort(base, num, ..., ncpus_cmp_func, NULL)} as the release's lib/sort.c does it. */
    static void sort(KernelRelease kernel, NodeGroups[] base) {
        // The double pop reached mainline in 6.9, its final form in 6.11 (GRP-10); claimed: 6.1, 6.12, 7.3.
        if (kernel.atLeast(6, 9)) sort2024(base);
        else sortPre2024(base);
    }

    static void sortPre2024(NodeGroups[] base) {
        int n = base.length;
        int a = n / 2;
        if (a == 0) return;
        for (;;) {
            if (a > 0) {
                a--;                        // building the heap: sift element a down
            } else if (--n > 0) {
                swap(base, 0, n);           // sorting: the root goes to the end
            } else {
                break;
            }
            siftDown(base, a, n, true);
        }
    }

    static void sort2024(NodeGroups[] base) {
        int n = base.length;
        int a = n / 2;
        int shift = 0;
        if (a == 0) return;
        for (;;) {
            if (a > 0) {
                a -= 1 << shift;
            } else if (n > 3) {
                // Take the two largest: the root, then the larger of its children.
                n--;
                swap(base, 0, n);
                shift = ncpusCmp(base[1], base[2]) <= 0 ? 1 : 0;
                a = 1 << shift;
                n--;
                swap(base, a, n);
            } else {
                break;
            }
            siftDown(base, a, n, false);
        }
        n--;
        swap(base, 0, n);
        if (n == 2 && ncpusCmp(base[0], base[1]) > 0) swap(base, 0, 1);
    }

    /**
     * Bottom-up sift-down of element {@code a} in the heap {@code [0, n)}: follow the larger child to
     * a leaf, climb back to where {@code a} belongs, rotate it into place.
     */
    private static void siftDown(NodeGroups[] base, int a, int n, boolean leftOnTie) {
        int b = a;
        int c;
        int d;
        for (;;) {
            c = 2 * b + 1;
            d = c + 1;
            if (d >= n) break;
            int cmp = ncpusCmp(base[c], base[d]);
            b = (leftOnTie ? cmp >= 0 : cmp > 0) ? c : d;
        }
        if (d == n) b = c;               // the last leaf has no sibling
        while (b != a && ncpusCmp(base[a], base[b]) >= 0) b = (b - 1) / 2;
        c = b;
        while (b != a) {
            b = (b - 1) / 2;
            swap(base, b, c);
        }
    }

    private static void swap(NodeGroups[] base, int i, int j) {
        NodeGroups t = base[i];
        base[i] = base[j];
        base[j] = t;
    }
}
