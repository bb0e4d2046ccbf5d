package dev.numaspread.conformance.gen;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The {@link Choices} a generator draws from during one draw, recording every choice and span into
 * a {@link ChoiceSequence}. A recorder first replays a given prefix of indices (clamped to each
 * choice's bounds), then either draws at random from a seeded {@link SplittableRandom} or reads
 * the simplest value (index 0). One recorder serves one draw.
 */
public final class Recorder implements Choices {

    /** Longest choice sequence one draw may read; a longer draw is discarded as an overrun. */
    public static final int MAX_CHOICES = 20_000;

    private final int[] prefix;
    private final SplittableRandom random;   // null: past the prefix, read the simplest value

    private int[] values = new int[32];
    private int[] lowers = new int[32];
    private int[] uppers = new int[32];
    private int size;
    private final List<Span> spans = new ArrayList<>();
    private final Deque<int[]> open = new ArrayDeque<>();   // {index into spans, start}
    private final List<String> openLabels = new ArrayList<>();

    private Recorder(int[] prefix, SplittableRandom random) {
        this.prefix = prefix;
        this.random = random;
    }

    /** A recorder drawing at random from {@code seed}: the same seed gives the same choices. */
    public static Recorder random(long seed) {
        return new Recorder(new int[0], new SplittableRandom(seed));
    }

    /**
     * A recorder replaying {@code indices}: choice k reads {@code lower + min(indices[k], upper - lower)};
     * choices past the end read their lower bound.
     */
    public static Recorder replaying(int[] indices) {
        return new Recorder(indices.clone(), null);
    }

    /** A recorder that reads the simplest value (the lower bound) for every choice. */
    public static Recorder simplest() {
        return new Recorder(new int[0], null);
    }

    /** Draws one value from {@code gen} through this recorder. */
    public <T> T draw(Gen<T> gen) {
        return gen.generate(this);
    }

    @Override
    public int choose(int lo, int hi) {
        if (hi < lo) throw new IllegalArgumentException("choose(" + lo + ", " + hi + "): upper bound below lower bound");
        if ((long) hi - lo >= Integer.MAX_VALUE)
            throw new IllegalArgumentException("choose(" + lo + ", " + hi + "): range wider than " + (Integer.MAX_VALUE - 1));
        if (size >= MAX_CHOICES) throw new Gen.Unsatisfiable("draw read more than " + MAX_CHOICES + " choices");
        int maxIndex = hi - lo;
        int index;
        if (size < prefix.length) index = Math.min(prefix[size], maxIndex);
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

    /** The choices read so far; spans still open are closed at the current position. */
    public ChoiceSequence sequence() {
        List<Span> done = new ArrayList<>(spans);
        int depth = open.size();
        int k = openLabels.size() - 1;
        for (int[] o : open) {   // innermost first
            done.set(o[0], new Span(openLabels.get(k--), o[1], size, --depth));
        }
        return new ChoiceSequence(Arrays.copyOf(values, size), Arrays.copyOf(lowers, size),
                Arrays.copyOf(uppers, size), done);
    }
}
