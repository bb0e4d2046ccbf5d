package dev.numaspread.model.spread;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.numa.NumaHops;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/**
 * mlx5's completion-IRQ CPUs (spec/mlx5.md, MLX-1..MLX-8): the 2022 distance patch of seed 000
 * ({@link #mlx5NumaDistanceCpus}) and what each release does ({@link #mlx5CompIrqCpus}).
 */
public final class Mlx5 {
    private Mlx5() {}

    /** The release the 2022 patch was written against: classic local spread, levels of 5.18+. */
    static final KernelRelease PATCH_BASE = KernelRelease.of(5, 19);

    /**
     * The 2022 patch "net/mlx5e: Improve remote NUMA preferences used for the IRQ affinity hints"
     * (Tariq Toukan, seed 000; never merged in this form): the CPU of each of {@code count}
     * completion vectors.
     *
     * <p>{@code first} is classic {@code cpumask_local_spread(0, node)}; then each vector takes
     * {@code sched_numa_find_closest(remaining, first)}, the lowest remaining online CPU of the
     * nearest level measured from {@code first}'s node, and removes it (MLX-2). When {@code count}
     * exceeds the online CPUs the search runs dry, the pass fails as a whole, and every vector is
     * recomputed with classic local spread, which wraps (MLX-3). The levels are those of 5.19, the
     * patch's base, whatever release is asked for.
     */
    public static int[] mlx5NumaDistanceCpus(KernelRelease kernel, Topology machine, int node, int count) {
        Releases.requireModelled(kernel, "mlx5-numa-distance");
        if (count < 0) throw new IllegalArgumentException("mlx5NumaDistanceCpus: count = " + count + "; expected count >= 0");
        LocalSpread.requireNode(machine, node);
        int[] classic = LocalSpread.classicOrder(machine.online(), machine.onlineCpusOf(node), node);
        CpuSet online = machine.online();
        if (count > online.size()) return wrap(classic, count);          // set_cpus_by_numa_distance() failed
        int first = classic[0];
        NumaLevels levels = NumaLevels.of(PATCH_BASE, machine);
        // Claim: taking find_closest(remaining, first) repeatedly equals sorting the online CPUs by
        // (level of their node's distance from first's node, CPU id): each call returns the lowest
        // remaining CPU of the lowest level that still has one, so a level is exhausted in
        // ascending id before the next level starts.
        int[] order = LocalSpread.sortByRing(machine, levels, machine.nodeOf(first), online);
        int[] out = new int[count];
        System.arraycopy(order, 0, out, 0, count);
        return out;
    }

    /**
     * The CPU of each of {@code count} completion IRQs as {@code kernel}'s mlx5 chooses it:
     * <ul>
     *   <li>before 6.3: classic {@code cpumask_local_spread(i, node)} (the code the 2022 patch
     *       wanted to replace);</li>
     *   <li>6.3 - 6.11: the hop walk of 2acda57736de "net/mlx5e: Improve remote NUMA preferences
     *       used for the IRQ affinity hints": the i-th CPU along {@code for_each_numa_hop_mask},
     *       and CPU 0 when there is none (no wraparound; a CPU-less node gives CPU 0 for every
     *       vector; MLX-5);</li>
     *   <li>6.12+: {@code cpumask_local_spread(i, node)}, commit e5efc2311cc4 "net/mlx5: Use
     *       cpumask_local_spread() instead of custom code" (MLX-6).</li>
     * </ul>
     */
    public static int[] mlx5CompIrqCpus(KernelRelease kernel, Topology machine, int node, int count) {
        Releases.requireModelled(kernel, "mlx5-comp-irqs");
        if (count < 0) throw new IllegalArgumentException("mlx5CompIrqCpus: count = " + count + "; expected count >= 0");
        if (kernel.atLeast(6, 12) || kernel.before(6, 3)) return LocalSpread.localSpreadCpus(kernel, machine, node, count);
        LocalSpread.requireNode(machine, node);
        List<CpuSet> hops = NumaHops.hopMasks(kernel, machine, node);
        int[] walk = new int[machine.online().size()];
        int k = 0;
        CpuSet prev = CpuSet.EMPTY;
        for (CpuSet mask : hops) {
            for (int cpu : mask.andNot(prev).toArray()) walk[k++] = cpu;
            prev = mask;
        }
        int[] out = new int[count];                        // kcalloc'ed: a vector the walk never reaches keeps CPU 0
        System.arraycopy(walk, 0, out, 0, Math.min(k, count));
        return out;
    }

    private static int[] wrap(int[] order, int count) {
        int[] out = new int[count];
        for (int i = 0; i < count; i++) out[i] = order[i % order.length];
        return out;
    }
}
