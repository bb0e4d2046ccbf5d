package dev.numaspread.model.group;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** irq_create_affinity_masks with pre/post vectors and interrupt sets, derived by hand. */
class IrqAffinityTest {

    static Topology twoNodesSmt2() {
        return TopologyBuilder.machine("2x4-smt2").node(0, "0-3").node(1, "4-7").siblings("0-1", "2-3", "4-5", "6-7").build();
    }

    static List<String> masks(Optional<List<IrqAffinity.AffinityDesc>> d) {
        return d.orElseThrow().stream().map(x -> x.mask().toList()).toList();
    }

    static List<Boolean> managed(Optional<List<IrqAffinity.AffinityDesc>> d) {
        return d.orElseThrow().stream().map(IrqAffinity.AffinityDesc::managed).toList();
    }

    @Test
    void MQ_9_preAndPostVectorsGetTheDefaultAffinityUnmanaged() {
        var d = IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(6, 12), twoNodesSmt2(), 5, 1, 1, List.of());
        assertEquals(List.of("0-7", "4-7", "0-1", "2-3", "0-7"), masks(d));
        assertEquals(List.of(false, true, true, true, false), managed(d));
    }

    @Test
    void MQ_9_eachSetIsSpreadOnItsOwn() {
        var d = IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(6, 12), twoNodesSmt2(), 4, 0, 0, List.of(2, 2));
        assertEquals(List.of("0-3", "4-7", "0-3", "4-7"), masks(d));
    }

    /** Sets of 10 and 2 on 8 CPUs: up to 6.16 the first set takes 10 vectors (2 empty); 6.17 only 8. */
    @Test
    void MQ_10_setsAdvanceByTheMasksTheGroupingFilledFrom617() {
        var old = IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(6, 12), twoNodesSmt2(), 12, 0, 0, List.of(10, 2));
        assertEquals(List.of("4", "5", "6", "7", "0", "1", "2", "3", "", "", "0-3", "4-7"), masks(old));
        var now = IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(6, 17), twoNodesSmt2(), 12, 0, 0, List.of(10, 2));
        assertEquals(List.of("4", "5", "6", "7", "0", "1", "2", "3", "0-3", "4-7", "0-7", "0-7"), masks(now));
        assertEquals(12, managed(now).stream().filter(b -> b).count());
    }

    @Test
    void MQ_9_noVectorLeftToSpreadIsNull() {
        assertEquals(Optional.empty(), IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(6, 12), twoNodesSmt2(), 2, 1, 1, List.of()));
        assertEquals(Optional.empty(), IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(6, 12), twoNodesSmt2(), 5, 0, 0,
                List.of(1, 1, 1, 1, 1)));
        assertThrows(IllegalArgumentException.class, () -> IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(6, 12),
                twoNodesSmt2(), 5, 0, 0, List.of(1, 1)));
    }

    @Test
    void MQ_9_argumentBoundaries() {
        // Found by mutation testing (docs/mutation-testing.md), each boundary by hand from
        // irq_create_affinity_masks(): no vector, or none left after pre + post, is NULL, not an error;
        // four sets are IRQ_AFFINITY_MAX_SETS and allowed; a set of size 0 makes group_cpus_evenly(0)
        // NULL (6.16+), and so the whole result.
        KernelRelease k = KernelRelease.of(6, 16);
        assertEquals(Optional.empty(), IrqAffinity.irqCreateAffinityMasks(k, twoNodesSmt2(), 0, 0, 0, List.of()));
        assertEquals(Optional.empty(), IrqAffinity.irqCreateAffinityMasks(k, twoNodesSmt2(), 2, 1, 2, List.of()));
        assertEquals(List.of(true, true, true, true),
                managed(IrqAffinity.irqCreateAffinityMasks(k, twoNodesSmt2(), 4, 0, 0, List.of(1, 1, 1, 1))));
        assertEquals(Optional.empty(), IrqAffinity.irqCreateAffinityMasks(k, twoNodesSmt2(), 2, 0, 0, List.of(0, 2)));
        // No group_cpus_evenly() before 6.1: refused even when there is nothing to spread.
        assertThrows(IllegalArgumentException.class,
                () -> IrqAffinity.irqCreateAffinityMasks(KernelRelease.of(5, 10), twoNodesSmt2(), 0, 0, 0, List.of()));
    }
}
