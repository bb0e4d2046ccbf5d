package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/**
 * {@code for_each_numa_hop_mask(mask, node)} (spec/numa-hops.md, HOP-1..HOP-4): the cumulative
 * masks a driver walks, nearest level first. Introduced in 6.3 by commit 06ac01721f7d
 * "sched/topology: Introduce for_each_numa_hop_mask()" on top of 9feae65845f7
 * "sched/topology: Introduce sched_numa_hop_mask()".
 */
public final class NumaHops {
    private NumaHops() {}

    static final KernelRelease SINCE = KernelRelease.of(6, 3);

    /**
     * The hop masks of {@code node}, as {@code for_each_numa_hop_mask(mask, node)} yields them:
     * level 0's mask, then each wider level's (cumulative, online CPUs only, HOP-1).
     * {@code NUMA_NO_NODE} yields the online mask once (HOP-2); a CPU-less node, or a machine
     * without NUMA levels, yields nothing (HOP-3).
     *
     * @throws IllegalArgumentException for a release before 6.3 or after the newest modelled one,
     *                                  or a node the machine does not have
     */
    public static List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        Releases.requireModelled(kernel, "hop-masks", SINCE, "06ac01721f7d introduced for_each_numa_hop_mask()");
        // hops == 0 with NUMA_NO_NODE is special-cased to cpu_online_mask; the next step asks
        // sched_numa_hop_mask() for node (unsigned)-1, which is -EINVAL and ends the walk.
        if (node == Numa.NUMA_NO_NODE) return List.of(machine.online());
        requireNode(machine, node);
        // sched_numa_hop_mask() returns the NULL entry of a CPU-less node: the walk ends at once.
        return NumaLevels.of(kernel, machine).masksOf(node);
    }

    static void requireNode(Topology machine, int node) {
        if (!machine.hasNode(node))
            throw new IllegalArgumentException("node " + node + ": " + machine.name() + " has no such node; expected one of "
                    + java.util.Arrays.toString(machine.nodeIds()) + " or -1 (NUMA_NO_NODE)");
    }
}
