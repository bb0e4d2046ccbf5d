package dev.numaspread.model.group;

import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The kernel's {@code sort()} ({@code lib/sort.c}): an in-place heapsort that is not stable, in
 * the three variants that decide the order of equal elements. {@code group_cpus_evenly} sorts its
 * nodes (and from 7.0 a node's clusters) by CPU count with it, so for nodes of equal size this
 * sort, not the node id, decides which node gets group 0 (GRP-10, GRP-15).
 *
 * <p>Variants, each from its own commits (read in {@code lib/sort.c} and in the patch mails;
 * modelled in our own words):
 * <ul>
 *   <li>{@link Variant#BOTTOM_UP} (to 6.8): build a max-heap, then repeatedly swap the root to the
 *       end and sift the new root down. Sift-down is "bottom-up": walk from the hole to a leaf
 *       always taking the larger child, <b>the left one on a tie</b>, then climb back up while the
 *       sifted element is {@code >=} the element on the path, then rotate it into place
 *       ({@code lib/sort.c} of 6.1 and of {@code Rtoax/linux-5.10.13@4145aee3}).</li>
 *   <li>{@link Variant#DOUBLE_POP} (6.9, 6.10): commits db946a422260 "lib/sort: optimize heapsort
 *       for equal elements in sift-down path" (the walk takes the left child only if it is strictly
 *       larger: <b>the right one on a tie</b>) and 0e02ca29a563 "lib/sort: optimize heapsort with
 *       double-pop variation": while more than three elements are left, each round pops two, the
 *       root and then the larger of the root's children (the right one unless the left is strictly
 *       larger), and sifts down first at that child's slot and then at the root. With three or two
 *       left it goes back to one pop per round, each followed by a sift-down of the root, until one
 *       is left (the loop's {@code else if (n > size)} branch).</li>
 *   <li>{@link Variant#DOUBLE_POP_FINAL_2_OR_3} (6.11+): commit 41ed78043508 "lib/sort: optimize
 *       heapsort for handling final 2 or 3 elements" removed that branch: the loop stops at three
 *       or two elements, pops the root once more, and if two are then left puts them in order with
 *       one comparison, swapping them only when the first is strictly larger.</li>
 * </ul>
 *
 * <p>The two double-pop variants differ only for an odd count: with three left, 6.9/6.10 sift the
 * root between the last two pops, which moves the later of two equal elements first, while 6.11+
 * leaves two equal elements where they are.
 *
 * <p>Release boundaries: db946a422260 and 0e02ca29a563 reached Linus' tree in the 6.9 merge window
 * (Andrew Morton's "non-MM updates for 6.9-rc1" pull; the torvalds/linux push of 15 March 2024);
 * 41ed78043508 in the 6.11 merge window ("[GIT PULL] non-MM updates for 6.11-rc1", 21 July 2024,
 * based on 6.10-rc5: "lib/sort: Optimizations and cleanups"). Its diff removes exactly the
 * one-pop branch that the 0e02ca29a563 patch added, so 6.9 and 6.10 ran that branch. The kernel
 * runs confirm the outer variants: 6.1.192 (bottom-up) and 6.12.117 (final 2 or 3); no 6.9 or 6.10
 * kernel was booted. Stable series never took these changes.
 *
 * <p>Tie order of m equal elements, indices 0..m-1 (derived by hand from each lib/sort.c; m = 2 and
 * 4 confirmed by the kernel runs and, for 4, by the 2019 report; all of them printed by the three
 * lib/sort.c compiled outside the kernel, 6.10's rebuilt from 6.12's by reverting 41ed78043508):
 * <pre>
 *   m   BOTTOM_UP          DOUBLE_POP (6.9, 6.10)   DOUBLE_POP_FINAL_2_OR_3 (6.11+)
 *   2   [1, 0]             [1, 0]                   [1, 0]
 *   3   [1, 2, 0]          [1, 2, 0]                [2, 1, 0]
 *   4   [1, 2, 3, 0]       [1, 3, 2, 0]             [1, 3, 2, 0]
 *   5   [1, 2, 3, 4, 0]    [1, 3, 4, 2, 0]          [3, 1, 4, 2, 0]
 * </pre>
 */
public final class KernelHeapsort {

    private KernelHeapsort() {}

    /** The three {@code lib/sort.c} heapsorts. */
    public enum Variant {
        /** Bottom-up heapsort, one pop per round, ties to the left child (2019 code up to 6.8). */
        BOTTOM_UP,
        /** Two pops per round down to three elements, then one per round; ties to the right child (6.9, 6.10). */
        DOUBLE_POP,
        /** Two pops per round, the final two or three elements settled after the loop with one comparison (6.11+). */
        DOUBLE_POP_FINAL_2_OR_3
    }

    /**
     * The heapsort of {@code kernel}: {@link Variant#DOUBLE_POP_FINAL_2_OR_3} from 6.11 (41ed78043508),
     * {@link Variant#DOUBLE_POP} in 6.9 and 6.10 (0e02ca29a563, db946a422260), {@link Variant#BOTTOM_UP} before.
     */
    public static Variant variantOf(KernelRelease kernel) {
        if (kernel.atLeast(6, 11)) return Variant.DOUBLE_POP_FINAL_2_OR_3;
        if (kernel.atLeast(6, 9)) return Variant.DOUBLE_POP;
        return Variant.BOTTOM_UP;
    }

    /**
     * A sorted copy of {@code items}, ascending by {@code cmp}, with equal elements in the order
     * the kernel's {@code sort()} of that variant leaves them.
     */
    public static <T> List<T> sorted(List<T> items, Comparator<? super T> cmp, Variant variant) {
        List<T> a = new ArrayList<>(items);
        switch (variant) {
            case BOTTOM_UP -> sortBottomUp(a, cmp);
            case DOUBLE_POP -> sortDoublePop(a, cmp, false);
            case DOUBLE_POP_FINAL_2_OR_3 -> sortDoublePop(a, cmp, true);
        }
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

    /**
     * The double-pop heapsort: 6.9/6.10 ({@code finalTwoOrThree} false: one pop per round once three
     * or two are left) or 6.11+ (true: those are settled after the loop).
     */
    static <T> void sortDoublePop(List<T> a, Comparator<? super T> cmp, boolean finalTwoOrThree) {
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
            } else if (!finalTwoOrThree && end > 1) {
                // 6.9/6.10 (0e02ca29a563): the last three or two go one per round, each followed
                // by a sift-down of the root; start is 0 here, so the root is sifted.
                end--;
                Collections.swap(a, 0, end);
            } else {
                break;
            }
            siftDown(a, start, end, cmp, true);
        }
        if (!finalTwoOrThree) return;
        // 6.11+ (41ed78043508): one more pop; if two are left, one comparison orders them.
        end--;
        Collections.swap(a, 0, end);
        if (end == 2 && cmp.compare(a.get(0), a.get(1)) > 0) Collections.swap(a, 0, 1);
    }

    /**
     * Bottom-up sift-down of {@code a[hole]} inside the heap {@code a[0 .. end-1]}.
     * {@code rightOnTie} selects the child choice of db946a422260 (6.9+).
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
