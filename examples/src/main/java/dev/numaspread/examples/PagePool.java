package dev.numaspread.examples;

import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.Place;
import dev.numaspread.model.pagepool.PoolState;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code net/core/page_pool.c} as of 6.1 and 6.12, with mlx5e's poll hook (seed 001), written from
 * the kernel's documented behaviour in the shape of the C code: a {@code struct page} array, the
 * alloc cache as an array with a count, the ptr_ring as a fixed ring buffer with a producer and a
 * consumer index. The SPI's types are used only at the edge ({@link #apply}).
 */
final class PagePool implements PagePoolSession {

    /** struct page, as far as the pool looks at it. */
    private static final class StructPage {
        final int id;
        final int nid;            // page_to_nid()
        final boolean pfmemalloc; // page_is_pfmemalloc()

        StructPage(int id, int nid, boolean pfmemalloc) {
            this.id = id;
            this.nid = nid;
            this.pfmemalloc = pfmemalloc;
        }

        Page spi() {
            return new Page(id, nid, pfmemalloc);
        }
    }

    private final KernelView k;
    private final boolean[] nodeHasMemory;
    private final boolean haveMemorylessNodes;
    private final boolean bulkAlloc;          // 5.13+: alloc_pages_bulk_node() on the slow path
    private final boolean driverTracksNode;   // mlx5e_poll_rx_cq() calls page_pool_nid_changed()

    // struct page_pool
    private int pNid;
    private int napiCpu;
    private final StructPage[] allocCache;
    private int allocCount;
    private final int refill;
    private final StructPage[] ring;
    private int ringProducer, ringConsumer, ringCount;

    private final List<StructPage> inFlight = new ArrayList<>();   // handed to the driver
    private final List<StructPage> returned = new ArrayList<>();   // page_pool_return_page()
    private int nextPfn;

    PagePool(KernelView k, boolean[] nodeHasMemory, boolean haveMemorylessNodes, boolean bulkAlloc,
             dev.numaspread.model.pagepool.PagePool.Params params) {
        // Alike on purpose (duplicates, issue 26) with PagePool: the example implementation is a third party's and shares no code with the model.
        this.k = k;
        this.nodeHasMemory = nodeHasMemory;
        this.haveMemorylessNodes = haveMemorylessNodes;
        this.bulkAlloc = bulkAlloc;
        this.driverTracksNode = params.tracksNapiNode();
        this.pNid = params.nid();
        this.napiCpu = params.cpu();
        this.allocCache = new StructPage[params.cacheSize()];
        this.refill = params.refill();
        this.ring = new StructPage[params.poolSize()];
    }

    // ---------------------------------------------------------------- numa_mem_id()

    /** The first node with memory of node's zonelist (find_next_best_node's order). */
    private int localMemoryNode(int node) {
        if (nodeHasMemory[node]) return node;
        int best = node, bestVal = Integer.MAX_VALUE;
        for (int n = 0; n < k.nrNodeIds; n++) {
            if (!k.nodeExists[n] || n == node || !nodeHasMemory[n]) continue;
            int val = k.distance[node][n];
            if (n < node) val++;
            if (!Cpumask.isEmpty(k.nodePossible[n])) val++;
            if (val < bestVal) {
                bestVal = val;
                best = n;
            }
        }
        return best;
    }

    private int numaMemId(int cpu) {
        int node = k.cpuToNode[cpu];
        return haveMemorylessNodes ? localMemoryNode(node) : node;
    }

    // ---------------------------------------------------------------- the page allocator

    private StructPage allocPagesNode(int nid, boolean reserve) {
        if (nid == KernelView.NUMA_NO_NODE) nid = numaMemId(napiCpu);
        return new StructPage(nextPfn++, localMemoryNode(nid), reserve);
    }

    private void returnPage(StructPage p, List<StructPage> log) {
        returned.add(p);
        if (log != null) log.add(p);
    }

    // ---------------------------------------------------------------- page_pool.c

    private Effect pagePoolUpdateNid(int newNid) {
        int old = pNid;
        pNid = newNid;
        List<StructPage> flushed = new ArrayList<>();
        while (allocCount > 0) returnPage(allocCache[--allocCount], flushed);
        return new Effect.Updated(old, newNid, spi(flushed));
    }

    private Effect napiPoll(int cpu) {
        napiCpu = cpu;
        if (driverTracksNode) {
            int nid = numaMemId(cpu);
            if (pNid != nid) return pagePoolUpdateNid(nid);   // page_pool_nid_changed()
        }
        return new Effect.Unchanged(pNid);
    }

    private StructPage ptrRingConsume() {
        if (ringCount == 0) return null;
        StructPage p = ring[ringConsumer];
        ring[ringConsumer] = null;
        ringConsumer = (ringConsumer + 1) % ring.length;
        ringCount--;
        return p;
    }

    private boolean ptrRingProduce(StructPage p) {
        if (ringCount == ring.length) return false;
        ring[ringProducer] = p;
        ringProducer = (ringProducer + 1) % ring.length;
        ringCount++;
        return true;
    }

    private Effect pagePoolAllocPages(boolean reserve) {
        List<StructPage> waived = new ArrayList<>();
        StructPage page = null;
        Place from = Place.CACHE;
        if (allocCount > 0) {
            page = allocCache[--allocCount];
        } else if (ringCount > 0) {   // page_pool_refill_alloc_cache()
            from = Place.PTR_RING;
            int prefNid = pNid == KernelView.NUMA_NO_NODE ? numaMemId(napiCpu) : pNid;
            do {
                StructPage p = ptrRingConsume();
                if (p == null) break;
                if (p.nid == prefNid) {
                    allocCache[allocCount++] = p;
                } else {
                    returnPage(p, waived);
                    break;
                }
            } while (allocCount < refill);
            if (allocCount > 0) page = allocCache[--allocCount];
        }
        if (page == null) {   // __page_pool_alloc_pages_slow()
            from = Place.ALLOCATOR;
            if (bulkAlloc) {
                for (int i = 0; i < refill; i++) allocCache[allocCount++] = allocPagesNode(pNid, reserve);
                page = allocCache[--allocCount];
            } else {
                page = allocPagesNode(pNid, reserve);
            }
        }
        inFlight.add(page);
        return new Effect.Served(page.spi(), from, spi(waived));
    }

    private Effect pagePoolPutPage(int id, boolean shared, boolean allowDirect) {
        StructPage page = null;
        for (StructPage p : inFlight) if (p.id == id) page = p;
        if (page == null) throw new IllegalArgumentException("page " + id + " is not in flight");
        inFlight.remove(page);
        if (shared || page.pfmemalloc) {   // page_ref_count != 1, or page_is_pfmemalloc()
            returnPage(page, null);
            return new Effect.Put(page.spi(), Place.ALLOCATOR);
        }
        if (allowDirect && allocCount < allocCache.length) {
            allocCache[allocCount++] = page;
            return new Effect.Put(page.spi(), Place.CACHE);
        }
        if (ptrRingProduce(page)) return new Effect.Put(page.spi(), Place.PTR_RING);
        returnPage(page, null);
        return new Effect.Put(page.spi(), Place.ALLOCATOR);
    }

    // ---------------------------------------------------------------- the SPI

    @Override
    public Answer apply(Action action) {
        Effect e;
        if (action instanceof Action.Poll p) e = napiPoll(p.cpu());
        else if (action instanceof Action.Alloc a) e = pagePoolAllocPages(a.reserve());
        else if (action instanceof Action.Recycle r) e = pagePoolPutPage(r.page(), r.shared(), true);
        else if (action instanceof Action.Free f) e = pagePoolPutPage(f.page(), f.shared(), false);
        else if (action instanceof Action.UpdateNid u) e = pagePoolUpdateNid(u.nid());
        else throw new IllegalArgumentException("unknown action " + action.text());
        List<StructPage> cache = new ArrayList<>();
        for (int i = 0; i < allocCount; i++) cache.add(allocCache[i]);
        List<StructPage> queued = new ArrayList<>();
        for (int i = 0; i < ringCount; i++) queued.add(ring[(ringConsumer + i) % ring.length]);
        return new Answer(e, new PoolState(pNid, napiCpu, cache.stream().map(StructPage::spi).toList(),
                queued.stream().map(StructPage::spi).toList(), spi(inFlight), spi(returned)));
    }

    /** Pages for the SPI, ascending id. */
    private static List<Page> spi(List<StructPage> pages) {
        return pages.stream().map(StructPage::spi).sorted((a, b) -> Integer.compare(a.id(), b.id())).toList();
    }
}
