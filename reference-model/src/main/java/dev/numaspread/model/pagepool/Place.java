package dev.numaspread.model.pagepool;

/** Where a page of a pool is (PP-7: every page is in exactly one place). */
public enum Place {
    /** {@code pool->alloc.cache}: the per-NAPI stack the next allocation pops first (LIFO). */
    CACHE("alloc cache"),
    /** {@code pool->ring}: the ptr_ring given-back pages wait in (FIFO). */
    PTR_RING("ptr_ring"),
    /** Handed to the driver by an allocation, not yet recycled or freed. */
    IN_USE("in use"),
    /** Back with the page allocator: no longer the pool's ({@code page_pool_return_page}). */
    ALLOCATOR("page allocator");

    private final String word;

    Place(String word) {
        this.word = word;
    }

    /** The words features, protocol and reports use: {@code alloc cache}, {@code ptr_ring}, {@code in use}, {@code page allocator}. */
    public String word() {
        return word;
    }

    /** The place in a sentence: {@code the alloc cache}, {@code the ptr_ring}, {@code in use}, {@code the page allocator}. */
    public String text() {
        return this == IN_USE ? word : "the " + word;
    }

    /** Where a page is, in a sentence: {@code in the alloc cache}, {@code in the ptr_ring}, {@code in use}, {@code back with the page allocator}. */
    public String whereAPageIs() {
        return switch (this) {
            case CACHE, PTR_RING -> "in " + text();
            case IN_USE -> text();
            case ALLOCATOR -> "back with " + text();
        };
    }

    /** The place named {@code word}. */
    public static Place of(String word) {
        for (Place p : values()) if (p.word.equals(word)) return p;
        throw new IllegalArgumentException("place '" + word + "'; expected alloc cache, ptr_ring, in use or page allocator");
    }
}
