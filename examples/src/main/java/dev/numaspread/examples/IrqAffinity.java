package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code irq_create_affinity_masks(nvecs, affd)}, kernel/irq/affinity.c, written from spec/blk-mq.md
 * (MQ-9, MQ-10): pre and post vectors keep the default affinity and are not managed; the vectors
 * between are split into interrupt sets, each spread by its own {@code group_cpus_evenly()} call.
 */
final class IrqAffinity {
    /** {@code IRQ_AFFINITY_MAX_SETS}: more sets give NULL. */
    static final int IRQ_AFFINITY_MAX_SETS = 4;

    private IrqAffinity() {}

    /** The descriptors of the {@code nvecs} vectors, or empty for the kernel's NULL. */
    static Optional<List<AffinityDesc>> irqCreateAffinityMasks(KernelRelease kernel, KernelView k, int nvecs,
                                                               int preVectors, int postVectors, List<Integer> setSizes) {
        if (nvecs < 0 || preVectors < 0 || postVectors < 0)
            throw new IllegalArgumentException("irqCreateAffinityMasks: nvecs " + nvecs + ", pre " + preVectors + ", post "
                    + postVectors + "; expected counts >= 0");
        // Nothing left to spread.
        if (nvecs <= preVectors + postVectors) return Optional.empty();
        int affvecs = nvecs - preVectors - postVectors;
        List<Integer> sets = setSizes.isEmpty() ? List.of(affvecs) : setSizes;
        if (sets.size() > IRQ_AFFINITY_MAX_SETS) return Optional.empty();
        if (sets.stream().mapToLong(Integer::longValue).sum() != affvecs || sets.stream().anyMatch(s -> s < 0))
            throw new IllegalArgumentException("irqCreateAffinityMasks: set sizes " + sets + " for " + affvecs
                    + " spread vectors; expected sizes >= 0 that add up to nvecs - pre - post");

        // The default affinity: every CPU id below nr_cpu_ids (MQ-9).
        CpuSet defaultAffinity = CpuSet.range(0, k.nrCpuIds - 1);
        CpuSet[] masks = new CpuSet[nvecs];
        int curvec = preVectors;
        for (int size : sets) {
            Optional<GroupCpus.Grouping> grouping = GroupCpus.groupCpusEvenly(kernel, k, size);
            if (grouping.isEmpty()) return Optional.empty();
            // Up to 6.16 a set advances by its size, empty groups included; from 6.17 (b6139a6abf67)
            // by the groups that hold CPUs (MQ-10).
            int advance = kernel.atLeast(6, 17) ? grouping.get().nummasks() : size;
            for (int j = 0; j < advance; j++) masks[curvec + j] = k.cpuSet(grouping.get().masks()[j]);
            curvec += advance;
        }
        List<AffinityDesc> out = new ArrayList<>(nvecs);
        for (int v = 0; v < nvecs; v++) {
            boolean managed = v >= preVectors && v < nvecs - postVectors;
            // Pre and post vectors, and from 6.17 managed vectors no set reached, keep the default.
            out.add(new AffinityDesc(managed && masks[v] != null ? masks[v] : defaultAffinity, managed));
        }
        return Optional.of(out);
    }
}
