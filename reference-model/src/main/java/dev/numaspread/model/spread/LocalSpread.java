package dev.numaspread.model.spread;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.numa.NumaNearestNode;
import dev.numaspread.model.numa.NumaNth;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;

/**
 * {@code cpumask_local_spread(i, node)} per release (spec/local-spread.md, LS-1..LS-12): the CPU
 * for queue {@code i} of a device on {@code node}.
 *
 * <p>Every release reduces {@code i} modulo the CPUs it spreads over, then indexes one fixed
 * order of those CPUs. The releases differ only in that order ({@link #order}):
 * <ul>
 *   <li>4.1 - 5.8 and 5.10 - 6.2, classic (f36963c9d3f6 "cpumask_set_cpu_local_first =>
 *       cpumask_local_spread, lament"): the node's online CPUs ascending, then every other online
 *       CPU ascending; distance is ignored;</li>
 *   <li>5.9, housekeeping (1abdfe706a57 "lib: Restrict cpumask_local_spread to houskeeping
 *       CPUs", reverted by 2452483d9546 in 5.11-rc7 and in stable 5.10.17, so 5.10 as it stands
 *       is classic): the classic order over the housekeeping mask, which is the possible mask on a
 *       machine without CPU isolation, offline CPUs included;</li>
 *   <li>6.3+, rings (406d394abfcd "cpumask: improve on cpumask_local_spread() locality"): ring by
 *       ring of the NUMA levels, ascending CPU id across a whole ring; a CPU-less node oopses in
 *       6.3 - 6.4 and is replaced by its nearest node with CPUs from 6.5 (617f2c38cb5c: 6.7, and
 *       the stable series 6.5.12 and 6.6.y).</li>
 * </ul>
 * A plan is computed once: one sort, then a plain loop (O(n log n)).
 */
public final class LocalSpread {
    private LocalSpread() {}

    /**
     * {@code cpumask_local_spread(i, node)}: the CPU for index {@code i}; {@code machine.nrCpuIds()}
     * when a 6.3+ kernel has no NUMA levels (the function WARNs and returns {@code nr_cpu_ids}).
     *
     * @throws KernelBug where the release oopses (a CPU-less node in 6.3 - 6.4)
     * @throws IllegalArgumentException for an unmodelled release, a negative index or an unknown node
     */
    public static int localSpread(KernelRelease kernel, Topology machine, int i, int node) {
        if (i < 0) throw new IllegalArgumentException("localSpread: i = " + i + "; expected i >= 0 (the kernel's unsigned int)");
        int[] order = order(kernel, machine, node);
        return order.length == 0 ? machine.nrCpuIds() : order[i % order.length];
    }

    /**
     * The CPU of each index {@code i = 0 .. count-1}: {@link #localSpread} for each, computed once
     * (one order, then indexing). The SPI's {@code localSpreadCpus} has this name and these arguments.
     *
     * @throws KernelBug where the release oopses (a CPU-less node in 6.3 - 6.4)
     */
    public static int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        if (count < 0) throw new IllegalArgumentException("localSpreadCpus: count = " + count + "; expected count >= 0");
        int[] order = order(kernel, machine, node);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) out[i] = order.length == 0 ? machine.nrCpuIds() : order[i % order.length];
        return out;
    }

    /**
     * True for 5.9, the one release that spreads over the housekeeping mask (LS-11): 1abdfe706a57
     * reached 5.9; its revert 2452483d9546 reached 5.11-rc7 and stable 5.10.17, while 5.9.y had
     * already ended.
     */
    public static boolean isHousekeeping(KernelRelease kernel) {
        return kernel.equals(KernelRelease.of(5, 9));
    }

    /**
     * The one period of the release's order: element {@code i} is the CPU for every index
     * {@code ≡ i} modulo its length. Its length is the wrap modulus: {@code num_online_cpus()}
     * (the possible CPUs in 5.9); empty when a 6.3+ kernel has no NUMA levels.
     */
    public static int[] order(KernelRelease kernel, Topology machine, int node) {
        Releases.requireModelled(kernel, "local-spread");
        requireNode(machine, node);
        if (kernel.atLeast(6, 3)) return ringOrder(kernel, machine, node);
        if (isHousekeeping(kernel))
            return classicOrder(machine.possible(), machine.cpusOf(node), node);
        return classicOrder(machine.online(), machine.onlineCpusOf(node), node);
    }

    /**
     * The classic order over {@code mask}: {@code local} ascending, then the rest of {@code mask}
     * ascending. {@code NUMA_NO_NODE} and a node without CPUs in the mask give the mask ascending.
     */
    static int[] classicOrder(CpuSet mask, CpuSet local, int node) {
        CpuSet first = node == Numa.NUMA_NO_NODE ? CpuSet.EMPTY : local.and(mask);
        int[] out = new int[mask.size()];
        int k = 0;
        for (int cpu : first.toArray()) out[k++] = cpu;
        for (int cpu : mask.andNot(first).toArray()) out[k++] = cpu;
        return out;
    }

    /** The 6.3+ order: ring by ring from {@code node} (or its nearest node with CPUs), ascending CPU id inside a ring. */
    static int[] ringOrder(KernelRelease kernel, Topology machine, int node) {
        CpuSet online = machine.online();
        // 6.3 - 6.6 special-case NUMA_NO_NODE in cpumask_local_spread(); 6.7+ in sched_numa_find_nth_cpu(): same answer.
        if (node == Numa.NUMA_NO_NODE) return online.toArray();
        NumaLevels levels = NumaLevels.of(kernel, machine);
        if (levels.isEmpty()) return new int[0];
        int from = node;
        if (machine.isCpuless(node)) {
            if (!NumaNth.substitutesCpulessNode(kernel))
                throw new KernelBug("oops", "cpumask_local_spread(node=" + node + "): node " + node + " has no CPUs and "
                        + "sched_numa_find_nth_cpu() dereferences its NULL hop mask before commit 617f2c38cb5c "
                        + "\"sched/topology: Fix sched_numa_find_nth_cpu() in CPU-less case\" (6.7; 6.5.12, 6.6.y)");
            from = NumaNearestNode.nearestNodeWithCpus(machine, node);
        }
        return sortByRing(machine, levels, from, online);
    }

    /** {@code cpus} sorted by (level of the distance from {@code from}, CPU id): the rings in order. */
    static int[] sortByRing(Topology machine, NumaLevels levels, int from, CpuSet cpus) {
        int[] ids = machine.nodeIds();
        int[] ringOfNode = new int[machine.nrNodeIds()];
        for (int n : ids) ringOfNode[n] = levels.levelOf(levels.schedDistance(from, n));
        // A counting sort by ring, stable over the ascending cpus: that order in O(CPUs + rings),
        // without boxing every CPU (a walk asks for millions of plans, issue 26). A ring is a level
        // index, 0..count() (levelOf's insertion point for a distance past the last level).
        int[] all = cpus.toArray();
        int[] start = new int[levels.count() + 2];
        for (int c : all) start[ringOfNode[machine.nodeOf(c)] + 1]++;
        for (int r = 1; r < start.length; r++) start[r] += start[r - 1];
        int[] out = new int[all.length];
        for (int c : all) out[start[ringOfNode[machine.nodeOf(c)]]++] = c;
        return out;
    }

    static void requireNode(Topology machine, int node) {
        if (node != Numa.NUMA_NO_NODE && !machine.hasNode(node))
            throw new IllegalArgumentException("node " + node + ": " + machine.name() + " has no such node; expected one of "
                    + Arrays.toString(machine.nodeIds()) + " or -1 (NUMA_NO_NODE)");
    }
}
