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

/** M25: on 6.17 an interrupt set advances by its size instead of by the masks it filled. */
@SuppressWarnings("unused")
final class SetsAdvanceBySize extends GroupingZooMember {
    @Override
    public Optional<List<IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(KernelRelease kernel, Topology machine, int nvecs,
            int preVectors, int postVectors, List<Integer> setSizes) {
        return IrqAffinity.irqCreateAffinityMasks(kernel.atLeast(6, 17) ? KernelRelease.of(6, 16) : kernel, machine, nvecs,
                preVectors, postVectors, setSizes);
    }
}
