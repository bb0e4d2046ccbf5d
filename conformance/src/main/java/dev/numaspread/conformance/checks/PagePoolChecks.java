package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.NumaMemId;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.pagepool.Place;
import dev.numaspread.model.pagepool.PoolState;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The checks of spec/page-pool.md (PP-*): action-sequence properties. Each try draws a machine
 * (memory-less nodes included), a pool and a sequence of moves; the moves become actions against
 * the implementation's pool one at a time (a recycle picks one of the pages the pool says are in
 * use), and the rule is checked after every action. A failure stops at the action that broke the
 * rule, and the shrinker removes moves until no shorter sequence fails: the report's call is the
 * shortest action script that still breaks the rule, ready for {@code numaspread plan --routine
 * page-pool --script}.
 *
 * <p>Contract rules are checked from what the pool answers (the state before and after the action,
 * and what it did); EXACT rules compare with the kernel's answer, worked out from the state before
 * (PP-5, PP-10), or from the model run beside the implementation (PP-13).
 *
 * <p>Over 450 lines on purpose (issue 26): one family's checks, a method per rule, as every {@link
 * CheckFamily}.
 */
public final class PagePoolChecks implements CheckFamily {

    /** How the checks get a pool of the implementation under test. */
    @FunctionalInterface
    public interface Pools {
        PagePoolSession create(CheckContext ctx, Topology machine, PagePool.Params params);
    }

    /** The pools of the implementation under test: {@code Implementation.pagePool}. */
    public static final Pools IMPLEMENTATION = (ctx, machine, params) -> ctx.implementation().pagePool(ctx.kernel(), machine, params);

    private final Pools pools;

    /** The checks against the implementation under test. */
    public PagePoolChecks() {
        this(IMPLEMENTATION);
    }

    /** The checks against the pools {@code pools} gives (a zoo member, in the kit's self-test). */
    public PagePoolChecks(Pools pools) {
        this.pools = pools;
    }

    @Override
    public List<Check> checks() {
        return List.of(
                check("PP-1", "PP_1_pollMovesThePoolToNumaMemId", PagePoolChecks::pp1),
                check("PP-2", "PP_2_pollOnTheSameNodeChangesNothing", PagePoolChecks::pp2),
                check("PP-3", "PP_3_updateFlushesTheAllocCache", PagePoolChecks::pp3),
                check("PP-4", "PP_4_refillKeepsForeignPagesOutOfTheCache", PagePoolChecks::pp4),
                check("PP-5", "PP_5_refillStopsAtTheFirstForeignPage", PagePoolChecks::pp5),
                check("PP-6", "PP_6_ptrRingReadOnlyWhenTheCacheIsEmpty", PagePoolChecks::pp6),
                check("PP-7", "PP_7_noPageIsLost", PagePoolChecks::pp7),
                check("PP-8", "PP_8_noNodePoolRecycles", PagePoolChecks::pp8),
                check("PP-9", "PP_9_pfmemallocAndSharedPagesGoBack", PagePoolChecks::pp9),
                check("PP-10", "PP_10_recyclingIgnoresTheNode", PagePoolChecks::pp10),
                check("PP-11", "PP_11_numaMemIdOfMemorylessNodes", PagePoolChecks::pp11),
                check("PP-12", "PP_12_newPagesComeFromThePoolsNode", PagePoolChecks::pp12),
                check("PP-13", "PP_13_eachActionLeavesThePoolAsTheKernelWould", PagePoolChecks::pp13));
    }

    /** The release whose code the rules describe: 5.6 and later. */
    static final KernelRelease SINCE = PagePool.SINCE;

    private Check check(String rule, String name, Rule r) {
        // A refill that skips a foreign page shows only where an allocation meets an empty alloc
        // cache and, at the head of the ptr_ring, a page of another node with more pages behind it:
        // about one try in 150 (200 tries missed the zoo's skipping refill for 7 seeds in 30, 800
        // tries for none). PP-5 judges that situation and PP-13 judges every action, so both make
        // four times the run's tries.
        int times = rule.equals("PP-5") || rule.equals("PP-13") ? 4 : 1;
        return Check.of(rule, Routine.PAGE_POOL, name, ctx -> {
            if (ctx.kernel().compareTo(SINCE) < 0) return;
            ctx.forAll(cases(), s -> s.withTries(s.tries() * times), c -> run(ctx, c, r));
        });
    }

    // ---------------------------------------------------------------- what a try draws

    /**
     * One move before it meets the pool: the kind of action, a number that picks the CPU, page or
     * node, and the flag ({@code reserve} for an allocation, {@code shared} for a recycle or free).
     */
    record Move(Kind kind, int pick, boolean flag) {}

    /**
     * The kinds of action, simplest first. A free comes before a recycle: it only reaches the
     * ptr_ring, and a shrunk sequence that fills the ptr_ring through frees is shorter than one that
     * must fill the alloc cache first.
     */
    enum Kind { ALLOC, FREE, RECYCLE, POLL, UPDATE_NID }

    /** A drawn life of a pool: the machine, the pool's parameters and the moves. */
    record Case(Topology machine, PagePool.Params params, List<Move> moves) {
        @Override public String toString() {
            return params.text() + " with " + moves.size() + " moves on " + machine.name();
        }
    }

    /** Most moves of one try. */
    static final int MAX_MOVES = 16;

    /**
     * Machines of 2 to 4 nodes with CPUs and at most 8 CPUs, each node with CPUs losing its memory one draw in
     * five (one node always keeps it); a pool on any node or NUMA_NO_NODE, NAPI on any online CPU,
     * an alloc cache of 1-4, refills of 1..cache, a ptr_ring of 1-4, a tracking driver mostly, the
     * architecture's memory-less node support one draw in three; up to 16 moves. All choices at 0:
     * two nodes of one CPU, a pool on node 0, sizes 1, a tracking driver, no move.
     */
    static Gen<Case> cases() {
        Gen<Topology> machines = Machines.realistic(Machines.Options.DEFAULT.withMaxNodes(4).withMaxCpus(8).withAtLeastCpuNodes(2))
                .flatMap(PagePoolChecks::memorylessNodes);
        return machines.flatMap(m -> c -> {
            c.startSpan("pool");
            int nid, cpu, cache, refill, poolSize;
            boolean tracks, memoryless;
            try {
                nid = MachineDraws.nodeOrNoNode(m).generate(c);
                cpu = MachineDraws.onlineCpu(m).generate(c);
                cache = c.choose(1, 4);
                refill = c.choose(1, cache);
                poolSize = c.choose(1, 4);
                tracks = !c.chance(15);
                memoryless = c.chance(33);
            } finally {
                c.endSpan();
            }
            PagePool.Params p = new PagePool.Params(nid, cpu, cache, refill, poolSize, tracks, memoryless);
            return new Case(m, p, moves(c));
        });
    }

    /**
     * Up to {@value #MAX_MOVES} moves. As in {@code Gen.lists}, each move sits in a span "list
     * element" that starts with its "more?" choice, so deleting the span removes one move; but the
     * list stops with probability 1/10 rather than 1/2, since a pool needs several actions before
     * its ptr_ring fills or its node moves. Choice 0 still stops: the simplest sequence is empty.
     */
    static List<Move> moves(Choices c) {
        List<Move> out = new ArrayList<>();
        while (out.size() < MAX_MOVES) {
            c.startSpan("list element");
            try {
                if (c.choose(0, 9) == 0) break;
                c.startSpan("list value");
                try {
                    out.add(move(c));
                } finally {
                    c.endSpan();
                }
            } finally {
                c.endSpan();
            }
        }
        return out;
    }

    private static Move move(Choices c) {
        Kind kind = Kind.values()[Gen.weighted(35, 15, 25, 20, 5).generate(c)];
        int pick = c.choose(0, 15);
        boolean flag = c.chance(10);
        return new Move(kind, pick, flag);
    }

    /**
     * {@code m} with some nodes memory-less: one choice per node with CPUs after the first node with
     * memory. A machine the topology generator drew without any memory gets it back on its first
     * node: the page allocator needs a node with memory.
     */
    static Gen<Topology> memorylessNodes(Topology m) {
        return c -> {
            List<Node> nodes = new ArrayList<>();
            boolean changed = false;
            boolean memoryKept = false;
            for (Node n : m.nodes()) {
                boolean drop = memoryKept && n.hasMemory() && !n.cpus().isEmpty() && c.chance(20);
                if (n.hasMemory() && !drop) memoryKept = true;
                nodes.add(drop ? new Node(n.id(), n.cpus(), false, 0) : n);
                changed |= drop;
            }
            if (!memoryKept) {
                Node first = nodes.get(0);
                nodes.set(0, new Node(first.id(), first.cpus(), true, -1));
                changed = true;
            }
            if (!changed) return m;
            return new Topology(m.name() + "-memless", m.source() + "; memory-less nodes drawn by PagePoolChecks", m.possible(),
                    m.present(), m.online(), nodes, m.distances(), m.smtSiblings(), m.packages(), m.clusters());
        };
    }

    // ---------------------------------------------------------------- running a try

    /** One action and what it did to the implementation's pool. */
    record Transition(Topology machine, PagePool.Params params, PoolState before, Action action,
                      PagePoolSession.Answer answer, TreeSet<Integer> seen, String script) {
        PoolState after() { return answer.state(); }
        Effect effect() { return answer.effect(); }
    }

    /** A rule checked after one action; throws {@link Violation} when it does not hold. */
    @FunctionalInterface
    interface Rule {
        void check(Transition t, Optional<PagePool.Step> kernel);
    }

    /**
     * Runs the case's moves against a new pool of the implementation, checking {@code rule} after
     * every action. The model runs beside it for PP-13 (and stops, harmlessly, once they part).
     */
    private void run(CheckContext ctx, Case c, Rule rule) {
        try (PagePoolSession session = pools.create(ctx, c.machine(), c.params())) {
            run(ctx, c, rule, session);
        }
    }

    private void run(CheckContext ctx, Case c, Rule rule, PagePoolSession session) {
        PagePool model = PagePool.create(ctx.kernel(), c.machine(), c.params());
        PoolState state = model.state();
        boolean modelInStep = true;
        TreeSet<Integer> seen = new TreeSet<>();
        StringBuilder script = new StringBuilder(c.params().text());
        for (Move mv : c.moves()) {
            Optional<Action> a = resolve(mv, c.machine(), state);
            if (a.isEmpty()) continue;
            Action action = a.get();
            script.append("; ").append(action.text());
            PagePoolSession.Answer answer = session.apply(action);
            if (answer == null || answer.effect() == null || answer.state() == null)
                throw new IllegalStateException("the pool gave no answer to '" + action.text() + "' (" + script + ")");
            Optional<PagePool.Step> kernel = Optional.empty();
            if (modelInStep) {
                try {
                    kernel = Optional.of(model.apply(action));
                } catch (IllegalArgumentException parted) {
                    modelInStep = false;
                }
            }
            Transition t = new Transition(c.machine(), c.params(), state, action, answer, seen, script.toString());
            try {
                rule.check(t, kernel);
            } catch (Violation v) {
                throw v.on(c.machine());
            }
            for (Page p : answer.state().allPages()) seen.add(p.id());
            if (kernel.isPresent() && !(kernel.get().effect().equals(answer.effect()) && kernel.get().state().equals(answer.state())))
                modelInStep = false;
            state = answer.state();
        }
    }

    /** The action a move makes in {@code state}; empty for a recycle or free with no page in use. */
    static Optional<Action> resolve(Move m, Topology machine, PoolState state) {
        switch (m.kind()) {
            case ALLOC:
                return Optional.of(new Action.Alloc(m.flag()));
            case RECYCLE:
            case FREE: {
                if (state.inUse().isEmpty()) return Optional.empty();
                int page = state.inUse().get(m.pick() % state.inUse().size()).id();
                return Optional.of(m.kind() == Kind.RECYCLE ? new Action.Recycle(page, m.flag()) : new Action.Free(page, m.flag()));
            }
            case POLL: {
                int[] cpus = machine.online().toArray();
                return Optional.of(new Action.Poll(cpus[m.pick() % cpus.length]));
            }
            default: {
                int[] ids = machine.nodeIds();
                int k = m.pick() % (ids.length + 1);
                return Optional.of(new Action.UpdateNid(k < ids.length ? ids[k] : Numa.NUMA_NO_NODE));
            }
        }
    }

    // ---------------------------------------------------------------- the rules

    private static Violation violation(String rule, Transition t, String expected, String actual, String hint) {
        return Violation.of(rule, t.script(), expected, actual + "; pool after it: " + t.after().text()).hint(hint);
    }

    /** What numa_mem_id() is on {@code cpu} for this pool's architecture. */
    static int numaMemId(Transition t, int cpu) {
        return NumaMemId.numaMemId(t.machine(), cpu, t.params().haveMemorylessNodes());
    }

    /** True when the CPU's node is memory-less: numa_mem_id() is then PP-11's business. */
    static boolean onMemorylessNode(Topology m, int cpu) {
        return m.isMemoryless(m.nodeOf(cpu));
    }

    /** Did the action update the pool (a poll that found another node, or the driver's update)? */
    static boolean updated(Transition t) {
        if (t.action() instanceof Action.UpdateNid) return true;
        if (t.action() instanceof Action.Poll p && t.params().tracksNapiNode())
            return numaMemId(t, p.cpu()) != t.before().nid();
        return false;
    }

    static void pp1(Transition t, Optional<PagePool.Step> kernel) {
        if (!(t.action() instanceof Action.Poll p)) return;
        if (t.after().cpu() != p.cpu())
            throw violation("PP-1", t, "the NAPI on cpu " + p.cpu(), "cpu " + t.after().cpu(), "does the pool record where its NAPI polls?");
        if (!t.params().tracksNapiNode()) {
            if (t.after().nid() != t.before().nid())
                throw violation("PP-1", t, "node " + t.before().nid() + " kept: the driver does not track its NAPI's node",
                        "node " + t.after().nid(), "does the poll update a pool whose driver never calls page_pool_nid_changed()?");
            return;
        }
        if (onMemorylessNode(t.machine(), p.cpu())) return;
        int want = numaMemId(t, p.cpu());
        if (t.after().nid() != want)
            throw violation("PP-1", t, "node " + want + " (numa_mem_id() of cpu " + p.cpu() + ")", "node " + t.after().nid(),
                    "does the poll call page_pool_nid_changed(pool, numa_mem_id()) with the poll's CPU?");
    }

    static void pp2(Transition t, Optional<PagePool.Step> kernel) {
        if (!(t.action() instanceof Action.Poll p) || updated(t)) return;
        if (!t.after().cache().equals(t.before().cache()) || t.after().nid() != t.before().nid())
            throw violation("PP-2", t, "node " + t.before().nid() + " and alloc cache " + PoolState.pagesText(t.before().cache()) + " as before the poll",
                    "node " + t.after().nid() + ", alloc cache " + PoolState.pagesText(t.after().cache()),
                    "does page_pool_nid_changed() update the pool even when the node is the same?");
    }

    static void pp3(Transition t, Optional<PagePool.Step> kernel) {
        // An update the rules ask for, or one the pool made (it says so, or its node moved).
        boolean poolUpdated = t.effect() instanceof Effect.Updated || t.after().nid() != t.before().nid();
        if (!updated(t) && !poolUpdated) return;
        if (!t.after().cache().isEmpty())
            throw violation("PP-3", t, "an empty alloc cache after the update", "alloc cache " + PoolState.pagesText(t.after().cache()),
                    "does page_pool_update_nid() give the alloc cache back to the page allocator?");
        for (Page p : t.before().cache())
            if (!t.after().released().contains(p))
                throw violation("PP-3", t, p.text() + " of the alloc cache back with the page allocator",
                        p.text() + " " + placeText(t.after(), p), "does the flush return the cache's pages to the page allocator?");
        if (!t.after().ptrRing().equals(t.before().ptrRing()))
            throw violation("PP-3", t, "the ptr_ring kept: " + PoolState.pagesText(t.before().ptrRing()),
                    "ptr_ring " + PoolState.pagesText(t.after().ptrRing()), "does the update flush the ptr_ring too? Only the alloc cache is flushed");
    }

    /** {@code pref_nid} of the refill an allocation runs in {@code t.before()}. */
    static int preferredNid(Transition t) {
        int nid = t.before().nid();
        return nid == Numa.NUMA_NO_NODE ? numaMemId(t, t.before().cpu()) : nid;
    }

    static void pp4(Transition t, Optional<PagePool.Step> kernel) {
        if (!(t.action() instanceof Action.Alloc)) return;
        int pref = preferredNid(t);
        List<Page> fromRing = new ArrayList<>();
        for (Page p : t.after().cache()) if (t.before().ptrRing().contains(p)) fromRing.add(p);
        if (t.effect() instanceof Effect.Served s && s.from() == Place.PTR_RING) fromRing.add(s.page());
        for (Page p : fromRing)
            if (p.node() != pref)
                throw violation("PP-4", t, "pages of node " + pref + " (the preferred node) from the ptr_ring",
                        p.text() + " refilled", "does the refill test page_to_nid() against pref_nid?");
    }

    static void pp5(Transition t, Optional<PagePool.Step> kernel) {
        if (!(t.action() instanceof Action.Alloc) || !t.before().cache().isEmpty() || t.before().ptrRing().isEmpty()) return;
        int pref = preferredNid(t);
        List<Page> ring = t.before().ptrRing();
        int k = 0;
        while (k < ring.size() && k < t.params().refill() && ring.get(k).node() == pref) k++;
        boolean waive = k < t.params().refill() && k < ring.size();
        List<Page> wantRing = ring.subList(waive ? k + 1 : k, ring.size());
        if (!t.after().ptrRing().equals(wantRing))
            throw violation("PP-5", t, "ptr_ring " + PoolState.pagesText(wantRing)
                            + (waive ? " (" + ring.get(k).text() + " waived, the pages behind it kept)" : " (" + k + " pages refilled)"),
                    "ptr_ring " + PoolState.pagesText(t.after().ptrRing()),
                    waive ? "does the refill stop at the first page of another node, or skip it and go on?"
                          : "does the refill take at most PP_ALLOC_CACHE_REFILL pages, and only while they match?");
        if (waive && !t.effect().released().contains(ring.get(k)))
            throw violation("PP-5", t, ring.get(k).text() + " waived back to the page allocator", t.effect().text(),
                    "is the foreign page given back to the page allocator?");
    }

    static void pp6(Transition t, Optional<PagePool.Step> kernel) {
        if (t.after().cache().size() > t.params().cacheSize() || t.after().ptrRing().size() > t.params().poolSize())
            throw violation("PP-6", t, "at most " + t.params().cacheSize() + " pages in the alloc cache and " + t.params().poolSize()
                            + " in the ptr_ring", t.after().cache().size() + " and " + t.after().ptrRing().size(),
                    "is a page pushed onto a full alloc cache or ptr_ring?");
        if (!(t.action() instanceof Action.Alloc) || t.before().cache().isEmpty()) return;
        boolean fromCache = t.effect() instanceof Effect.Served s && s.from() == Place.CACHE && t.before().cache().contains(s.page());
        if (!fromCache || !t.after().ptrRing().equals(t.before().ptrRing()))
            throw violation("PP-6", t, "a page of the alloc cache (" + PoolState.pagesText(t.before().cache()) + ") and the ptr_ring untouched",
                    t.effect().text(), "does an allocation refill from the ptr_ring while the alloc cache still holds pages?");
    }

    static void pp7(Transition t, Optional<PagePool.Step> kernel) {
        TreeMap<Integer, Integer> count = new TreeMap<>();
        for (Page p : t.after().allPages()) count.merge(p.id(), 1, Integer::sum);
        TreeSet<Integer> expected = new TreeSet<>(t.seen());
        for (Page p : t.before().allPages()) expected.add(p.id());
        for (int id : expected)
            if (count.getOrDefault(id, 0) != 1)
                throw violation("PP-7", t, "page " + id + " in exactly one place", "in " + count.getOrDefault(id, 0) + " places",
                        count.getOrDefault(id, 0) == 0 ? "is a page dropped when the ptr_ring is full instead of going back to the page allocator?"
                                                       : "is a page kept in two places?");
        for (var e : count.entrySet())
            if (e.getValue() > 1)
                throw violation("PP-7", t, "page " + e.getKey() + " in exactly one place", "in " + e.getValue() + " places",
                        "is a page kept in two places?");
        if (t.effect() instanceof Effect.Served s && !t.after().inUse().contains(s.page()))
            throw violation("PP-7", t, s.page().text() + " in use after it was served", s.page().text() + " " + placeText(t.after(), s.page()),
                    "is the served page still listed where it came from?");
    }

    /** Where the page the action recycles or frees should go, in the kernel's order, when it can be kept. */
    private static Optional<Place> roomFor(Transition t, boolean direct) {
        if (direct && t.before().cache().size() < t.params().cacheSize()) return Optional.of(Place.CACHE);
        if (t.before().ptrRing().size() < t.params().poolSize()) return Optional.of(Place.PTR_RING);
        return Optional.empty();
    }

    private static Optional<Page> givenBack(Transition t) {
        int id = t.action() instanceof Action.Recycle r ? r.page() : t.action() instanceof Action.Free f ? f.page() : -1;
        if (id < 0) return Optional.empty();
        for (Page p : t.before().inUse()) if (p.id() == id) return Optional.of(p);
        return Optional.empty();
    }

    private static boolean shared(Action a) {
        return a instanceof Action.Recycle r ? r.shared() : a instanceof Action.Free f && f.shared();
    }

    static void pp8(Transition t, Optional<PagePool.Step> kernel) {
        if (t.before().nid() != Numa.NUMA_NO_NODE) return;
        Optional<Page> page = givenBack(t);
        if (page.isEmpty() || page.get().pfmemalloc() || shared(t.action())) return;
        if (roomFor(t, t.action() instanceof Action.Recycle).isEmpty()) return;
        Place at = placeOf(t.after(), page.get());
        if (at != Place.CACHE && at != Place.PTR_RING)
            throw violation("PP-8", t, page.get().text() + " kept in the alloc cache or the ptr_ring", page.get().text() + " " + placeText(t.after(), page.get()),
                    "does recycling compare page_to_nid() with p.nid, which is never -1 for a page (the 2019 series)?");
    }

    static void pp9(Transition t, Optional<PagePool.Step> kernel) {
        Optional<Page> page = givenBack(t);
        if (page.isEmpty() || !(page.get().pfmemalloc() || shared(t.action()))) return;
        if (placeOf(t.after(), page.get()) != Place.ALLOCATOR)
            throw violation("PP-9", t, page.get().text() + " back with the page allocator (" + (shared(t.action()) ? "shared" : "pfmemalloc") + ")",
                    page.get().text() + " " + placeText(t.after(), page.get()), "does recycling test page_is_pfmemalloc() and the page's reference count?");
    }

    static void pp10(Transition t, Optional<PagePool.Step> kernel) {
        Optional<Page> page = givenBack(t);
        if (page.isEmpty() || page.get().pfmemalloc() || shared(t.action())) return;
        Place want = roomFor(t, t.action() instanceof Action.Recycle).orElse(Place.ALLOCATOR);
        Place at = placeOf(t.after(), page.get());
        if (at != want)
            throw violation("PP-10", t, page.get().text() + " " + placeText(want), page.get().text() + " " + placeText(t.after(), page.get()),
                    page.get().node() != t.before().nid() ? "does recycling test the page's node? Only a refill does"
                                                          : "does a recycle from the NAPI go to the alloc cache first, and a free to the ptr_ring?");
    }

    static void pp11(Transition t, Optional<PagePool.Step> kernel) {
        if (!(t.action() instanceof Action.Poll p) || !t.params().tracksNapiNode()) return;
        Topology m = t.machine();
        int node = m.nodeOf(p.cpu());
        if (!m.isMemoryless(node) || (t.params().haveMemorylessNodes() && NumaMemId.localMemoryNodeIsTied(m, node))) return;
        int want = numaMemId(t, p.cpu());
        if (t.after().nid() != want)
            throw violation("PP-11", t, "node " + want + " (numa_mem_id() of cpu " + p.cpu() + " on memory-less node " + node
                            + (t.params().haveMemorylessNodes() ? ", CONFIG_HAVE_MEMORYLESS_NODES" : ", without CONFIG_HAVE_MEMORYLESS_NODES") + ")",
                    "node " + t.after().nid(), t.params().haveMemorylessNodes()
                            ? "is numa_mem_id() the first node with memory of the zonelist (distance, +1 below, +1 with CPUs)?"
                            : "without CONFIG_HAVE_MEMORYLESS_NODES numa_mem_id() is the CPU's own node, memory or not");
    }

    static void pp12(Transition t, Optional<PagePool.Step> kernel) {
        if (!(t.action() instanceof Action.Alloc)) return;
        int asked = t.before().nid() == Numa.NUMA_NO_NODE ? numaMemId(t, t.before().cpu()) : t.before().nid();
        if (t.machine().isMemoryless(asked) && NumaMemId.localMemoryNodeIsTied(t.machine(), asked)) return;
        int want = NumaMemId.localMemoryNode(t.machine(), asked);
        for (Page p : t.after().allPages()) {
            if (t.seen().contains(p.id()) || containsId(t.before().allPages(), p.id())) continue;
            if (p.node() != want)
                throw violation("PP-12", t, "new pages of node " + want + (asked != want ? " (node " + asked + " has no memory)" : ""),
                        p.text() + " new", "does the slow path allocate on p.nid (for NUMA_NO_NODE: numa_mem_id() of the NAPI's CPU)?");
        }
    }

    static void pp13(Transition t, Optional<PagePool.Step> kernel) {
        if (kernel.isEmpty()) return;
        PagePool.Step k = kernel.get();
        if (!k.effect().equals(t.effect()))
            throw violation("PP-13", t, k.effect().text(), t.effect().text(), "where does the step part from the kernel's?");
        if (!k.state().equals(t.after()))
            throw Violation.of("PP-13", t.script(), k.state().text(), t.after().text()).hint("the cache is a stack, the ptr_ring a queue; "
                    + "from 5.13 the slow path takes PP_ALLOC_CACHE_REFILL pages and serves the last");
    }

    private static boolean containsId(List<Page> pages, int id) {
        for (Page p : pages) if (p.id() == id) return true;
        return false;
    }

    static Place placeOf(PoolState s, Page p) {
        for (Place place : Place.values())
            if (containsId(s.pagesIn(place), p.id())) return place;
        return null;
    }

    private static String placeText(PoolState s, Page p) {
        return placeText(placeOf(s, p));
    }

    private static String placeText(Place place) {
        return place == null ? "nowhere (lost)" : place.whereAPageIs();
    }

    /** The number of actions of a failure's call (the script after its create line). */
    public static int actionsIn(String call) {
        return (int) call.chars().filter(ch -> ch == ';').count();
    }
}
