package dev.numaspread.conformance.spi;

import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.pagepool.PoolState;

/**
 * One page pool of an implementation under test, from {@code page_pool_create()} to its last action
 * (spec/page-pool.md). The kit drives it one {@link Action} at a time and judges every answer; a
 * session is not shared between threads. The out-of-process protocol's {@code page-pool} session
 * is the same thing over NDJSON (spec/protocol.md).
 */
public interface PagePoolSession {

    /**
     * Applies {@code action} to the pool: what the pool did and its state after it. Pages are named
     * by the number the page allocator gave them (from 0, in the order it handed them to this pool).
     *
     * @throws IllegalArgumentException when the action cannot happen in this state (a recycle of a
     *                                  page that is not in use): the kit never asks for one
     */
    Answer apply(Action action);

    /** What the pool did for one action, and its state after it. */
    record Answer(Effect effect, PoolState state) {}

    /** The reference model's pool as a session. */
    static PagePoolSession of(PagePool pool) {
        return action -> {
            PagePool.Step s = pool.apply(action);
            return new Answer(s.effect(), s.state());
        };
    }
}
