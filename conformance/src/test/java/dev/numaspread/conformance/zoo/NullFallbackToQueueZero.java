package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.BlkMqMap;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/** M24: on NULL masks every CPU goes to queue 0 instead of queue_offset. */
@SuppressWarnings("unused")
final class NullFallbackToQueueZero extends GroupingZooMember {
    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        return BlkMqMap.blkMqMapQueues(kernel, machine, nrQueues, nrQueues == 0 ? 0 : queueOffset);
    }
}
