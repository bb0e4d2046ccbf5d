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

/** M13: from 6.17 queue q must take masks[q mod nummasks]; this one keeps the 6.16 map. */
@SuppressWarnings("unused")
final class MasksNotReused extends GroupingZooMember {
    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        return BlkMqMap.blkMqMapQueues(kernel.atLeast(6, 17) ? KernelRelease.of(6, 16) : kernel, machine, nrQueues, queueOffset);
    }
}
