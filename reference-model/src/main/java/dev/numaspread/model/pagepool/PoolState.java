package dev.numaspread.model.pagepool;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What can be seen of a page pool between two actions (spec/page-pool.md). Immutable.
 *
 * @param nid       {@code pool->p.nid}: a node id, or NUMA_NO_NODE (-1)
 * @param cpu       the CPU the pool's NAPI runs on (where it was created, then where it was last polled)
 * @param cache     the alloc cache, bottom first: the last page is served next
 * @param ptrRing   the ptr_ring, oldest first: the first page is consumed next
 * @param inUse     the pages handed to the driver and not given back, ascending id
 * @param released  the pages given back to the page allocator, ascending id
 */
public record PoolState(int nid, int cpu, List<Page> cache, List<Page> ptrRing, List<Page> inUse, List<Page> released) {
    public PoolState {
        cache = List.copyOf(cache);
        ptrRing = List.copyOf(ptrRing);
        inUse = List.copyOf(inUse);
        released = List.copyOf(released);
    }

    /** The pages of {@code place}, in that place's order. */
    public List<Page> pagesIn(Place place) {
        return switch (place) {
            case CACHE -> cache;
            case PTR_RING -> ptrRing;
            case IN_USE -> inUse;
            case ALLOCATOR -> released;
        };
    }

    /** Every page the pool ever got, ascending id. */
    public List<Page> allPages() {
        List<Page> all = new ArrayList<>();
        for (Place p : Place.values()) all.addAll(pagesIn(p));
        all.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return all;
    }

    /**
     * One line: {@code nid 1 cpu 4 | alloc cache 5:1 6:1 | ptr_ring 2:0 | in use 7:1 | page allocator 0:0 1:0},
     * each page as {@code id:node}, with {@code !} after a pfmemalloc page.
     */
    public String text() {
        return "nid " + nid + " cpu " + cpu
                + " | alloc cache " + pagesText(cache) + " | ptr_ring " + pagesText(ptrRing)
                + " | in use " + pagesText(inUse) + " | page allocator " + pagesText(released);
    }

    /** Pages as {@code 5:1 6:1 4:0!}; {@code -} for none. */
    public static String pagesText(List<Page> pages) {
        if (pages.isEmpty()) return "-";
        return pages.stream().map(p -> p.id() + ":" + p.node() + (p.pfmemalloc() ? "!" : "")).collect(Collectors.joining(" "));
    }
}
