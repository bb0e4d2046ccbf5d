package dev.numaspread.model.group;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code blk_mq_map_queues(qmap)} ({@code block/blk-mq-cpumap.c}): the default CPU-to-queue map of a
 * block device, per release.
 *
 * <p>Guarantees (spec/blk-mq.md): every possible CPU gets exactly one queue in
 * {@code queueOffset .. queueOffset + nrQueues - 1} (MQ-1, MQ-6). Up to 6.2 the map ignores NUMA:
 * present CPUs take queues in turn, then SMT siblings share their first sibling's queue (MQ-2,
 * MQ-4). From 6.3 (6a6dcae8f486 "blk-mq: Build default queue map via group_cpus_evenly()", seed
 * 002) queue {@code q} serves group {@code q} of {@code group_cpus_evenly(nrQueues)} (MQ-3); when that
 * returns NULL every possible CPU goes to {@code queueOffset} (MQ-5); from 6.17 queue {@code q}
 * serves group {@code q mod nummasks} (MQ-7, b6139a6abf67).
 *
 * <p>6.1: the kernel runs show 6.1.192 still building the legacy map (null_blk), although it
 * carries {@code group_cpus_evenly} as a backport; the legacy branch covers 5.4-6.2. The
 * present-first pass came with "blk-mq: balance mapping between present CPUs and queues" (Ming
 * Lei, posted as {@code <20190725094146.18560-1-ming.lei@redhat.com>}, merged for 5.4 by the block
 * pull {@code <61b11672-f41b-9708-2486-f284a99483a8@kernel.dk>}); older releases are not modelled.
 */
public final class BlkMqMap {

    private BlkMqMap() {}

    /**
     * The queue of each CPU id {@code 0 .. nrCpuIds-1} ({@code qmap->mq_map}); {@code -1} for an id
     * that is not possible.
     *
     * @throws KernelBug for {@code nrQueues == 0} where the release divides by it or dereferences
     *                   the empty grouping (where {@link GroupCpusEvenly#returnsNullForZeroGroups} is false)
     * @throws IllegalArgumentException for negative arguments or a release before 5.4
     */
    public static int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        if (nrQueues < 0 || queueOffset < 0)
            throw new IllegalArgumentException("blkMqMapQueues: nrQueues " + nrQueues + ", queueOffset " + queueOffset
                    + "; expected both 0 or more");
        if (kernel.before(5, 4))
            throw new IllegalArgumentException("blkMqMapQueues: kernel " + kernel + " is not modelled; expected 5.4+");
        if (kernel.before(6, 3)) return legacyMap(machine, nrQueues, queueOffset);

        int[] map = unmapped(machine);
        Optional<GroupCpusEvenly.Grouping> grouping = GroupCpusEvenly.grouping(kernel, machine, nrQueues);
        if (grouping.isEmpty()) {
            // NULL masks: every CPU goes to the first queue of this map.
            for (int cpu : machine.possible().toArray()) map[cpu] = queueOffset;
            return map;
        }
        List<CpuSet> masks = grouping.get().masks();
        // 6.17: only the first nummasks masks are initialised, later queues reuse them; a later
        // queue overwrites an earlier one's CPUs, so low queues can end up without CPUs.
        int nrMasks = kernel.atLeast(6, 17) ? grouping.get().nummasks() : nrQueues;
        for (int queue = 0; queue < nrQueues; queue++)
            for (int cpu : masks.get(queue % nrMasks).toArray()) map[cpu] = queueOffset + queue;
        return map;
    }

    /**
     * The 5.4-6.2 map: present CPUs first, one queue each in order; then the remaining possible CPUs,
     * sequentially while queues remain, afterwards a CPU that is its core's first sibling takes the
     * next queue (wrapping) and any other sibling shares its first sibling's queue.
     */
    static int[] legacyMap(Topology machine, int nrQueues, int queueOffset) {
        if (nrQueues == 0)
            throw new KernelBug("oops", "blk_mq_map_queues with nr_queues 0 (legacy map): queue_index divides by zero");
        int[] map = unmapped(machine);
        int q = 0;
        for (int cpu : machine.present().toArray()) {
            if (q >= nrQueues) break;
            map[cpu] = queueIndex(queueOffset, nrQueues, q++);
        }
        for (int cpu : machine.possible().toArray()) {
            if (map[cpu] != -1) continue;
            if (q < nrQueues) {
                map[cpu] = queueIndex(queueOffset, nrQueues, q++);
            } else {
                int firstSibling = firstSiblingOf(machine, cpu);
                map[cpu] = firstSibling == cpu ? queueIndex(queueOffset, nrQueues, q++) : map[firstSibling];
            }
        }
        return map;
    }

    static int queueIndex(int queueOffset, int nrQueues, int q) {
        return queueOffset + q % nrQueues;
    }

    /** {@code get_first_sibling}: the lowest CPU of the live sibling mask, or the CPU itself when that mask is empty. */
    static int firstSiblingOf(Topology machine, int cpu) {
        CpuSet live = GroupCpusEvenly.liveSiblingsOf(machine, cpu);
        return live.isEmpty() ? cpu : live.first();
    }

    private static int[] unmapped(Topology machine) {
        int[] map = new int[machine.nrCpuIds()];
        Arrays.fill(map, -1);
        return map;
    }
}
