package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelRelease;

/**
 * mlx5's completion-vector CPUs. {@link #mlx5NumaDistanceCpus} is the 2022 patch of seed 000, "net/mlx5e:
 * Improve remote NUMA preferences used for the IRQ affinity hints" (Tariq Toukan), applied on the
 * release asked for: {@code first = cpumask_local_spread(0, node)}, then the closest remaining
 * online CPU to {@code first} by {@code sched_numa_find_closest()}; when that runs dry, every
 * vector is recomputed with {@code cpumask_local_spread(i, node)}. {@link #mlx5CompIrqCpus} is 6.12+,
 * e5efc2311cc4 "net/mlx5: Use cpumask_local_spread() instead of custom code".
 */
final class Mlx5 {
    private Mlx5() {}

    /** {@code mlx5_set_eqs_cpus()} with the patch's {@code set_cpus_by_numa_distance()}. */
    static int[] mlx5NumaDistanceCpus(KernelRelease kernel, KernelView k, NumaDistance numa, int node, int count) {
        int[] cpus = new int[count];
        if (count == 0) return cpus;
        int first = LocalSpread.cpumaskLocalSpread(kernel, k, numa, 0, node);
        long[] remaining = Cpumask.copy(k.online);
        boolean ok = first < k.nrCpuIds;
        for (int i = 0; i < count && ok; i++) {
            // Distances are measured from first's node, which is not node for a CPU-less node or NUMA_NO_NODE.
            int c = numa.findClosest(remaining, first);
            if (c >= k.nrCpuIds) {
                ok = false;     // more vectors than online CPUs: the distance pass fails as a whole
                break;
            }
            cpus[i] = c;
            Cpumask.clear(remaining, c);
        }
        if (ok) return cpus;
        return LocalSpread.localSpreadCpus(kernel, k, numa, node, count);
    }

    /** {@code mlx5_cpumask_default_spread(dev, i)} for every completion vector, 6.12+. */
    static int[] mlx5CompIrqCpus(KernelRelease kernel, KernelView k, NumaDistance numa, int node, int count) {
        if (!kernel.atLeast(6, 12))
            throw new UnsupportedOperationException("mlx5-comp-irqs before 6.12 is not implemented by this example");
        return LocalSpread.localSpreadCpus(kernel, k, numa, node, count);
    }
}
