package dev.numaspread.model.group;

import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** GRP-10: the tie order of the two lib/sort.c heapsorts (derived by hand, the 2019 report, the kernel runs). */
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
        assertEquals(List.of(1, 0), tieOrder(2, KernelHeapsort.Variant.DOUBLE_POP));
        assertEquals(List.of(2, 1, 0), tieOrder(3, KernelHeapsort.Variant.DOUBLE_POP));
        assertEquals(List.of(1, 3, 2, 0), tieOrder(4, KernelHeapsort.Variant.DOUBLE_POP));
        assertEquals(List.of(1, 3, 4, 5, 6, 7, 2, 0), tieOrder(8, KernelHeapsort.Variant.DOUBLE_POP));
    }

    @Test
    void GRP_10_tiedChildrenAboveASmallerElement() {
        // Found by mutation testing (docs/mutation-testing.md): with every key equal the sifted
        // element climbs back to the top whichever child the leaf path took, so the child choice on
        // a tie (pre-2024 ">= 0" takes the left child, 0e02ca29a563 "> 0" the right)
        // was never pinned. Keys (1, 5, 5), ids (0, 1, 2), by hand:
        // bottom-up: sift 0 takes the left 5 -> [1, 0, 2]; pop 2 -> [2, 0 | 1]; pop -> [0 | 2, 1].
        // double pop: sift 0 takes the right 5 -> [2, 1, 0]; pop 0 -> [0, 1 | 2]; 1 <= 5, no swap.
        List<Item> items = List.of(new Item(0, 1), new Item(1, 5), new Item(2, 5));
        Comparator<Item> byKey = Comparator.comparingInt(Item::key);
        assertEquals(List.of(0, 2, 1),
                KernelHeapsort.sorted(items, byKey, KernelHeapsort.Variant.BOTTOM_UP).stream().map(Item::id).toList());
        assertEquals(List.of(0, 1, 2),
                KernelHeapsort.sorted(items, byKey, KernelHeapsort.Variant.DOUBLE_POP).stream().map(Item::id).toList());
    }

    @Test
    void GRP_10_releaseBoundaryIsSixNine() {
        assertEquals(KernelHeapsort.Variant.BOTTOM_UP, KernelHeapsort.variantOf(KernelRelease.of(6, 1)));
        assertEquals(KernelHeapsort.Variant.BOTTOM_UP, KernelHeapsort.variantOf(KernelRelease.of(6, 8)));
        assertEquals(KernelHeapsort.Variant.DOUBLE_POP, KernelHeapsort.variantOf(KernelRelease.of(6, 9)));
        assertEquals(KernelHeapsort.Variant.DOUBLE_POP, KernelHeapsort.variantOf(KernelRelease.of(6, 12)));
    }

    /** Both variants sort: keys come out ascending and nothing is lost, for many random inputs. */
    @Test
    void GRP_10_bothVariantsSortAscending() {
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
