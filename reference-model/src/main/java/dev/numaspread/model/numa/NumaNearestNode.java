package dev.numaspread.model.numa;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.topology.Topology;

/**
 * {@code numa_nearest_node(node, N_CPU)} (spec/numa-hops.md, HOP-8): the node with CPUs nearest
 * to {@code node}. Introduced in 6.7 by commit b1f099b1cf51 "numa: Generalize
 * numa_map_to_online_node()"; {@code sched_numa_find_nth_cpu()} uses it since 617f2c38cb5c
 * "sched/topology: Fix sched_numa_find_nth_cpu() in CPU-less case".
 */
public final class NumaNearestNode {
    private NumaNearestNode() {}

    /**
     * b1f099b1cf51 "numa: Generalize numa_map_to_online_node()" introduced numa_nearest_node() in
     * 6.7; the stable series 6.5.y (6.5.12) and 6.6.y took it with 617f2c38cb5c (NumaNth).
     */
    static final KernelRelease SINCE = KernelRelease.of(6, 5);

    /**
     * {@code node} itself when it has CPUs or is {@code NUMA_NO_NODE}; otherwise the node with CPUs
     * at the smallest {@code node_distance(node, n)}, ties to the lowest id; {@code node} itself when
     * no node has CPUs.
     */
    public static int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        Releases.requireModelled(kernel, "numa-nearest-node", SINCE, "b1f099b1cf51 introduced numa_nearest_node()");
        if (node == Numa.NUMA_NO_NODE) return node;
        NumaHops.requireNode(machine, node);
        return nearestNodeWithCpus(machine, node);
    }

    /**
     * The node with online CPUs nearest to {@code node} (ties to the lowest id), {@code node} itself
     * when it has CPUs or when no node has: the release-independent search behind
     * {@link #numaNearestNode}, also used by local spread 6.7+.
     */
    public static int nearestNodeWithCpus(Topology machine, int node) {
        if (!machine.isCpuless(node)) return node;
        int best = node;
        int bestDistance = Integer.MAX_VALUE;
        // Ascending ids and a strict "<": a tie keeps the lower id.
        for (int n : machine.nodeIds()) {
            if (machine.isCpuless(n)) continue;
            int d = machine.distance(node, n);
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return best;
    }
}
