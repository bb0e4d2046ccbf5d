package dev.numaspread.conformance.gen;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The property runner: tries, discards, giving up, determinism and replay. */
class PropertyTest {

    static final Gen<List<Integer>> LISTS = Gen.lists(Gen.ints(1, 16), 1, 8);
    static final java.util.function.Consumer<List<Integer>> SUM_BELOW_20 = l -> {
        if (l.stream().mapToInt(Integer::intValue).sum() >= 20) throw new AssertionError("sum of " + l);
    };

    static Property.Config config(int tries, long seed) {
        return Property.Config.of(tries, seed, Duration.ofSeconds(30));
    }

    @Test
    void holdingProperty_passesAfterEveryTry() {
        PropertyResult<List<Integer>> r = Property.check(LISTS, l -> { }, config(150, 9));
        PropertyResult.Passed<List<Integer>> p = assertInstanceOf(PropertyResult.Passed.class, r);
        assertEquals(150, p.tries());
        assertEquals(0, p.discards());
        assertEquals(9, p.seed());
    }

    @Test
    void sameSeed_givesSameFailure_sameShrunkInput_sameWork() {
        PropertyResult.Failed<List<Integer>> a = assertInstanceOf(PropertyResult.Failed.class, Property.check(LISTS, SUM_BELOW_20, config(100, 77)));
        PropertyResult.Failed<List<Integer>> b = assertInstanceOf(PropertyResult.Failed.class, Property.check(LISTS, SUM_BELOW_20, config(100, 77)));
        assertEquals(a.input(), b.input());
        assertEquals(a.choices(), b.choices());
        assertEquals(a.seed(), b.seed());
        assertEquals(a.tries(), b.tries());
        assertEquals(a.shrinkSteps(), b.shrinkSteps());
        assertEquals(a.shrinkCalls(), b.shrinkCalls());
        assertEquals(a.failure().getMessage(), b.failure().getMessage());
    }

    /** The reported seed makes the first try fail again, and the shrunk choices replay the input. */
    @Test
    void reportedSeed_failsOnTheFirstTry_andShrunkChoicesReplayTheInput() {
        Gen<Integer> ints = Gen.ints(0, 1_000_000);
        java.util.function.Consumer<Integer> rare = x -> {
            if (x >= 12_345) throw new AssertionError("x " + x);
        };
        PropertyResult.Failed<Integer> first = assertInstanceOf(PropertyResult.Failed.class, Property.check(ints, rare, config(500, 5)));
        assertEquals(12_345, first.input());   // the smallest failing x
        PropertyResult.Failed<Integer> again = assertInstanceOf(PropertyResult.Failed.class, Property.check(ints, rare, config(500, first.seed())));
        assertEquals(1, again.tries());
        assertEquals(12_345, again.input());
        assertEquals(first.input(), ints.replay(ChoiceSequence.parseIndices(first.choices().indicesText())));
        assertTrue(first.replayHint().startsWith("seed " + Property.hex(first.seed()) + " (replay: -Dnumaspread.seed="), first.replayHint());
    }

    @Test
    void failureKey_keepsTheShrinkOnTheFirstFailure() {
        // Small values throw IllegalStateException, large ones IllegalArgumentException; a failure that
        // starts as IllegalArgumentException must not slip to the simpler IllegalStateException.
        Gen<Integer> ints = Gen.ints(0, 100);
        PropertyResult.Failed<Integer> f = assertInstanceOf(PropertyResult.Failed.class, Property.check(ints, x -> {
            if (x >= 50) throw new IllegalArgumentException("big " + x);
            if (x >= 10) throw new IllegalStateException("medium " + x);
        }, config(200, 3)));
        if (f.failure() instanceof IllegalArgumentException) assertEquals(50, f.input());
        else assertEquals(10, f.input());
    }

    @Test
    void everyDrawDiscarded_givesUp_neverPasses() {
        Gen<Integer> never = Gen.ints(0, 10).filter(x -> x > 10);
        PropertyResult<Integer> r = Property.check(never, x -> { }, config(20, 1));
        PropertyResult.GaveUp<Integer> g = assertInstanceOf(PropertyResult.GaveUp.class, r);
        assertEquals(0, g.tries());
        assertEquals(201, g.discards());
        assertEquals("seed 0x1: 0 tries ran and 201 draws were discarded; expected 20 tries with at most 200 discards"
                + " (is a filter or assumption too strict?)", g.reason());
    }

    @Test
    void assumptionInTheBody_discards_andTooManyDiscardsGiveUp() {
        PropertyResult<Integer> r = Property.check(Gen.ints(0, 99), x -> {
            if (x != 0) throw new Gen.Unsatisfiable("assume x == 0");
        }, config(50, 2).withMaxDiscards(10));
        PropertyResult.GaveUp<Integer> g = assertInstanceOf(PropertyResult.GaveUp.class, r);
        assertEquals(11, g.discards());
    }

    @Test
    void shrinkBudget_isRespected() {
        PropertyResult.Failed<List<Integer>> f = assertInstanceOf(PropertyResult.Failed.class,
                Property.check(LISTS, SUM_BELOW_20, config(100, 11).withMaxShrinkCalls(3)));
        assertTrue(f.shrinkCalls() <= 3, "calls " + f.shrinkCalls());
    }
}
