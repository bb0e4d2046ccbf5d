package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/**
 * Slip, 7.0+ (issue 24, item 3 of the reach work): the cluster step skipped, each node dealt as 6.18
 * deals it, as the kernel-src edit {@code if (0 && __try_group_cluster_cpus(} makes the kernel do.
 * A node with no more clusters than groups then has a group across two clusters (GRP-11); the
 * failure needs the CPU count and the group count lowered together to shrink, and shrinks to three
 * CPUs in two clusters and two groups.
 */
final class ClusterStepSkipped extends GroupingZooMember {
    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        return reference.groupCpusEvenly(kernel.atLeast(7, 0) ? KernelRelease.of(6, 18) : kernel, machine, numgrps);
    }
}
