package dev.numaspread.conformance.gen;

import java.util.OptionalInt;

/**
 * The source every generator draws from: a choice sequence. A choice is a bounded integer; the
 * lower bound is the simplest value, so a shrinker that lowers choices makes inputs simpler.
 * Spans group the choices of one draw so the shrinker can delete or zero them together.
 */
public interface Choices {

    /** A choice in {@code lo..hi}, both included; {@code lo} is the simplest. */
    int choose(int lo, int hi);

    /**
     * A choice in {@code lo..hi} that a random draw (and {@link Gen#simplest()}) always sets to
     * {@code drawn}, while a replay reads it as any other choice, {@code lo} past its end; an
     * enumeration reads {@code lo} and does not branch on it. Generators use it to say which form
     * the following choices take: drawn at random (a realistic machine), or literal at {@code lo},
     * the simpler form (the machine element by element, as the shrinker edits it;
     * {@link Rewrites}). Replayed sequences may hold either form.
     */
    default int pinned(int lo, int hi, int drawn) {
        return choose(lo, hi);
    }

    /** True with roughly {@code percent}% probability when drawing at random; false is simplest. */
    default boolean chance(int percent) {
        return choose(0, 99) >= 100 - percent;
    }

    /**
     * The index of a bucket, with probability proportional to {@code weights} when drawing at
     * random; bucket 0 is the simplest. One choice in {@code 0..sum-1} mapped to buckets in order,
     * so lowering the choice never moves to a later bucket. An enumeration reads one choice per
     * bucket instead ({@link Recorder#enumerating(int[], int)}).
     */
    default int weighted(int... weights) {
        int total = 0;
        for (int w : weights) total += w;
        int v = choose(0, total - 1);
        for (int i = 0, upTo = 0; i < weights.length; i++) {
            upTo += weights[i];
            if (v < upTo) return i;
        }
        throw new IllegalStateException("model invariant of Choices.weighted broken: " + v + " beyond " + total);
    }

    /**
     * The bound of the small scope when this draw is one case of an exhaustive enumeration: the
     * most CPUs of the machines it enumerates. Empty for random draws and their replays, where
     * generators draw realistic values.
     */
    default OptionalInt smallScope() {
        return OptionalInt.empty();
    }

    /** Marks the start of the choices of one draw (a span). */
    void startSpan(String label);

    /** Ends the innermost open span. */
    void endSpan();

    /**
     * Ends the innermost open span, saying what its value can be rewritten to: its literal form
     * and simpler literal forms, which the shrinker tries in place of the span.
     */
    default void endSpan(Rewrites rewrites) {
        endSpan();
    }
}
