package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.Arrays;

/**
 * {@code cpumask_local_spread(i, node)}, lib/cpumask.c. Before 6.3 (here: 6.1) the classic code of
 * f36963c9d3f6 "cpumask_set_cpu_local_first => cpumask_local_spread, lament": the node's online
 * CPUs, then every other online CPU, distance ignored. From 6.3, 406d394abfcd "cpumask: improve on
 * cpumask_local_spread() locality": {@code sched_numa_find_nth_cpu(cpu_online_mask, i, node)}.
 * Both wrap with {@code i % num_online_cpus()} and nowhere else.
 */
final class LocalSpread {
    private LocalSpread() {}

    /** The CPU of each queue {@code 0 .. count-1}: one walk over the online CPUs, then indexing. */
    static int[] localSpreadCpus(KernelRelease kernel, KernelView k, NumaDistance numa, int node, int count) {
        int[] out = new int[count];
        if (count == 0) return out;
        int[] order = order(kernel, k, numa, node);
        for (int i = 0; i < count; i++) out[i] = order[i % order.length];
        return out;
    }

    /** {@code cpumask_local_spread(i, node)} for one index, written as the kernel computes it. */
    static int cpumaskLocalSpread(KernelRelease kernel, KernelView k, NumaDistance numa, int i, int node) {
        int numOnline = requireOnline(k);
        i %= numOnline;    // Wrap: we always want a cpu.
        if (kernel.atLeast(6, 3)) return numa.findNthCpu(kernel, k.online, i, node);
        if (node == KernelView.NUMA_NO_NODE) return Cpumask.nthAnd(i, k.online, k.online, k.nrCpuIds);
        long[] local = localOnline(k, node);
        for (int cpu = Cpumask.first(local, k.nrCpuIds); cpu < k.nrCpuIds; cpu = Cpumask.nextFrom(local, cpu + 1, k.nrCpuIds))
            if (i-- == 0) return cpu;
        for (int cpu = Cpumask.first(k.online, k.nrCpuIds); cpu < k.nrCpuIds; cpu = Cpumask.nextFrom(k.online, cpu + 1, k.nrCpuIds)) {
            if (Cpumask.test(local, cpu)) continue;   // already counted above
            if (i-- == 0) return cpu;
        }
        throw new KernelBug("BUG", "cpumask_local_spread() ran out of online CPUs");
    }

    /** The answers for {@code i = 0 .. num_online_cpus()-1}, the period of the wrap. */
    private static int[] order(KernelRelease kernel, KernelView k, NumaDistance numa, int node) {
        int numOnline = requireOnline(k);
        int[] order = new int[numOnline];
        int at = 0;
        if (kernel.atLeast(6, 3)) {
            if (node != KernelView.NUMA_NO_NODE) {
                if (kernel.atLeast(6, 7)) node = numa.numaNearestNode(node);
                if (numa.masks == null) {
                    // No NUMA tables: every answer is "none" (WARN, nr_cpu_ids).
                    Arrays.fill(order, k.nrCpuIds);
                    return order;
                }
                if (node < 0 || node >= k.nrNodeIds || numa.masks[0][node] == null) {
                    numa.findNthCpu(kernel, k.online, 0, node);    // the 6.3-6.6 oops for a CPU-less node
                    throw new IllegalStateException("example invariant broken: node " + node + " has no hop masks");
                }
                long[] prev = Cpumask.alloc(k.nrCpuIds);
                for (long[][] level : numa.masks) {
                    long[] ring = Cpumask.andNot(Cpumask.and(level[node], k.online), prev);
                    at = appendAscending(k, ring, order, at);
                    prev = level[node];
                }
                return order;
            }
            return ascending(k, k.online, order);
        }
        if (node == KernelView.NUMA_NO_NODE) return ascending(k, k.online, order);
        long[] local = localOnline(k, node);
        at = appendAscending(k, local, order, at);
        appendAscending(k, Cpumask.andNot(k.online, local), order, at);
        return order;
    }

    private static long[] localOnline(KernelView k, int node) {
        // A node id the machine does not have has no CPUs: the classic code then behaves as NUMA_NO_NODE.
        if (node < 0 || node >= k.nrNodeIds) return Cpumask.alloc(k.nrCpuIds);
        return Cpumask.and(k.nodeOnline[node], k.online);
    }

    private static int[] ascending(KernelView k, long[] mask, int[] order) {
        appendAscending(k, mask, order, 0);
        return order;
    }

    private static int appendAscending(KernelView k, long[] mask, int[] order, int at) {
        for (int cpu = Cpumask.first(mask, k.nrCpuIds); cpu < k.nrCpuIds; cpu = Cpumask.nextFrom(mask, cpu + 1, k.nrCpuIds))
            order[at++] = cpu;
        return at;
    }

    private static int requireOnline(KernelView k) {
        int n = k.numOnlineCpus();
        if (n == 0) throw new KernelBug("oops", "cpumask_local_spread() divides by num_online_cpus() == 0");
        return n;
    }
}
