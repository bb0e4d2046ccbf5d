package dev.numaspread.model.group;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Arch;
import dev.numaspread.model.topology.Topology;
import org.apache.commons.math3.fraction.BigFraction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code group_cpus_evenly(numgrps, &nummasks)} ({@code lib/group_cpus.c}): the possible CPUs split
 * into {@code numgrps} groups by NUMA node, L2 cluster (7.0+) and SMT core, or NULL.
 *
 * <p>Guarantees (spec/group-cpus.md): the groups partition the possible CPUs (GRP-1); present CPUs
 * are grouped first, the others continue at the next group and wrap (GRP-7); per stage a group holds
 * one node's CPUs unless {@code numgrps} is at most the number of nodes (GRP-2, GRP-8); each node gets
 * 1..ncpus groups (GRP-3); from 7.0 a node with no more clusters than groups, all of whose stage CPUs
 * have a cluster mask, deals its groups cluster by cluster (GRP-11, GRP-12) and otherwise falls back
 * to node-wide dealing (GRP-13), whose group sizes differ by at most one (GRP-4); SMT siblings stay
 * together where the quota allows (GRP-5); empty groups come last (GRP-6); {@code nummasks} counts the
 * groups that hold CPUs (GRP-14). Order and membership are the kernel's for the release (GRP-10,
 * GRP-15): nodes, and from 7.0 clusters, are sorted by CPU count with the release's heapsort.
 *
 * <p>Releases: mainline since 6.3 (6a6dcae8f486 series, "genirq/affinity: Move group_cpus_evenly()
 * into lib/"); the same code was the private {@code irq_build_affinity_masks} since 5.3
 * (b1a5a73e64e9 "genirq/affinity: Spread vectors on node according to nr_cpu ratio"), and the
 * kernel runs show 6.1.192 carrying {@code group_cpus_evenly} as a stable backport, so 6.1 is
 * modelled too. {@code numgrps == 0} crashes, or returns NULL where df831e977394 "lib/group_cpus:
 * fix NULL pointer dereference from group_cpus_evenly()" reached (6.16 and the stable series of
 * {@link #returnsNullForZeroGroups}).
 * From 6.17 the kernel also reports {@code nummasks} (b6139a6abf67 "lib/group_cpus: Let
 * group_cpu_evenly() return the number of initialized masks"); see {@link Grouping#nummasks()}.
 * From 7.0 the CPUs of a node are dealt cluster by cluster (89802ca36c96 "lib/group_cpus: make
 * group CPU cluster aware"); the 7.3.4 kernel runs confirm the order.
 *
 * <p>The live masks are used, as the kernel reads them: {@code topology_sibling_cpumask(cpu)}, the
 * online siblings of an online CPU and nothing for an offline or not-present one, and
 * {@code topology_cluster_cpumask(cpu)} ({@link Topology#topologyClusterCpumask}, TOPO-13).
 *
 * <p>Cost: the working state of a call is one mark per CPU id and the CPU lists of the set being
 * dealt, O(n) bytes; the result is {@code numgrps} masks, as the kernel's is.
 */
public final class GroupCpusEvenly {

    private GroupCpusEvenly() {}

    /** The kernel's {@code UINT_MAX} marker of a node without CPUs in the stage, as the int bit pattern. */
    static final int UINT_MAX = -1;

    /**
     * The groups of {@code group_cpus_evenly(numgrps)} in group order ({@code numgrps} sets, empty
     * sets where the kernel leaves a group empty), or empty for the kernel's NULL.
     *
     * @throws KernelBug for {@code numgrps == 0} where {@link #returnsNullForZeroGroups} is false (ZERO_SIZE_PTR dereferenced)
     * @throws IllegalArgumentException for a negative {@code numgrps} or a release without the routine
     */
    public static Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        return grouping(kernel, machine, numgrps).map(Grouping::masks);
    }

    /**
     * What {@code group_cpus_evenly} computed: the masks and the groups each stage filled (hence
     * {@code nummasks}), or empty for NULL. Same errors as {@link #groupCpusEvenly}.
     */
    public static Optional<Grouping> grouping(KernelRelease kernel, Topology machine, int numgrps) {
        requireModelled(kernel);
        if (numgrps < 0)
            throw new IllegalArgumentException("groupCpusEvenly: numgrps " + numgrps + "; expected 0 or more");
        if (numgrps == 0) {
            if (returnsNullForZeroGroups(kernel)) return Optional.empty();
            throw new KernelBug("oops", "group_cpus_evenly(0): kcalloc(0) gives ZERO_SIZE_PTR and the"
                    + " grouping writes through it; fixed in 6.16 (and 6.6.y, 6.12.y, 6.15.y) by df831e977394 \"lib/group_cpus: fix NULL pointer"
                    + " dereference from group_cpus_evenly()\"");
        }
        Masks masks = new Masks(kernel, machine, numgrps);

        CpuSet present = machine.present();   // the kernel's npresmsk snapshot
        int nrPresent = spreadStage(masks, 0, present);
        // Stage 2 starts at the first group stage 1 left unused, or at group 0 when it used them all.
        int startGroup = nrPresent >= numgrps ? 0 : nrPresent;
        int nrOthers = spreadStage(masks, startGroup, machine.possible().andNot(present));

        Grouping grouping = new Grouping(masks.build(), nrPresent, nrOthers);
        checkPartition(machine, grouping);
        return Optional.of(grouping);
    }

    /**
     * The result of one {@code group_cpus_evenly} call.
     *
     * @param masks     the {@code numgrps} groups, in group order
     * @param nrPresent the groups stage 1 filled (present CPUs)
     * @param nrOthers  the groups stage 2 filled (possible but not present CPUs)
     */
    public record Grouping(List<CpuSet> masks, int nrPresent, int nrOthers) {
        public Grouping {
            masks = List.copyOf(masks);
        }

        /** {@code numgrps}, the number of masks returned. */
        public int numgrps() {
            return masks.size();
        }

        /**
         * The {@code *nummasks} of 6.17+ (b6139a6abf67): {@code min(nrPresent + nrOthers, numgrps)},
         * the number of leading groups that hold CPUs (GRP-14).
         */
        public int nummasks() {
            return Math.min(nrPresent + nrOthers, masks.size());
        }

        /** True when 6.3-6.16 print {@code WARN_ON(nr_present + nr_others < numgrps)}: more groups than possible CPUs. */
        public boolean warns() {
            return nrPresent + nrOthers < masks.size();
        }
    }

    static void requireModelled(KernelRelease kernel) {
        if (kernel.before(6, 1) || kernel.equals(KernelRelease.of(6, 2)))
            throw new IllegalArgumentException("groupCpusEvenly: kernel " + kernel + " has no group_cpus_evenly();"
                    + " expected 6.3+ (mainline) or 6.1 (stable backport)");
    }

    /**
     * True when {@code group_cpus_evenly(0)} returns NULL (GRP-9): df831e977394 "lib/group_cpus: fix
     * NULL pointer dereference from group_cpus_evenly()" reached mainline in 6.16 and, as the
     * series stand today, the stable series 6.6.y, 6.12.y (6.12.36) and 6.15.y (linux-stable-rc
     * queues of 2 July 2025); not 6.1.y (Debian's changelog to 6.1.192 lacks it).
     */
    public static boolean returnsNullForZeroGroups(KernelRelease kernel) {
        return kernel.atLeast(6, 15) || kernel.equals(KernelRelease.of(6, 12)) || kernel.equals(KernelRelease.of(6, 6));
    }

    /**
     * True when {@code group_cpus_evenly()} holds {@code cpus_read_lock()} around the grouping
     * (HP-6): 6.3 to 6.5. 0263f92fadbb "lib/group_cpus.c: avoid acquiring cpu hotplug lock in
     * group_cpus_evenly" (6.7) reads a snapshot of the present mask instead, and reached 6.1.y with
     * the function's backport (6.1.72) and 6.6.y (6.6.7).
     */
    public static boolean takesHotplugLock(KernelRelease kernel) {
        return kernel.between(KernelRelease.of(6, 3), KernelRelease.of(6, 5));
    }

    /** True when the release deals a node's CPUs cluster by cluster (89802ca36c96, 7.0). */
    static boolean isClusterAware(KernelRelease kernel) {
        return kernel.atLeast(7, 0);
    }

    /**
     * The groups being filled and the kernel's group cursor {@code curgrp}, plus {@code nmsk}: the
     * CPUs still to deal from the node or cluster at hand, one mark per CPU id. Every CPU is dealt
     * (and from 7.0 probed for its cluster) once per call, so one array serves every stage, node
     * and cluster.
     */
    static final class Masks {
        final KernelRelease kernel;
        final Topology machine;
        final KernelHeapsort.Variant sort;
        final CpuSet.Builder[] groups;
        final boolean[] nmsk;
        final boolean[] probed;   // 7.0+: the CPUs whose cluster has been counted
        int currentGroup;         // kernel: curgrp

        Masks(KernelRelease kernel, Topology machine, int numgrps) {
            this.kernel = kernel;
            this.machine = machine;
            this.sort = KernelHeapsort.variantOf(kernel);
            this.groups = new CpuSet.Builder[numgrps];
            for (int g = 0; g < numgrps; g++) groups[g] = CpuSet.builder();
            this.nmsk = new boolean[machine.nrCpuIds()];
            this.probed = new boolean[machine.nrCpuIds()];
        }

        int numgrps() {
            return groups.length;
        }

        /** The group the next share fills: the cursor, wrapped to 0 at {@code numgrps} ("startgrp may be anywhere"). */
        CpuSet.Builder nextGroup() {
            if (currentGroup >= groups.length) currentGroup = 0;
            return groups[currentGroup++];
        }

        List<CpuSet> build() {
            List<CpuSet> out = new ArrayList<>(groups.length);
            for (CpuSet.Builder b : groups) out.add(b.build());
            return out;
        }
    }

    // ---------------------------------------------------------------- in the order the kernel calls them

    /**
     * {@code __group_cpus_evenly(startgrp, numgrps, cpus)}: spreads {@code cpus} over the groups from
     * {@code startGroup} on, wrapping at {@code numgrps}; returns the number of groups it filled.
     */
    static int spreadStage(Masks masks, int startGroup, CpuSet cpus) {
        Topology machine = masks.machine;
        if (cpus.isEmpty()) return 0;
        List<Integer> nodes = new ArrayList<>();   // kernel: nodemsk, ascending id
        for (int id : machine.nodeIds()) if (machine.cpusOf(id).intersects(cpus)) nodes.add(id);

        masks.currentGroup = startGroup;
        if (masks.numgrps() <= nodes.size()) {
            // Fewer groups than nodes: deal whole nodes round-robin by node id.
            for (int node : nodes) masks.nextGroup().addAll(machine.cpusOf(node).and(cpus));
            return masks.numgrps();
        }

        int done = 0;
        for (NodeGroups nv : allocNodesGroups(machine, masks.sort, masks.numgrps(), cpus)) {
            CpuSet nodeSet = machine.cpusOf(nv.id()).and(cpus);   // kernel: nmsk of the node
            int[] nodeCpus = nodeSet.toArray();
            if (!isClusterAware(masks.kernel) || !tryGroupClusterCpus(masks, nodeSet, nodeCpus, nv.ngroups()))
                assignCpusToGroups(masks, nodeCpus, nv.ngroups());
            done += nv.ngroups();
        }
        return done;
    }

    /** A node, or from 7.0 a cluster, and its CPU count in the stage, as sorted; {@code ncpus} is {@link #UINT_MAX} for none. */
    record NodeCpus(int id, int ncpus) {}

    /** A node, or a cluster, and the number of groups it was given. */
    record NodeGroups(int id, int ngroups) {}

    /**
     * {@code alloc_nodes_groups}: the nodes with CPUs in {@code cpus}, in the kernel's sorted order
     * (fewest CPUs first, ties as the release's heapsort leaves them), each with its group count.
     */
    static List<NodeGroups> allocNodesGroups(Topology machine, KernelHeapsort.Variant sort, int numgrps, CpuSet cpus) {
        // The kernel sorts one entry per possible node id (nr_node_ids of them), marking nodes
        // without CPUs in the stage with UINT_MAX. Those entries take part in the sort, so they
        // shift the tie order of the others; they compare as -1 and are skipped afterwards.
        List<NodeCpus> entries = new ArrayList<>();
        int totalCpus = 0;
        for (int id = 0; id < machine.nrNodeIds(); id++) {
            int n = machine.cpusOf(id).and(cpus).size();
            entries.add(new NodeCpus(id, n == 0 ? UINT_MAX : n));
            totalCpus += n;
        }
        return allocGroupsToNodes(Math.min(numgrps, totalCpus), totalCpus, entries, sort, "node");
    }

    /**
     * {@code alloc_groups_to_nodes}: sorts the entries by CPU count with the release's heapsort and
     * shares {@code numgrps} groups among their {@code numcpus} CPUs, fewest CPUs first; entries
     * marked {@link #UINT_MAX} take part in the sort and get nothing. The nodes of a stage use it,
     * and from 7.0 the clusters of a node.
     */
    static List<NodeGroups> allocGroupsToNodes(int numgrps, int numcpus, List<NodeCpus> entries,
                                               KernelHeapsort.Variant sort, String what) {
        // ncpus_cmp_func returns the unsigned difference as an int; Java's wrapping int
        // subtraction on the same bit patterns gives the same sign (UINT_MAX acts as -1).
        List<NodeCpus> sorted = KernelHeapsort.sorted(entries, (l, r) -> l.ncpus() - r.ncpus(), sort);

        // Share G groups among N CPUs, smallest entry first: g(X) = max(1, floor(G*n(X)/N)), then go on
        // with G -= g(X), N -= n(X). Claim (GRP-3, GRP-12): 1 <= g(X) <= n(X) for every entry, and the
        // shares add up to G, provided #entries <= G <= N. Sketch (after b1a5a73e64e9's comment): the
        // lower bound is the max. Upper bound, two entries A <= B, a + b = N, d = N - G >= 0: either
        // g(A) = 1 <= a, or g(A) = floor(G*a/N) <= a since G <= N. And G*a/N = a - d*a/N >= a - d, so
        // g(A) >= a - d and g(B) = G - g(A) <= G - a + d = N - a = b. With more entries the rest act as
        // one entry B: G and N are recomputed after each entry, G <= N keeps holding (G - g <= N - n
        // because g >= n - d), and since G >= #entries at the start each later entry still finds G >= 1.
        int groupsLeft = numgrps;   // kernel: numgrps
        int cpusLeft = numcpus;     // kernel: remaining_ncpus
        List<NodeGroups> out = new ArrayList<>();
        for (NodeCpus e : sorted) {
            if (e.ncpus() == UINT_MAX) continue;
            int ncpus = e.ncpus();
            BigFraction share = new BigFraction((long) groupsLeft * ncpus, (long) cpusLeft);
            int ngroups = Math.max(1, share.getNumerator().divide(share.getDenominator()).intValueExact());   // floor: share >= 0
            if (ngroups != Math.max(1, (int) ((long) groupsLeft * ncpus / cpusLeft)) || ngroups > ncpus || groupsLeft < 1)
                throw new IllegalStateException("model invariant GRP-3 broken: " + what + " " + e.id() + " with " + ncpus
                        + " CPUs got " + ngroups + " groups (" + groupsLeft + " groups left for " + cpusLeft + " CPUs)");
            out.add(new NodeGroups(e.id(), ngroups));
            cpusLeft -= ncpus;
            groupsLeft -= ngroups;
        }
        if (groupsLeft != 0)
            throw new IllegalStateException("model invariant GRP-6 broken: " + groupsLeft + " groups left unassigned after every " + what);
        return out;
    }

    /**
     * {@code __try_group_cluster_cpus} (7.0+, 89802ca36c96): deals the node's stage CPUs
     * {@code nodeCpus} (ascending) cluster by cluster and returns true, or returns false, dealing
     * nothing, when the node falls back to {@link #assignCpusToGroups}: a CPU met while counting the
     * clusters has an empty cluster mask, or the node has more clusters than groups (GRP-13).
     */
    static boolean tryGroupClusterCpus(Masks masks, CpuSet nodeSet, int[] nodeCpus, int ngroups) {
        List<int[]> clusters = clustersOf(masks, nodeSet, nodeCpus);   // kernel: alloc_cluster_groups
        if (clusters.isEmpty() || clusters.size() > ngroups) return false;

        List<NodeCpus> entries = new ArrayList<>();
        for (int i = 0; i < clusters.size(); i++) entries.add(new NodeCpus(i, clusters.get(i).length));
        for (NodeGroups nv : allocGroupsToNodes(ngroups, nodeCpus.length, entries, masks.sort, "cluster"))
            assignCpusToGroups(masks, clusters.get(nv.id()), nv.ngroups());
        return true;
    }

    /**
     * The node's stage CPUs cut into its clusters in the order the kernel discovers them (each
     * {@code S ∩ topology_cluster_cpumask(c)} for the lowest CPU {@code c} not yet in one), or
     * empty when that mask is empty for some {@code c}: the kernel then gives up on clusters.
     *
     * <p>The kernel probes with the live mask; this reads it through the hardware cluster and the
     * online mask, which is the same set (TOPO-13): for an online {@code c}, the live mask is the
     * online CPUs of {@code c}'s cluster on {@code c}'s node, and every CPU of {@code S} is on that
     * node; for an offline {@code c} it is empty. An offline CPU of {@code S} is in no other CPU's
     * mask, so the probe always reaches it: the node falls back exactly when {@code S} holds an
     * offline CPU, and otherwise the parts partition {@code S}.
     *
     * <p>On arm64 no mask is empty (TOPO-13): an offline or not-present CPU's mask is the CPU
     * itself, so it is a cluster of one CPU, and an online CPU's mask holds the online CPUs of its
     * cluster. The node never falls back for a CPU that is not online; only more clusters than
     * groups make it fall back (GRP-13).
     */
    static List<int[]> clustersOf(Masks masks, CpuSet nodeSet, int[] nodeCpus) {
        Topology machine = masks.machine;
        CpuSet online = machine.online();
        boolean[] probed = masks.probed;   // kernel: the CPUs cleared from msk
        if (machine.arch() == Arch.ARM64) {
            List<int[]> out = new ArrayList<>();
            for (int cpu : nodeCpus) {
                if (probed[cpu]) continue;
                int[] part = machine.topologyClusterCpumask(cpu).and(nodeSet).stream().filter(c -> !probed[c]).toArray();
                for (int c : part) probed[c] = true;
                out.add(part);
            }
            return out;
        }
        for (int cpu : nodeCpus) if (!online.contains(cpu)) return List.of();
        List<int[]> out = new ArrayList<>();
        for (int cpu : nodeCpus) {         // kernel: cpu = cpumask_first(msk)
            if (probed[cpu]) continue;
            int[] part = machine.clusterOf(cpu).stream().filter(nodeSet::contains).toArray();
            for (int c : part) probed[c] = true;
            out.add(part);
        }
        return out;
    }

    /**
     * {@code assign_cpus_to_groups}: deals {@code cpus} (ascending) into the next {@code ngroups}
     * groups from the cursor; the first {@code ncpus mod ngroups} groups take one CPU more.
     */
    static void assignCpusToGroups(Masks masks, int[] cpus, int ngroups) {
        int ncpus = cpus.length;
        for (int cpu : cpus) masks.nmsk[cpu] = true;
        int[] lowest = {0};   // index into cpus below which every CPU has been dealt
        // The first `extra` groups absorb ncpus mod ngroups, one CPU each.
        int extraGroups = ncpus - ngroups * (ncpus / ngroups);
        for (int v = 0; v < ngroups; v++) {
            int cpusPerGroup = ncpus / ngroups;
            if (extraGroups > 0) {
                cpusPerGroup++;
                extraGroups--;
            }
            grpSpreadInitOne(masks, masks.nextGroup(), cpus, lowest, cpusPerGroup);
        }
        for (int cpu : cpus)
            if (masks.nmsk[cpu])
                throw new IllegalStateException("model invariant GRP-1 broken: cpu " + cpu + " of " + CpuSet.of(cpus).toList()
                        + " was not dealt into any of " + ngroups + " groups");
    }

    /**
     * {@code grp_spread_init_one}: moves {@code cpusPerGroup} CPUs of {@code nmsk} into {@code group},
     * lowest first, each followed by its live SMT siblings still in {@code nmsk} while the quota lasts.
     * {@code cpus} lists the set being dealt in ascending order and {@code lowest[0]} the position
     * below which all of it is dealt, so the lowest CPU left is found without rescanning.
     */
    static void grpSpreadInitOne(Masks masks, CpuSet.Builder group, int[] cpus, int[] lowest, int cpusPerGroup) {
        boolean[] nmsk = masks.nmsk;
        Topology machine = masks.machine;
        while (cpusPerGroup > 0) {
            while (lowest[0] < cpus.length && !nmsk[cpus[lowest[0]]]) lowest[0]++;
            if (lowest[0] == cpus.length) return;   // kernel: "should not happen"
            int cpu = cpus[lowest[0]];
            nmsk[cpu] = false;
            group.add(cpu);
            cpusPerGroup--;
            // topology_sibling_cpumask(cpu): the online siblings of an online CPU, nothing otherwise.
            if (!machine.online().contains(cpu)) continue;
            for (int sibling : machine.siblingsOf(cpu).toArray()) {
                if (cpusPerGroup == 0) break;
                if (sibling >= nmsk.length || !nmsk[sibling] || !machine.online().contains(sibling)) continue;
                nmsk[sibling] = false;
                group.add(sibling);
                cpusPerGroup--;
            }
        }
    }

    /** {@code topology_sibling_cpumask(cpu)} as the kernel keeps it: empty for a CPU that is not online. */
    static CpuSet liveSiblingsOf(Topology machine, int cpu) {
        return machine.online().contains(cpu) ? machine.onlineSiblingsOf(cpu) : CpuSet.EMPTY;
    }

    /** GRP-1 checked on every result: each possible CPU in exactly one group, nothing else. */
    private static void checkPartition(Topology machine, Grouping grouping) {
        int[] groupOf = new int[machine.nrCpuIds()];
        Arrays.fill(groupOf, -1);
        for (int g = 0; g < grouping.masks().size(); g++) {
            CpuSet group = grouping.masks().get(g);
            for (int c : group.toArray()) {
                if (!machine.possible().contains(c) || groupOf[c] >= 0)
                    throw new IllegalStateException("model invariant GRP-1 broken: cpu " + c + " of group " + g + " (" + group.toList()
                            + ") is " + (groupOf[c] >= 0 ? "also in group " + groupOf[c] : "not possible"));
                groupOf[c] = g;
            }
        }
        for (int c : machine.possible().toArray())
            if (groupOf[c] < 0)
                throw new IllegalStateException("model invariant GRP-1 broken: possible cpu " + c + " is in no group");
    }
}
