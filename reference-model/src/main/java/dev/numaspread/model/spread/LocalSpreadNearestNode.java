package dev.numaspread.model.spread;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The 2019-2021 "lib: optimize cpumask_local_spread()" proposal (Yuqi Jin, Shaokun Zhang; seed
 * 003; never merged), spec/local-spread.md LS-10: whole nodes in order of distance from
 * {@code node}, ties to the lowest node id, node by node.
 *
 * <p>The proposal's v7/v8 were based on 5.10 and spread over the housekeeping mask; the model
 * spreads over the online CPUs, as v4 on 5.5 did and as the patch intended after the revert of the
 * housekeeping restriction. The release argument only bounds what is modelled.
 */
public final class LocalSpreadNearestNode {
    private LocalSpreadNearestNode() {}

    /** The CPU for index {@code i}: the proposal's order, wrapped modulo {@code num_online_cpus()}. */
    public static int localSpreadNearestNode(KernelRelease kernel, Topology machine, int i, int node) {
        if (i < 0) throw new IllegalArgumentException("localSpreadNearestNode: i = " + i + "; expected i >= 0");
        int[] order = order(kernel, machine, node);
        return order[i % order.length];
    }

    /** The CPU of each index {@code i = 0 .. count-1} under the proposal, computed once. */
    public static int[] localSpreadNearestNodeCpus(KernelRelease kernel, Topology machine, int node, int count) {
        if (count < 0) throw new IllegalArgumentException("localSpreadNearestNodeCpus: count = " + count + "; expected count >= 0");
        int[] order = order(kernel, machine, node);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) out[i] = order[i % order.length];
        return out;
    }

    /**
     * One period of the order: the online CPUs sorted by (distance from {@code node} to their
     * node, node id, CPU id); {@code NUMA_NO_NODE} gives the online CPUs ascending. A CPU-less
     * node contributes nothing itself; its row still orders the other nodes.
     */
    public static int[] order(KernelRelease kernel, Topology machine, int node) {
        Releases.requireModelled(kernel, "local-spread-nearest-node");
        LocalSpread.requireNode(machine, node);
        CpuSet online = machine.online();
        if (node == Numa.NUMA_NO_NODE) return online.toArray();
        Integer[] sorted = online.stream().boxed().toArray(Integer[]::new);
        // find_nearest_node() keeps the lowest-id candidate and replaces it only on a strictly
        // smaller distance: ties go to the lower node id, and a node's CPUs stay together.
        Arrays.sort(sorted, Comparator.<Integer>comparingInt(c -> machine.distance(node, machine.nodeOf(c)))
                .thenComparingInt(machine::nodeOf)
                .thenComparingInt(c -> c));
        return Arrays.stream(sorted).mapToInt(Integer::intValue).toArray();
    }
}
