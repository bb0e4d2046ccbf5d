package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/**
 * {@code sched_numa_find_nth_cpu(cpus, n, node)} (spec/numa-hops.md, HOP-6, HOP-7): the n-th CPU
 * of {@code cpus}, nearest rings first. Introduced in 6.3 by commit cd7f55359c90 "sched: add
 * sched_numa_find_nth_cpu()".
 */
public final class NumaNth {
    private NumaNth() {}

    /**
     * The n-th CPU (0-based) of {@code cpus} in ring order from {@code node}: ring by ring, each
     * ring in ascending CPU id; a value {@code >= machine.nrCpuIds()} ("none") when {@code cpus}
     * has at most {@code n} CPUs in the hop masks (6.17+ and the 6.12 stable line), or when the
     * kernel built no levels.
     *
     * <p>Release differences: {@code NUMA_NO_NODE} is the n-th CPU of {@code cpus ∩ online} from
     * 6.7 (9ecea9ae4d31) and an out-of-bounds read before (M7); a CPU-less node is replaced by its
     * nearest node with CPUs where {@link #substitutesCpulessNode} (617f2c38cb5c) and a NULL
     * dereference elsewhere (M3); "not found" dereferences a wild pointer where
     * {@link #notFoundIsNrCpuIds} is false (5ebf512f3350 "sched: Fix sched_numa_find_nth_cpu() if
     * mask offline", 6.17, CVE-2025-39895; the kernel runs show 6.12.117 carries the fix).
     *
     * @throws KernelBug where the release oopses
     */
    public static int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        Releases.requireModelled(kernel, "numa-nth", NumaHops.SINCE, "cd7f55359c90 introduced sched_numa_find_nth_cpu()");
        if (n < 0) throw new IllegalArgumentException("numaNth: n = " + n + "; expected n >= 0");
        if (node == Numa.NUMA_NO_NODE) {
            if (kernel.atLeast(6, 7)) {
                CpuSet both = cpus.and(machine.online());
                return n < both.size() ? both.nth(n) : machine.nrCpuIds();
            }
            throw new KernelBug("oops", "sched_numa_find_nth_cpu(node=-1) reads masks[hop][-1] before commit 9ecea9ae4d31 "
                    + "\"sched/topology: Handle NUMA_NO_NODE in sched_numa_find_nth_cpu()\" (6.7)");
        }
        NumaHops.requireNode(machine, node);
        NumaLevels levels = NumaLevels.of(kernel, machine);
        if (levels.isEmpty()) return machine.nrCpuIds();      // masks NULL: the function returns nr_cpu_ids
        int from = node;
        if (machine.isCpuless(node)) {
            if (!substitutesCpulessNode(kernel))
                throw new KernelBug("oops", "sched_numa_find_nth_cpu() on CPU-less node " + node + " dereferences its NULL hop mask "
                        + "before commit 617f2c38cb5c \"sched/topology: Fix sched_numa_find_nth_cpu() in CPU-less case\" (6.7; 6.5.12, 6.6.y)");
            from = NumaNearestNode.nearestNodeWithCpus(machine, node);
        }
        List<CpuSet> masks = levels.masksOf(from);
        // The bsearch finds the unique level h with |cpus ∩ M[h-1]| <= n < |cpus ∩ M[h]|; the masks
        // are nested, so a linear walk finds the same h.
        int below = 0;
        for (int h = 0; h < masks.size(); h++) {
            CpuSet reach = cpus.and(masks.get(h));
            if (n < reach.size()) {
                CpuSet ring = h == 0 ? reach : reach.andNot(masks.get(h - 1));
                return ring.nth(n - below);
            }
            below = reach.size();
        }
        if (notFoundIsNrCpuIds(kernel)) return machine.nrCpuIds();
        throw new KernelBug("wild-pointer", "sched_numa_find_nth_cpu(n=" + n + ", node=" + node + "): only " + below
                + " CPUs of the mask are in the hop masks; bsearch returns NULL and the hop index is a wild pointer before commit "
                + "5ebf512f3350 \"sched: Fix sched_numa_find_nth_cpu() if mask offline\" (6.17)");
    }

    /**
     * True when "not found" returns nr_cpu_ids (5ebf512f3350, 6.17-rc5): 6.17+, and the stable series
     * 6.12.y (6.12.46; the kernel run 6.12.117 returns nr_cpu_ids) and 6.6.y (6.6.105-rc1,
     * linux-stable-rc push of 7 September 2025). 6.16.y is not known to have it (modelled without).
     */
    static boolean notFoundIsNrCpuIds(KernelRelease kernel) {
        return kernel.atLeast(6, 17) || kernel.equals(KernelRelease.of(6, 12)) || kernel.equals(KernelRelease.of(6, 6));
    }

    /**
     * True when a CPU-less node is replaced by its nearest node with CPUs (617f2c38cb5c
     * "sched/topology: Fix sched_numa_find_nth_cpu() in CPU-less case", 6.7; stable 6.5.12, with
     * b1f099b1cf51, and 6.6.y); 6.3 and 6.4 dereference the node's NULL hop mask.
     */
    public static boolean substitutesCpulessNode(KernelRelease kernel) {
        return kernel.atLeast(6, 5);
    }
}
