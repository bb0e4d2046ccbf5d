package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Property;
import dev.numaspread.conformance.gen.PropertyResult;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The machines of the exhaustive small scope ({@code certify --exhaustive N}): how many, all different, all valid. */
class SmallMachinesTest {

    /**
     * One CPU: one node (1 table), or a CPU-less node before or after it (2 positions x 3 orders of
     * two nodes: symmetric, and each asymmetric one) = 1 + 6 = 7.
     */
    @Test
    void oneCpu_isSevenMachines() {
        assertEquals(7, SmallMachines.upTo(1).size());
    }

    /**
     * Two CPUs add 315 to the 7 of one: each CPU online, offline or not present with one online is
     * 3^2 - 2^2 = 5 states.
     * - two cores on one node: 2 cluster layouts x (1 table + 2 CPU-less positions x 3 orders) x 5 = 70;
     * - two cores on two nodes: 1 cluster layout x (3 orders + 3 CPU-less positions x 13 weak orders
     *   of 3 pairs) x 5 = 210;
     * - one core of two threads (adjacent only: split numbering needs two cores): (1 + 2 x 3) x 5 = 35.
     */
    @Test
    void twoCpus_are322Machines() {
        assertEquals(7 + 70 + 210 + 35, SmallMachines.upTo(2).size());
    }

    /**
     * Three CPUs (three cores: 3 threads do not divide into 2 or 4) add 5301: 3^3 - 2^3 = 19 states;
     * one node: 2 x (1 + 2 x 3) x 19 = 266; two nodes (3 partitions, each with a node of two cores):
     * 3 x 2 x (3 + 3 x 13) x 19 = 4788; three nodes: 13 x 19 = 247 (no room for a CPU-less node).
     */
    @Test
    void threeCpus_are5623Machines() {
        assertEquals(322 + 266 + 4788 + 247, SmallMachines.upTo(3).size());
    }

    @Test
    void everyMachineIsDifferent_andTheSimplestComesFirst() {
        List<Topology> all = SmallMachines.upTo(3);
        Set<String> texts = new HashSet<>();
        for (Topology t : all) assertTrue(texts.add(TopoFormat.write(t)), "twice:\n" + TopoFormat.write(t));
        Topology first = all.get(0);
        assertEquals(1, first.possible().size());
        assertEquals(1, first.nodes().size());
        assertEquals(first.possible(), first.online());
        for (int i = 1; i < all.size(); i++)
            assertTrue(all.get(i - 1).possible().size() <= all.get(i).possible().size(), "fewer CPUs first, at " + i);
    }

    @Test
    void theScopeHoldsWhatItPromises() {
        List<Topology> all = SmallMachines.upTo(3);
        assertTrue(all.stream().anyMatch(t -> !t.distances().isSymmetric()), "an asymmetric table");
        assertTrue(all.stream().anyMatch(t -> t.nodes().stream().anyMatch(n -> n.cpus().isEmpty()) && t.nodes().get(0).cpus().isEmpty()),
                "a CPU-less node 0");
        assertTrue(all.stream().anyMatch(t -> t.smtSiblings().stream().anyMatch(g -> g.size() == 2)), "SMT");
        assertTrue(all.stream().anyMatch(t -> !t.clustersAssumed()), "stated clusters");
        assertTrue(all.stream().anyMatch(t -> t.present().size() < t.possible().size() && t.online().size() < t.present().size()),
                "possible > present > online");
        assertTrue(all.stream().anyMatch(t -> t.nodes().stream().filter(n -> !n.cpus().isEmpty()).count() == 3), "three nodes with CPUs");
        assertTrue(all.stream().allMatch(t -> t.nodes().size() <= SmallMachines.MAX_NODES));
    }

    @Test
    void scopeOutOfBounds_isRefused() {
        assertEquals("small scope 0; expected 1 to 4 CPUs", assertThrows(IllegalArgumentException.class, () -> SmallMachines.upTo(0)).getMessage());
        assertEquals("small scope 5; expected 1 to 4 CPUs", assertThrows(IllegalArgumentException.class, () -> SmallMachines.upTo(5)).getMessage());
    }

    /** A machine generator walked in a small scope gives every machine its options admit, once. */
    @Test
    void machineGenerator_walkedInTheScope_givesEveryAdmittedMachineOnce() {
        Machines.Options twoNodes = Machines.Options.DEFAULT.withMaxCpus(3).withAtLeastCpuNodes(2).withSymmetricDistances();
        List<Topology> seen = new ArrayList<>();
        PropertyResult<Topology> r = Property.exhaust(Machines.realistic(twoNodes), seen::add, 3, Shard.WHOLE,
                Property.Config.of(1, 1, Duration.ofSeconds(60)), Property::failureClass, t -> true);
        PropertyResult.Exhausted<Topology> x = assertInstanceOf(PropertyResult.Exhausted.class, r);
        List<Topology> admitted = SmallMachines.upTo(3).stream().filter(twoNodes::admits).toList();
        assertEquals(admitted, seen);
        assertEquals(admitted.size(), x.machines());
        assertEquals(5623 - admitted.size(), x.discards());
    }
}
