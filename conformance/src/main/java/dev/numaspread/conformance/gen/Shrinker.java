package dev.numaspread.conformance.gen;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Shrinks a failing choice sequence (the <em>shrink target</em>) to a simpler one that fails the
 * same way, by editing the sequence and replaying it; generators are never asked how to shrink.
 *
 * <h2>The rule for keeping an edit</h2>
 * An edited sequence is replayed; the choices the replay actually read become the candidate. The
 * candidate replaces the target when (1) the property fails on it with the same <em>failure
 * key</em> as the first failure, and (2) it is strictly simpler in the shortlex order of
 * {@link ChoiceSequence}. The failure key is chosen by the caller; the checks use the rule id of
 * the {@code Violation} (a shrink never slips from one rule to another, so the report names the
 * rule that first failed) and the exception class for other failures. Candidates that pass, whose
 * generator gives up ({@link Gen.Unsatisfiable}) or throws, are dropped.
 *
 * <h2>Invariants every pass keeps</h2>
 * <ul>
 *   <li>Deterministic: passes visit positions in a fixed order and the outcome depends only on
 *       the target and the property's answers.</li>
 *   <li>Progress is strict: every kept edit makes the target strictly simpler, so shrinking ends
 *       even without the call budget.</li>
 *   <li>No pass loops to a fixed point by itself: each makes one sweep over positions; the loop in
 *       {@link #shrink()} repeats the passes while any made progress.</li>
 *   <li>Indices stay valid: a pass re-reads the target after every kept edit and checks its
 *       position against the current size and span count before using it.</li>
 *   <li>Bounded: at most {@code maxCalls} property runs (and no runs after the deadline).</li>
 * </ul>
 *
 * <p>Passes run in this order: the cheap ones ({@link #rewriteSpan()}, {@link #deleteSpan()},
 * {@link #deleteChoices()}, {@link #zeroSpan()}, {@link #lowerChoice()}, {@link #sortNeighbours()})
 * until none makes progress, then the quadratic ones ({@link #lowerAndRaise()},
 * {@link #deleteSpanAndRaise()}), and again.
 */
public final class Shrinker {

    /** What running the property on one replayed choice sequence gave. */
    public sealed interface Outcome permits Outcome.Passed, Outcome.Invalid, Outcome.Failed {
        /** The property held. */
        record Passed() implements Outcome {}

        /** The generator could not draw a value from this sequence; neither a pass nor a failure. */
        record Invalid(String reason) implements Outcome {}

        /** The property failed; {@code key} says which way (same key = same failure). */
        record Failed(String key, Throwable failure) implements Outcome {}
    }

    /** One run of the property: the choices the replay read, and what the property said. */
    public record Attempt(ChoiceSequence sequence, Outcome outcome) {}

    /** Replays {@code indices} through the generator and runs the property on the value. */
    @FunctionalInterface
    public interface Test {
        Attempt run(int[] indices);
    }

    /**
     * What shrinking gave: the simplest failing sequence found, its failure, the number of kept
     * edits ({@code steps}), the property runs spent, and whether the budget ran out first.
     */
    public record Result(ChoiceSequence target, Throwable failure, int steps, int calls, boolean exhausted) {}

    /** The value raised choices get; replay clamps it to the choice's upper bound. */
    private static final int RAISED = Integer.MAX_VALUE;

    private final Test test;
    private final String key;
    private final int maxCalls;
    private final long deadlineNanos;
    private ChoiceSequence target;
    private int[] indices;
    private Throwable failure;
    private int steps;
    private int calls;
    private boolean exhausted;
    private final Set<Key> tried = new HashSet<>();   // membership only; never iterated

    /**
     * A shrinker starting from {@code target}, which failed with {@code failed}.
     *
     * @param maxCalls      most property runs to spend
     * @param deadlineNanos {@link System#nanoTime()} after which no run starts
     */
    public Shrinker(ChoiceSequence target, Outcome.Failed failed, Test test, int maxCalls, long deadlineNanos) {
        this.target = target;
        this.indices = target.indices();
        this.failure = failed.failure();
        this.key = failed.key();
        this.test = test;
        this.maxCalls = maxCalls;
        this.deadlineNanos = deadlineNanos;
        tried.add(new Key(indices));
    }

    /** The simplest failing sequence the passes reach within the budget. */
    public Result shrink() {
        while (!exhausted) {
            // The generators' own removals first: a whole node, core or CPU in one edit, which
            // the edits of single choices below reach slowly or not at all.
            boolean progress = rewriteSpan();
            progress |= deleteSpan();
            progress |= deleteChoices();
            progress |= zeroSpan();
            progress |= lowerChoice();
            progress |= sortNeighbours();
            if (progress) continue;
            // Cheap where it applies: few choices after a machine are above their lower bound.
            progress = rewriteSpanAndLower();
            if (progress) continue;
            progress = lowerAndRaise();
            progress |= deleteSpanAndRaise();
            if (!progress) break;
        }
        return new Result(target, failure, steps, calls, exhausted);
    }

    // ---------------------------------------------------------------- passes

    /**
     * Deletes one span at a time (a list element, a node, a whole sub-draw), outermost first.
     * Invariants: one sweep over span positions; after a kept edit the same position is tried again,
     * since it now names the next span of the new target; the position is checked against the
     * current span count.
     */
    boolean deleteSpan() {
        boolean progress = false;
        for (int s = 0; s < target.spans().size() && !exhausted; ) {
            Span span = target.spans().get(s);
            if (!span.isEmpty() && consider(delete(indices, span.start(), span.end()))) progress = true;
            else s++;
        }
        return progress;
    }

    /**
     * Deletes blocks of 2, then single choices, that no span covers exactly (a flag next to the
     * value it guards). Invariants: one sweep per block size; a kept edit keeps the position, which
     * is checked against the current size.
     */
    boolean deleteChoices() {
        boolean progress = false;
        for (int k = 2; k >= 1; k--) {
            for (int i = 0; i + k <= indices.length && !exhausted; ) {
                if (consider(delete(indices, i, i + k))) progress = true;
                else i++;
            }
        }
        return progress;
    }

    /**
     * Sets every choice of one span to its lower bound. Invariants: one sweep over span positions;
     * spans already all zero are skipped; positions are checked against the current span count.
     */
    boolean zeroSpan() {
        boolean progress = false;
        for (int s = 0; s < target.spans().size() && !exhausted; s++) {
            Span span = target.spans().get(s);
            if (span.end() > indices.length || allZero(span.start(), span.end())) continue;
            int[] c = indices.clone();
            Arrays.fill(c, span.start(), span.end(), 0);
            progress |= consider(c);
        }
        return progress;
    }

    /**
     * Lowers one choice at a time: first to 0, else by binary search to the smallest index that
     * still fails (assuming failure is monotone in that choice; where it is not, the search still
     * only keeps failing, simpler candidates). Invariants: one sweep, left to right; the position
     * is checked against the current size; choices before the position never change.
     */
    boolean lowerChoice() {
        boolean progress = false;
        for (int i = 0; i < indices.length && !exhausted; i++) progress |= lowerAt(i);
        return progress;
    }

    /**
     * Swaps the contents of two neighbouring spans with the same label, depth and length when the
     * later one's choices are lexicographically smaller ({@code [16, 4]} becomes {@code [4, 16]}).
     * Invariants: one sweep over span positions; each span is compared with the next matching
     * span only; positions are checked against the current span count.
     */
    boolean sortNeighbours() {
        boolean progress = false;
        for (int s = 0; s < target.spans().size() && !exhausted; s++) {
            List<Span> spans = target.spans();
            Span a = spans.get(s);
            if (a.isEmpty()) continue;
            Span b = null;
            for (int t = s + 1; t < spans.size(); t++) {
                Span x = spans.get(t);
                if (x.start() >= a.end() && x.depth() == a.depth() && x.label().equals(a.label())) {
                    b = x;
                    break;
                }
            }
            if (b == null || b.length() != a.length() || b.end() > indices.length) continue;
            int[] ca = Arrays.copyOfRange(indices, a.start(), a.end());
            int[] cb = Arrays.copyOfRange(indices, b.start(), b.end());
            if (Arrays.compare(cb, ca) >= 0) continue;
            int[] c = indices.clone();
            System.arraycopy(cb, 0, c, a.start(), cb.length);
            System.arraycopy(ca, 0, c, b.start(), ca.length);
            progress |= consider(c);
        }
        return progress;
    }

    /**
     * Puts in place of a span each simpler literal form its generator names ({@link Rewrites}: the
     * machine without one CPU, without one node), which no edit of single choices reaches when
     * the CPU is referred to by later choices. Invariants: one sweep over span positions; after a
     * kept edit the same position is tried again with the new target's rewrites; positions are
     * checked against the current span count.
     */
    boolean rewriteSpan() {
        return sweepRewrites((span, form) -> consider(spliced(span, form)));
    }

    /**
     * The sweep of the two rewrite passes: at each span position whose generator names simpler
     * forms, {@code edit} tries the forms in order until it keeps one; after a kept edit the same
     * position is tried again with the new target's rewrites, else the sweep moves on. Positions
     * are checked against the current span count and size.
     */
    private boolean sweepRewrites(BiPredicate<Span, int[]> edit) {
        boolean progress = false;
        for (int s = 0; s < target.spans().size() && !exhausted; ) {
            Rewrites r = target.rewrites().get(s);
            Span span = target.spans().get(s);
            boolean kept = false;
            if (r != null && span.end() <= indices.length) {
                for (int[] form : r.simplerForms()) {
                    if (exhausted) break;
                    if (edit.test(span, form)) {
                        kept = true;
                        break;
                    }
                }
            }
            if (kept) progress = true;
            else s++;
        }
        return progress;
    }

    /** The current target with {@code form} in place of {@code span}'s choices. */
    private int[] spliced(Span span, int[] form) {
        int[] c = new int[indices.length - span.length() + form.length];
        System.arraycopy(indices, 0, c, 0, span.start());
        System.arraycopy(form, 0, c, span.start(), form.length);
        System.arraycopy(indices, span.end(), c, span.start() + form.length, indices.length - span.end());
        return c;
    }

    /**
     * Puts a simpler literal form in place of a span ({@link #rewriteSpan}) while lowering one later
     * choice by one: a machine one core smaller with one group fewer, where each edit alone leaves
     * the property not failing (three SMT-4 cores in three groups become two in two). Runs when
     * the single edits stall, before the quadratic passes; it tries only the later choices above
     * their lower bound, few after a literal machine. Invariants: one sweep over span positions; at most
     * one kept edit per position, after which the same position is tried again; positions are
     * checked against the current span count and size.
     */
    boolean rewriteSpanAndLower() {
        return sweepRewrites((span, form) -> {
            int[] c = spliced(span, form);
            for (int j = span.start() + form.length; j < c.length && !exhausted; j++) {
                if (c[j] == 0) continue;
                int[] lowered = c.clone();
                lowered[j]--;
                if (consider(lowered)) return true;
            }
            return false;
        });
    }

    /**
     * Lowers choice i (to 0, else by one and then by binary search) while raising a later choice j
     * to its upper bound ({@code [7, 13]} with "sum >= 20" becomes {@code [4, 16]}; SMT 2 with 2
     * cores becomes SMT 1 with many cores, which lowerChoice then trims). Quadratic: runs only when
     * the cheap passes stall. Invariants: one sweep over i; for each i at most one kept edit, after
     * which i moves on; positions are checked against the current size.
     */
    boolean lowerAndRaise() {
        boolean progress = false;
        for (int i = 0; i < indices.length && !exhausted; i++) {
            if (indices[i] == 0) continue;
            for (int j = i + 1; j < indices.length && !exhausted; j++) {
                if (target.index(j) >= target.maxIndex(j)) continue;
                int[] c = indices.clone();
                c[i] = 0;
                c[j] = RAISED;
                if (consider(c)) {
                    progress = true;
                    break;
                }
                if (indices[i] == 1) continue;
                c[i] = indices[i] - 1;
                if (consider(c)) {
                    lowerAt(i);
                    progress = true;
                    break;
                }
            }
        }
        return progress;
    }

    /**
     * Deletes one span while raising one other choice to its upper bound ({@code [1, 3, 16]} with
     * "sum >= 20" becomes {@code [16, 16]}, which lowerChoice then trims to length 2). Quadratic:
     * runs only when the cheap passes stall. Invariants: one sweep over span positions; at most one
     * kept edit per position, after which the same position is tried again (it names the next
     * span); positions are checked against the current span count and size.
     */
    boolean deleteSpanAndRaise() {
        boolean progress = false;
        for (int s = 0; s < target.spans().size() && !exhausted; ) {
            Span span = target.spans().get(s);
            boolean kept = false;
            if (!span.isEmpty()) {
                int[] base = delete(indices, span.start(), span.end());
                for (int j = 0; j < base.length && !exhausted && !kept; j++) {
                    int[] c = base.clone();
                    c[j] = RAISED;
                    kept = consider(c);
                }
            }
            if (kept) progress = true;
            else s++;
        }
        return progress;
    }

    // ---------------------------------------------------------------- mechanics

    /** Lowers choice i of the current target as far as it keeps failing; true when it moved. */
    private boolean lowerAt(int i) {
        if (i >= indices.length || indices[i] == 0) return false;
        if (consider(with(indices, i, 0))) return true;
        int passes = 0;           // index known not to fail (or not to be simpler)
        int fails = indices[i];   // index known to fail: the target's
        boolean moved = false;
        while (fails - passes > 1 && !exhausted) {
            int mid = passes + (fails - passes) / 2;
            if (consider(with(indices, i, mid))) {
                fails = indices[i];   // the kept target has index mid at i: bounds before i did not change
                moved = true;
            } else {
                passes = mid;
            }
        }
        return moved;
    }

    /**
     * Replays {@code candidate} and keeps it when it fails the same way and is strictly simpler.
     * Counts one property run unless the candidate was tried before.
     */
    private boolean consider(int[] candidate) {
        if (exhausted) return false;
        if (!tried.add(new Key(candidate))) return false;
        if (calls >= maxCalls || System.nanoTime() - deadlineNanos > 0) {
            exhausted = true;
            return false;
        }
        calls++;
        Attempt a = test.run(candidate);
        if (a.outcome() instanceof Outcome.Failed f && f.key().equals(key) && a.sequence().isSimplerThan(target)) {
            target = a.sequence();
            indices = target.indices();
            failure = f.failure();
            steps++;
            tried.add(new Key(indices));
            return true;
        }
        return false;
    }

    private boolean allZero(int from, int to) {
        for (int i = from; i < to; i++) if (indices[i] != 0) return false;
        return true;
    }

    private static int[] delete(int[] a, int from, int to) {
        int[] out = new int[a.length - (to - from)];
        System.arraycopy(a, 0, out, 0, from);
        System.arraycopy(a, to, out, from, a.length - to);
        return out;
    }

    private static int[] with(int[] a, int i, int v) {
        int[] c = a.clone();
        c[i] = v;
        return c;
    }

    /** An index array compared by content (a record holding an array would compare by identity). */
    private static final class Key {
        private final int[] a;

        Key(int[] a) {
            this.a = a.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(a, k.a);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(a);
        }
    }
}
