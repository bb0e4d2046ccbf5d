package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/**
 * group_cpus_evenly() and blk_mq_map_queues() keeping each group in one 64-bit word, from 6.3:
 * CPU ids from 64 on are in no group, and the queue map sends them to the map's first queue.
 * Right on every machine of 64 CPU ids or fewer; the sparse generated machines (a few CPUs, ids
 * past 63) reject it by GRP-1 and MQ-8 ({@code ReachZooTest}), and the 96- and 160-CPU scenarios
 * of GRP-10 and MQ-8 in every release that claims them.
 */
final class GroupsInOneWord extends GroupingZooMember {
    static final CpuSet WORD = CpuSet.range(0, 63);

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease k, Topology m, int numgrps) {
        return reference.groupCpusEvenly(k, m, numgrps).map(l -> l.stream().map(g -> g.and(WORD)).toList());
    }

    @Override
    public int[] blkMqMapQueues(KernelRelease k, Topology m, int nrQueues, int queueOffset) {
        int[] map = reference.blkMqMapQueues(k, m, nrQueues, queueOffset);
        if (k.atLeast(6, 3)) for (int cpu = 64; cpu < map.length; cpu++) map[cpu] = queueOffset;
        return map;
    }
}
