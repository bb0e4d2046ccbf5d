package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code group_cpus_evenly(numgrps, &nummasks)}, lib/group_cpus.c (6.3+, and the stable backport
 * in 6.1.192), written from spec/group-cpus.md: present CPUs first, then the other possible CPUs
 * from where the first stage stopped; per node, groups apportioned by CPU count in the order of
 * the kernel's unstable {@link LibSort}; from 7.0 (89802ca36c96 "lib/group_cpus: make group CPU
 * cluster aware") a node is dealt cluster by cluster when every CPU of it has a cluster and it has
 * no more clusters than groups. No hotplug lock: a snapshot of the present mask ("lib/group_cpus.c:
 * avoid acquiring cpu hotplug lock in group_cpus_evenly").
 */
final class GroupCpus {
    private static final int UINT_MAX = -1;   // as an unsigned 32-bit field

    private GroupCpus() {}

    /**
     * What one call returns: the {@code numgrps} masks (groups the kernel leaves empty are empty
     * bitmaps) and {@code nummasks}, the groups that hold CPUs (GRP-14, reported from 6.17).
     */
    record Grouping(long[][] masks, int nummasks) {}

    /** The grouping, or empty for the kernel's NULL. */
    static Optional<Grouping> groupCpusEvenly(KernelRelease kernel, KernelView k, int numgrps) {
        if (numgrps == 0) {
            // df831e977394 "lib/group_cpus: fix NULL pointer dereference from group_cpus_evenly()"
            // (6.16, stable 6.12.y). It fixes 6a6dcae8f486, which 6.1 does not have, so 6.1.y keeps
            // writing through kcalloc(0)'s ZERO_SIZE_PTR. GRP-9 names 6.12 and 6.16+.
            if (kernel.atLeast(6, 16) || (kernel.atLeast(6, 12) && kernel.before(6, 13))) return Optional.empty();
            throw new KernelBug("oops", "group_cpus_evenly(0) writes through ZERO_SIZE_PTR (fixed by df831e977394)");
        }
        long[][] masks = new long[numgrps][];
        for (int g = 0; g < numgrps; g++) masks[g] = Cpumask.alloc(k.nrCpuIds);

        long[] npresmsk = Cpumask.and(k.present, k.possible);
        int nrPresent = spread(kernel, k, 0, numgrps, npresmsk, masks);

        // Non-present CPUs start at the next group, or wrap onto the groups already used (GRP-7).
        int curgrp = nrPresent >= numgrps ? 0 : nrPresent;
        int nrOthers = spread(kernel, k, curgrp, numgrps, Cpumask.andNot(k.possible, npresmsk), masks);
        return Optional.of(new Grouping(masks, Math.min(nrPresent + nrOthers, numgrps)));
    }

    /** {@code __group_cpus_evenly()}: one stage over {@code cpuMask}; answers the groups it filled. */
    private static int spread(KernelRelease kernel, KernelView k, int startgrp, int numgrps, long[] cpuMask, long[][] masks) {
        if (Cpumask.isEmpty(cpuMask)) return 0;
        int lastGrp = numgrps;
        int curgrp = startgrp;

        int nodes = 0;
        for (int n = 0; n < k.nrNodeIds; n++) if (Cpumask.intersects(cpuMask, k.nodePossible[n])) nodes++;

        if (numgrps <= nodes) {
            // At least as many nodes as groups: whole nodes, round-robin by node id (GRP-8).
            for (int n = 0; n < k.nrNodeIds; n++) {
                if (!Cpumask.intersects(cpuMask, k.nodePossible[n])) continue;
                Cpumask.orInto(masks[curgrp], Cpumask.and(cpuMask, k.nodePossible[n]));
                if (++curgrp == lastGrp) curgrp = 0;
            }
            return numgrps;
        }

        LibSort.NodeGroups[] nodeGroups = allocNodesGroups(kernel, k, numgrps, cpuMask);
        int done = 0;
        // Nodes are dealt in the order the sort left them (GRP-10), not by id.
        for (LibSort.NodeGroups nv : nodeGroups) {
            if (nv.count == UINT_MAX) continue;
            long[] nmsk = Cpumask.and(cpuMask, k.nodePossible[nv.id]);
            if (Cpumask.isEmpty(nmsk)) continue;
            int ngroups = nv.count;
            Optional<List<long[]>> clusters = kernel.atLeast(7, 0) ? clustersOfNode(k, nmsk, ngroups) : Optional.empty();
            if (clusters.isPresent()) curgrp = assignClustersToGroups(kernel, k, clusters.get(), ngroups, curgrp, lastGrp, masks);
            else curgrp = assignCpusToGroups(k, nmsk, ngroups, curgrp, lastGrp, masks);
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
        LibSort.sort(kernel, nodeGroups);
        shareGroups(nodeGroups, Math.min(remaining, numgrps), remaining);
        return nodeGroups;
    }

    /**
     * Turns each sorted entry's CPU count into its group count, fewest CPUs first:
     * {@code max(1, floor(G * n / N))}, {@code G} the groups and {@code N} the CPUs left. Entries
     * marked "none" keep their mark. Used for the nodes of a stage and, from 7.0, for the
     * clusters of a node.
     */
    private static void shareGroups(LibSort.NodeGroups[] sorted, long groups, long remaining) {
        for (LibSort.NodeGroups ng : sorted) {
            if (ng.count == UINT_MAX) continue;
            long ncpus = ng.count;
            long ngroups = Math.max(1, groups * ncpus / remaining);
            ng.count = (int) ngroups;
            remaining -= ncpus;
            groups -= ngroups;
        }
    }

    /**
     * The node's clusters as spec/group-cpus.md counts them from 7.0: repeatedly the lowest
     * uncounted CPU's live cluster mask, cut to the node's stage CPUs. Empty (the node falls back,
     * GRP-13) when one of those CPUs has an empty cluster mask or the clusters outnumber the
     * node's groups.
     */
    private static Optional<List<long[]>> clustersOfNode(KernelView k, long[] nmsk, int ngroups) {
        List<long[]> clusters = new ArrayList<>();
        long[] uncounted = Cpumask.copy(nmsk);
        for (int c = Cpumask.first(uncounted, k.nrCpuIds); c < k.nrCpuIds; c = Cpumask.first(uncounted, k.nrCpuIds)) {
            long[] mask = k.clusters[c];
            if (Cpumask.isEmpty(mask)) return Optional.empty();
            clusters.add(Cpumask.and(nmsk, mask));
            uncounted = Cpumask.andNot(uncounted, mask);
            // An online CPU's mask holds the CPU itself, so each round counts c: the loop ends.
            if (Cpumask.test(uncounted, c)) throw new IllegalStateException("example invariant broken: cpu " + c + " not in its own cluster mask");
        }
        return clusters.size() > ngroups ? Optional.empty() : Optional.of(clusters);
    }

    /**
     * Deals a node cluster by cluster (GRP-11, GRP-12, GRP-15): the clusters, numbered in the order
     * counted, are sorted by CPU count with the release's heapsort, share the node's groups as
     * nodes share a stage's, and are dealt in sorted order. Returns the group cursor after them.
     */
    private static int assignClustersToGroups(KernelRelease kernel, KernelView k, List<long[]> clusters, int ngroups,
                                              int curgrp, int lastGrp, long[][] masks) {
        LibSort.NodeGroups[] entries = new LibSort.NodeGroups[clusters.size()];
        long ncpus = 0;
        for (int i = 0; i < entries.length; i++) {
            int n = Cpumask.weight(clusters.get(i));
            entries[i] = new LibSort.NodeGroups(i, n);
            ncpus += n;
        }
        LibSort.sort(kernel, entries);
        shareGroups(entries, ngroups, ncpus);
        for (LibSort.NodeGroups e : entries)
            curgrp = assignCpusToGroups(k, Cpumask.copy(clusters.get(e.id)), e.count, curgrp, lastGrp, masks);
        return curgrp;
    }

    /**
     * Step 4 of spec/group-cpus.md: {@code n} CPUs into {@code g} consecutive groups from the
     * cursor, the first {@code n mod g} taking one CPU more (GRP-4). Consumes {@code nmsk};
     * returns the cursor after the last group.
     */
    private static int assignCpusToGroups(KernelView k, long[] nmsk, int ngroups, int curgrp, int lastGrp, long[][] masks) {
        int ncpus = Cpumask.weight(nmsk);
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
        return curgrp;
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
