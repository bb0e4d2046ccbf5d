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
public interface PagePoolSession extends AutoCloseable {

    /**
     * Applies {@code action} to the pool: what the pool did and its state after it. Pages are named
     * by the number the page allocator gave them (from 0, in the order it handed them to this pool).
     *
     * <p>Example: on a fresh pool, {@code session.apply(new Action.Alloc(false))} answers {@code Served}, a page the
     * page allocator handed the pool (with a refill of 2, page 1: of the two pages it refilled, the last comes first).
     *
     * @param action the next action: a NAPI poll on a CPU, an allocation, a recycle or free of a
     *               page, or {@code page_pool_nid_changed()}
     * @return what the pool did ({@link Effect}: a page served and where from, a page put back and
     *         where, a node updated, or nothing changed) and the pool's state after it
     * @throws IllegalArgumentException when the action cannot happen in this state (a recycle of a
     *                                  page that is not in use): the kit never asks for one
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     */
    Answer apply(Action action);

    /**
     * Says the kit is done with the pool: it sends no more actions to this session. An implementation
     * that keeps pools by name may forget this one; the default does nothing. The kit closes every
     * pool of its checks after the last action of the try (an out-of-process pool's name is then
     * free for a new pool, spec/protocol.md).
     *
     * <p>Example: {@code try (PagePoolSession pool = impl.pagePool(k, m, params)) { pool.apply(action); }} closes the pool after its last action.
     */
    @Override
    default void close() {}

    /**
     * What the pool did for one action, and its state after it.
     *
     * @param effect what the action did
     * @param state  the pool after it
     */
    record Answer(Effect effect, PoolState state) {}

    /**
     * The reference model's pool as a session.
     *
     * <p>Example: {@code PagePoolSession.of(PagePool.create(k, m, params))}.
     *
     * @param pool the model's pool, which the session then owns and changes
     * @return a session applying each action to {@code pool}
     * @throws IllegalArgumentException never on creation; {@link #apply} throws as the model does
     */
    static PagePoolSession of(PagePool pool) {
        return action -> {
            PagePool.Step s = pool.apply(action);
            return new Answer(s.effect(), s.state());
        };
    }
}
