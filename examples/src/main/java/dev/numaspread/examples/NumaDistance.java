package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.List;

/**
 * The scheduler's NUMA tables and their readers, kernel/sched/topology.c as of 5.18+ (CPU-less
 * nodes left out since 0fb3978b0aac "sched/numa: Fix NUMA topology for systems with CPU-less
 * nodes"): {@code sched_domains_numa_distance[]}, {@code sched_domains_numa_masks[][]},
 * {@code sched_numa_find_closest()}, {@code sched_numa_find_nth_cpu()} (6.3+, with the 6.7 and
 * stable fixes), {@code for_each_numa_hop_mask()} (6.3+) and {@code numa_nearest_node()} (6.7+).
 */
final class NumaDistance {
    private static final int NR_DISTANCE_VALUES = 256;   // DISTANCE_BITS = 8

    private final KernelView k;
    /** {@code sched_domains_numa_distance[]}, ascending; null when the tables were not built. */
    final int[] levels;
    /** {@code sched_domains_numa_masks[level][node]}; a null entry for a node without CPUs. */
    final long[][][] masks;

    /** {@code sched_init_numa()} measuring {@code node_distance()}: the tables before 6.19. */
    NumaDistance(KernelView k) {
        this(k, k.distance);
    }

    /** {@code sched_init_numa()} of {@code kernel}: from 6.19 the levels and masks measure the scheduler's distance (LVL-6). */
    NumaDistance(KernelView k, KernelRelease kernel) {
        this(k, SchedDistance.of(kernel, k));
    }

    /** The tables for the machine's current online CPUs; the range check reads the raw table, the levels {@code sched}. */
    private NumaDistance(KernelView k, int[][] sched) {
        this.k = k;
        boolean[] seen = new boolean[NR_DISTANCE_VALUES];
        boolean valid = true;
        for (int i = 0; i < k.nrNodeIds && valid; i++) {
            if (!k.hasCpus(i)) continue;
            for (int j = 0; j < k.nrNodeIds; j++) {
                if (!k.hasCpus(j)) continue;
                int raw = k.distance[i][j], d = sched[i][j];
                // "Invalid distance value range": the kernel builds no NUMA levels at all.
                if (raw < KernelView.LOCAL_DISTANCE || raw >= NR_DISTANCE_VALUES || d < KernelView.LOCAL_DISTANCE || d >= NR_DISTANCE_VALUES) {
                    valid = false;
                    break;
                }
                seen[d] = true;
            }
        }
        if (!valid) {
            levels = null;
            masks = null;
            return;
        }
        int nrLevels = 0;
        for (boolean s : seen) if (s) nrLevels++;
        levels = new int[nrLevels];
        for (int d = 0, l = 0; d < NR_DISTANCE_VALUES; d++) if (seen[d]) levels[l++] = d;

        masks = new long[nrLevels][k.nrNodeIds][];
        for (int l = 0; l < nrLevels; l++) {
            for (int n = 0; n < k.nrNodeIds; n++) {
                if (!k.hasCpus(n)) continue;
                long[] mask = Cpumask.alloc(k.nrCpuIds);
                // The row of the mask's owner decides, also on asymmetric tables.
                for (int m = 0; m < k.nrNodeIds; m++)
                    if (k.hasCpus(m) && sched[n][m] <= levels[l]) Cpumask.orInto(mask, k.nodeOnline[m]);
                masks[l][n] = mask;
            }
        }
    }

    int[] levels() {
        return levels == null ? new int[0] : levels.clone();
    }

    /**
     * {@code sched_numa_find_closest(cpus, cpu)} up to 6.15: the lowest CPU of {@code cpus} in the
     * nearest level (seen from the node of {@code cpu}) that holds one, or {@code nrCpuIds}.
     */
    int findClosest(long[] cpus, int cpu) {
        long[] level = nearestLevelWith(cpus, cpu);
        return level == null ? k.nrCpuIds : Cpumask.firstAnd(cpus, level, k.nrCpuIds);
    }

    /**
     * {@code sched_numa_find_closest(cpus, cpu)} from 6.16 (6432e163ba1b, HOP-10), made on a CPU
     * whose {@code distribute_cpu_mask_prev} is {@code prev}: the first CPU of {@code cpus} in the
     * nearest level above {@code prev}, wrapping to the lowest; {@code nrCpuIds} for none. The
     * caller keeps the answer as the new state unless it is none.
     */
    int findClosestDistribute(long[] cpus, int cpu, int prev) {
        long[] level = nearestLevelWith(cpus, cpu);
        if (level == null) return k.nrCpuIds;
        long[] candidates = Cpumask.and(cpus, level);
        int next = prev + 1 < k.nrCpuIds ? Cpumask.nextFrom(candidates, prev + 1, k.nrCpuIds) : k.nrCpuIds;
        return next < k.nrCpuIds ? next : Cpumask.first(candidates, k.nrCpuIds);
    }

    /** The smallest hop mask of {@code cpu}'s node that meets {@code cpus} (HOP-5); null when none does. */
    private long[] nearestLevelWith(long[] cpus, int cpu) {
        int j = k.cpuToNode[cpu];
        if (masks == null || j < 0) return null;
        for (long[][] level : masks) {
            if (level[j] == null) break;
            if (Cpumask.intersects(cpus, level[j])) return level[j];
        }
        return null;
    }

    /**
     * {@code sched_numa_find_nth_cpu(cpus, n, node)}: the n-th CPU of {@code cpus} counted ring by
     * ring outwards from {@code node}, ascending CPU id inside a ring; {@code nrCpuIds} for none.
     */
    int findNthCpu(KernelRelease kernel, long[] cpus, int n, int node) {
        // 9ecea9ae4d31 "sched/topology: Handle NUMA_NO_NODE in sched_numa_find_nth_cpu()" (6.7);
        // before it cpumask_local_spread() made the same choice in its caller.
        if (node == KernelView.NUMA_NO_NODE) return Cpumask.nthAnd(n, cpus, k.online, k.nrCpuIds);
        if (kernel.atLeast(6, 7)) {
            // 617f2c38cb5c "sched/topology: Fix sched_numa_find_nth_cpu() in CPU-less case".
            node = numaNearestNode(node);
        }
        if (masks == null) return k.nrCpuIds;
        if (node < 0 || node >= k.nrNodeIds || masks[0][node] == null)
            throw new KernelBug("oops", "sched_numa_find_nth_cpu() reads the NULL hop mask of CPU-less node " + node
                    + " (cd7f55359c90 \"sched: add sched_numa_find_nth_cpu()\"; fixed in 6.7 by 617f2c38cb5c)");
        // The one level h with weight(cpus & M[h-1]) <= n < weight(cpus & M[h]); the kernel finds it by
        // bsearch, a linear walk finds the same level because the masks are nested.
        int prev = 0;
        for (int h = 0; h < masks.length; h++) {
            int w = Cpumask.weightAnd(cpus, masks[h][node]);
            if (n < w) {
                return h == 0 ? Cpumask.nthAnd(n, cpus, masks[0][node], k.nrCpuIds)
                        : Cpumask.nthAndAndnot(n - prev, cpus, masks[h][node], masks[h - 1][node], k.nrCpuIds);
            }
            prev = w;
        }
        // Nothing found. 6.12.117 answers nr_cpu_ids here (the kernel runs show it): the stable
        // backport of 5ebf512f3350 "sched: Fix sched_numa_find_nth_cpu() if mask offline".
        return k.nrCpuIds;
    }

    /**
     * The masks {@code for_each_numa_hop_mask(mask, node)} yields: cumulative, one per level;
     * the online mask once for {@code NUMA_NO_NODE}; nothing for a CPU-less node.
     */
    List<long[]> hopMasks(int node) {
        List<long[]> out = new ArrayList<>();
        if (node == KernelView.NUMA_NO_NODE) {
            // The iterator's first step is cpu_online_mask; the second asks sched_numa_hop_mask(-1, 1): -EINVAL.
            out.add(Cpumask.copy(k.online));
            return out;
        }
        if (masks == null || node < 0 || node >= k.nrNodeIds) return out;
        for (long[][] level : masks) {
            if (level[node] == null) break;    // a NULL mask ends the loop, no error pointer needed
            out.add(Cpumask.copy(level[node]));
        }
        return out;
    }

    /** {@code numa_nearest_node(node, N_CPU)}: the node itself if it has CPUs, else the nearest that has, ties to the lowest id. */
    int numaNearestNode(int node) {
        if (node == KernelView.NUMA_NO_NODE || k.hasCpus(node)) return node;
        if (node < 0 || node >= k.nrNodeIds) return node;
        int minNode = node;
        int minDist = Integer.MAX_VALUE;
        for (int n = 0; n < k.nrNodeIds; n++) {
            if (!k.hasCpus(n)) continue;
            if (k.distance[node][n] < minDist) {
                minDist = k.distance[node][n];
                minNode = n;
            }
        }
        return minNode;
    }
}
