package dev.numaspread.model.group;

import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** blk_mq_map_queues on seed 002's machine and on hand-derived cases. */
class BlkMqMapTest {

    /** Seed 002: arm64, node 0 = CPUs 0-79, node 1 = 80-159, null_blk submit_queues=2. */
    static Topology seed002() {
        return TopologyBuilder.machine("arm64-2node-160").node(0, "0-79").node(1, "80-159").build();
    }

    @Test
    void MQ_2_legacyPresentCpusTakeQueuesBeforeTheOtherPossibleOnes() {
        // Found by mutation testing (docs/mutation-testing.md): every earlier machine had present =
        // possible, so serving possible CPUs in id order passed too. Possible 0-3, present 1 and 3.
        Topology m = TopologyBuilder.machine("4-possible-2-present").node(0, "0-3").possible("0-3").present("1,3").online("1,3").build();
        // 2 queues: present 1 -> 0, 3 -> 1; then q = 2 >= 2: cpu 0 -> 2 mod 2 = 0, cpu 2 -> 3 mod 2 = 1.
        assertArrayEquals(new int[] {0, 0, 1, 1}, BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 1), m, 2, 0));
        // 3 queues: present 1 -> 0, 3 -> 1; cpu 0 takes the queue still free (2), cpu 2 wraps to 3 mod 3 = 0.
        assertArrayEquals(new int[] {2, 0, 0, 1}, BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 1), m, 3, 0));
    }

    @Test
    void MQ_4_legacyMapAlternatesAcrossNodes() {
        int[] map = BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 2), seed002(), 2, 0);
        for (int cpu = 0; cpu < 160; cpu++) assertEquals(cpu % 2, map[cpu], "cpu " + cpu);
    }

    @Test
    void MQ_3_newMapGivesEachNodeItsQueue() {
        int[] map = BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 3), seed002(), 2, 0);
        for (int cpu = 0; cpu < 160; cpu++) assertEquals(cpu < 80 ? 0 : 1, map[cpu], "cpu " + cpu);
    }

    @Test
    void MQ_2_legacySiblingsShareTheirFirstSiblingsQueue() {
        Topology m = TopologyBuilder.machine("2x4-smt2").node(0, "0-3").node(1, "4-7").siblings("0-1", "2-3", "4-5", "6-7").build();
        // CPUs 0, 1 take queues 0, 1; then q = 2: cpu 2 is a first sibling -> queue 2 mod 3 = 2; cpu 3 shares 2;
        // cpu 4 -> q 3 mod 3 = 0, cpu 5 shares; cpu 6 -> q 4 mod 3 = 1, cpu 7 shares.
        assertArrayEquals(new int[] {0, 1, 2, 2, 0, 0, 1, 1}, BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 1), m, 3, 0));
    }

    @Test
    void MQ_5_nullMasksSendEveryCpuToTheOffset() {
        assertArrayEquals(new int[] {3, 3, 3, 3}, BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 16),
                TopologyBuilder.machine("4").node(0, "0-3").build(), 0, 3));
        // 6.12.y has df831e977394 from the stable series, so zero queues take the NULL fallback there too.
        assertArrayEquals(new int[] {3, 3, 3, 3}, BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 12),
                TopologyBuilder.machine("4").node(0, "0-3").build(), 0, 3));
        assertThrows(KernelBug.class, () -> BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 14),
                TopologyBuilder.machine("4").node(0, "0-3").build(), 0, 3));
        assertThrows(KernelBug.class, () -> BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 1),
                TopologyBuilder.machine("4").node(0, "0-3").build(), 0, 3));
    }

    /** Default map 2 queues at offset 0, read map 2 queues at offset 2, poll map 1 queue at offset 4. */
    @Test
    void MQ_6_queueOffsetShiftsEveryQueue() {
        Topology m = seed002();
        KernelRelease k = KernelRelease.of(6, 12);
        int[] read = BlkMqMap.blkMqMapQueues(k, m, 2, 2);
        int[] poll = BlkMqMap.blkMqMapQueues(k, m, 1, 4);
        for (int cpu = 0; cpu < 160; cpu++) {
            assertEquals(cpu < 80 ? 2 : 3, read[cpu], "read map, cpu " + cpu);
            assertEquals(4, poll[cpu], "poll map, cpu " + cpu);
        }
    }

    /** Possible 0-3, 6 queues: 6.12 leaves queues 4, 5 empty; 6.17 reuses masks 0, 1 so queues 0, 1 lose their CPUs. */
    @Test
    void MQ_7_moreQueuesThanCpusReuseMasksFrom617() {
        Topology m = TopologyBuilder.machine("4").node(0, "0-3").build();
        assertArrayEquals(new int[] {0, 1, 2, 3}, BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 12), m, 6, 0));
        assertArrayEquals(new int[] {4, 5, 2, 3}, BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 17), m, 6, 0));
    }

    @Test
    void MQ_1_impossibleIdsAreUnmapped() {
        Topology m = TopologyBuilder.machine("sparse").node(0, "0-1,3").possible("0-1,3").build();
        // One node of 3 CPUs, 2 groups: the first group takes the extra CPU: {0,1}, {3}.
        assertArrayEquals(new int[] {0, 0, -1, 1}, BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 12), m, 2, 0));
    }
}
