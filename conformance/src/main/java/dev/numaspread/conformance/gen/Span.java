package dev.numaspread.conformance.gen;

/**
 * The choices of one draw: positions {@code start} (included) to {@code end} (excluded) of a
 * choice sequence, opened by {@link Choices#startSpan(String)}. Spans nest; {@code depth} 0 is
 * outermost. The shrinker deletes, zeroes and swaps whole spans, which is why a composed generator
 * shrinks "by structure" (a whole list element, a whole node) without knowing its type.
 */
public record Span(String label, int start, int end, int depth) {
    public Span {
        if (start < 0 || end < start)
            throw new IllegalArgumentException("span " + label + " [" + start + ", " + end + "); expected 0 <= start <= end");
    }

    /** The number of choices in the span. */
    public int length() {
        return end - start;
    }

    public boolean isEmpty() {
        return end == start;
    }
}
