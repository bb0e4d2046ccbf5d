package dev.numaspread.model.pagepool;

/** Where a page of a pool is (PP-7: every page is in exactly one place). */
public enum Place {
    /** {@code pool->alloc.cache}: the per-NAPI stack the next allocation pops first (LIFO). */
    CACHE("cache"),
    /** {@code pool->ring}: the ptr_ring recycled pages wait in (FIFO). */
    RING("ring"),
    /** Handed to the driver by an allocation, not yet recycled or freed. */
    IN_USE("in-use"),
    /** Back with the page allocator: no longer the pool's ({@code page_pool_return_page}). */
    ALLOCATOR("allocator");

    private final String word;

    Place(String word) {
        this.word = word;
    }

    /** The word scripts, protocol and reports use: {@code cache}, {@code ring}, {@code in-use}, {@code allocator}. */
    public String word() {
        return word;
    }

    /** The place named {@code word}. */
    public static Place of(String word) {
        for (Place p : values()) if (p.word.equals(word)) return p;
        throw new IllegalArgumentException("place '" + word + "'; expected cache, ring, in-use or allocator");
    }
}
