package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Slip, 6.17+: blk_mq_map_queues() indexes the masks by {@code q % numgrps} (numgrps is the number
 * of queues, so every queue takes its own mask) instead of {@code q % nummasks}: with more queues than
 * possible CPUs the later queues get empty masks and the first ones keep their CPUs (MQ-7).
 */
final class MasksByNumgrps extends GroupingZooMember {
    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        Optional<List<CpuSet>> masks = reference.groupCpusEvenly(kernel, machine, nrQueues);
        if (kernel.before(6, 17) || masks.isEmpty()) return reference.blkMqMapQueues(kernel, machine, nrQueues, queueOffset);
        int[] map = new int[machine.nrCpuIds()];
        Arrays.fill(map, -1);
        int numgrps = masks.get().size();
        for (int q = 0; q < nrQueues; q++)
            for (int cpu : masks.get().get(q % numgrps).toArray()) map[cpu] = queueOffset + q;
        return map;
    }
}
