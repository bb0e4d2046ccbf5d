package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.NumaMemId;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.pagepool.Place;
import dev.numaspread.model.pagepool.PoolState;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * A page pool written again, apart from the model, with switches for the known mistakes: the
 * page pool zoo. With no slip it is a second, independent implementation of today's kernel code
 * (the zoo test checks it passes every PP check, PP-13 included).
 */
final class SlippedPagePool implements PagePoolSession {

    enum Slip {
        /** M21 (d5394610b1ba): recycling keeps only pages of {@code p.nid}; a NUMA_NO_NODE pool keeps none. */
        RECYCLE_TESTS_NODE,
        /** M22 (→ 304db6cb7610): every allocation takes a ptr_ring page first, even while the alloc cache holds pages. */
        REFILL_WHILE_CACHE_HOLDS_PAGES,
        /** M23: page_pool_update_nid() sets the node and keeps the alloc cache. */
        UPDATE_KEEPS_CACHE,
        /** Slip: the poll sets p.nid itself instead of calling page_pool_update_nid(), so nothing is flushed. */
        POLL_SETS_NID_WITHOUT_UPDATE,
        /** Slip: the poll updates (and flushes) even when the node did not change. */
        UPDATE_ON_EVERY_POLL,
        /** Slip: a refill gives the foreign page back and goes on with the next one instead of stopping. */
        REFILL_SKIPS_FOREIGN_PAGE,
        /** Slip: a page recycled or freed into a full ptr_ring is dropped, neither kept nor given back. */
        PAGE_LOST_ON_FULL_RING,
        /** Slip: pfmemalloc pages are recycled like any other. */
        PFMEMALLOC_RECYCLED,
        /** Slip: the poll asks numa_mem_id() of the CPU the pool was created on, not of the poll's CPU. */
        POLL_USES_CREATION_CPU,
        /** Slip: the refill moves ptr_ring pages to the cache without looking at their node (the 2019 refill). */
        REFILL_WITHOUT_NUMA_TEST,
        /** Slip: numa_mem_id() takes the nearest node with memory even where the architecture lacks CONFIG_HAVE_MEMORYLESS_NODES. */
        NUMA_MEM_ID_IGNORES_ARCH,
        /** Slip: the slow path allocates on the NAPI CPU's node instead of p.nid. */
        SLOW_PATH_ON_NAPI_NODE
    }

    private final Set<Slip> slips;
    private final KernelRelease kernel;
    private final Topology machine;
    private final PagePool.Params params;
    private int nid;
    private int cpu;
    private final List<Page> cache = new ArrayList<>();
    private final Deque<Page> ring = new ArrayDeque<>();
    private final TreeMap<Integer, Page> inUse = new TreeMap<>();
    private final TreeMap<Integer, Page> released = new TreeMap<>();
    private int next;

    SlippedPagePool(KernelRelease kernel, Topology machine, PagePool.Params params, Slip... slips) {
        this.slips = slips.length == 0 ? EnumSet.noneOf(Slip.class) : EnumSet.of(slips[0], slips);
        this.kernel = kernel;
        this.machine = machine;
        this.params = params;
        this.nid = params.nid();
        this.cpu = params.cpu();
    }

    private boolean has(Slip s) {
        return slips.contains(s);
    }

    @Override
    public Answer apply(Action action) {
        Effect e;
        if (action instanceof Action.Poll p) e = poll(p.cpu());
        else if (action instanceof Action.Alloc a) e = alloc(a.reserve());
        else if (action instanceof Action.Recycle r) e = put(take(r.page()), r.shared(), true);
        else if (action instanceof Action.Free f) e = put(take(f.page()), f.shared(), false);
        else e = update(((Action.UpdateNid) action).nid());
        return new Answer(e, new PoolState(nid, cpu, cache, List.copyOf(ring), List.copyOf(inUse.values()), List.copyOf(released.values())));
    }

    private int memId(int onCpu) {
        return NumaMemId.numaMemId(machine, onCpu, params.haveMemorylessNodes() || has(Slip.NUMA_MEM_ID_IGNORES_ARCH));
    }

    private Effect poll(int newCpu) {
        cpu = newCpu;
        if (!params.tracksNapiNode()) return new Effect.Unchanged(nid);
        int want = memId(has(Slip.POLL_USES_CREATION_CPU) ? params.cpu() : newCpu);
        if (want == nid && !has(Slip.UPDATE_ON_EVERY_POLL)) return new Effect.Unchanged(nid);
        if (has(Slip.POLL_SETS_NID_WITHOUT_UPDATE)) {
            int old = nid;
            nid = want;
            return new Effect.Updated(old, want, List.of());
        }
        return update(want);
    }

    private Effect update(int newNid) {
        int old = nid;
        nid = newNid;
        List<Page> flushed = new ArrayList<>();
        if (!has(Slip.UPDATE_KEEPS_CACHE))
            while (!cache.isEmpty()) flushed.add(release(cache.remove(cache.size() - 1)));
        flushed.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return new Effect.Updated(old, newNid, flushed);
    }

    private Effect alloc(boolean reserve) {
        List<Page> waived = new ArrayList<>();
        if (has(Slip.REFILL_WHILE_CACHE_HOLDS_PAGES) && !cache.isEmpty() && !ring.isEmpty()) {
            Page p = ring.pollFirst();
            if (p.node() == pref()) return served(p, Place.PTR_RING, waived);
            waived.add(release(p));
        }
        if (!cache.isEmpty()) return served(cache.remove(cache.size() - 1), Place.CACHE, waived);
        if (!ring.isEmpty()) {
            int pref = pref();
            while (cache.size() < params.refill()) {
                Page p = ring.pollFirst();
                if (p == null) break;
                if (p.node() == pref || has(Slip.REFILL_WITHOUT_NUMA_TEST)) {
                    cache.add(p);
                } else {
                    waived.add(release(p));
                    if (!has(Slip.REFILL_SKIPS_FOREIGN_PAGE)) break;
                }
            }
            if (!cache.isEmpty()) return served(cache.remove(cache.size() - 1), Place.PTR_RING, waived);
        }
        int asked = nid == Numa.NUMA_NO_NODE || has(Slip.SLOW_PATH_ON_NAPI_NODE) ? memId(cpu) : nid;
        int node = NumaMemId.localMemoryNode(machine, asked);
        if (kernel.atLeast(5, 13)) {
            for (int i = 0; i < params.refill(); i++) cache.add(new Page(next++, node, reserve));
            return served(cache.remove(cache.size() - 1), Place.ALLOCATOR, waived);
        }
        return served(new Page(next++, node, reserve), Place.ALLOCATOR, waived);
    }

    private int pref() {
        return nid == Numa.NUMA_NO_NODE ? memId(cpu) : nid;
    }

    private Effect served(Page p, Place from, List<Page> waived) {
        inUse.put(p.id(), p);
        waived.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return new Effect.Served(p, from, waived);
    }

    private Effect put(Page p, boolean shared, boolean direct) {
        boolean keep = !shared && (!p.pfmemalloc() || has(Slip.PFMEMALLOC_RECYCLED));
        if (has(Slip.RECYCLE_TESTS_NODE) && p.node() != nid) keep = false;
        if (!keep) return new Effect.Put(release(p), Place.ALLOCATOR);
        if (direct && cache.size() < params.cacheSize()) {
            cache.add(p);
            return new Effect.Put(p, Place.CACHE);
        }
        if (ring.size() < params.poolSize()) {
            ring.addLast(p);
            return new Effect.Put(p, Place.PTR_RING);
        }
        if (has(Slip.PAGE_LOST_ON_FULL_RING)) return new Effect.Put(p, Place.ALLOCATOR);
        return new Effect.Put(release(p), Place.ALLOCATOR);
    }

    private Page take(int id) {
        Page p = inUse.remove(id);
        if (p == null) throw new IllegalArgumentException("page " + id + " is not in use");
        return p;
    }

    private Page release(Page p) {
        released.put(p.id(), p);
        return p;
    }
}
