package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.pagepool.Place;
import dev.numaspread.model.pagepool.PoolState;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.ParameterType;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Glue of features/page-pool.feature (spec/page-pool.md): a page pool created on the scenario's
 * machine and release, driven one action at a time; each row of a "the driver does" table is one
 * action and, when given, the words of what the pool did.
 */
public final class PagePoolSteps {

    /** The sizes of the features' pools: an alloc cache of 4 pages, refills of 2, a ptr_ring of 4. */
    static final int CACHE = 4, REFILL = 2, POOL_SIZE = 4;

    private final World world;

    public PagePoolSteps(World world) {
        this.world = world;
    }

    /** The scenario's pool, the actions it ran, and what it answered to each. */
    static final class PoolRun {
        final PagePoolSession session;
        final PoolState initial;
        final List<Action> actions = new ArrayList<>();
        final List<PagePoolSession.Answer> answers = new ArrayList<>();
        final List<Effect.Served> served = new ArrayList<>();

        PoolRun(PagePoolSession session, PoolState initial) {
            this.session = session;
            this.initial = initial;
        }

        PoolState state() {
            return answers.isEmpty() ? initial : answers.get(answers.size() - 1).state();
        }

        /** The state before action {@code i} (0-based). */
        PoolState stateBefore(int i) {
            return i == 0 ? initial : answers.get(i - 1).state();
        }

        /** The index of the last poll or update-nid; the scenario must have one. */
        int lastPoll() {
            for (int i = actions.size() - 1; i >= 0; i--)
                if (actions.get(i) instanceof Action.Poll || actions.get(i) instanceof Action.UpdateNid) return i;
            throw new IllegalStateException("the driver did no poll; expected a 'poll CPU' or 'update-nid NODE' action before this step");
        }

        /** Page {@code #k}: the k-th page served in the scenario, 1-based. */
        Page served(int k) {
            if (k < 1 || k > served.size())
                throw new IllegalArgumentException("page #" + k + ": the pool served " + served.size() + " pages so far; expected #1..#" + served.size());
            return served.get(k - 1).page();
        }

        /** Runs one action, written as a script line in which {@code #k} names the k-th page served. */
        PagePoolSession.Answer apply(String text) {
            Matcher m = SERVED.matcher(text);
            StringBuilder b = new StringBuilder();
            while (m.find()) m.appendReplacement(b, String.valueOf(served(Integer.parseInt(m.group(1))).id()));
            m.appendTail(b);
            Action action = Action.parse(b.toString());
            PagePoolSession.Answer a = session.apply(action);
            actions.add(action);
            answers.add(a);
            if (a.effect() instanceof Effect.Served sv) served.add(sv);
            return a;
        }

        private static final Pattern SERVED = Pattern.compile("#(\\d+)");
    }

    /** {@code page_pool_create()} by the implementation under test; the pool is empty until its first action. */
    private void create(PagePool.Params params) {
        PagePoolSession pool = world.implementation().pagePool(world.kernel(), world.machine(), params);
        world.result(new PoolRun(pool, new PoolState(params.nid(), params.cpu(), List.of(), List.of(), List.of(), List.of())));
    }

    private PoolRun run() {
        return world.result(PoolRun.class);
    }

    private static PagePool.Params params(int nid, int cpu) {
        return PagePool.Params.of(nid, cpu).withSizes(CACHE, REFILL, POOL_SIZE);
    }

    @Given("a page pool on node {int} with its NAPI on cpu {int}")
    public void pool(int nid, int cpu) {
        create(params(nid, cpu));
    }

    @Given("a page pool on node {int} with its NAPI on cpu {int}, of a driver that does not track its NAPI's node")
    public void untrackedPool(int nid, int cpu) {
        create(params(nid, cpu).withTracksNapiNode(false));
    }

    @Given("a page pool with NUMA_NO_NODE and its NAPI on cpu {int}, of a driver that does not track its NAPI's node")
    public void noNodePool(int cpu) {
        create(params(Numa.NUMA_NO_NODE, cpu).withTracksNapiNode(false));
    }

    @Given("a page pool on node {int} with its NAPI on cpu {int}, on an architecture with CONFIG_HAVE_MEMORYLESS_NODES")
    public void poolWithMemorylessNodes(int nid, int cpu) {
        create(params(nid, cpu).withHaveMemorylessNodes(true));
    }

    @Given("a page pool on node {int} with its NAPI on cpu {int}, an alloc cache of {int}, refills of {int} and a ptr_ring of {int}")
    public void sizedPool(int nid, int cpu, int cache, int refill, int poolSize) {
        create(PagePool.Params.of(nid, cpu).withSizes(cache, refill, poolSize));
    }

    /** {@code {actions}}: script lines in quotes, comma separated: {@code "alloc", "recycle #1", "poll 6"}. */
    @ParameterType(name = "actions", value = "\"[^\"]+\"(?:, \"[^\"]+\")*", useForSnippets = false)
    public List<String> actions(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\"([^\"]+)\"").matcher(text);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    /** {@code {place}}: where a page is, in the features' words. */
    @ParameterType(name = "place", value = "in the alloc cache|in the ptr_ring|in use|back with the page allocator", useForSnippets = false)
    public Place place(String text) {
        return switch (text) {
            case "in the alloc cache" -> Place.CACHE;
            case "in the ptr_ring" -> Place.PTR_RING;
            case "in use" -> Place.IN_USE;
            default -> Place.ALLOCATOR;
        };
    }

    @When("the driver does {actions}")
    public void driverDoesActions(List<String> actions) {
        PoolRun run = run();
        for (String a : actions) run.apply(a);
    }

    /**
     * A table {@code | action | the pool |}: runs each action in order; where the second column is
     * given, what the pool did must read exactly so (an EXACT rule's scenario).
     */
    @When("the driver does:")
    public void driverDoes(DataTable table) {
        PoolRun run = run();
        for (Map<String, String> row : table.asMaps()) {
            String text = row.get("action");
            if (text == null) throw new IllegalArgumentException("action table: no column 'action'; expected columns 'action' and 'the pool'");
            PagePoolSession.Answer a = run.apply(text);
            String want = row.get("the pool");
            if (want != null && !want.equals(a.effect().text()))
                throw new AssertionError("action " + run.answers.size() + " '" + text + "': expected the pool to have " + want
                        + "\n  actual: " + a.effect().text() + "\n  pool after it: " + a.state().text());
        }
    }

    /** One row, a column per place ({@code alloc cache}, {@code ptr_ring}, {@code in use}, {@code page allocator}): the pages there. */
    @Then("the pool's pages are:")
    public void pagesAre(DataTable table) {
        PoolState s = run().state();
        List<Map<String, String>> rows = table.asMaps();
        if (rows.size() != 1) throw new IllegalArgumentException("pages table: " + rows.size() + " rows; expected one row under the place names");
        for (Map.Entry<String, String> e : rows.get(0).entrySet()) {
            Place place = Place.of(e.getKey());
            String got = PoolState.pagesText(s.pagesIn(place));
            if (!got.equals(e.getValue().strip()))
                throw new AssertionError("pages in " + place.text() + ": expected " + e.getValue().strip() + "; actual " + got
                        + "\n  pool: " + s.text());
        }
    }

    @Then("the pool is on node {int}")
    public void poolIsOnNode(int nid) {
        PoolState s = run().state();
        if (s.nid() != nid) throw new AssertionError("the pool's node: expected " + nid + "; actual " + s.nid() + "\n  pool: " + s.text());
    }

    @Then("page #{int} is on node {int}")
    public void pageIsOnNode(int k, int node) {
        Page p = run().served(k);
        if (p.node() != node) throw new AssertionError("page #" + k + ": expected a page of node " + node + "; actual " + p.text());
    }

    @Then("page #{int} is {place}")
    public void pageIsIn(int k, Place place) {
        PoolRun run = run();
        Page p = run.served(k);
        Place at = placeOf(run.state(), p);
        if (at != place) throw new AssertionError("page #" + k + " (" + p.text() + "): expected it " + phrase(place) + "; actual "
                + phrase(at) + "\n  pool: " + run.state().text());
    }

    @Then("page #{int} is kept by the pool")
    public void pageIsKept(int k) {
        PoolRun run = run();
        Page p = run.served(k);
        Place at = placeOf(run.state(), p);
        if (at != Place.CACHE && at != Place.PTR_RING)
            throw new AssertionError("page #" + k + " (" + p.text() + "): expected it in the alloc cache or the ptr_ring; actual "
                    + phrase(at) + "\n  pool: " + run.state().text());
    }

    @Then("page #{int} was served from the alloc cache")
    public void servedFromCache(int k) {
        PoolRun run = run();
        run.served(k);
        Effect.Served sv = run.served.get(k - 1);
        if (sv.from() != Place.CACHE)
            throw new AssertionError("page #" + k + ": expected it served from the alloc cache; actual " + sv.text());
    }

    @Then("the alloc cache is empty")
    public void cacheIsEmpty() {
        PoolState s = run().state();
        if (!s.cache().isEmpty()) throw new AssertionError("the alloc cache: expected no page; actual " + PoolState.pagesText(s.cache())
                + "\n  pool: " + s.text());
    }

    @Then("the poll left the alloc cache as it was")
    public void pollLeftCache() {
        PoolRun run = run();
        int i = run.lastPoll();
        List<Page> before = run.stateBefore(i).cache(), after = run.answers.get(i).state().cache();
        if (!before.equals(after)) throw new AssertionError("the alloc cache across '" + run.actions.get(i).text() + "': expected "
                + PoolState.pagesText(before) + " as before; actual " + PoolState.pagesText(after));
    }

    @Then("the pages of the alloc cache before the poll are back with the page allocator")
    public void cacheReleasedByPoll() {
        PoolRun run = run();
        int i = run.lastPoll();
        PoolState after = run.answers.get(i).state();
        for (Page p : run.stateBefore(i).cache())
            if (!after.released().contains(p))
                throw new AssertionError(p.text() + " was in the alloc cache before '" + run.actions.get(i).text()
                        + "': expected it back with the page allocator; actual " + phrase(placeOf(after, p)) + "\n  pool: " + after.text());
    }

    @Then("no page of node {int} was in the alloc cache after the poll")
    public void noOldPageInCache(int node) {
        PoolRun run = run();
        int first = run.lastPoll();
        for (int i = first; i < run.answers.size(); i++)
            for (Page p : run.answers.get(i).state().cache())
                if (p.node() == node)
                    throw new AssertionError("after '" + run.actions.get(i).text() + "' (action " + (i + 1) + "): expected no page of node "
                            + node + " in the alloc cache; actual " + p.text() + "\n  pool: " + run.answers.get(i).state().text());
    }

    @Then("every page served after the poll is on node {int}")
    public void servedAfterPollOnNode(int node) {
        PoolRun run = run();
        int first = run.lastPoll();
        for (int i = first + 1; i < run.answers.size(); i++)
            if (run.answers.get(i).effect() instanceof Effect.Served sv && sv.page().node() != node)
                throw new AssertionError("'" + run.actions.get(i).text() + "' (action " + (i + 1) + "): expected a page of node " + node
                        + "; actual " + sv.text() + "\n  pool: " + run.answers.get(i).state().text());
    }

    /** After every action, every page seen so far (in any state) is in exactly one place (PP-7). */
    @Then("every page is in exactly one place")
    public void everyPageOnce() {
        PoolRun run = run();
        java.util.TreeSet<Integer> seen = new java.util.TreeSet<>();
        for (int i = 0; i < run.answers.size(); i++) {
            PoolState s = run.answers.get(i).state();
            java.util.TreeMap<Integer, Integer> count = new java.util.TreeMap<>();
            for (Page p : s.allPages()) count.merge(p.id(), 1, Integer::sum);
            seen.addAll(count.keySet());
            for (int id : seen)
                if (count.getOrDefault(id, 0) != 1)
                    throw new AssertionError("after '" + run.actions.get(i).text() + "' (action " + (i + 1) + "): page " + id
                            + " is in " + count.getOrDefault(id, 0) + " places; expected exactly one\n  pool: " + s.text());
        }
    }

    private static Place placeOf(PoolState s, Page p) {
        for (Place place : Place.values())
            for (Page q : s.pagesIn(place)) if (q.id() == p.id()) return place;
        return null;
    }

    private static String phrase(Place place) {
        return place == null ? "nowhere (lost)" : place.whereAPageIs();
    }
}
