package dev.numaspread.conformance.gen;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The exhaustive walk of a small scope ({@link Property#exhaust}) visits every input once, and a
 * split run ({@link Shard}) gives every try and every case to exactly one shard.
 */
class ExhaustAndShardTest {

    static Property.Config config(int tries) {
        return Property.Config.of(tries, 0x5eedL, Duration.ofSeconds(60));
    }

    /** A pair (a, b) with a in 0..3 and b in 0..a, a flag, and a list of at most scope elements in 0..2. */
    record Input(int a, int b, boolean flag, List<Integer> list) {}

    static final Gen<Input> INPUTS = c -> {
        int a = c.choose(0, 3);
        int b = c.choose(0, a);
        boolean flag = c.chance(10);
        List<Integer> list = Gen.lists(Gen.ints(0, 2), 0, 50).generate(c);
        return new Input(a, b, flag, list);
    };

    /** Visited inputs, in walk order. */
    static List<Input> walk(int scope, Shard shard) {
        List<Input> seen = new ArrayList<>();
        PropertyResult<Input> r = Property.exhaust(INPUTS, seen::add, scope, shard, config(1), Property::failureClass, t -> true);
        PropertyResult.Exhausted<Input> x = assertInstanceOf(PropertyResult.Exhausted.class, r);
        assertTrue(x.complete());
        assertEquals(seen.size(), x.cases());
        return seen;
    }

    @Test
    void exhaust_visitsEveryInputOfTheScopeOnce() {
        List<Input> seen = walk(2, Shard.WHOLE);
        // (a, b): 1 + 2 + 3 + 4 = 10 pairs; the chance is one branch per outcome: 2; lists of at most
        // 2 elements (the scope) over 3 values: 1 + 3 + 9 = 13.
        assertEquals(10 * 2 * 13, seen.size());
        assertEquals(seen.size(), new HashSet<>(seen).size(), "an input was visited twice");
        for (int a = 0; a <= 3; a++)
            for (int b = 0; b <= a; b++)
                assertTrue(seen.contains(new Input(a, b, true, List.of(2, 1))), "missing (" + a + ", " + b + ", true, [2, 1])");
        assertEquals(new Input(0, 0, false, List.of()), seen.get(0), "the walk starts at the simplest input");
    }

    @Test
    void exhaust_filterDrawsOnceAndDiscardsTheRest() {
        Gen<Integer> even = Gen.ints(0, 9).filter(x -> x % 2 == 0);
        List<Integer> seen = new ArrayList<>();
        PropertyResult<Integer> r = Property.exhaust(even, seen::add, 1, Shard.WHOLE, config(1), Property::failureClass, t -> true);
        PropertyResult.Exhausted<Integer> x = assertInstanceOf(PropertyResult.Exhausted.class, r);
        assertEquals(List.of(0, 2, 4, 6, 8), seen);
        assertEquals(5, x.discards());
    }

    @Test
    void exhaust_shardsTogetherAreTheWholeWalk_eachCaseInExactlyOne() {
        List<Input> whole = walk(2, Shard.WHOLE);
        for (int n : new int[] {2, 3, 7}) {
            List<Input> union = new ArrayList<>();
            for (int k = 1; k <= n; k++) {
                List<Input> share = walk(2, new Shard(k, n));
                assertEquals(new Shard(k, n).shareOf(whole.size()), share.size(), "shard " + k + "/" + n);
                union.addAll(share);
            }
            assertEquals(whole.size(), union.size(), n + " shards: a case was run twice or not at all");
            assertEquals(new HashSet<>(whole), new HashSet<>(union), n + " shards");
        }
    }

    @Test
    void exhaust_failureShrinksWithinTheScope() {
        Consumer<Input> noLongFlaggedList = i -> {
            if (i.flag() && i.list().size() == 2 && i.a() >= 2) throw new AssertionError("found " + i);
        };
        PropertyResult<Input> r = Property.exhaust(INPUTS, noLongFlaggedList, 2, Shard.WHOLE, config(1), Property::failureClass, t -> true);
        PropertyResult.Failed<Input> f = assertInstanceOf(PropertyResult.Failed.class, r);
        assertEquals(new Input(2, 0, true, List.of(0, 0)), f.input());
        assertEquals(2, f.choices().scope());
        assertEquals(f.input(), Property.replay(INPUTS, f.choices()));
    }

    @Test
    void exhaust_budgetEndsTheWalkIncomplete() {
        Gen<Integer> big = Gen.ints(0, Integer.MAX_VALUE - 2);
        PropertyResult<Integer> r = Property.exhaust(big, x -> { }, 1, Shard.WHOLE,
                Property.Config.of(1, 1, Duration.ofMillis(50)), Property::failureClass, t -> true);
        PropertyResult.Exhausted<Integer> x = assertInstanceOf(PropertyResult.Exhausted.class, r);
        assertFalse(x.complete());
        assertTrue(x.cases() > 0);
    }

    @Test
    void randomTries_shardsTogetherRunTheWholeRunsInputs_eachInExactlyOne() {
        Gen<List<Integer>> lists = Gen.lists(Gen.ints(0, 1000), 0, 6).filter(l -> l.size() != 3);
        List<List<Integer>> whole = new ArrayList<>();
        Property.check(lists, whole::add, config(101), Property::failureClass, t -> true, Shard.WHOLE);
        assertEquals(101, whole.size());
        for (int n : new int[] {2, 4, 101}) {
            List<List<Integer>> union = new ArrayList<>();
            for (int k = 1; k <= n; k++) {
                List<List<Integer>> share = new ArrayList<>();
                PropertyResult<List<Integer>> r = Property.check(lists, share::add, config(101), Property::failureClass, t -> true,
                        new Shard(k, n));
                assertEquals(new Shard(k, n).shareOf(101), assertInstanceOf(PropertyResult.Passed.class, r).tries());
                assertEquals(share.size(), new Shard(k, n).shareOf(101));
                union.addAll(share);
            }
            assertEquals(whole.size(), union.size(), n + " shards");
            assertEquals(Set.copyOf(whole), Set.copyOf(union), n + " shards: not the whole run's inputs");
        }
    }

    @Test
    void randomTries_aShardWithAnEmptyShare_passesWithNoTry_drawingNothing() {
        int[] draws = {0};
        Gen<Integer> counted = c -> { draws[0]++; return c.choose(0, 9); };
        PropertyResult<Integer> r = Property.check(counted, x -> { throw new AssertionError("ran"); }, config(3), Property::failureClass,
                t -> true, new Shard(5, 8));
        assertEquals(0, assertInstanceOf(PropertyResult.Passed.class, r).tries());
        assertEquals(0, draws[0]);
    }

    @Test
    void shard_parsesAndRefusesWhatIsNotAShare() {
        assertEquals(new Shard(2, 8), Shard.parse("2/8"));
        assertEquals("2/8", Shard.parse(" 2/8 ").toString());
        assertEquals("shard '3': expected K/N, such as 2/8 (shard 2 of 8)",
                assertThrows(IllegalArgumentException.class, () -> Shard.parse("3")).getMessage());
        assertEquals("shard 0/4: found shard 0; expected 1 to 4",
                assertThrows(IllegalArgumentException.class, () -> Shard.parse("0/4")).getMessage());
        assertEquals("shard 5/4: found shard 5; expected 1 to 4",
                assertThrows(IllegalArgumentException.class, () -> Shard.parse("5/4")).getMessage());
        assertEquals("shard 1/0: found 0 shards; expected 1 to 10000",
                assertThrows(IllegalArgumentException.class, () -> Shard.parse("1/0")).getMessage());
    }

    @Test
    void shareOf_countsTheOrdinalsAShardOwns() {
        // 10 ordinals 0..9 over 3 shards: {0,3,6,9}, {1,4,7}, {2,5,8}
        assertEquals(4, new Shard(1, 3).shareOf(10));
        assertEquals(3, new Shard(2, 3).shareOf(10));
        assertEquals(3, new Shard(3, 3).shareOf(10));
        assertEquals(0, new Shard(3, 3).shareOf(2));
        assertEquals(10, Shard.WHOLE.shareOf(10));
    }
}
