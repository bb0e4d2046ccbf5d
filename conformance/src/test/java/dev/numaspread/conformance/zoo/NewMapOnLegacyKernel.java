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

/** M24 reversed: the 6.3 NUMA-aware map claimed for a legacy release. */
@SuppressWarnings("unused")
final class NewMapOnLegacyKernel extends GroupingZooMember {
    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        return BlkMqMap.blkMqMapQueues(KernelRelease.of(6, 12), machine, nrQueues, queueOffset);
    }
}
