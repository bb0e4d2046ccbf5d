package dev.numaspread.conformance.gen;

import java.util.List;
import java.util.Optional;

/**
 * What the choices of one span can be rewritten to, offered by the generator that drew them
 * ({@link Choices#endSpan(Rewrites)}). A generator with two forms (see {@link Choices#pinned})
 * draws its value at random in one and reads it element by element in the other, the literal
 * form; the shrinker first rewrites a failing draw into literal forms, whose edits mean
 * something (deleting a span removes one CPU), then also tries the simpler values the generator
 * names here (the machine without one of its CPUs), which no single edit of choices reaches.
 */
public interface Rewrites {

    /**
     * The choices that read the same value in the literal form, replayed in place of the span;
     * empty when the literal form cannot say this value.
     */
    Optional<int[]> literalForm();

    /**
     * Literal forms of simpler values, each a full replacement of the span's choices, in the order
     * to try. The shrinker keeps one only when the property still fails the same way and the whole
     * sequence gets strictly simpler.
     */
    List<int[]> simplerForms();
}
