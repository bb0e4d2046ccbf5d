package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/**
 * irq_create_affinity_masks() keeping each mask in one 64-bit word: CPU ids from 64 on are lost,
 * from the default affinity and from the spread masks alike. Right on every machine of 64 CPU ids
 * or fewer; MQ-9's 96-CPU scenario rejects it.
 */
final class IrqMasksInOneWord extends GroupingZooMember {
    @Override
    public Optional<List<AffinityDesc>> irqCreateAffinityMasks(KernelRelease k, Topology m, int nvecs, int pre, int post, List<Integer> sets) {
        CpuSet word = CpuSet.range(0, 63);
        return reference.irqCreateAffinityMasks(k, m, nvecs, pre, post, sets)
                .map(l -> l.stream().map(d -> new AffinityDesc(d.mask().and(word), d.managed())).toList());
    }
}
