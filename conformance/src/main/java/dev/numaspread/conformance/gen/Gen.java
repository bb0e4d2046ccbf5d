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
     * Keeps only values that pass {@code filter}, trying at most 100 draws.
     *
     * @throws Unsatisfiable when no draw passes
     */
    default Gen<T> filter(Predicate<? super T> filter) {
        return c -> {
            for (int k = 0; k < 100; k++) {
                T v = generate(c);
                if (filter.test(v)) return v;
            }
            throw new Unsatisfiable("no value passed the filter in 100 draws");
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
     * Lists of {@code min..max} elements. Each element is preceded by a "more?" choice, so deleting
     * an element's span shortens the list (Hypothesis' encoding).
     */
    static <T> Gen<List<T>> lists(Gen<T> element, int min, int max) {
        return c -> {
            List<T> out = new ArrayList<>();
            while (out.size() < max) {
                if (out.size() >= min) {
                    c.startSpan("more?");
                    int more = c.choose(0, 1);
                    c.endSpan();
                    if (more == 0) break;
                }
                c.startSpan("element");
                try {
                    out.add(element.generate(c));
                } finally {
                    c.endSpan();
                }
            }
            return out;
        };
    }

    /** A generator could not produce a value; the try is discarded, not failed. */
    final class Unsatisfiable extends RuntimeException {
        public Unsatisfiable(String message) {
            super(message);
        }
    }
}
