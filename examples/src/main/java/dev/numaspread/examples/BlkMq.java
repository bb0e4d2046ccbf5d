package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.Arrays;
import java.util.Optional;

/**
 * {@code blk_mq_map_queues()}, block/blk-mq-cpumap.c. Before 6.3 (here: 6.1) the sequential map:
 * present CPUs first, then the rest, SMT siblings sharing their first sibling's queue once the
 * queues run out, no NUMA. From 6.3, 6a6dcae8f486 "blk-mq: Build default queue map via
 * group_cpus_evenly()": queue q takes the CPUs of group q; without groups every CPU goes to the
 * first queue. From 6.17 queue q takes group {@code q mod nummasks}.
 */
final class BlkMq {
    private BlkMq() {}

    /** Element {@code cpu} is the queue of possible CPU {@code cpu}, {@code -1} for an id that is not possible. */
    static int[] blkMqMapQueues(KernelRelease kernel, KernelView k, int nrQueues, int queueOffset) {
        int[] map = new int[k.nrCpuIds];
        Arrays.fill(map, -1);
        if (kernel.atLeast(6, 3)) {
            Optional<GroupCpus.Grouping> grouping = GroupCpus.groupCpusEvenly(kernel, k, nrQueues);
            if (grouping.isEmpty()) {
                for (int cpu = 0; cpu < k.nrCpuIds; cpu++) if (Cpumask.test(k.possible, cpu)) map[cpu] = queueOffset;
                return map;
            }
            long[][] masks = grouping.get().masks();
            // From 6.17 (b6139a6abf67) queue q takes mask q mod nummasks, later queues overwriting
            // earlier ones (MQ-7); before, mask q, empty for the queues beyond the CPUs.
            int nrMasks = kernel.atLeast(6, 17) ? grouping.get().nummasks() : nrQueues;
            for (int queue = 0; queue < nrQueues; queue++) {
                long[] m = masks[queue % nrMasks];
                for (int cpu = Cpumask.first(m, k.nrCpuIds); cpu < k.nrCpuIds; cpu = Cpumask.nextFrom(m, cpu + 1, k.nrCpuIds))
                    map[cpu] = queueOffset + queue;
            }
            return map;
        }

        if (nrQueues == 0) throw new KernelBug("oops", "blk_mq_map_queues() divides by nr_queues == 0");
        int q = 0;
        // Spread queues among present CPUs first.
        for (int cpu = 0; cpu < k.nrCpuIds; cpu++) {
            if (!Cpumask.test(k.present, cpu) || !Cpumask.test(k.possible, cpu)) continue;
            if (q >= nrQueues) break;
            map[cpu] = queueOffset + q++ % nrQueues;
        }
        for (int cpu = 0; cpu < k.nrCpuIds; cpu++) {
            if (!Cpumask.test(k.possible, cpu) || map[cpu] != -1) continue;
            if (q < nrQueues) {
                map[cpu] = queueOffset + q++ % nrQueues;
            } else {
                int firstSibling = firstSibling(k, cpu);
                if (firstSibling == cpu) map[cpu] = queueOffset + q++ % nrQueues;
                else map[cpu] = map[firstSibling];
            }
        }
        return map;
    }

    /** {@code get_first_sibling()}: an offline CPU has an empty sibling mask and counts as its own first sibling. */
    private static int firstSibling(KernelView k, int cpu) {
        int first = Cpumask.first(k.siblings[cpu], k.nrCpuIds);
        return first < k.nrCpuIds ? first : cpu;
    }
}
