package dev.numaspread.model.group;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code irq_create_affinity_masks(nvecs, affd)} ({@code kernel/irq/affinity.c}): the affinity
 * and managed flag of each of a device's {@code nvecs} interrupt vectors.
 *
 * <p>Guarantees (spec/blk-mq.md MQ-9, MQ-10): the {@code preVectors} first and {@code postVectors}
 * last vectors get the default affinity and are not managed; the vectors between are managed and
 * take, set after set, the groups of {@code group_cpus_evenly(setSize)}; each set is spread over
 * all CPUs on its own. Up to 6.16 each set advances by its size; from 6.17 by the number of
 * masks the grouping initialised (b6139a6abf67), and unfilled managed vectors get the default
 * affinity.
 *
 * <p>The default affinity is modelled as every CPU id below {@code nr_cpu_ids} (the kernel's
 * {@code irq_default_affinity} without the {@code irqaffinity=} boot option), as the kernel runs print it.
 */
public final class IrqAffinity {

    private IrqAffinity() {}

    /** At most this many interrupt sets ({@code IRQ_AFFINITY_MAX_SETS}). */
    public static final int IRQ_AFFINITY_MAX_SETS = 4;

    /** One vector's {@code irq_affinity_desc}: its mask and whether the kernel manages it. */
    public record AffinityDesc(CpuSet mask, boolean managed) {}

    /**
     * The {@code nvecs} descriptors, or empty for the kernel's NULL (no vector left for spreading,
     * too many sets, or a set whose grouping returned NULL).
     *
     * @param setSizes the interrupt sets' sizes as the driver's {@code calc_sets} gives them; empty
     *                 for the default (one set of all spread vectors). Their sum must equal
     *                 {@code nvecs - preVectors - postVectors}.
     * @throws IllegalArgumentException for negative arguments or set sizes that do not add up
     */
    public static Optional<List<AffinityDesc>> irqCreateAffinityMasks(KernelRelease kernel, Topology machine, int nvecs,
                                                                      int preVectors, int postVectors, List<Integer> setSizes) {
        if (nvecs < 0 || preVectors < 0 || postVectors < 0)
            throw new IllegalArgumentException("irqCreateAffinityMasks: nvecs " + nvecs + ", pre " + preVectors
                    + ", post " + postVectors + "; expected 0 or more");
        GroupCpusEvenly.requireModelled(kernel);
        int affvecs = nvecs > preVectors + postVectors ? nvecs - preVectors - postVectors : 0;
        List<Integer> sets = setSizes.isEmpty() ? List.of(affvecs) : List.copyOf(setSizes);
        if (sets.size() > IRQ_AFFINITY_MAX_SETS) return Optional.empty();   // WARN_ON_ONCE, NULL
        if (affvecs == 0) return Optional.empty();
        int sum = 0;
        for (int s : sets) {
            if (s < 0) throw new IllegalArgumentException("irqCreateAffinityMasks: set size " + s + "; expected 0 or more");
            sum += s;
        }
        if (sum != affvecs)
            throw new IllegalArgumentException("irqCreateAffinityMasks: set sizes " + sets + " add up to " + sum
                    + "; expected nvecs - preVectors - postVectors = " + affvecs);

        CpuSet defaultAffinity = CpuSet.range(0, machine.nrCpuIds() - 1);
        CpuSet[] masks = new CpuSet[nvecs];
        int curvec = 0;
        for (; curvec < preVectors; curvec++) masks[curvec] = defaultAffinity;
        int usedvecs = 0;
        for (int setSize : sets) {
            Optional<GroupCpusEvenly.Grouping> result = GroupCpusEvenly.grouping(kernel, machine, setSize);
            if (result.isEmpty()) return Optional.empty();
            // 6.3-6.16 copy the whole set; 6.17 only the masks the grouping initialised.
            int taken = kernel.atLeast(6, 17) ? result.get().nummasks() : setSize;
            for (int j = 0; j < taken; j++) masks[curvec + j] = result.get().masks().get(j);
            curvec += taken;
            usedvecs += taken;
        }
        for (curvec = preVectors + Math.min(usedvecs, affvecs); curvec < nvecs; curvec++)
            masks[curvec] = defaultAffinity;

        List<AffinityDesc> out = new ArrayList<>(nvecs);
        for (int v = 0; v < nvecs; v++)
            out.add(new AffinityDesc(masks[v], v >= preVectors && v < nvecs - postVectors));
        return Optional.of(out);
    }
}
