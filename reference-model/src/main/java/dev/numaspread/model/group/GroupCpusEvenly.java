package dev.numaspread.model.group;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.apache.commons.math3.fraction.BigFraction;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code group_cpus_evenly(numgrps)} ({@code lib/group_cpus.c}): the possible CPUs split into
 * {@code numgrps} groups by NUMA node and SMT core, or NULL.
 *
 * <p>Guarantees (spec/group-cpus.md): the groups partition the possible CPUs (GRP-1); present CPUs
 * are grouped first, the others continue at the next group and wrap (GRP-7); per stage a group holds
 * one node's CPUs unless {@code numgrps} is at most the number of nodes (GRP-2, GRP-8); each node gets
 * 1..ncpus groups (GRP-3) whose sizes differ by at most one (GRP-4); SMT siblings stay together
 * where the quota allows (GRP-5); empty groups come last (GRP-6). Order and membership are the
 * kernel's for the release (GRP-10): nodes are sorted by CPU count with the release's heapsort.
 *
 * <p>Releases: mainline since 6.3 (6a6dcae8f486 series, "genirq/affinity: Move group_cpus_evenly()
 * into lib/"); the same code was the private {@code irq_build_affinity_masks} since 5.3
 * (b1a5a73e64e9 "genirq/affinity: Spread vectors on node according to nr_cpu ratio"), and the
 * kernel runs show 6.1.192 carrying {@code group_cpus_evenly} as a stable backport, so 6.1 is
 * modelled too. {@code numgrps == 0} crashes before 6.16 and returns NULL from 6.16 and in 6.12.y
 * (df831e977394 "lib/group_cpus: fix NULL pointer dereference from group_cpus_evenly()").
 * From ≈6.17 the kernel also reports {@code nummasks} (b6139a6abf67 "lib/group_cpus: Let
 * group_cpu_evenly() return the number of initialized masks"); see {@link Grouping#nummasks()}.
 *
 * <p>The live {@code topology_sibling_cpumask(cpu)} is used: the online siblings of an online
 * CPU, nothing more for an offline or not-present CPU (the kernel clears the mask when a CPU
 * goes down and fills it only when it comes up).
 */
public final class GroupCpusEvenly {

    private GroupCpusEvenly() {}

    /** The kernel's {@code UINT_MAX} marker of a node without CPUs in the stage, as the int bit pattern. */
    static final int UINT_MAX = -1;

    /**
     * The groups of {@code group_cpus_evenly(numgrps)} in group order ({@code numgrps} sets, empty
     * sets where the kernel leaves a group empty), or empty for the kernel's NULL.
     *
     * @throws KernelBug for {@code numgrps == 0} before 6.16, 6.12 excepted (ZERO_SIZE_PTR dereferenced)
     * @throws IllegalArgumentException for a negative {@code numgrps} or a release without the routine
     */
    public static Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        return grouping(kernel, machine, numgrps).map(Grouping::masks);
    }

    /**
     * What {@code group_cpus_evenly} computed: the masks and the groups each stage filled, or empty
     * for NULL. Same errors as {@link #groupCpusEvenly}.
     */
    public static Optional<Grouping> grouping(KernelRelease kernel, Topology machine, int numgrps) {
        requireModelled(kernel);
        if (numgrps < 0)
            throw new IllegalArgumentException("groupCpusEvenly: numgrps " + numgrps + "; expected 0 or more");
        if (numgrps == 0) {
            // The fix reached 6.16 and the 6.12.y stable series (research §6.2); a 6.12 profile is
            // a current 6.12.y (the kernel runs are 6.12.117), so it has the fix too.
            if (kernel.atLeast(6, 16) || kernel.equals(KernelRelease.of(6, 12))) return Optional.empty();
            throw new KernelBug("oops", "group_cpus_evenly(0) in " + kernel + ": kcalloc(0) gives ZERO_SIZE_PTR and the"
                    + " grouping writes through it; fixed in 6.16 by df831e977394 \"lib/group_cpus: fix NULL pointer"
                    + " dereference from group_cpus_evenly()\"");
        }
        KernelHeapsort.Variant sort = KernelHeapsort.variantOf(kernel);
        CpuSet.Builder[] masks = new CpuSet.Builder[numgrps];
        for (int g = 0; g < numgrps; g++) masks[g] = CpuSet.builder();

        CpuSet present = machine.present();   // the kernel's npresmsk snapshot
        int nrPresent = spreadStage(machine, sort, 0, numgrps, present, masks);
        // Stage 2 starts at the first group stage 1 left unused, or at group 0 when it used them all.
        int currentGroup = nrPresent >= numgrps ? 0 : nrPresent;   // kernel: curgrp
        int nrOthers = spreadStage(machine, sort, currentGroup, numgrps, machine.possible().andNot(present), masks);

        List<CpuSet> out = new ArrayList<>(numgrps);
        for (CpuSet.Builder b : masks) out.add(b.build());
        Grouping grouping = new Grouping(out, nrPresent, nrOthers);
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
         * The {@code *nummasks} of ≈6.17+ (b6139a6abf67): {@code min(nrPresent + nrOthers, numgrps)},
         * the number of leading groups that hold CPUs.
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

    // ---------------------------------------------------------------- in the order the kernel calls them

    /**
     * {@code __group_cpus_evenly(startgrp, numgrps, cpus)}: spreads {@code cpus} over the groups from
     * {@code startGroup} on, wrapping at {@code numgrps}; returns the number of groups it filled.
     */
    static int spreadStage(Topology machine, KernelHeapsort.Variant sort, int startGroup, int numgrps,
                           CpuSet cpus, CpuSet.Builder[] masks) {
        if (cpus.isEmpty()) return 0;
        List<Integer> nodes = new ArrayList<>();   // kernel: nodemsk, ascending id
        for (int id : machine.nodeIds()) if (machine.cpusOf(id).intersects(cpus)) nodes.add(id);

        int currentGroup = startGroup;   // kernel: curgrp
        if (numgrps <= nodes.size()) {
            // Fewer groups than nodes: deal whole nodes round-robin by node id.
            for (int node : nodes) {
                masks[currentGroup].addAll(machine.cpusOf(node).and(cpus));
                if (++currentGroup == numgrps) currentGroup = 0;
            }
            return numgrps;
        }

        int done = 0;
        for (NodeGroups nv : allocNodesGroups(machine, sort, numgrps, cpus)) {
            CpuSet nodeCpus = machine.cpusOf(nv.id()).and(cpus);   // kernel: nmsk
            int ncpus = nodeCpus.size();
            // The first `extra` groups of the node take one CPU more, absorbing ncpus mod ngroups.
            int extraGroups = ncpus - nv.ngroups() * (ncpus / nv.ngroups());
            CpuSet remaining = nodeCpus;
            for (int v = 0; v < nv.ngroups(); v++, currentGroup++) {
                int cpusPerGroup = ncpus / nv.ngroups();
                if (extraGroups > 0) {
                    cpusPerGroup++;
                    extraGroups--;
                }
                if (currentGroup >= numgrps) currentGroup = 0;   // startgrp may be anywhere
                remaining = grpSpreadInitOne(machine, masks[currentGroup], remaining, cpusPerGroup);
            }
            done += nv.ngroups();
        }
        return done;
    }

    /** A node and its CPU count in the stage, as sorted; {@code ncpus} is {@link #UINT_MAX} for none. */
    record NodeCpus(int id, int ncpus) {}

    /** A node and the number of groups it was given. */
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
        // ncpus_cmp_func returns the unsigned difference as an int; Java's wrapping int
        // subtraction on the same bit patterns gives the same sign (UINT_MAX acts as -1).
        List<NodeCpus> sorted = KernelHeapsort.sorted(entries, (l, r) -> l.ncpus() - r.ncpus(), sort);

        // Share G groups among N CPUs, smallest node first: g(X) = max(1, floor(G*n(X)/N)), then go on
        // with G -= g(X), N -= n(X). Claim (GRP-3): 1 <= g(X) <= n(X) for every node, and the shares
        // add up to min(numgrps, N). Sketch (after b1a5a73e64e9's comment): the lower bound is the max.
        // Upper bound, two nodes A <= B, a + b = N, d = N - G >= 0 (G <= N after the clamp): either
        // g(A) = 1 <= a, or g(A) = floor(G*a/N) <= a since G <= N. And G*a/N = a - d*a/N >= a - d, so
        // g(A) >= a - d and g(B) = G - g(A) <= G - a + d = N - a = b. With more nodes the rest act as
        // one node B: G and N are recomputed after each node, G <= N keeps holding (G - g <= N - n
        // because g >= n - d), and since G > #nodes at the start each later node still finds G >= 1.
        int groupsLeft = Math.min(numgrps, totalCpus);   // kernel: numgrps after the clamp
        int cpusLeft = totalCpus;                         // kernel: remaining_ncpus
        List<NodeGroups> out = new ArrayList<>();
        for (NodeCpus e : sorted) {
            if (e.ncpus() == UINT_MAX) continue;
            int ncpus = e.ncpus();
            BigFraction share = new BigFraction((long) groupsLeft * ncpus, (long) cpusLeft);
            int ngroups = Math.max(1, share.getNumerator().divide(share.getDenominator()).intValueExact());   // floor: share >= 0
            if (ngroups != Math.max(1, (int) ((long) groupsLeft * ncpus / cpusLeft)) || ngroups > ncpus || groupsLeft < 1)
                throw new IllegalStateException("model invariant GRP-3 broken: node " + e.id() + " with " + ncpus
                        + " CPUs got " + ngroups + " groups (" + groupsLeft + " groups left for " + cpusLeft + " CPUs)");
            out.add(new NodeGroups(e.id(), ngroups));
            cpusLeft -= ncpus;
            groupsLeft -= ngroups;
        }
        if (groupsLeft != 0)
            throw new IllegalStateException("model invariant GRP-6 broken: " + groupsLeft
                    + " groups left unassigned after all nodes of " + cpus.toList());
        return out;
    }

    /**
     * {@code grp_spread_init_one}: moves {@code cpusPerGroup} CPUs of {@code nodeCpus} into {@code group},
     * lowest first, each followed by its online siblings while the quota lasts; returns what is left.
     */
    static CpuSet grpSpreadInitOne(Topology machine, CpuSet.Builder group, CpuSet nodeCpus, int cpusPerGroup) {
        CpuSet left = nodeCpus;
        while (cpusPerGroup > 0 && !left.isEmpty()) {
            int cpu = left.first();
            left = left.without(cpu);
            group.add(cpu);
            cpusPerGroup--;
            for (int sibling : liveSiblingsOf(machine, cpu).toArray()) {
                if (cpusPerGroup == 0) break;
                if (!left.contains(sibling)) continue;
                left = left.without(sibling);
                group.add(sibling);
                cpusPerGroup--;
            }
        }
        return left;
    }

    /** {@code topology_sibling_cpumask(cpu)} as the kernel keeps it: empty for a CPU that is not online. */
    static CpuSet liveSiblingsOf(Topology machine, int cpu) {
        return machine.online().contains(cpu) ? machine.onlineSiblingsOf(cpu) : CpuSet.EMPTY;
    }

    /** GRP-1 checked on every result: each possible CPU in exactly one group, nothing else. */
    private static void checkPartition(Topology machine, Grouping grouping) {
        CpuSet seen = CpuSet.EMPTY;
        for (CpuSet g : grouping.masks()) {
            if (g.intersects(seen) || !g.isSubsetOf(machine.possible()))
                throw new IllegalStateException("model invariant GRP-1 broken: group " + g.toList()
                        + " overlaps " + seen.toList() + " or leaves possible " + machine.possible().toList());
            seen = seen.or(g);
        }
        if (!seen.equals(machine.possible()))
            throw new IllegalStateException("model invariant GRP-1 broken: groups cover " + seen.toList()
                    + "; possible " + machine.possible().toList());
    }
}
