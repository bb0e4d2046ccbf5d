package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/**
 * {@code sched_numa_find_closest(cpus, cpu)} (spec/numa-hops.md, HOP-5): the lowest CPU of
 * {@code cpus} in the nearest level, measured from the node of {@code cpu}. Introduced in 5.5 by
 * commit e0e8d4911ed2 "sched/isolation: Prefer housekeeping CPU in local node".
 */
public final class NumaClosest {
    private NumaClosest() {}

    static final KernelRelease SINCE = KernelRelease.of(5, 5);

    /**
     * The lowest-numbered CPU of {@code cpus} in the smallest level of {@code cpu}'s node that
     * intersects {@code cpus}; {@code machine.nrCpuIds()} ("none") when no level does, when the
     * kernel built no levels, or when the node has no masks. Only online CPUs can be found: the
     * level masks hold online CPUs only. The levels follow the release ({@link NumaLevels}).
     *
     * @throws IllegalArgumentException for a release before 5.5 or a CPU that is not possible
     */
    public static int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        Releases.requireModelled(kernel, "numa-closest", SINCE, "e0e8d4911ed2 introduced sched_numa_find_closest()");
        int node = machine.nodeOf(cpu);
        List<CpuSet> masks = NumaLevels.of(kernel, machine).masksOf(node);
        for (CpuSet mask : masks) {
            CpuSet hit = cpus.and(mask);
            // cpumask_any_and() is cpumask_first_and(): the lowest id of the level.
            if (!hit.isEmpty()) return hit.first();
        }
        return machine.nrCpuIds();
    }
}
