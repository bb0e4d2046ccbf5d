package dev.numaspread.model.group;

import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * GRP-10: the tie order of the three lib/sort.c heapsorts (derived by hand, the 2019 report, the
 * kernel runs; the orders below were also printed by each release's lib/sort.c compiled outside the
 * kernel: 6.1, 6.12, and 6.10's rebuilt from 6.12's by reverting 41ed78043508).
 */
class KernelHeapsortTest {

    record Item(int id, int key) {}

    static List<Integer> tieOrder(int m, KernelHeapsort.Variant v) {
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < m; i++) items.add(new Item(i, 4));
        return KernelHeapsort.sorted(items, Comparator.comparingInt(Item::key), v).stream().map(Item::id).toList();
    }

    @Test
    void GRP_10_bottomUpTieOrder() {
        assertEquals(List.of(0), tieOrder(1, KernelHeapsort.Variant.BOTTOM_UP));
        assertEquals(List.of(1, 0), tieOrder(2, KernelHeapsort.Variant.BOTTOM_UP));
        assertEquals(List.of(1, 2, 0), tieOrder(3, KernelHeapsort.Variant.BOTTOM_UP));
        assertEquals(List.of(1, 2, 3, 0), tieOrder(4, KernelHeapsort.Variant.BOTTOM_UP));   // 2019 report
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 0), tieOrder(8, KernelHeapsort.Variant.BOTTOM_UP));
    }

    @Test
    void GRP_10_doublePopTieOrder() {
        // 6.9 and 6.10: with three or two left, one pop per round, each followed by a sift-down of
        // the root. Three equal, by hand: the heap stays [0, 1, 2]; pop 2 -> [2, 1 | 0]; the sift of
        // 2 within two climbs back (equal); pop -> [1 | 2, 0]. So [1, 2, 0], not 6.11's [2, 1, 0].
        assertEquals(List.of(1, 0), tieOrder(2, KernelHeapsort.Variant.DOUBLE_POP));
        assertEquals(List.of(1, 2, 0), tieOrder(3, KernelHeapsort.Variant.DOUBLE_POP));
        assertEquals(List.of(1, 3, 2, 0), tieOrder(4, KernelHeapsort.Variant.DOUBLE_POP));
        assertEquals(List.of(1, 3, 4, 2, 0), tieOrder(5, KernelHeapsort.Variant.DOUBLE_POP));
        assertEquals(List.of(1, 3, 4, 5, 6, 2, 0), tieOrder(7, KernelHeapsort.Variant.DOUBLE_POP));
        assertEquals(List.of(1, 3, 4, 5, 6, 7, 2, 0), tieOrder(8, KernelHeapsort.Variant.DOUBLE_POP));
    }

    @Test
    void GRP_10_doublePopFinalTwoOrThreeTieOrder() {
        // 6.11+ (41ed78043508): the last two or three are settled after the loop; two equal ones
        // are not swapped ("> 0"), so an odd count keeps the first two of 6.9/6.10 the other way round.
        assertEquals(List.of(1, 0), tieOrder(2, KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3));
        assertEquals(List.of(2, 1, 0), tieOrder(3, KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3));
        assertEquals(List.of(1, 3, 2, 0), tieOrder(4, KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3));
        assertEquals(List.of(3, 1, 4, 2, 0), tieOrder(5, KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3));
        assertEquals(List.of(3, 1, 4, 5, 6, 2, 0), tieOrder(7, KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3));
        assertEquals(List.of(1, 3, 4, 5, 6, 7, 2, 0), tieOrder(8, KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3));
    }

    @Test
    void GRP_10_doublePopVariantsDifferInTheLastTwoOnlyWhenTheyAreEqual() {
        // Keys (1, 2, 3): no ties, every variant gives ids 0, 1, 2. Keys (5, 5, 1): the last
        // comparison of 6.11 meets keys 1 and 5, not a tie, so both double-pop variants agree.
        Comparator<Item> byKey = Comparator.comparingInt(Item::key);
        List<Item> distinct = List.of(new Item(0, 1), new Item(1, 2), new Item(2, 3));
        for (KernelHeapsort.Variant v : KernelHeapsort.Variant.values())
            assertEquals(List.of(0, 1, 2), KernelHeapsort.sorted(distinct, byKey, v).stream().map(Item::id).toList(), v.name());
        // By hand: the heap is [0, 1, 2] (the sift of 0 takes the right 1 on a tie, 5 >= 1, and
        // 5 >= 5 climbs back). 6.9: pop -> [2, 1 | 0]; sift 2 (key 1) below 1 (key 5): [1, 2 | 0];
        // pop -> [2 | 1, 0]. 6.11: pop -> [2, 1 | 0]; key 1 > key 5? no -> [2, 1, 0].
        List<Item> tiedPair = List.of(new Item(0, 5), new Item(1, 5), new Item(2, 1));
        assertEquals(List.of(2, 1, 0),
                KernelHeapsort.sorted(tiedPair, byKey, KernelHeapsort.Variant.DOUBLE_POP).stream().map(Item::id).toList());
        assertEquals(List.of(2, 1, 0),
                KernelHeapsort.sorted(tiedPair, byKey, KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3).stream().map(Item::id).toList());
    }

    @Test
    void GRP_10_tiedChildrenAboveASmallerElement() {
        // Found by mutation testing (docs/mutation-testing.md): with every key equal the sifted
        // element climbs back to the top whichever child the leaf path took, so the child choice on
        // a tie (pre-2024 ">= 0" takes the left child, 0e02ca29a563 "> 0" the right)
        // was never pinned. Keys (1, 5, 5), ids (0, 1, 2), by hand:
        // bottom-up: sift 0 takes the left 5 -> [1, 0, 2]; pop 2 -> [2, 0 | 1]; pop -> [0 | 2, 1].
        // double pop: sift 0 takes the right 5 -> [2, 1, 0]; pop 0 -> [0, 1 | 2]; 6.11: 1 <= 5, no
        // swap; 6.9: the sift of 0 (key 1) within two rotates -> [1, 0 | 2], and the last pop -> [0, 1 | 2].
        List<Item> items = List.of(new Item(0, 1), new Item(1, 5), new Item(2, 5));
        Comparator<Item> byKey = Comparator.comparingInt(Item::key);
        assertEquals(List.of(0, 2, 1),
                KernelHeapsort.sorted(items, byKey, KernelHeapsort.Variant.BOTTOM_UP).stream().map(Item::id).toList());
        assertEquals(List.of(0, 1, 2),
                KernelHeapsort.sorted(items, byKey, KernelHeapsort.Variant.DOUBLE_POP).stream().map(Item::id).toList());
        assertEquals(List.of(0, 1, 2),
                KernelHeapsort.sorted(items, byKey, KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3).stream().map(Item::id).toList());
    }

    @Test
    void GRP_10_releaseBoundariesAreSixNineAndSixEleven() {
        assertEquals(KernelHeapsort.Variant.BOTTOM_UP, KernelHeapsort.variantOf(KernelRelease.of(6, 1)));
        assertEquals(KernelHeapsort.Variant.BOTTOM_UP, KernelHeapsort.variantOf(KernelRelease.of(6, 8)));
        assertEquals(KernelHeapsort.Variant.DOUBLE_POP, KernelHeapsort.variantOf(KernelRelease.of(6, 9)));
        assertEquals(KernelHeapsort.Variant.DOUBLE_POP, KernelHeapsort.variantOf(KernelRelease.of(6, 10)));
        assertEquals(KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3, KernelHeapsort.variantOf(KernelRelease.of(6, 11)));
        assertEquals(KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3, KernelHeapsort.variantOf(KernelRelease.of(6, 12)));
    }

    /** Every variant sorts: keys come out ascending and nothing is lost, for many random inputs. */
    @Test
    void GRP_10_everyVariantSortsAscending() {
        SplittableRandom random = new SplittableRandom(42);
        for (KernelHeapsort.Variant v : KernelHeapsort.Variant.values()) {
            for (int t = 0; t < 500; t++) {
                int n = random.nextInt(0, 20);
                List<Item> items = new ArrayList<>();
                for (int i = 0; i < n; i++) items.add(new Item(i, random.nextInt(0, 5)));
                List<Item> sorted = KernelHeapsort.sorted(items, Comparator.comparingInt(Item::key), v);
                List<Integer> keys = sorted.stream().map(Item::key).toList();
                List<Integer> want = items.stream().map(Item::key).sorted().toList();
                assertEquals(want, keys, v + " keys of " + items);
                assertEquals(n, sorted.stream().map(Item::id).distinct().count(), v + " ids of " + items);
            }
        }
    }
}
