package dev.numaspread.model.pagepool;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.InputText;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.Numa;

/**
 * One thing that happens to a page pool after {@code page_pool_create()} (spec/page-pool.md). The
 * text form is the one action scripts, the protocol and failure reports use:
 *
 * <pre>
 *   poll 5              a NAPI poll on cpu 5
 *   alloc               page_pool_alloc_pages() in that NAPI
 *   alloc reserve       the same while the page allocator serves from its reserves (pfmemalloc pages)
 *   recycle 3           page_pool_put_full_page(pool, page 3, allow_direct = true) in the NAPI
 *   recycle 3 shared    the same while someone else still holds a reference to page 3
 *   free 3              page_pool_put_full_page(pool, page 3, allow_direct = false): from elsewhere
 *   update-nid 1        page_pool_update_nid(pool, 1), called by the driver itself
 * </pre>
 */
public sealed interface Action permits Action.Poll, Action.Alloc, Action.Recycle, Action.Free, Action.UpdateNid {

    /** The action as a script line: {@code recycle 3 shared}. */
    String text();

    /**
     * A NAPI poll on {@code cpu}: the pool's NAPI runs there from now on. A driver that tracks its
     * NAPI's node (mlx5e since seed 001) calls {@code page_pool_nid_changed(pool, numa_mem_id())}
     * first thing in the poll.
     */
    record Poll(int cpu) implements Action {
        public Poll {
            if (cpu < 0) throw new IllegalArgumentException("poll: cpu " + cpu + "; expected >= 0");
        }
        @Override public String text() { return "poll " + cpu; }
    }

    /**
     * {@code page_pool_alloc_pages()} in the NAPI. {@code reserve}: pages the page allocator hands
     * out during this allocation come from its emergency reserves ({@code page_is_pfmemalloc}).
     */
    record Alloc(boolean reserve) implements Action {
        @Override public String text() { return reserve ? "alloc reserve" : "alloc"; }
    }

    /**
     * The driver gives page {@code page} back from its NAPI ({@code allow_direct}): into the alloc
     * cache if there is room, else the ring. {@code shared}: another reference to the page is still
     * held ({@code page_ref_count != 1}), so the pool must let it go.
     */
    record Recycle(int page, boolean shared) implements Action {
        public Recycle {
            if (page < 0) throw new IllegalArgumentException("recycle: page " + page + "; expected >= 0");
        }
        @Override public String text() { return "recycle " + page + (shared ? " shared" : ""); }
    }

    /**
     * Page {@code page} comes back from outside the pool's NAPI (another CPU, a TX completion):
     * {@code allow_direct} is false, so it can only go to the ring. {@code shared} as for recycle.
     */
    record Free(int page, boolean shared) implements Action {
        public Free {
            if (page < 0) throw new IllegalArgumentException("free: page " + page + "; expected >= 0");
        }
        @Override public String text() { return "free " + page + (shared ? " shared" : ""); }
    }

    /** {@code page_pool_update_nid(pool, nid)} called by the driver; {@code nid} may be NUMA_NO_NODE (-1). */
    record UpdateNid(int nid) implements Action {
        public UpdateNid {
            if (nid < -1) throw new IllegalArgumentException("update-nid: node " + nid + "; expected a node id or -1");
        }
        @Override public String text() { return "update-nid " + nid; }
    }

    static Action poll(int cpu) { return new Poll(cpu); }
    static Action alloc() { return new Alloc(false); }
    static Action recycle(int page) { return new Recycle(page, false); }
    static Action free(int page) { return new Free(page, false); }
    static Action updateNid(int nid) { return new UpdateNid(nid); }

    /**
     * The action a script line states: the text form above.
     *
     * @throws IllegalArgumentException "found 'recycle x'; expected recycle PAGE [shared]" (no position:
     *                                  {@link ActionScript} adds {@code file:line})
     */
    static Action parse(String line) {
        String[] w = line.strip().split("[ \\t]+");
        switch (w[0]) {
            case "poll":
                if (w.length == 2) return new Poll(number(w[1], line, "poll CPU", 0, CpuSet.NR_CPUS - 1));
                throw expected(line, "poll CPU");
            case "alloc":
                if (w.length == 1) return new Alloc(false);
                if (w.length == 2 && w[1].equals("reserve")) return new Alloc(true);
                throw expected(line, "alloc [reserve]");
            case "recycle":
            case "free": {
                String form = w[0] + " PAGE [shared]";
                if (w.length < 2 || w.length > 3 || (w.length == 3 && !w[2].equals("shared"))) throw expected(line, form);
                int page = number(w[1], line, form, 0, Integer.MAX_VALUE);
                boolean shared = w.length == 3;
                return w[0].equals("recycle") ? new Recycle(page, shared) : new Free(page, shared);
            }
            case "update-nid":
                if (w.length == 2) return new UpdateNid(number(w[1], line, "update-nid NODE", Numa.NUMA_NO_NODE, Numa.MAX_NUMNODES - 1));
                throw expected(line, "update-nid NODE");
            default:
                throw new IllegalArgumentException("found " + Printable.quote(line.strip()) + "; expected an action: poll, alloc, recycle, free or update-nid");
        }
    }

    /** A number of an action: ASCII digits (or -1 where {@code min} allows it), {@code min..max}. */
    private static int number(String word, String line, String form, int min, int max) {
        long v = word.equals("-1") && min < 0 ? -1 : InputText.decimalValue(word);
        if ((v < 0 && !word.equals("-1")) || v < min || v > max) throw expected(line, form);
        return (int) v;
    }

    private static IllegalArgumentException expected(String line, String form) {
        return new IllegalArgumentException("found " + Printable.quote(line.strip()) + "; expected " + form);
    }
}
