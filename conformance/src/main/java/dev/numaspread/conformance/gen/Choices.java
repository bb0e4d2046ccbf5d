package dev.numaspread.conformance.gen;

/**
 * The source every generator draws from: a choice sequence. A choice is a bounded integer; the
 * lower bound is the simplest value, so a shrinker that lowers choices makes inputs simpler.
 * Spans group the choices of one draw so the shrinker can delete or zero them together.
 */
public interface Choices {

    /** A choice in {@code lo..hi}, both included; {@code lo} is the simplest. */
    int choose(int lo, int hi);

    /** True with roughly {@code percent}% probability when drawing at random; false is simplest. */
    default boolean chance(int percent) {
        return choose(0, 99) >= 100 - percent;
    }

    /** Marks the start of the choices of one draw (a span). */
    void startSpan(String label);

    /** Ends the innermost open span. */
    void endSpan();
}
