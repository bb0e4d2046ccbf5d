package dev.numaspread.conformance.zoo;

import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * irq_create_affinity_masks() that, when no vector is left for spreading ({@code nvecs == pre +
 * post}), gives every vector the default affinity instead of NULL: a driver would then take
 * managed affinity for vectors the kernel leaves to it. MQ-9 ("Nothing to spread gives NULL").
 */
final class DefaultMasksWhenNothingToSpread extends GroupingZooMember {
    @Override
    public Optional<List<AffinityDesc>> irqCreateAffinityMasks(KernelRelease k, Topology m, int nvecs, int pre, int post, List<Integer> sets) {
        Optional<List<AffinityDesc>> r = reference.irqCreateAffinityMasks(k, m, nvecs, pre, post, sets);
        if (r.isPresent() || nvecs != pre + post) return r;
        List<AffinityDesc> out = new ArrayList<>();
        for (int i = 0; i < nvecs; i++) out.add(new AffinityDesc(dev.numaspread.model.cpu.CpuSet.range(0, m.nrCpuIds() - 1), false));
        return Optional.of(out);
    }
}
