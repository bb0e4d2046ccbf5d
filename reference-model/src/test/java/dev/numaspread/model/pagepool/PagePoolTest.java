package dev.numaspread.model.pagepool;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page pool model on hand-worked sequences (spec/page-pool.md). Sizes cache 4, refill 2, ring 4
 * unless a test says otherwise; every expected state below was worked out by hand from the kernel
 * code cited in {@link PagePool}.
 */
class PagePoolTest {

    static final KernelRelease K612 = KernelRelease.of(6, 12);
    /** Two nodes of four CPUs, both with memory: node 0 is near, node 1 far. */
    static final Topology TWO = TopologyBuilder.machine("2node-8cpu").node(0, "0-3").node(1, "4-7").build();

    static PagePool pool(int nid, int cpu) {
        return PagePool.create(K612, TWO, PagePool.Params.of(nid, cpu).withSizes(4, 2, 4));
    }

    static PagePool.Step run(PagePool p, String... lines) {
        PagePool.Step last = null;
        for (String l : lines) last = p.apply(Action.parse(l));
        return last;
    }

    static String state(PagePool p) {
        return p.state().text();
    }

    // ---------------------------------------------------------------- PP-12: the slow path

    @Test
    void PP_12_slowPathAllocatesABulkOnThePoolsNodeFrom513() {
        PagePool p = pool(1, 0);
        PagePool.Step s = run(p, "alloc");
        assertEquals(new Effect.Served(new Page(1, 1, false), Place.ALLOCATOR, List.of()), s.effect());
        assertEquals("nid 1 cpu 0 | alloc cache 0:1 | ptr_ring - | in use 1:1 | page allocator -", state(p));
    }

    @Test
    void PP_12_slowPathAllocatesOnePageBefore513() {
        PagePool p = PagePool.create(KernelRelease.of(5, 12), TWO, PagePool.Params.of(0, 0).withSizes(4, 2, 4));
        run(p, "alloc");
        assertEquals("nid 0 cpu 0 | alloc cache - | ptr_ring - | in use 0:0 | page allocator -", state(p));
    }

    @Test
    void PP_12_noNodePoolAllocatesOnTheNapiCpusNode() {
        PagePool p = PagePool.create(K612, TWO, PagePool.Params.of(-1, 5).withSizes(4, 2, 4).withTracksNapiNode(false));
        run(p, "alloc");
        assertEquals("nid -1 cpu 5 | alloc cache 0:1 | ptr_ring - | in use 1:1 | page allocator -", state(p));
    }

    @Test
    void PP_12_allocReserveGivesPfmemallocPages() {
        PagePool p = pool(0, 0);
        PagePool.Step s = run(p, "alloc reserve");
        assertEquals(new Page(1, 0, true), ((Effect.Served) s.effect()).page());
        assertEquals("nid 0 cpu 0 | alloc cache 0:0! | ptr_ring - | in use 1:0! | page allocator -", state(p));
    }

    // ---------------------------------------------------------------- PP-1, PP-2, PP-3: the poll

    @Test
    void PP_1_pollOnAFarCpuMovesThePoolAndPP_3_flushesTheCache() {
        PagePool p = pool(0, 0);
        run(p, "alloc");
        PagePool.Step s = run(p, "poll 4");
        assertEquals(new Effect.Updated(0, 1, List.of(new Page(0, 0, false))), s.effect());
        assertEquals("nid 1 cpu 4 | alloc cache - | ptr_ring - | in use 1:0 | page allocator 0:0", state(p));
        // The next allocation comes from the new node.
        s = run(p, "alloc");
        assertEquals(new Effect.Served(new Page(3, 1, false), Place.ALLOCATOR, List.of()), s.effect());
    }

    @Test
    void PP_2_pollOnTheSameNodeKeepsTheCache() {
        PagePool p = pool(0, 0);
        run(p, "alloc");
        PagePool.Step s = run(p, "poll 3");
        assertEquals(new Effect.Unchanged(0), s.effect());
        assertEquals("nid 0 cpu 3 | alloc cache 0:0 | ptr_ring - | in use 1:0 | page allocator -", state(p));
    }

    @Test
    void PP_1_untrackedDriverKeepsItsNode() {
        PagePool p = PagePool.create(K612, TWO, PagePool.Params.of(0, 0).withSizes(4, 2, 4).withTracksNapiNode(false));
        assertEquals(new Effect.Unchanged(0), run(p, "poll 4").effect());
        assertEquals(4, p.state().cpu());
    }

    @Test
    void PP_3_updateNidFlushesEvenToTheSameNode() {
        PagePool p = pool(0, 0);
        run(p, "alloc");
        assertEquals(new Effect.Updated(0, 0, List.of(new Page(0, 0, false))), run(p, "update-nid 0").effect());
    }

    @Test
    void PP_3_updateKeepsTheRing() {
        PagePool p = pool(0, 0);
        run(p, "alloc", "alloc", "free 1", "free 0", "alloc", "alloc", "alloc");
        // pages 0,1 went round the ring and back out; alloc 5 was slow: pages 2,3, served 3, cache [2]
        assertEquals("nid 0 cpu 0 | alloc cache 2:0 | ptr_ring - | in use 0:0 1:0 3:0 | page allocator -", state(p));
        run(p, "free 3", "update-nid 1");
        assertEquals("nid 1 cpu 0 | alloc cache - | ptr_ring 3:0 | in use 0:0 1:0 | page allocator 2:0", state(p));
    }

    // ---------------------------------------------------------------- PP-4, PP-5, PP-6: refill

    @Test
    void PP_6_refillMovesAtMostRefillPagesWhenTheCacheIsEmpty() {
        PagePool p = pool(0, 0);
        run(p, "alloc", "alloc", "free 1", "free 0");
        assertEquals("nid 0 cpu 0 | alloc cache - | ptr_ring 1:0 0:0 | in use - | page allocator -", state(p));
        PagePool.Step s = run(p, "alloc");
        // refill: page 1, then page 0 into the cache (2 = refill); the top, page 0, is served
        assertEquals(new Effect.Served(new Page(0, 0, false), Place.PTR_RING, List.of()), s.effect());
        assertEquals("nid 0 cpu 0 | alloc cache 1:0 | ptr_ring - | in use 0:0 | page allocator -", state(p));
    }

    @Test
    void PP_6_aRefillLeavesPagesBeyondTheRefillCountInTheRing() {
        PagePool p = pool(0, 0);
        run(p, "alloc", "alloc", "alloc", "free 1", "free 0", "free 3");
        assertEquals("nid 0 cpu 0 | alloc cache 2:0 | ptr_ring 1:0 0:0 3:0 | in use - | page allocator -", state(p));
        run(p, "alloc");   // from the cache: the ring is not read while the cache holds pages
        assertEquals("nid 0 cpu 0 | alloc cache - | ptr_ring 1:0 0:0 3:0 | in use 2:0 | page allocator -", state(p));
        run(p, "alloc");
        assertEquals("nid 0 cpu 0 | alloc cache 1:0 | ptr_ring 3:0 | in use 0:0 2:0 | page allocator -", state(p));
    }

    @Test
    void PP_5_refillStopsAtTheFirstForeignPage() {
        PagePool p = pool(0, 0);
        run(p, "alloc", "alloc", "free 1", "free 0", "poll 4");
        PagePool.Step s = run(p, "alloc");
        // page 1 (node 0) is waived, page 0 stays in the ring, the slow path gives pages 2, 3 on node 1
        assertEquals(new Effect.Served(new Page(3, 1, false), Place.ALLOCATOR, List.of(new Page(1, 0, false))), s.effect());
        assertEquals("nid 1 cpu 4 | alloc cache 2:1 | ptr_ring 0:0 | in use 3:1 | page allocator 1:0", state(p));
    }

    @Test
    void PP_4_refillAfterAMatchThenAForeignPageServesTheMatch() {
        PagePool p = pool(0, 0);
        run(p, "alloc", "alloc", "poll 4", "alloc", "free 3", "free 0");
        assertEquals("nid 1 cpu 4 | alloc cache 2:1 | ptr_ring 3:1 0:0 | in use 1:0 | page allocator -", state(p));
        run(p, "alloc");   // page 2 from the cache
        PagePool.Step s = run(p, "alloc");
        // page 3 (node 1) goes to the cache, page 0 (node 0) is waived and ends the refill; page 3 is served
        assertEquals(new Effect.Served(new Page(3, 1, false), Place.PTR_RING, List.of(new Page(0, 0, false))), s.effect());
        assertEquals("nid 1 cpu 4 | alloc cache - | ptr_ring - | in use 1:0 2:1 3:1 | page allocator 0:0", state(p));
    }

    @Test
    void PP_4_noNodePoolRefillsForTheNapiCpusNode() {
        PagePool p = PagePool.create(K612, TWO, PagePool.Params.of(-1, 0).withSizes(4, 2, 4).withTracksNapiNode(false));
        run(p, "alloc", "alloc", "free 1", "poll 4");
        PagePool.Step s = run(p, "alloc");
        assertEquals(new Effect.Served(new Page(3, 1, false), Place.ALLOCATOR, List.of(new Page(1, 0, false))), s.effect());
    }

    // ---------------------------------------------------------------- PP-7, PP-8, PP-9, PP-10: recycle and free

    @Test
    void PP_7_directRecycleGoesToTheCacheThenTheRingThenTheAllocator() {
        PagePool p = PagePool.create(K612, TWO, PagePool.Params.of(0, 0).withSizes(1, 1, 1));
        run(p, "alloc", "alloc", "alloc");
        assertEquals("nid 0 cpu 0 | alloc cache - | ptr_ring - | in use 0:0 1:0 2:0 | page allocator -", state(p));
        assertEquals(new Effect.Put(new Page(0, 0, false), Place.CACHE), run(p, "recycle 0").effect());
        assertEquals(new Effect.Put(new Page(1, 0, false), Place.PTR_RING), run(p, "recycle 1").effect());
        assertEquals(new Effect.Put(new Page(2, 0, false), Place.ALLOCATOR), run(p, "recycle 2").effect());
        assertEquals("nid 0 cpu 0 | alloc cache 0:0 | ptr_ring 1:0 | in use - | page allocator 2:0", state(p));
    }

    @Test
    void PP_7_freeGoesToTheRingNeverTheCache() {
        PagePool p = pool(0, 0);
        run(p, "alloc");
        assertEquals(new Effect.Put(new Page(1, 0, false), Place.PTR_RING), run(p, "free 1").effect());
    }

    @Test
    void PP_8_noNodePoolRecycles() {
        PagePool p = PagePool.create(K612, TWO, PagePool.Params.of(-1, 4).withSizes(4, 2, 4).withTracksNapiNode(false));
        run(p, "alloc");
        assertEquals(new Effect.Put(new Page(1, 1, false), Place.CACHE), run(p, "recycle 1").effect());
    }

    @Test
    void PP_8_series2019NoNodePoolRecyclesNothing() {
        PagePool p = PagePool.create(K612, TWO, PagePool.Params.of(-1, 4).withSizes(4, 2, 4).withTracksNapiNode(false),
                PagePool.Variant.SERIES_2019);
        run(p, "alloc");
        assertEquals("nid -1 cpu 4 | alloc cache - | ptr_ring - | in use 0:1 | page allocator -", state(p));
        assertEquals(new Effect.Put(new Page(0, 1, false), Place.ALLOCATOR), run(p, "recycle 0").effect());
    }

    @Test
    void PP_9_pfmemallocAndSharedPagesGoBackToTheAllocator() {
        PagePool p = pool(0, 0);
        run(p, "alloc reserve", "alloc reserve", "alloc");
        assertEquals(new Effect.Put(new Page(1, 0, true), Place.ALLOCATOR), run(p, "recycle 1").effect());
        assertEquals(new Effect.Put(new Page(0, 0, true), Place.ALLOCATOR), run(p, "free 0").effect());
        assertEquals(new Effect.Put(new Page(3, 0, false), Place.ALLOCATOR), run(p, "recycle 3 shared").effect());
        assertEquals("nid 0 cpu 0 | alloc cache 2:0 | ptr_ring - | in use - | page allocator 0:0! 1:0! 3:0", state(p));
    }

    @Test
    void PP_10_aForeignPageIsRecycledIntoTheCache() {
        PagePool p = pool(0, 0);
        run(p, "alloc", "poll 4");
        assertEquals(new Effect.Put(new Page(1, 0, false), Place.CACHE), run(p, "recycle 1").effect());
        // ... and served next: PP-3 does not cover pages recycled after the update
        assertEquals(new Effect.Served(new Page(1, 0, false), Place.CACHE, List.of()), run(p, "alloc").effect());
    }

    @Test
    void PP_3_series2019UpdateKeepsTheStaleCache() {
        PagePool p = PagePool.create(K612, TWO, PagePool.Params.of(0, 0).withSizes(4, 2, 4), PagePool.Variant.SERIES_2019);
        run(p, "alloc", "alloc");
        run(p, "recycle 0", "poll 4");
        // one page per slow allocation; the update leaves page 0 (node 0) in the cache
        assertEquals("nid 1 cpu 4 | alloc cache 0:0 | ptr_ring - | in use 1:0 | page allocator -", state(p));
        // the 2019 recycle test: page 1 is not on the new node 1, so it goes back to the allocator
        assertEquals(new Effect.Put(new Page(1, 0, false), Place.ALLOCATOR), run(p, "recycle 1").effect());
        PagePool q = PagePool.create(K612, TWO, PagePool.Params.of(0, 0).withSizes(4, 2, 4), PagePool.Variant.SERIES_2019);
        run(q, "alloc", "alloc", "recycle 0", "recycle 1", "poll 4");
        assertEquals("nid 1 cpu 4 | alloc cache 0:0 1:0 | ptr_ring - | in use - | page allocator -", state(q));
        assertEquals(new Effect.Served(new Page(1, 0, false), Place.CACHE, List.of()), run(q, "alloc").effect());
    }

    // ---------------------------------------------------------------- memory-less nodes (PP-11, PP-12)

    /** Node 1 has CPUs 4-7 and no memory. */
    static final Topology MEMLESS = TopologyBuilder.machine("memless").node(0, "0-3").memorylessNode(1, "4-7")
            .distances(new int[]{10, 16}, new int[]{16, 10}).build();

    @Test
    void PP_11_memorylessNodeWithoutArchSupportKeepsItsOwnNode() {
        PagePool p = PagePool.create(K612, MEMLESS, PagePool.Params.of(0, 0).withSizes(4, 2, 4));
        run(p, "poll 4", "alloc", "free 1");
        // p.nid is the memory-less node 1; its pages come from node 0 through the zonelist (PP-12)
        assertEquals("nid 1 cpu 4 | alloc cache 0:0 | ptr_ring 1:0 | in use - | page allocator -", state(p));
        run(p, "alloc", "alloc");
        // the cache page first, then a refill that waives page 1: node 0 is never the preferred node 1
        assertEquals("nid 1 cpu 4 | alloc cache 2:0 | ptr_ring - | in use 0:0 3:0 | page allocator 1:0", state(p));
    }

    @Test
    void PP_11_memorylessNodeWithArchSupportUsesTheNearestNodeWithMemory() {
        PagePool p = PagePool.create(K612, MEMLESS, PagePool.Params.of(0, 0).withSizes(4, 2, 4).withHaveMemorylessNodes(true));
        assertEquals(new Effect.Unchanged(0), run(p, "poll 4").effect());
        run(p, "alloc", "free 1", "alloc", "alloc");
        assertEquals("nid 0 cpu 4 | alloc cache - | ptr_ring - | in use 0:0 1:0 | page allocator -", state(p));
    }

    @Test
    void rejectsActionsThatCannotHappen() {
        PagePool p = pool(0, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(p, "recycle 0"));
        assertEquals("recycle page 0: the page is not allocated yet (pages 0..-1 exist); expected a page in use", e.getMessage());
        run(p, "alloc");
        e = assertThrows(IllegalArgumentException.class, () -> run(p, "free 0"));
        assertEquals("free page 0: the page is in the alloc cache; expected a page in use", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> run(p, "update-nid 7"));
        assertTrue(e.getMessage().startsWith("update-nid: node 7 is not a node of 2node-8cpu"), e.getMessage());
        Topology offline = TWO.withOnline(dev.numaspread.model.cpu.CpuSet.parseList("0-6"));
        PagePool q = PagePool.create(K612, offline, PagePool.Params.of(0, 0));
        e = assertThrows(IllegalArgumentException.class, () -> run(q, "poll 7"));
        assertTrue(e.getMessage().startsWith("poll: cpu 7 is not online"), e.getMessage());
    }

    @Test
    void releasesBefore56AreNotModelled() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PagePool.create(KernelRelease.of(5, 5), TWO, PagePool.Params.of(0, 0)));
        assertTrue(e.getMessage().startsWith("kernel 5.5: page-pool is modelled for 5.6.."), e.getMessage());
    }

    @Test
    void replayNamesTheFailingAction() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PagePool.replay(K612, TWO,
                PagePool.Params.of(0, 0), List.of(Action.alloc(), Action.recycle(5))));
        assertTrue(e.getMessage().startsWith("action 2 'recycle 5': recycle page 5"), e.getMessage());
    }
}
