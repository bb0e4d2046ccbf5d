package dev.numaspread.model.group;

import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The kernel's {@code sort()} ({@code lib/sort.c}): an in-place heapsort that is not stable, in
 * the two variants that decide the order of equal elements. {@code group_cpus_evenly} sorts its
 * nodes by CPU count with it, so for nodes of equal size this sort, not the node id, decides which
 * node gets group 0 (GRP-10).
 *
 * <p>Variants (sources: {@code lib/sort.c} as in {@code Rtoax/linux-5.10.13@4145aee3} for the old
 * one and {@code Kingxukai/linux@0291023e} for the new one; modelled in our own words):
 * <ul>
 *   <li>{@link Variant#BOTTOM_UP} (2019 to 6.8): build a max-heap, then repeatedly swap the root
 *       to the end and sift the new root down. Sift-down is "bottom-up": walk from the hole to a
 *       leaf always taking the larger child, <b>the left one on a tie</b>, then climb back up while
 *       the sifted element is {@code >=} the element on the path, then rotate it into place.</li>
 *   <li>{@link Variant#DOUBLE_POP} (6.9+): commits 0e02ca29a563 "lib/sort: optimize heapsort with
 *       double-pop variation" and db946a422260 "lib/sort: optimize heapsort for equal elements in
 *       sift-down path". The walk takes the left child only if it is strictly larger (<b>the right
 *       one on a tie</b>); each extraction step pops two elements: the root, then the larger of
 *       the root's two children (the right one unless the left is strictly larger), and sifts down
 *       first at that child's slot and then at the root. It stops at three elements, pops the last
 *       maximum, and orders the final two with one comparison.</li>
 * </ul>
 *
 * <p>Release boundary: both commits reached Linus' tree in the 6.9 merge window (the
 * torvalds/linux post-receive mail of 15 March 2024 lists them), so 6.9+ use the double-pop sort.
 * The kernel runs confirm both sides: 6.1.192 (pre-2024) and 6.12.117 (2024). Stable series
 * never took the change (the HDA fix 3b4309546b48 that it provoked was backported, the sort was not).
 *
 * <p>Tie order of m equal elements, indices 0..m-1 (derived by hand from both lib/sort.c; m = 2 and 4
 * confirmed by the kernel runs and, for 4, by the 2019 report):
 * <pre>
 *   m   BOTTOM_UP        DOUBLE_POP
 *   2   [1, 0]           [1, 0]
 *   3   [1, 2, 0]        [2, 1, 0]
 *   4   [1, 2, 3, 0]     [1, 3, 2, 0]
 * </pre>
 */
public final class KernelHeapsort {

    private KernelHeapsort() {}

    /** The two {@code lib/sort.c} heapsorts. */
    public enum Variant {
        /** Bottom-up heapsort, ties to the left child (5.3-era code up to 6.8). */
        BOTTOM_UP,
        /** Double-pop heapsort, ties to the right child (6.9+). */
        DOUBLE_POP
    }

    /** The heapsort of {@code kernel}: {@link Variant#DOUBLE_POP} from 6.9, {@link Variant#BOTTOM_UP} before. */
    public static Variant variantOf(KernelRelease kernel) {
        return kernel.atLeast(6, 9) ? Variant.DOUBLE_POP : Variant.BOTTOM_UP;
    }

    /**
     * A sorted copy of {@code items}, ascending by {@code cmp}, with equal elements in the order
     * the kernel's {@code sort()} of that variant leaves them.
     */
    public static <T> List<T> sorted(List<T> items, Comparator<? super T> cmp, Variant variant) {
        List<T> a = new ArrayList<>(items);
        if (variant == Variant.BOTTOM_UP) sortBottomUp(a, cmp);
        else sortDoublePop(a, cmp);
        return a;
    }

    static <T> void sortBottomUp(List<T> a, Comparator<? super T> cmp) {
        int end = a.size();            // the heap is a[0 .. end-1]; a[end ..] is sorted
        int start = a.size() / 2;      // next slot to heapify while building
        if (start == 0) return;        // fewer than two elements
        while (true) {
            if (start > 0) {
                start--;
            } else if (--end > 0) {
                Collections.swap(a, 0, end);
            } else {
                return;
            }
            siftDown(a, start, end, cmp, false);
        }
    }

    static <T> void sortDoublePop(List<T> a, Comparator<? super T> cmp) {
        int end = a.size();
        int start = a.size() / 2;
        if (start == 0) return;
        // While building, start steps back by one slot. After a double pop, start is 1 or 2 (the
        // child slot that received the second popped element's replacement) and the step back is
        // that same amount, so the next sift-down is at the root (kernel: a -= size << shift).
        int step = 1;
        while (true) {
            if (start > 0) {
                start -= step;
            } else if (end > 3) {
                end--;
                Collections.swap(a, 0, end);
                // The second largest is the larger child of the root; on a tie the right child.
                int child = cmp.compare(a.get(1), a.get(2)) <= 0 ? 2 : 1;
                step = child;
                start = child;
                end--;
                Collections.swap(a, child, end);
            } else {
                break;
            }
            siftDown(a, start, end, cmp, true);
        }
        end--;
        Collections.swap(a, 0, end);
        if (end == 2 && cmp.compare(a.get(0), a.get(1)) > 0) Collections.swap(a, 0, 1);
    }

    /**
     * Bottom-up sift-down of {@code a[hole]} inside the heap {@code a[0 .. end-1]}.
     * {@code rightOnTie} selects the 2024 child choice.
     */
    private static <T> void siftDown(List<T> a, int hole, int end, Comparator<? super T> cmp, boolean rightOnTie) {
        // 1. The leaf path: always the larger child.
        int b = hole;
        int left;
        while ((left = 2 * b + 1) + 1 < end) {
            int c = cmp.compare(a.get(left), a.get(left + 1));
            b = (rightOnTie ? c > 0 : c >= 0) ? left : left + 1;
        }
        if (left + 1 == end) b = left;   // a last leaf without a sibling
        // 2. Climb while the sifted element is not smaller than the path element (ties climb).
        while (b != hole && cmp.compare(a.get(hole), a.get(b)) >= 0) b = (b - 1) / 2;
        // 3. Rotate: the sifted element goes to b, the path elements above it move up one level.
        int target = b;
        while (b != hole) {
            b = (b - 1) / 2;
            Collections.swap(a, b, target);
        }
    }
}
