package dev.numaspread.model.group;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** nvme_calc_irq_sets() as drivers/nvme/host/pci.c has it in 6.1, 6.12 and 7.3 (spec/audit.md AUD-8). */
class NvmeQueuesTest {

    @Test
    void withoutWriteQueuesTheVectorsAreOneSet() {
        assertEquals(List.of(), NvmeQueues.irqSets(6, 0));
        assertEquals(List.of(), NvmeQueues.irqSets(0, 0));
    }

    @Test
    void writeQueuesComeFirstAndTheRestRead() {
        assertEquals(List.of(2, 4), NvmeQueues.irqSets(6, 2));   // the booted runs: 6 I/O vectors, write_queues=2
        assertEquals(List.of(5, 1), NvmeQueues.irqSets(6, 5));
    }

    @Test
    void asManyWriteQueuesAsVectorsOrMoreLeaveOneRead() {
        assertEquals(List.of(5, 1), NvmeQueues.irqSets(6, 6));
        assertEquals(List.of(5, 1), NvmeQueues.irqSets(6, 64));
        assertEquals(List.of(1, 1), NvmeQueues.irqSets(2, 2));
    }

    @Test
    void oneVectorOrNoneIsOneSet() {
        assertEquals(List.of(), NvmeQueues.irqSets(1, 3));
        assertEquals(List.of(), NvmeQueues.irqSets(0, 3));
    }

    @Test
    void negativeCountsAreRefused() {
        assertEquals("irqSets: nrirqs -1, write_queues 0; expected 0 or more",
                assertThrows(IllegalArgumentException.class, () -> NvmeQueues.irqSets(-1, 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> NvmeQueues.irqSets(2, -1));
    }
}
