package dev.numaspread.conformance.gen;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The {@link Choices} a generator draws from during one draw, recording every choice and span into
 * a {@link ChoiceSequence}. A recorder first replays a given prefix of indices (clamped to each
 * choice's bounds), then either draws at random from a seeded {@link SplittableRandom} or reads
 * the simplest value (index 0). One recorder serves one draw.
 *
 * <p>An enumerating recorder ({@link #enumerating(int[], int)}) reads a prefix then zeros too, but
 * within a small scope: {@link #chance(int)} is one choice of two and {@link #weighted(int...)}
 * one choice per bucket, so that walking every sequence of indices ({@link Property#exhaust})
 * visits every case once, with no random weighting left in it.
 */
public final class Recorder implements Choices {

    /** Longest choice sequence one draw may read; a longer draw is discarded as an overrun. */
    public static final int MAX_CHOICES = 20_000;

    private final int[] prefix;
    private final SplittableRandom random;   // null: past the prefix, read the simplest value
    private final int scope;                 // 0: not an enumeration
    private final boolean drawnForms;        // pinned choices read their drawn value past the prefix

    private int[] values = new int[32];
    private int[] lowers = new int[32];
    private int[] uppers = new int[32];
    private int size;
    private final List<Span> spans = new ArrayList<>();
    private final TreeMap<Integer, Rewrites> rewrites = new TreeMap<>();   // span index -> its rewrites
    private final Deque<int[]> open = new ArrayDeque<>();   // {index into spans, start}
    private final List<String> openLabels = new ArrayList<>();

    private Recorder(int[] prefix, SplittableRandom random, int scope, boolean drawnForms) {
        this.prefix = prefix;
        this.random = random;
        this.scope = scope;
        this.drawnForms = drawnForms;
    }

    /** A recorder drawing at random from {@code seed}: the same seed gives the same choices. */
    public static Recorder random(long seed) {
        return new Recorder(new int[0], new SplittableRandom(seed), 0, true);
    }

    /**
     * A recorder replaying {@code indices}: choice k reads {@code lower + min(indices[k], upper - lower)};
     * choices past the end read their lower bound.
     */
    public static Recorder replaying(int[] indices) {
        return new Recorder(indices.clone(), null, 0, false);
    }

    /**
     * A recorder that reads the simplest value (the lower bound) for every choice, pinned choices
     * aside: they read the value random draws give them, so this is the simplest drawn value.
     */
    public static Recorder simplest() {
        return new Recorder(new int[0], null, 0, true);
    }

    /**
     * A recorder replaying {@code indices} of an enumeration within the small scope {@code scope}
     * ({@link Choices#smallScope()}): past the prefix it reads index 0, and chances and weights
     * are plain choices (see the class comment).
     *
     * @throws IllegalArgumentException when {@code scope < 1}
     */
    public static Recorder enumerating(int[] indices, int scope) {
        if (scope < 1) throw new IllegalArgumentException("small scope " + scope + "; expected at least 1");
        return new Recorder(indices.clone(), null, scope, false);
    }

    /** Draws one value from {@code gen} through this recorder. */
    public <T> T draw(Gen<T> gen) {
        return gen.generate(this);
    }

    @Override
    public int choose(int lo, int hi) {
        return record(lo, hi, -1);
    }

    @Override
    public int pinned(int lo, int hi, int drawn) {
        if (drawn < lo || drawn > hi) throw new IllegalArgumentException("pinned(" + lo + ", " + hi + ", " + drawn + "): drawn value out of bounds");
        if (scope > 0) return record(lo, lo, -1);   // not a branch of the enumeration: the literal form
        return record(lo, hi, drawnForms ? drawn - lo : -1);
    }

    @Override
    public boolean chance(int percent) {
        if (scope > 0) return choose(0, 1) == 1;
        return Choices.super.chance(percent);
    }

    @Override
    public int weighted(int... weights) {
        if (scope == 0) return Choices.super.weighted(weights);
        // The buckets of positive weight, one choice among them: a plain loop, as a walk asks on millions of leaves.
        int[] buckets = new int[weights.length];
        int n = 0;
        for (int i = 0; i < weights.length; i++) if (weights[i] > 0) buckets[n++] = i;
        return buckets[choose(0, n - 1)];
    }

    @Override
    public OptionalInt smallScope() {
        return scope > 0 ? OptionalInt.of(scope) : OptionalInt.empty();
    }

    /** Records one choice; {@code randomIndex} >= 0 is the index read past the prefix instead of a random or the simplest one. */
    private int record(int lo, int hi, int randomIndex) {
        if (hi < lo) throw new IllegalArgumentException("choose(" + lo + ", " + hi + "): upper bound below lower bound");
        if ((long) hi - lo >= Integer.MAX_VALUE)
            throw new IllegalArgumentException("choose(" + lo + ", " + hi + "): range wider than " + (Integer.MAX_VALUE - 1));
        if (size >= MAX_CHOICES) throw new Gen.Unsatisfiable("draw read more than " + MAX_CHOICES + " choices");
        int maxIndex = hi - lo;
        int index;
        if (size < prefix.length) index = Math.min(prefix[size], maxIndex);
        else if (randomIndex >= 0) index = randomIndex;
        else if (random != null) index = maxIndex == 0 ? 0 : random.nextInt(maxIndex + 1);
        else index = 0;
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
            lowers = Arrays.copyOf(lowers, size * 2);
            uppers = Arrays.copyOf(uppers, size * 2);
        }
        values[size] = lo + index;
        lowers[size] = lo;
        uppers[size] = hi;
        size++;
        return lo + index;
    }

    @Override
    public void startSpan(String label) {
        open.push(new int[] {spans.size(), size});
        openLabels.add(label);
        spans.add(null);   // placeholder keeps spans in start order; filled by endSpan
    }

    @Override
    public void endSpan() {
        if (open.isEmpty()) throw new IllegalStateException("endSpan() without startSpan(): generator spans unbalanced");
        int[] o = open.pop();
        String label = openLabels.remove(openLabels.size() - 1);
        spans.set(o[0], new Span(label, o[1], size, open.size()));
    }

    @Override
    public void endSpan(Rewrites r) {
        if (open.isEmpty()) throw new IllegalStateException("endSpan() without startSpan(): generator spans unbalanced");
        rewrites.put(open.peek()[0], r);
        endSpan();
    }

    /** The choices read so far; spans still open are closed at the current position. */
    public ChoiceSequence sequence() {
        List<Span> done = new ArrayList<>(spans);
        int depth = open.size();
        int k = openLabels.size() - 1;
        for (int[] o : open) {   // innermost first
            done.set(o[0], new Span(openLabels.get(k--), o[1], size, --depth));
        }
        return new ChoiceSequence(Arrays.copyOf(values, size), Arrays.copyOf(lowers, size),
                Arrays.copyOf(uppers, size), done, rewrites, scope);
    }
}
