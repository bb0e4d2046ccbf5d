package dev.numaspread.conformance.gen;

import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shrinker reports the simplest counterexample of known properties, whatever the seed.
 * Expected values are derived by hand from the properties, not computed by the engine.
 */
class ShrinkQualityTest {

    static final Gen<List<Integer>> LISTS = Gen.lists(Gen.ints(1, 16), 1, 8);

    static <T> PropertyResult.Failed<T> failed(PropertyResult<T> r) {
        return assertInstanceOf(PropertyResult.Failed.class, r, () -> "expected a failure, got " + r);
    }

    /**
     * "sum < 20" fails first at sum 20. No single element reaches 20 (max 16), so the shortest
     * counterexample has 2 elements and sum exactly 20; the shortlex-smallest such list is [4, 16]
     * (first element as small as possible: 20 - 16 = 4).
     */
    @Test
    void sumBelow20_shrinksToTwoElementsSumming20_forEverySeed() {
        for (long seed = 1; seed <= 30; seed++) {
            PropertyResult.Failed<List<Integer>> f = failed(Property.check(LISTS, l -> {
                if (l.stream().mapToInt(Integer::intValue).sum() >= 20) throw new AssertionError("sum " + l);
            }, Property.Config.of(100, seed, Duration.ofSeconds(30))));
            List<Integer> shrunk = f.input();
            assertEquals(2, shrunk.size(), "seed " + seed + ": " + shrunk);
            assertEquals(20, shrunk.get(0) + shrunk.get(1), "seed " + seed + ": " + shrunk);
            assertEquals(List.of(4, 16), shrunk, "seed " + seed);
        }
    }

    /** A single element above a threshold shrinks to a one-element list holding exactly the threshold. */
    @Test
    void someElementAtLeast11_shrinksToTheListOf11() {
        for (long seed = 1; seed <= 10; seed++) {
            PropertyResult.Failed<List<Integer>> f = failed(Property.check(LISTS, l -> {
                if (l.stream().anyMatch(x -> x >= 11)) throw new AssertionError("big " + l);
            }, Property.Config.of(200, seed, Duration.ofSeconds(30))));
            assertEquals(List.of(11), f.input(), "seed " + seed);
        }
    }

    /**
     * "no node has more than 3 CPUs" fails first at a node with 4 CPUs; the simplest such machine
     * is that one node and nothing else: no SMT, no other node, every CPU possible, present and online.
     */
    @Test
    void noNodeAbove3Cpus_shrinksToOneNodeWithFourCpus_forEverySeed() {
        assertShrinksToOneNodeWithFourCpus(Machines.any(), 6);
    }

    /** The same through the realistic generator alone: SMT, extra nodes and state shrink away. */
    @Test
    void noNodeAbove3Cpus_realisticMachines_shrinkToOneNodeWithFourCpus() {
        assertShrinksToOneNodeWithFourCpus(Machines.realistic(), 6);
    }

    private static void assertShrinksToOneNodeWithFourCpus(Gen<Topology> machines, int seeds) {
        for (long seed = 1; seed <= seeds; seed++) {
            PropertyResult.Failed<Topology> f = failed(Property.check(machines, m -> {
                for (Node n : m.nodes())
                    if (n.cpus().size() > 3) throw new AssertionError("node " + n.id() + " has " + n.cpus().size() + " CPUs");
            }, Property.Config.of(200, seed, Duration.ofSeconds(30))));
            Topology m = f.input();
            String where = "seed " + seed + ": " + m;
            assertEquals(1, m.nodes().size(), where);
            assertEquals(0, m.nodes().get(0).id(), where);
            assertEquals(CpuSet.range(0, 3), m.nodes().get(0).cpus(), where);
            assertTrue(m.nodes().get(0).hasMemory(), where);
            assertEquals(CpuSet.range(0, 3), m.possible(), where);
            assertEquals(CpuSet.range(0, 3), m.present(), where);
            assertEquals(CpuSet.range(0, 3), m.online(), where);
            assertEquals(List.of(CpuSet.of(0), CpuSet.of(1), CpuSet.of(2), CpuSet.of(3)), m.smtSiblings(), where);
            assertTrue(m.clustersAssumed(), where);
            assertEquals(1, m.packages().size(), where);
            assertEquals(10, m.distance(0, 0), where);
        }
    }
}
