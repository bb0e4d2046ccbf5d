package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.Optional;

/**
 * {@code group_cpus_evenly(numgrps)}, lib/group_cpus.c (6.3+, and the stable backport in
 * 6.1.192): present CPUs first, then the other possible CPUs from where the first stage stopped;
 * per node, groups apportioned by CPU count in the order of the kernel's unstable {@link LibSort}.
 * No hotplug lock: a snapshot of the present mask ("lib/group_cpus.c: avoid acquiring cpu hotplug
 * lock in group_cpus_evenly").
 */
final class GroupCpus {
    private static final int UINT_MAX = -1;   // as an unsigned 32-bit field

    private GroupCpus() {}

    /** The groups, or empty for the kernel's NULL. Groups the kernel leaves empty are empty bitmaps. */
    static Optional<long[][]> groupCpusEvenly(KernelRelease kernel, KernelView k, int numgrps) {
        if (numgrps == 0) {
            // df831e977394 "lib/group_cpus: fix NULL pointer dereference from group_cpus_evenly()"
            // (6.16, stable 6.12.y). It fixes 6a6dcae8f486, which 6.1 does not have, so 6.1.y keeps
            // writing through kcalloc(0)'s ZERO_SIZE_PTR.
            if (kernel.atLeast(6, 12)) return Optional.empty();
            throw new KernelBug("oops", "group_cpus_evenly(0) writes through ZERO_SIZE_PTR (fixed by df831e977394)");
        }
        long[][] masks = new long[numgrps][];
        for (int g = 0; g < numgrps; g++) masks[g] = Cpumask.alloc(k.nrCpuIds);

        long[] npresmsk = Cpumask.and(k.present, k.possible);
        int nrPresent = spread(kernel, k, 0, numgrps, npresmsk, masks);

        // Non-present CPUs start at the next group, or wrap onto the groups already used.
        int curgrp = nrPresent >= numgrps ? 0 : nrPresent;
        spread(kernel, k, curgrp, numgrps, Cpumask.andNot(k.possible, npresmsk), masks);
        return Optional.of(masks);
    }

    /** {@code __group_cpus_evenly()}: one stage over {@code cpuMask}; answers the groups it filled. */
    private static int spread(KernelRelease kernel, KernelView k, int startgrp, int numgrps, long[] cpuMask, long[][] masks) {
        if (Cpumask.isEmpty(cpuMask)) return 0;
        int lastGrp = numgrps;
        int curgrp = startgrp;

        int nodes = 0;
        for (int n = 0; n < k.nrNodeIds; n++) if (Cpumask.intersects(cpuMask, k.nodePossible[n])) nodes++;

        if (numgrps <= nodes) {
            // At least as many nodes as groups: whole nodes, round-robin by node id.
            for (int n = 0; n < k.nrNodeIds; n++) {
                if (!Cpumask.intersects(cpuMask, k.nodePossible[n])) continue;
                Cpumask.orInto(masks[curgrp], Cpumask.and(cpuMask, k.nodePossible[n]));
                if (++curgrp == lastGrp) curgrp = 0;
            }
            return numgrps;
        }

        LibSort.NodeGroups[] nodeGroups = allocNodesGroups(kernel, k, numgrps, cpuMask);
        int done = 0;
        for (LibSort.NodeGroups nv : nodeGroups) {
            if (nv.count == UINT_MAX) continue;
            long[] nmsk = Cpumask.and(cpuMask, k.nodePossible[nv.id]);
            int ncpus = Cpumask.weight(nmsk);
            if (ncpus == 0) continue;
            int ngroups = nv.count;
            // The first extraGrps groups of the node take one CPU more.
            int extraGrps = ncpus - ngroups * (ncpus / ngroups);
            for (int v = 0; v < ngroups; v++, curgrp++) {
                int cpusPerGrp = ncpus / ngroups;
                if (extraGrps > 0) {
                    cpusPerGrp++;
                    extraGrps--;
                }
                if (curgrp >= lastGrp) curgrp = 0;     // startgrp may be anywhere
                grpSpreadInitOne(k, masks[curgrp], nmsk, cpusPerGrp);
            }
            done += ngroups;
        }
        return done;
    }

    /**
     * {@code alloc_nodes_groups()}: the node array sorted by CPU count, each entry then holding its
     * group count {@code max(1, numgrps * ncpus / remaining)}, smallest node first. Taking the
     * floor from the smallest node up gives every node at least one group and no node more groups
     * than CPUs (the kernel comment proves it for two nodes and extends it by induction).
     */
    private static LibSort.NodeGroups[] allocNodesGroups(KernelRelease kernel, KernelView k, int numgrps, long[] cpuMask) {
        LibSort.NodeGroups[] nodeGroups = new LibSort.NodeGroups[k.nrNodeIds];
        long remaining = 0;
        for (int n = 0; n < k.nrNodeIds; n++) {
            int ncpus = Cpumask.weightAnd(cpuMask, k.nodePossible[n]);
            nodeGroups[n] = new LibSort.NodeGroups(n, ncpus == 0 ? UINT_MAX : ncpus);
            remaining += ncpus;
        }
        long groups = Math.min(remaining, numgrps);

        LibSort.sort(kernel, nodeGroups);

        for (LibSort.NodeGroups ng : nodeGroups) {
            if (ng.count == UINT_MAX) continue;
            long ncpus = ng.count;
            long ngroups = Math.max(1, groups * ncpus / remaining);
            ng.count = (int) ngroups;
            remaining -= ncpus;
            groups -= ngroups;
        }
        return nodeGroups;
    }

    /** {@code grp_spread_init_one()}: the lowest CPUs of the node, pulling in their SMT siblings while the quota lasts. */
    private static void grpSpreadInitOne(KernelView k, long[] grp, long[] nmsk, int cpusPerGrp) {
        while (cpusPerGrp > 0) {
            int cpu = Cpumask.first(nmsk, k.nrCpuIds);
            if (cpu >= k.nrCpuIds) return;
            Cpumask.clear(nmsk, cpu);
            Cpumask.set(grp, cpu);
            cpusPerGrp--;
            long[] siblings = k.siblings[cpu];
            for (int sibl = Cpumask.first(siblings, k.nrCpuIds); cpusPerGrp > 0 && sibl < k.nrCpuIds;
                 sibl = Cpumask.nextFrom(siblings, sibl + 1, k.nrCpuIds)) {
                if (!Cpumask.testAndClear(nmsk, sibl)) continue;
                Cpumask.set(grp, sibl);
                cpusPerGrp--;
            }
        }
    }
}
