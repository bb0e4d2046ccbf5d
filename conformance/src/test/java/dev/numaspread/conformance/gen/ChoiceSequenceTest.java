package dev.numaspread.conformance.gen;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shortlex order of ChoiceSequence's table, and how a recorder replays edited sequences. */
class ChoiceSequenceTest {

    static boolean simpler(int[] a, int[] b) {
        return ChoiceSequence.compareShortlex(a, b) < 0;
    }

    @Test
    void simpler_isShorterThenLexicographicallySmaller_asInTheTable() {
        assertTrue(simpler(new int[] {0}, new int[] {0, 0}));
        assertTrue(simpler(new int[] {5, 9}, new int[] {0, 0, 0}));
        assertTrue(simpler(new int[] {0, 9}, new int[] {1, 0}));
        assertTrue(simpler(new int[] {3, 1, 15}, new int[] {3, 2, 0}));
        assertFalse(simpler(new int[] {2, 2}, new int[] {2, 2}));
        assertFalse(simpler(new int[] {1, 0}, new int[] {0, 9}));
    }

    @Test
    void recorder_recordsValuesBoundsAndNestedSpans() {
        Recorder r = Recorder.replaying(new int[] {2, 1, 0});
        r.startSpan("outer");
        int a = r.choose(10, 20);
        r.startSpan("inner");
        int b = r.choose(0, 1);
        r.endSpan();
        r.endSpan();
        int c = r.choose(5, 5);
        assertEquals(12, a);
        assertEquals(1, b);
        assertEquals(5, c);
        ChoiceSequence s = r.sequence();
        assertEquals(3, s.size());
        assertArrayEquals(new int[] {2, 1, 0}, s.indices());
        assertEquals(10, s.lower(0));
        assertEquals(20, s.upper(0));
        assertEquals(List.of(new Span("outer", 0, 2, 0), new Span("inner", 1, 2, 1)), s.spans());
    }

    @Test
    void replay_pastTheEndReadsTheLowerBound_andClampsToNewBounds() {
        Recorder r = Recorder.replaying(new int[] {9});
        assertEquals(3 + 4, r.choose(3, 7));   // index 9 clamped to 7 - 3
        assertEquals(-2, r.choose(-2, 40));    // past the end: the lower bound
        assertArrayEquals(new int[] {4, 0}, r.sequence().indices());
    }

    @Test
    void random_sameSeedGivesSameChoices() {
        Gen<List<Integer>> g = Gen.lists(Gen.ints(0, 1000), 0, 20);
        assertEquals(g.sample(42), g.sample(42));
        Recorder a = Recorder.random(7), b = Recorder.random(7);
        a.draw(g);
        b.draw(g);
        assertEquals(a.sequence(), b.sequence());
    }

    @Test
    void indicesText_parsesBack() {
        Recorder r = Recorder.replaying(new int[] {3, 0, 1});
        r.choose(0, 5);
        r.choose(0, 5);
        r.choose(0, 5);
        assertEquals("3 0 1", r.sequence().indicesText());
        assertArrayEquals(new int[] {3, 0, 1}, ChoiceSequence.parseIndices("3 0 1"));
        assertArrayEquals(new int[] {3, 0, 1}, ChoiceSequence.parseIndices("[3, 0, 1]"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ChoiceSequence.parseIndices("3 x"));
        assertEquals("choice indices: found \"x\" at position 1; expected a non-negative integer", e.getMessage());
    }

    @Test
    void simplest_ofLists_isTheShortestListOfLowerBounds() {
        assertEquals(List.of(1), Gen.lists(Gen.ints(1, 16), 1, 8).simplest());
        assertEquals(List.of(), Gen.lists(Gen.ints(1, 16), 0, 8).simplest());
    }
}
