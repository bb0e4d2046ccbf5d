package dev.numaspread.cli.plan;

import dev.numaspread.model.cpu.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plan value and the format table; what each format prints is PlanCommandTest's. */
class PlanTest {

    @Test
    void queueMapSlotsAreTheCpusOfEachQueueFromTheOffset() {
        Plan.QueueMap map = new Plan.QueueMap(new int[] {2, 3, -1, 2, 4}, 2, 3);
        assertEquals(List.of(CpuSet.of(0, 3), CpuSet.of(1), CpuSet.of(4)), map.slots());
        assertEquals("queue", map.word());
    }

    @Test
    void affinitiesPadTheIrqsLeftUntouched() {
        Plan.Slots irqs = Plan.Slots.affinities("irq", List.of(CpuSet.of(0, 1)), 3);
        assertEquals(List.of(CpuSet.of(0, 1), CpuSet.EMPTY, CpuSet.EMPTY), irqs.slots());
        assertFalse(irqs.isUntouched(0));
        assertTrue(irqs.isUntouched(2));
        assertFalse(Plan.Slots.of("queue", List.of(CpuSet.EMPTY)).isUntouched(0), "a queue without a CPU is not an untouched IRQ");
    }

    @Test
    void everyFormatHasItsOwnName() {
        List<String> names = PlanFormat.all().stream().map(PlanFormat::word).toList();
        assertEquals(List.of("list", "smp_affinity", "table", "json", "cpu_list", "svg"), names);
        for (String n : names) assertEquals(n, PlanFormat.named(n).orElseThrow().word());
        assertEquals(Optional.empty(), PlanFormat.named("no-such-format"));
    }
}
