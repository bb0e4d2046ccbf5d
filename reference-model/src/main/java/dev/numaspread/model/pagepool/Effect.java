package dev.numaspread.model.pagepool;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What a page pool did for one {@link Action}: the part of a step a driver sees directly. The pool's
 * state after the step is a {@link PoolState}.
 */
public sealed interface Effect permits Effect.Served, Effect.Put, Effect.Updated, Effect.Unchanged {

    /** The effect in words: {@code served page 3 (node 1) from the ptr_ring; released page 2 (node 0)}. */
    String text();

    /**
     * The pages this step gave back to the page allocator, ascending id: a page waived by a
     * refill, the alloc cache flushed by an update, a page that could not be recycled.
     */
    List<Page> released();

    /**
     * An allocation handed {@code page} to the driver, taken from {@code from}: the alloc cache, the
     * ptr_ring (through a refill), or the page allocator (the slow path).
     */
    record Served(Page page, Place from, List<Page> released) implements Effect {
        public Served {
            if (from == Place.IN_USE) throw new IllegalArgumentException("served " + page.text() + " from in use; expected the alloc cache, the ptr_ring or the page allocator");
            released = List.copyOf(released);
        }
        @Override public String text() {
            return "served " + page.text() + " from " + from.text() + releasedText(released);
        }
    }

    /** A recycle or free put {@code page} into {@code to}: the alloc cache, the ptr_ring, or back to the page allocator. */
    record Put(Page page, Place to) implements Effect {
        public Put {
            if (to == Place.IN_USE) throw new IllegalArgumentException("put " + page.text() + " in use; expected the alloc cache, the ptr_ring or the page allocator");
        }
        @Override public List<Page> released() {
            return to == Place.ALLOCATOR ? List.of(page) : List.of();
        }
        @Override public String text() {
            return to == Place.ALLOCATOR ? "released " + page.text() + " to the page allocator"
                    : "put " + page.text() + " in " + to.text();
        }
    }

    /** {@code page_pool_update_nid()} ran: the pool's node went from {@code from} to {@code to}. */
    record Updated(int from, int to, List<Page> released) implements Effect {
        public Updated {
            released = List.copyOf(released);
        }
        @Override public String text() {
            return "updated the node from " + from + " to " + to + releasedText(released);
        }
    }

    /** A poll left the pool as it was: its node already was {@code nid}, or the driver does not track its NAPI's node. */
    record Unchanged(int nid) implements Effect {
        @Override public List<Page> released() { return List.of(); }
        @Override public String text() { return "node " + nid + " unchanged"; }
    }

    private static String releasedText(List<Page> released) {
        if (released.isEmpty()) return "";
        return "; released " + released.stream().map(Page::text).collect(Collectors.joining(", "));
    }
}
