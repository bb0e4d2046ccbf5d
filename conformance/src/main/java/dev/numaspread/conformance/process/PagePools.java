package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.pagepool.Place;
import dev.numaspread.model.pagepool.PoolState;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Page pool sessions over the protocol: a {@code page-pool} request with {@code create}, then one
 * {@code page-pool} request with {@code action} per action (spec/protocol.md), each asked once (a
 * pool is a state machine), and the answers' effects and pool states read.
 */
final class PagePools {

    private final ProgramLife life;
    private final Batches batches;
    private final Answers answers;

    PagePools(ProgramLife life, Batches batches) {
        this.life = life;
        this.batches = batches;
        this.answers = life.answers();
    }

    /**
     * A page pool of the current run of the program. The pool lives as long as the run does:
     * after a restart its actions fail. Its name is {@code p} and the lowest number no pool of the
     * run holds: a name comes free only when its session is closed, never while a check still
     * drives the pool (issue 24: names given in rotation were reused under pools of checks running
     * side by side).
     */
    PagePoolSession open(ObjectNode create, Topology machine, PagePool.Params params) {
        ProgramLife.Live live = life.live();
        ProgramRun.Pool pool = live.run().newPool();
        create.put("pool", pool.name());
        ObjectNode p = create.putObject("create");
        p.put("nid", params.nid());
        p.put("cpu", params.cpu());
        p.put("cache", params.cacheSize());
        p.put("refill", params.refill());
        p.put("poolSize", params.poolSize());
        p.put("tracksNapiNode", params.tracksNapiNode());
        p.put("haveMemorylessNodes", params.haveMemorylessNodes());
        try {
            batches.exchange(live, create, Optional.of(machine), false);
        } catch (RuntimeException e) {
            live.run().notCreated(pool);
            throw e;
        }
        live.run().created(pool);
        return new PagePoolSession() {
            @Override public Answer apply(Action action) {
                return action(live, pool, action);
            }

            @Override public void close() {
                live.run().close(pool);
            }
        };
    }

    private PagePoolSession.Answer action(ProgramLife.Live live, ProgramRun.Pool pool, Action action) {
        if (!life.isCurrent(live.channel()))
            throw answers.failure("page pool " + pool.name() + " is gone: the program was restarted after it was created");
        if (!live.run().isOpen(pool))
            throw answers.failure("page pool " + pool.name() + " was closed; expected no action after the kit closed it");
        ObjectNode request = Channel.JSON.createObjectNode();
        request.put("op", Routine.PAGE_POOL.id());
        request.put("pool", pool.name());
        request.put("action", action.text());
        JsonNode a = batches.exchange(live, request, Optional.empty(), false);
        return new PagePoolSession.Answer(effect(a), poolState(a));
    }

    private Effect effect(JsonNode a) {
        JsonNode d = a.path("did");
        if (!d.isObject()) throw answers.failure("answer " + a.get("id") + " has no object 'did'; expected what the pool did");
        String what = d.path("what").asText("");
        try {
            return switch (what) {
                case "served" -> new Effect.Served(page(d.path("page"), a), Place.of(d.path("from").asText()), pages(d.path("released"), a, "did.released"));
                case "put" -> new Effect.Put(page(d.path("page"), a), Place.of(d.path("to").asText()));
                case "updated" -> new Effect.Updated(answers.integer(d, "oldNid"), answers.integer(d, "newNid"), pages(d.path("released"), a, "did.released"));
                case "unchanged" -> new Effect.Unchanged(answers.integer(d, "nid"));
                default -> throw answers.failure("answer " + a.get("id") + ": did.what is '" + ProgramText.quote(what, 60)
                        + "'; expected served, put, updated or unchanged");
            };
        } catch (IllegalArgumentException e) {
            throw answers.failure("answer " + a.get("id") + ": " + ProgramText.quote(String.valueOf(e.getMessage()), 200));
        }
    }

    private PoolState poolState(JsonNode a) {
        JsonNode s = a.path("state");
        if (!s.isObject()) throw answers.failure("answer " + a.get("id") + " has no object 'state'; expected the pool's state");
        return new PoolState(answers.integer(s, "nid"), answers.integer(s, "cpu"), pages(s.path("cache"), a, "state.cache"),
                pages(s.path("ptrRing"), a, "state.ptrRing"), pages(s.path("inUse"), a, "state.inUse"),
                pages(s.path("released"), a, "state.released"));
    }

    private List<Page> pages(JsonNode n, JsonNode a, String field) {
        if (!n.isArray()) throw answers.failure("answer " + a.get("id") + " has no array '" + field + "'; expected pages such as {\"id\":0,\"node\":1}");
        List<Page> out = new ArrayList<>();
        for (JsonNode p : n) out.add(page(p, a));
        return out;
    }

    private Page page(JsonNode p, JsonNode a) {
        if (!p.isObject() || !p.path("id").isInt() || !p.path("node").isInt())
            throw answers.failure("answer " + a.get("id") + ": a page is " + ProgramText.quote(String.valueOf(p), 60)
                    + "; expected {\"id\":N,\"node\":N[,\"pfmemalloc\":true]}");
        try {
            return new Page(p.get("id").asInt(), p.get("node").asInt(), p.path("pfmemalloc").asBoolean(false));
        } catch (IllegalArgumentException e) {
            throw answers.failure("answer " + a.get("id") + ": " + ProgramText.quote(String.valueOf(e.getMessage()), 200));
        }
    }
}
