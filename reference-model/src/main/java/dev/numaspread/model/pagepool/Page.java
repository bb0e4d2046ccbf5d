package dev.numaspread.model.pagepool;

/**
 * One page a page pool got from the page allocator (spec/page-pool.md). Immutable: where the page
 * is lives in the pool, not in the page.
 *
 * @param id         the page allocator numbers the pages it hands to one pool from 0, in the order
 *                   it hands them out (a bulk allocation numbers its pages in array order)
 * @param node       {@code page_to_nid(page)}: the node whose memory holds the page
 * @param pfmemalloc {@code page_is_pfmemalloc(page)}: the allocator dipped into the emergency
 *                   reserves for it, so it must go back as soon as it is freed (PP-9)
 */
public record Page(int id, int node, boolean pfmemalloc) {
    public Page {
        if (id < 0) throw new IllegalArgumentException("page id " + id + "; expected >= 0");
        if (node < 0) throw new IllegalArgumentException("page " + id + " on node " + node + "; a page is always on a node");
    }

    /** {@code page 3 (node 1)}, {@code page 4 (node 0, pfmemalloc)}. */
    public String text() {
        return "page " + id + " (node " + node + (pfmemalloc ? ", pfmemalloc" : "") + ")";
    }
}
