package dev.numaspread.model.pagepool;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A page pool ({@code net/core/page_pool.c}) and how it follows its NAPI's node (spec/page-pool.md
 * PP-*; seed 001 "net/mlx5e: Rx, Update page pool numa node when changed"). The pool is the state
 * and is mutable; one instance is one pool of one driver queue. Not thread-safe: the kernel
 * guarantees that the alloc side runs in one NAPI at a time, and so does every caller here.
 *
 * <p>Entry points: {@link #create} ({@code page_pool_create}), {@link #apply} for one
 * {@link Action}, {@link #replay} for a whole script; {@link #state()} between actions. The
 * package-private methods below follow the kernel's call order: poll, nid changed, update nid,
 * alloc, refill, slow path, put (recycle and free).
 *
 * <p>Releases: the NUMA handling of every modelled release from 5.6 on is the code of commit
 * 44768decb7c0 "page_pool: handle page recycle for NUMA_NO_NODE condition" with 304db6cb7610
 * "page_pool: refill page when alloc.count of pool is zero" (5.6-rc2), unchanged since (read in
 * the 6.1-era, 6.12 and current mainline trees); one visible branch: bulk allocation on the slow
 * path from 5.13 (be5dba25b4b2 "net: page_pool: use alloc_pages_bulk in refill code path"). 5.5 is
 * not modelled: whether 44768decb7c0 reached 5.5 or only 5.6 is open. The 2019 series as first
 * merged (d5394610b1ba "page_pool: Don't recycle non-reusable pages") is {@link Variant#SERIES_2019}.
 *
 * <p>Sizes: the kernel's alloc cache holds {@code PP_ALLOC_CACHE_SIZE} (128) pages and a refill
 * moves at most {@code PP_ALLOC_CACHE_REFILL} (64); the ptr_ring holds {@code pool_size} (default
 * 1024). {@link Params} takes other sizes so that full caches and ptr_rings show within a few actions;
 * every rule holds for any sizes.
 */
public final class PagePool {

    /** {@code PP_ALLOC_CACHE_SIZE}. */
    public static final int PP_ALLOC_CACHE_SIZE = 128;
    /** {@code PP_ALLOC_CACHE_REFILL}. */
    public static final int PP_ALLOC_CACHE_REFILL = 64;
    /** The ptr_ring size {@code page_pool_init()} takes when the driver gives no {@code pool_size}. */
    public static final int DEFAULT_POOL_SIZE = 1024;
    /** The largest {@code pool_size}: {@code page_pool_init()} refuses a ptr_ring of more than 32768 with {@code -E2BIG}. */
    public static final int MAX_POOL_SIZE = 32768;

    /** The first release modelled: 44768decb7c0 and 304db6cb7610 are both in 5.6. */
    public static final KernelRelease SINCE = KernelRelease.of(5, 6);
    /** be5dba25b4b2: the slow path allocates a bulk of {@code PP_ALLOC_CACHE_REFILL} pages into the cache. */
    static final KernelRelease BULK_ALLOC = KernelRelease.of(5, 13);

    /** Which code runs. */
    public enum Variant {
        /** The code of every modelled release (5.6+): no NUMA test on recycling, a NUMA test at refill, update flushes. */
        CURRENT,
        /**
         * The 2019 series as merged for 5.5-rc1 (d5394610b1ba): a page is recycled only when it is on
         * {@code p.nid} and not pfmemalloc, so a NUMA_NO_NODE pool recycles nothing (M21);
         * {@code page_pool_update_nid()} only sets the node (M23); refill moves ptr_ring pages to the cache
         * without a NUMA test; the slow path allocates one page.
         */
        SERIES_2019
    }

    /**
     * How a driver creates its pool.
     *
     * @param nid                 {@code pp_params.nid}: a node, or NUMA_NO_NODE (-1)
     * @param cpu                 the CPU the pool's NAPI runs on until the first poll elsewhere
     * @param cacheSize           {@code PP_ALLOC_CACHE_SIZE}
     * @param refill              {@code PP_ALLOC_CACHE_REFILL}: at most this many pages per refill
     *                            and per bulk allocation; {@code 1 <= refill <= cacheSize}
     * @param poolSize            {@code pool_size}: the ptr_ring's capacity
     * @param tracksNapiNode      the driver calls {@code page_pool_nid_changed(pool, numa_mem_id())}
     *                            at every NAPI poll (mlx5e, seed 001); most drivers do not
     * @param haveMemorylessNodes the architecture has {@code CONFIG_HAVE_MEMORYLESS_NODES} (PP-11)
     */
    public record Params(int nid, int cpu, int cacheSize, int refill, int poolSize,
                         boolean tracksNapiNode, boolean haveMemorylessNodes) {
        public Params {
            if (nid < Numa.NUMA_NO_NODE) throw new IllegalArgumentException("page pool: nid " + nid + "; expected a node id or -1");
            if (cpu < 0) throw new IllegalArgumentException("page pool: cpu " + cpu + "; expected >= 0");
            if (cacheSize < 1) throw new IllegalArgumentException("page pool: alloc cache size " + cacheSize + "; expected >= 1");
            if (refill < 1 || refill > cacheSize)
                throw new IllegalArgumentException("page pool: refill " + refill + "; expected 1..cache size (" + cacheSize + ")");
            if (poolSize < 1) throw new IllegalArgumentException("page pool: pool_size " + poolSize + "; expected >= 1");
        }

        /** A pool on {@code nid} whose NAPI starts on {@code cpu}: kernel sizes, a driver that tracks its NAPI's node, no memory-less node support. */
        public static Params of(int nid, int cpu) {
            return new Params(nid, cpu, PP_ALLOC_CACHE_SIZE, PP_ALLOC_CACHE_REFILL, DEFAULT_POOL_SIZE, true, false);
        }

        public Params withSizes(int cache, int refillPages, int ptrRing) {
            return new Params(nid, cpu, cache, refillPages, ptrRing, tracksNapiNode, haveMemorylessNodes);
        }

        public Params withTracksNapiNode(boolean tracks) {
            return new Params(nid, cpu, cacheSize, refill, poolSize, tracks, haveMemorylessNodes);
        }

        public Params withHaveMemorylessNodes(boolean have) {
            return new Params(nid, cpu, cacheSize, refill, poolSize, tracksNapiNode, have);
        }

        /** The create line of an action script: {@code create nid 0 cpu 2 cache 4 refill 2 pool_size 4 untracked}. */
        public String text() {
            return "create nid " + nid + " cpu " + cpu + " cache " + cacheSize + " refill " + refill + " pool_size " + poolSize
                    + (tracksNapiNode ? "" : " untracked") + (haveMemorylessNodes ? " have-memoryless-nodes" : "");
        }
    }

    /** One action and what came of it. */
    public record Step(Action action, Effect effect, PoolState state) {}

    private final KernelRelease kernel;
    private final Topology machine;
    private final Params params;
    private final Variant variant;

    private int nid;                                     // pool->p.nid
    private int cpu;                                     // where the NAPI runs
    private final List<Page> cache = new ArrayList<>();  // pool->alloc.cache; top = last
    private final Deque<Page> ptrRing = new ArrayDeque<>(); // pool->ring; head consumed first
    private final Map<Integer, Page> inUse = new TreeMap<>();
    private final Map<Integer, Page> released = new TreeMap<>();
    private int nextPageId;

    private PagePool(KernelRelease kernel, Topology machine, Params params, Variant variant) {
        this.kernel = kernel;
        this.machine = machine;
        this.params = params;
        this.variant = variant;
        this.nid = params.nid();
        this.cpu = params.cpu();
    }

    /**
     * Returns a new, empty pool: {@code page_pool_create()} with {@code params} on {@code machine}
     * under release {@code kernel}.
     *
     * @throws IllegalArgumentException for a release before 5.6 or after the newest, a node the
     *                                  machine lacks, or a CPU that is not online
     */
    public static PagePool create(KernelRelease kernel, Topology machine, Params params) {
        return create(kernel, machine, params, Variant.CURRENT);
    }

    /** {@link #create(KernelRelease, Topology, Params)} running {@code variant}'s code. */
    public static PagePool create(KernelRelease kernel, Topology machine, Params params, Variant variant) {
        if (!kernel.between(SINCE, KernelRelease.NEWEST))
            throw new IllegalArgumentException("kernel " + kernel + ": page-pool is modelled for " + SINCE + ".." + KernelRelease.NEWEST
                    + " (44768decb7c0 and 304db6cb7610 are in 5.6)");
        requireNode(machine, params.nid(), "nid");
        requireOnline(machine, params.cpu(), "create");
        return new PagePool(kernel, machine, params, variant);
    }

    /**
     * Creates a pool and applies {@code actions} in order: the step of each.
     *
     * @throws IllegalArgumentException as {@link #create} and {@link #apply} do, naming the action's index
     */
    public static List<Step> replay(KernelRelease kernel, Topology machine, Params params, List<Action> actions) {
        PagePool pool = create(kernel, machine, params);
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < actions.size(); i++) {
            try {
                steps.add(pool.apply(actions.get(i)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("action " + (i + 1) + " '" + actions.get(i).text() + "': " + e.getMessage(), e);
            }
        }
        return steps;
    }

    /**
     * Applies one action and returns what the pool did and its state after it. The pool's
     * invariants (PP-6, PP-7) are checked after every action.
     *
     * @throws IllegalArgumentException for an action that is not possible here: a poll on a CPU
     *                                  that is not online, a recycle or free of a page that is not
     *                                  in use, an update to a node the machine lacks
     */
    public Step apply(Action action) {
        Effect effect;
        if (action instanceof Action.Poll p) {
            effect = poll(p.cpu());
        } else if (action instanceof Action.Alloc a) {
            effect = alloc(a.reserve());
        } else if (action instanceof Action.Recycle r) {
            effect = put(takeInUse(r.page(), "recycle"), r.shared(), true);
        } else if (action instanceof Action.Free f) {
            effect = put(takeInUse(f.page(), "free"), f.shared(), false);
        } else if (action instanceof Action.UpdateNid u) {
            requireNode(machine, u.nid(), "update-nid");
            effect = updateNid(u.nid());
        } else {
            throw new IllegalStateException("model invariant of Action broken: unknown action " + action);
        }
        checkInvariants(action);
        return new Step(action, effect, state());
    }

    /** The pool as it is now. */
    public PoolState state() {
        return new PoolState(nid, cpu, cache, List.copyOf(ptrRing), List.copyOf(inUse.values()), List.copyOf(released.values()));
    }

    public Params params() { return params; }
    public KernelRelease kernel() { return kernel; }
    public Topology machine() { return machine; }
    public Variant variant() { return variant; }

    // ---------------------------------------------------------------- the NAPI poll

    /**
     * A NAPI poll on {@code newCpu}. A tracking driver (mlx5e's {@code mlx5e_poll_rx_cq}, seed 001)
     * calls {@code page_pool_nid_changed(pool, numa_mem_id())} first (PP-1, PP-2).
     */
    Effect poll(int newCpu) {
        requireOnline(machine, newCpu, "poll");
        cpu = newCpu;
        if (!params.tracksNapiNode()) return new Effect.Unchanged(nid);
        return pagePoolNidChanged(NumaMemId.numaMemId(machine, cpu, params.haveMemorylessNodes()));
    }

    /** {@code page_pool_nid_changed()}: the update runs only when the node differs (PP-2). */
    private Effect pagePoolNidChanged(int newNid) {
        if (nid == newNid) return new Effect.Unchanged(nid);
        return updateNid(newNid);
    }

    /**
     * {@code page_pool_update_nid()}: sets the node, then gives every page of the alloc cache back
     * to the page allocator, top first, because only a refill checks the node (PP-3). The ptr_ring is
     * left alone: a refill filters it (PP-4, PP-5). {@link Variant#SERIES_2019} only set the node.
     */
    Effect updateNid(int newNid) {
        int old = nid;
        nid = newNid;
        List<Page> flushed = new ArrayList<>();
        if (variant == Variant.CURRENT) {
            while (!cache.isEmpty()) flushed.add(release(cache.remove(cache.size() - 1)));
        }
        return new Effect.Updated(old, newNid, sortedById(flushed));
    }

    // ---------------------------------------------------------------- allocation

    /**
     * {@code page_pool_alloc_pages()}: the top of the alloc cache; when the cache is empty, a
     * refill from the ptr_ring (PP-6); when that gives nothing, the page allocator (PP-12).
     */
    Effect alloc(boolean reserve) {
        if (!cache.isEmpty()) return serve(cache.remove(cache.size() - 1), Place.CACHE, List.of());
        List<Page> waived = new ArrayList<>();
        Page fromRing = variant == Variant.CURRENT ? refillAllocCache(waived) : refillWithoutNumaTest();
        if (fromRing != null) return serve(fromRing, Place.PTR_RING, waived);
        return serve(allocPagesSlow(reserve), Place.ALLOCATOR, waived);
    }

    /**
     * {@code page_pool_refill_alloc_cache()}: moves ptr_ring pages of the preferred node into the cache,
     * at most {@code refill} of them; the first page of another node goes back to the page
     * allocator ("waive") and ends the refill (PP-4, PP-5). Returns the cache's new top, or null.
     */
    private Page refillAllocCache(List<Page> waived) {
        if (ptrRing.isEmpty()) return null;
        int prefNid = preferredNid();
        do {
            Page p = ptrRing.pollFirst();
            if (p == null) break;
            if (p.node() == prefNid) {
                cache.add(p);
            } else {
                waived.add(release(p));
                break;
            }
        } while (cache.size() < params.refill());
        return cache.isEmpty() ? null : cache.remove(cache.size() - 1);
    }

    /**
     * The refill of {@link Variant#SERIES_2019}: one ptr_ring page to serve, then up to {@code refill}
     * more into the cache ({@code __ptr_ring_consume_batched}), whatever their node.
     */
    private Page refillWithoutNumaTest() {
        Page first = ptrRing.pollFirst();
        if (first == null) return null;
        while (cache.size() < params.refill() && !ptrRing.isEmpty()) cache.add(ptrRing.pollFirst());
        return first;
    }

    /** {@code pref_nid}: the pool's node, or for NUMA_NO_NODE the NAPI CPU's {@code numa_mem_id()}. */
    int preferredNid() {
        return nid == Numa.NUMA_NO_NODE ? NumaMemId.numaMemId(machine, cpu, params.haveMemorylessNodes()) : nid;
    }

    /**
     * {@code __page_pool_alloc_pages_slow()}: pages from the page allocator on {@code p.nid}
     * (NUMA_NO_NODE: the NAPI CPU's {@code numa_mem_id()}; a memory-less node falls back through its
     * zonelist, PP-12). From 5.13 a bulk of {@code refill} pages goes into the cache and its last one
     * is served; before, one page is served.
     */
    private Page allocPagesSlow(boolean reserve) {
        int asked = nid == Numa.NUMA_NO_NODE ? NumaMemId.numaMemId(machine, cpu, params.haveMemorylessNodes()) : nid;
        int node = NumaMemId.localMemoryNode(machine, asked);
        if (variant == Variant.CURRENT && kernel.atLeast(BULK_ALLOC)) {
            for (int i = 0; i < params.refill(); i++) cache.add(new Page(nextPageId++, node, reserve));
            return cache.remove(cache.size() - 1);
        }
        return new Page(nextPageId++, node, reserve);
    }

    private Effect serve(Page p, Place from, List<Page> waived) {
        inUse.put(p.id(), p);
        return new Effect.Served(p, from, sortedById(waived));
    }

    // ---------------------------------------------------------------- recycle and free

    /**
     * {@code page_pool_put_full_page(pool, page, allow_direct)}: a page that can be recycled goes to
     * the alloc cache when {@code direct} and there is room, else to the ptr_ring, else (ptr_ring full) back
     * to the page allocator; a page that cannot be recycled goes back at once (PP-7, PP-9). There is
     * no NUMA test here (PP-10), except in {@link Variant#SERIES_2019}.
     */
    Effect put(Page p, boolean shared, boolean direct) {
        if (!canBeRecycled(p, shared)) return new Effect.Put(release(p), Place.ALLOCATOR);
        if (direct && cache.size() < params.cacheSize()) {
            cache.add(p);
            return new Effect.Put(p, Place.CACHE);
        }
        if (ptrRing.size() < params.poolSize()) {
            ptrRing.addLast(p);
            return new Effect.Put(p, Place.PTR_RING);
        }
        return new Effect.Put(release(p), Place.ALLOCATOR);
    }

    /** {@code __page_pool_page_can_be_recycled()}: one reference and not pfmemalloc (SERIES_2019: and on {@code p.nid}). */
    private boolean canBeRecycled(Page p, boolean shared) {
        if (shared || p.pfmemalloc()) return false;
        return variant == Variant.CURRENT || p.node() == nid;
    }

    private Page takeInUse(int id, String what) {
        Page p = inUse.remove(id);
        if (p == null)
            throw new IllegalArgumentException(what + " page " + id + ": the page is " + whereIs(id) + "; expected a page in use");
        return p;
    }

    private String whereIs(int id) {
        if (id >= nextPageId) return "not allocated yet (pages 0.." + (nextPageId - 1) + " exist)";
        if (released.containsKey(id)) return "back with the allocator";
        for (Page p : cache) if (p.id() == id) return "in the alloc cache";
        return "in the ptr_ring";
    }

    private Page release(Page p) {
        released.put(p.id(), p);
        return p;
    }

    // ---------------------------------------------------------------- checks

    /**
     * The model's own invariants after every action: PP-7 (every page the pool got is in exactly
     * one place) and PP-6's bound (the cache never holds more than its size, the ptr_ring neither).
     */
    private void checkInvariants(Action after) {
        if (cache.size() > params.cacheSize() || ptrRing.size() > params.poolSize())
            throw new IllegalStateException("model invariant PP-6 broken after '" + after.text() + "': cache " + cache.size()
                    + "/" + params.cacheSize() + ", ptr_ring " + ptrRing.size() + "/" + params.poolSize());
        int[] seen = new int[nextPageId];
        for (Page p : cache) seen[p.id()]++;
        for (Page p : ptrRing) seen[p.id()]++;
        for (int id : inUse.keySet()) seen[id]++;
        for (int id : released.keySet()) seen[id]++;
        for (int id = 0; id < nextPageId; id++)
            if (seen[id] != 1)
                throw new IllegalStateException("model invariant PP-7 broken after '" + after.text() + "': page " + id
                        + " is in " + seen[id] + " places; expected exactly one");
    }

    private static List<Page> sortedById(List<Page> pages) {
        List<Page> s = new ArrayList<>(pages);
        s.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return s;
    }

    private static void requireNode(Topology machine, int node, String what) {
        if (node != Numa.NUMA_NO_NODE && !machine.hasNode(node))
            throw new IllegalArgumentException(what + ": node " + node + " is not a node of " + machine.name()
                    + "; expected one of its nodes or -1 (NUMA_NO_NODE)");
    }

    private static void requireOnline(Topology machine, int cpu, String what) {
        if (!machine.online().contains(cpu))
            throw new IllegalArgumentException(what + ": cpu " + cpu + " is not online on " + machine.name()
                    + " (online " + machine.online() + "); a NAPI runs on an online CPU");
    }
}
