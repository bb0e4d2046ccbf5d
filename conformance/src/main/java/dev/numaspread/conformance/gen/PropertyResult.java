package dev.numaspread.conformance.gen;

/**
 * What running a property gave. {@code seed} is always the seed that replays the run: for a
 * failure, the seed of the failing try, which the first try of a run with that seed draws again
 * ({@code -Dnumaspread.seed=0x...}).
 */
public sealed interface PropertyResult<T> permits PropertyResult.Passed, PropertyResult.Failed, PropertyResult.GaveUp,
        PropertyResult.Exhausted {

    long seed();

    /** The property held on {@code tries} inputs; {@code discards} draws were discarded. */
    record Passed<T>(int tries, int discards, long seed) implements PropertyResult<T> {}

    /**
     * The property failed. {@code failure} is what the shrunk {@code input} threw; {@code choices}
     * replays it ({@link Gen#replay(int...)} of {@link ChoiceSequence#indices()}); {@code tries}
     * counts the tries up to and including the first failing one; {@code shrinkSteps} the kept
     * edits and {@code shrinkCalls} the property runs of the shrinker.
     */
    record Failed<T>(Throwable failure, T input, ChoiceSequence choices, long seed, int tries,
                     int shrinkSteps, int shrinkCalls) implements PropertyResult<T> {

        /** How to replay: the seed as a system property, and the shrunk choices. */
        public String replayHint() {
            return "seed " + Property.hex(seed) + " (replay: -Dnumaspread.seed=" + Property.hex(seed)
                    + "); shrunk choices: " + choices.indicesText();
        }
    }

    /**
     * The property could not be judged: no try ran, or too many draws were discarded. Never a pass.
     * {@code reason} says which, in the shape "what was found; what was expected".
     */
    record GaveUp<T>(String reason, int tries, int discards, long seed) implements PropertyResult<T> {}

    /**
     * An exhaustive walk ({@link Property#exhaust}) met no failure: the body held on {@code cases}
     * inputs of the small scope (the shard's share of them), and the walk met {@code machines}
     * distinct machines (all of the scope's that the generator admits, when complete); {@code complete} is false when the time budget ended the walk first, so part of
     * the space was not covered (never a pass).
     */
    record Exhausted<T>(int cases, int machines, int discards, boolean complete, long seed) implements PropertyResult<T> {}
}
