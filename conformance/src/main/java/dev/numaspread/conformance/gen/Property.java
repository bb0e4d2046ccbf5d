package dev.numaspread.conformance.gen;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Runs a property: draws inputs from a generator at random, runs the body on each, and on the
 * first failure shrinks the input's choice sequence ({@link Shrinker}) and reports the simplest
 * failing input with the seed that replays it.
 *
 * <p>A try is one input on which the body ran. A draw that throws {@link Gen.Unsatisfiable} (from
 * the generator, or from the body as an assumption) is a discard, not a try. The run gives up
 * (never passes) when no try ran or when discards exceed {@link Config#maxDiscards()}.
 *
 * <p>Seeds: try 0 draws from {@code config.seed()} itself; try k &gt; 0 from the k-th long of a
 * {@link SplittableRandom} seeded with it. A failure reports the failing try's seed, so a run with
 * that seed fails on its first try and, the shrinker being deterministic, shrinks to the same input.
 */
public final class Property {
    private Property() {}

    /**
     * How hard to try.
     *
     * @param tries          inputs to run the body on
     * @param seed           the run's seed
     * @param budget         time for the tries; shrinking gets the same budget again
     * @param maxShrinkCalls most property runs while shrinking
     * @param maxDiscards    most discarded draws before giving up
     */
    public record Config(int tries, long seed, Duration budget, int maxShrinkCalls, int maxDiscards) {
        public Config {
            if (tries < 1) throw new IllegalArgumentException("tries " + tries + "; expected at least 1");
            if (maxShrinkCalls < 0) throw new IllegalArgumentException("maxShrinkCalls " + maxShrinkCalls + "; expected at least 0");
            if (maxDiscards < 0) throw new IllegalArgumentException("maxDiscards " + maxDiscards + "; expected at least 0");
        }

        /** 200 tries, seed 0x5eed, 20 s, 5000 shrink calls, 10 discards per try. */
        public static Config defaults() {
            return of(200, 0x5eedL, Duration.ofSeconds(20));
        }

        /** {@code tries} tries, 5000 shrink calls (system property {@code numaspread.shrink.calls}), 10 discards per try. */
        public static Config of(int tries, long seed, Duration budget) {
            return new Config(tries, seed, budget, Integer.getInteger("numaspread.shrink.calls", 5000),
                    Math.max(100, 10 * tries));
        }

        public Config withTries(int n) {
            return new Config(n, seed, budget, maxShrinkCalls, Math.max(maxDiscards, 10 * n));
        }

        public Config withSeed(long s) {
            return new Config(tries, s, budget, maxShrinkCalls, maxDiscards);
        }

        public Config withMaxShrinkCalls(int n) {
            return new Config(tries, seed, budget, n, maxDiscards);
        }

        public Config withMaxDiscards(int n) {
            return new Config(tries, seed, budget, maxShrinkCalls, n);
        }
    }

    /** Failure key of plain properties: the class of what the body threw. */
    public static String failureClass(Throwable t) {
        return t.getClass().getName();
    }

    /** Runs {@code body} on inputs from {@code gen}; failures with the same exception class shrink together. */
    public static <T> PropertyResult<T> check(Gen<T> gen, Consumer<? super T> body, Config config) {
        return check(gen, body, config, Property::failureClass);
    }

    /**
     * Runs {@code body} on inputs from {@code gen}.
     *
     * @param failureKey says which way a body failed; the shrinker keeps an edit only while the key
     *                   stays the same (the checks pass the violated rule id)
     * @throws RuntimeException what the generator threw other than {@link Gen.Unsatisfiable}: a
     *                          generator bug, not a failure of the body
     */
    public static <T> PropertyResult<T> check(Gen<T> gen, Consumer<? super T> body, Config config,
                                              Function<Throwable, String> failureKey) {
        return check(gen, body, config, failureKey, t -> true);
    }

    /**
     * Runs {@code body} on inputs from {@code gen}; a failure that {@code shrinks} rejects is
     * reported on the input that first showed it, unshrunk: it is not about the input (a crashed
     * or hung implementation), and running the body again would only repeat the cost.
     */
    public static <T> PropertyResult<T> check(Gen<T> gen, Consumer<? super T> body, Config config,
                                              Function<Throwable, String> failureKey, Predicate<Throwable> shrinks) {
        return check(gen, body, config, failureKey, shrinks, Shard.WHOLE);
    }

    /**
     * Runs the share {@code shard} of the tries of {@code config}: the run draws the same inputs
     * from the same seeds as the whole run, numbers the draws the generator accepts 0, 1, 2, ...
     * (the try slots) up to {@code config.tries()}, and runs the body on the slots the shard owns
     * ({@link Shard#owns}); the shards of a split run together run the body on exactly the whole
     * run's inputs (a body that discards its input as an assumption spends its slot). A passed
     * result counts the shard's tries: fewer than {@link Shard#shareOf} means the budget ended it;
     * a shard whose share is empty (fewer tries than shards) passes with 0 tries, drawing nothing.
     */
    public static <T> PropertyResult<T> check(Gen<T> gen, Consumer<? super T> body, Config config,
                                              Function<Throwable, String> failureKey, Predicate<Throwable> shrinks, Shard shard) {
        // A property of fewer tries than shards leaves some shards none: nothing to draw.
        if (shard.shareOf(config.tries()) == 0) return new PropertyResult.Passed<>(0, 0, config.seed());
        SplittableRandom seeds = new SplittableRandom(config.seed());
        long deadline = System.nanoTime() + config.budget().toNanos();
        int tries = 0;
        int discards = 0;
        int slots = 0;
        for (int draw = 0; (shard.isWhole() ? tries : slots) < config.tries(); draw++) {
            if (tries > 0 && System.nanoTime() - deadline > 0) break;
            long trySeed = draw == 0 ? config.seed() : seeds.nextLong();
            Recorder recorder = Recorder.random(trySeed);
            T input;
            try {
                input = recorder.draw(gen);
            } catch (Gen.Unsatisfiable e) {
                if (++discards > config.maxDiscards()) return gaveUp(tries, discards, config);
                continue;
            }
            if (!shard.isWhole() && !shard.owns(slots++)) continue;   // another shard's try
            try {
                body.accept(input);
                tries++;
            } catch (Gen.Unsatisfiable e) {
                if (++discards > config.maxDiscards()) return gaveUp(tries, discards, config);
            } catch (RuntimeException | Error e) {
                tries++;
                if (!shrinks.test(e)) return new PropertyResult.Failed<>(e, input, recorder.sequence(), trySeed, tries, 0, 0);
                return shrink(gen, body, config, failureKey, recorder.sequence(), input, e, trySeed, tries);
            }
        }
        if (tries == 0) return gaveUp(0, discards, config);
        return new PropertyResult.Passed<>(tries, discards, config.seed());
    }

    /**
     * Runs {@code body} on every input {@code gen} gives within the small scope {@code scope}
     * ({@link Choices#smallScope()}: machines of at most {@code scope} CPUs, every count, node and
     * index a check draws on them), or on the share {@code shard} of them, instead of on random ones.
     *
     * <p>The walk: a draw replays a prefix of choice indices and reads index 0 past it
     * ({@link Recorder#enumerating}); the next prefix is the drawn sequence cut after its last
     * choice below its largest index, with that choice raised by one. So the draws visit the
     * leaves of the tree of choice sequences in lexicographic order, each once: a choice's bounds
     * depend only on the choices before it (generators are deterministic), so every prefix the
     * walk makes is one the generator reads, and raising the last choice that can still rise is
     * the lexicographic successor among sequences that share nothing past it. The walk ends when
     * no choice can rise. Chances and weights are one branch per outcome within a scope, filters
     * draw once, lists hold at most {@code scope} elements past their minimum, so the tree is
     * finite wherever every choice is bounded.
     *
     * <p>A case is a leaf the generator accepted; cases are numbered in walk order and
     * {@code shard} runs the body on those it owns. {@code machines} counts the distinct draws
     * inside spans labelled {@code "machine"} over the walk: every shard walks the whole tree (it
     * must, to number the cases) and so counts the machines of the whole space walked, the same in
     * every shard. On the first failure the input shrinks within the
     * same scope (the shrinker edits the indices; an enumerating recorder replays them).
     *
     * @return {@link PropertyResult.Exhausted} (complete when the walk ended before the budget),
     *         or {@link PropertyResult.Failed}
     */
    public static <T> PropertyResult<T> exhaust(Gen<T> gen, Consumer<? super T> body, int scope, Shard shard, Config config,
                                                Function<Throwable, String> failureKey, Predicate<Throwable> shrinks) {
        if (scope < 1) throw new IllegalArgumentException("small scope " + scope + "; expected at least 1");
        long deadline = System.nanoTime() + config.budget().toNanos();
        int[] prefix = new int[0];
        long cases = 0;
        int tries = 0;
        int discards = 0;
        java.util.Set<String> machines = new java.util.HashSet<>();
        for (long leaves = 0; prefix != null; leaves++) {
            if (leaves > 0 && System.nanoTime() - deadline > 0)
                return new PropertyResult.Exhausted<>(tries, machines.size(), discards, false, config.seed());
            Recorder recorder = Recorder.enumerating(prefix, scope);
            T input = null;
            boolean accepted;
            try {
                input = recorder.draw(gen);
                accepted = true;
            } catch (Gen.Unsatisfiable e) {
                accepted = false;
                discards++;
            }
            ChoiceSequence drawn = recorder.sequence();
            prefix = successor(drawn);
            if (!accepted) continue;
            machines.addAll(machineKeys(drawn));   // of the walk, which every shard makes whole
            if (!shard.owns(cases++)) continue;
            try {
                body.accept(input);
                tries++;
            } catch (Gen.Unsatisfiable e) {
                discards++;
            } catch (RuntimeException | Error e) {
                tries++;
                if (!shrinks.test(e)) return new PropertyResult.Failed<>(e, input, drawn, config.seed(), tries, 0, 0);
                return shrink(gen, body, config, failureKey, drawn, input, e, config.seed(), tries);
            }
        }
        return new PropertyResult.Exhausted<>(tries, machines.size(), discards, true, config.seed());
    }

    /** The next prefix of the walk of {@link #exhaust} after {@code s}; null when {@code s} is the last leaf. */
    static int[] successor(ChoiceSequence s) {
        for (int i = s.size() - 1; i >= 0; i--) {
            if (s.index(i) < s.maxIndex(i)) {
                int[] next = new int[i + 1];
                for (int k = 0; k < i; k++) next[k] = s.index(k);
                next[i] = s.index(i) + 1;
                return next;
            }
        }
        return null;
    }

    /**
     * One key per outermost span {@code "machine"} of {@code s}: the indices it holds. Within a small
     * scope a machine is one index into one list of every machine of the scope, so equal keys are
     * equal machines.
     */
    private static List<String> machineKeys(ChoiceSequence s) {
        List<String> out = new ArrayList<>();
        int end = -1;
        for (Span span : s.spans()) {
            if (!span.label().equals("machine") || span.start() < end) continue;
            StringBuilder key = new StringBuilder();
            for (int i = span.start(); i < span.end(); i++) key.append(s.index(i)).append(' ');
            out.add(key.toString());
            end = span.end();
        }
        return out;
    }

    /** The value {@code choices} replays: in its small scope when it was enumerated, else as a plain replay. */
    public static <T> T replay(Gen<T> gen, ChoiceSequence choices) {
        int[] indices = choices.indices();
        return (choices.scope() > 0 ? Recorder.enumerating(indices, choices.scope()) : Recorder.replaying(indices)).draw(gen);
    }

    private static <T> PropertyResult<T> gaveUp(int tries, int discards, Config config) {
        String reason = "seed " + hex(config.seed()) + ": " + tries + " tries ran and " + discards
                + " draws were discarded; expected " + config.tries() + " tries with at most "
                + config.maxDiscards() + " discards (is a filter or assumption too strict?)";
        return new PropertyResult.GaveUp<>(reason, tries, discards, config.seed());
    }

    private static <T> PropertyResult<T> shrink(Gen<T> gen, Consumer<? super T> body, Config config,
                                                Function<Throwable, String> failureKey, ChoiceSequence first,
                                                T input, Throwable failure, long trySeed, int tries) {
        int scope = first.scope();
        Shrinker.Test test = indices -> {
            Recorder r = scope > 0 ? Recorder.enumerating(indices, scope) : Recorder.replaying(indices);
            T value;
            try {
                value = r.draw(gen);
            } catch (RuntimeException e) {   // Unsatisfiable, or a generator that breaks on an edited sequence
                return new Shrinker.Attempt(r.sequence(), new Shrinker.Outcome.Invalid(String.valueOf(e.getMessage())));
            }
            try {
                body.accept(value);
                return new Shrinker.Attempt(r.sequence(), new Shrinker.Outcome.Passed());
            } catch (Gen.Unsatisfiable e) {
                return new Shrinker.Attempt(r.sequence(), new Shrinker.Outcome.Invalid(String.valueOf(e.getMessage())));
            } catch (RuntimeException | Error e) {
                return new Shrinker.Attempt(r.sequence(), new Shrinker.Outcome.Failed(failureKey.apply(e), e));
            }
        };
        Shrinker.Outcome.Failed firstFailure = new Shrinker.Outcome.Failed(failureKey.apply(failure), failure);
        long deadline = System.nanoTime() + config.budget().toNanos();
        // Rewrite the drawn machines (and counts) into their literal forms first, where deleting a
        // span removes a CPU; keep the drawn sequence when the literal one does not fail the same way.
        ChoiceSequence start = first;
        Throwable startFailure = failure;
        int extraCalls = 0;
        if (!first.rewrites().isEmpty() && config.maxShrinkCalls() > 0) {
            Shrinker.Attempt literal = test.run(first.literalIndices());
            extraCalls = 1;
            if (literal.outcome() instanceof Shrinker.Outcome.Failed f && f.key().equals(firstFailure.key())) {
                start = literal.sequence();
                startFailure = f.failure();
            }
        }
        Shrinker.Result r = new Shrinker(start, new Shrinker.Outcome.Failed(firstFailure.key(), startFailure), test,
                Math.max(0, config.maxShrinkCalls() - extraCalls), deadline).shrink();
        int[] shrunkIndices = r.target().indices();
        T shrunk = r.steps() == 0 && start == first ? input
                : (scope > 0 ? Recorder.enumerating(shrunkIndices, scope) : Recorder.replaying(shrunkIndices)).draw(gen);
        return new PropertyResult.Failed<>(r.failure(), shrunk, r.target(), trySeed, tries, r.steps(), r.calls() + extraCalls);
    }

    /** A seed as {@code 0x5eed}: what {@code Long.decode} reads back. */
    public static String hex(long seed) {
        return seed < 0 ? "-0x" + Long.toHexString(-seed) : "0x" + Long.toHexString(seed);
    }
}
