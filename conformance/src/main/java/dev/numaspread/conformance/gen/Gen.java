package dev.numaspread.conformance.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generator: turns choices into a value. Composed generators shrink for free, because the
 * shrinker edits the recorded choice sequence, never the value.
 */
@FunctionalInterface
public interface Gen<T> {

    T generate(Choices choices);

    default <R> Gen<R> map(Function<? super T, ? extends R> f) {
        return c -> f.apply(generate(c));
    }

    default <R> Gen<R> flatMap(Function<? super T, Gen<R>> f) {
        return c -> f.apply(generate(c)).generate(c);
    }

    /** Draws inside a span labelled {@code label}. */
    default Gen<T> labelled(String label) {
        return c -> {
            c.startSpan(label);
            try {
                return generate(c);
            } finally {
                c.endSpan();
            }
        };
    }

    /**
     * Keeps only values that pass {@code filter}, trying at most 100 draws, each in a span
     * {@code "filtered draw"} so the shrinker can delete the draws that did not pass. Within a
     * small scope ({@link Choices#smallScope()}) one draw only: the enumeration visits every value
     * anyway, and a second draw would visit the passing ones again.
     *
     * @throws Unsatisfiable when no draw passes
     */
    default Gen<T> filter(Predicate<? super T> filter) {
        return c -> {
            int draws = c.smallScope().isPresent() ? 1 : 100;
            for (int k = 0; k < draws; k++) {
                c.startSpan("filtered draw");
                T v;
                try {
                    v = generate(c);
                } finally {
                    c.endSpan();
                }
                if (filter.test(v)) return v;
            }
            throw new Unsatisfiable("no value passed the filter in " + draws + " draws");
        };
    }

    static Gen<Integer> ints(int lo, int hi) {
        return c -> c.choose(lo, hi);
    }

    static <T> Gen<T> constant(T value) {
        return c -> value;
    }

    /** One of the values; the first is the simplest. */
    @SafeVarargs
    static <T> Gen<T> oneOf(T... values) {
        return c -> values[c.choose(0, values.length - 1)];
    }

    static <T> Gen<T> oneOf(List<T> values) {
        return c -> values.get(c.choose(0, values.size() - 1));
    }

    /**
     * Lists of {@code min..max} elements. Each element past the first {@code min} sits in one span
     * {@code "list element"} that starts with its "more?" choice (1 = one more element, 0 = stop;
     * Hypothesis' encoding), so deleting that span removes exactly one element and the list stays
     * valid. The element's own choices sit in a nested span {@code "list value"}, which
     * {@code sortNeighbours} swaps with the next element's. Within a small scope of {@code n}
     * ({@link Choices#smallScope()}), at most {@code min + n} elements: the scope bounds every size.
     */
    static <T> Gen<List<T>> lists(Gen<T> element, int min, int max) {
        if (min < 0 || max < min) throw new IllegalArgumentException("lists(" + min + ", " + max + "): expected 0 <= min <= max");
        return c -> {
            List<T> out = new ArrayList<>();
            int most = c.smallScope().isPresent() ? (int) Math.min(max, (long) min + c.smallScope().getAsInt()) : max;
            while (out.size() < most) {
                c.startSpan("list element");
                try {
                    if (out.size() >= min && c.choose(0, 1) == 0) break;
                    c.startSpan("list value");
                    try {
                        out.add(element.generate(c));
                    } finally {
                        c.endSpan();
                    }
                } finally {
                    c.endSpan();
                }
            }
            return out;
        };
    }

    /**
     * The index of a bucket, drawn with probability proportional to {@code weights}; bucket 0 is the
     * simplest ({@link Choices#weighted(int...)}).
     */
    static Gen<Integer> weighted(int... weights) {
        int total = 0;
        for (int w : weights) {
            if (w < 0) throw new IllegalArgumentException("weighted: weight " + w + " is negative");
            total += w;
        }
        if (total <= 0) throw new IllegalArgumentException("weighted: the weights sum to " + total + "; expected a positive sum");
        int[] copy = weights.clone();
        return c -> c.weighted(copy);
    }

    /** Pairs drawn from two generators, {@code a} first. */
    static <A, B, R> Gen<R> zip(Gen<A> a, Gen<B> b, java.util.function.BiFunction<? super A, ? super B, ? extends R> f) {
        return c -> {
            A x = a.generate(c);
            return f.apply(x, b.generate(c));
        };
    }

    /** The value every choice at its lower bound gives: what the shrinker aims for. */
    default T simplest() {
        return Recorder.simplest().draw(this);
    }

    /** The value that replays {@code indices} (see {@link ChoiceSequence}): a reported counterexample. */
    default T replay(int... indices) {
        return Recorder.replaying(indices).draw(this);
    }

    /** One value drawn at random from {@code seed}. */
    default T sample(long seed) {
        return Recorder.random(seed).draw(this);
    }

    /** A generator could not produce a value; the try is discarded, not failed. */
    final class Unsatisfiable extends RuntimeException {
        public Unsatisfiable(String message) {
            super(message);
        }
    }
}
