package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.KernelHeapsort;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A second, plain rendering of group_cpus_evenly with one slip switched on: what a third party
 * might write. With {@link Slip#NONE} it must agree with the reference model (checked by
 * GroupingZooTest, clusters included from 7.0), so every rejection is due to the slip alone.
 */
final class SlippedGrouping {

    enum Slip {
        NONE, STABLE_SORT, SWAPPED_HEAPSORT, ROUNDING, STAGE_TWO_AT_ZERO, SIBLINGS_SPLIT, NODE_WITHOUT_GROUP,
        /** 6.9 and 6.10 sorted with 6.11's heapsort (41ed78043508's final 2 or 3), as the model did before issue 22. */
        HEAPSORT_OF_611_IN_69,
        /** 7.0+: equal-size clusters kept in the order they were counted (a stable sort), not the heapsort's. */
        CLUSTERS_STABLE_SORT,
        /** 7.0+: clusters get their shares in sorted order but are dealt in the order they were counted. */
        CLUSTERS_DEALT_AS_COUNTED,
        /** 7.0+: a node with more clusters than groups still dealt cluster by cluster, one group at least each. */
        CLUSTER_STEP_WHEN_OUTNUMBERED,
        /** 7.0+: the clusters read from the hardware list, so an offline CPU never turns the cluster step off. */
        NO_EMPTY_MASK_FALLBACK,
        /**
         * 7.0+: a cluster is the online CPUs of its hardware cluster in the stage, not cut at the node
         * boundary (TOPO-15), so a cluster across nodes is dealt with both nodes and its CPUs land in
         * two groups (GRP-1).
         */
        CLUSTER_NOT_CUT_AT_NODE
    }

    record NodeCount(int id, int ncpus) {}

    static List<CpuSet> group(KernelRelease kernel, Topology m, int numgrps, Slip slip) {
        CpuSet.Builder[] masks = new CpuSet.Builder[numgrps];
        for (int g = 0; g < numgrps; g++) masks[g] = CpuSet.builder();
        int p = stage(kernel, m, 0, numgrps, m.present(), masks, slip);
        int start = slip == Slip.STAGE_TWO_AT_ZERO || p >= numgrps ? 0 : p;
        stage(kernel, m, start, numgrps, m.possible().andNot(m.present()), masks, slip);
        List<CpuSet> out = new ArrayList<>();
        for (CpuSet.Builder b : masks) out.add(b.build());
        return out;
    }

    private static int stage(KernelRelease kernel, Topology m, int start, int numgrps, CpuSet cpus,
                             CpuSet.Builder[] masks, Slip slip) {
        if (cpus.isEmpty()) return 0;
        List<Integer> nodes = new ArrayList<>();
        for (int id : m.nodeIds()) if (m.cpusOf(id).intersects(cpus)) nodes.add(id);
        int cur = start;
        if (numgrps <= nodes.size()) {
            for (int n : nodes) {
                masks[cur].addAll(m.cpusOf(n).and(cpus));
                cur = (cur + 1) % numgrps;
            }
            return numgrps;
        }
        List<NodeCount> entries = new ArrayList<>();
        int total = 0;
        for (int id = 0; id < m.nrNodeIds(); id++) {
            int n = m.cpusOf(id).and(cpus).size();
            entries.add(new NodeCount(id, n == 0 ? -1 : n));
            total += n;
        }
        List<NodeCount> sorted = sorted(kernel, entries, slip == Slip.STABLE_SORT, slip);

        int left = Math.min(numgrps, total), cpusLeft = total, done = 0;
        for (NodeCount e : sorted) {
            if (e.ncpus() < 0) continue;
            long exact = (long) left * e.ncpus();
            int share = slip == Slip.ROUNDING ? (int) Math.round((double) exact / cpusLeft) : (int) (exact / cpusLeft);
            int ngroups = slip == Slip.NODE_WITHOUT_GROUP ? share : Math.max(1, share);
            cpusLeft -= e.ncpus();
            left -= ngroups;
            CpuSet rest = m.cpusOf(e.id()).and(cpus);
            if (ngroups == 0) {
                // The slip: a node whose share rounds down to 0 has its CPUs thrown into the current group.
                masks[cur % numgrps].addAll(rest);
                continue;
            }
            List<CpuSet> clusters = kernel.atLeast(7, 0) ? clusters(m, rest, cpus, slip) : List.of();
            if (!clusters.isEmpty() && (clusters.size() <= ngroups || slip == Slip.CLUSTER_STEP_WHEN_OUTNUMBERED))
                cur = dealClusters(kernel, m, clusters, rest.size(), ngroups, masks, cur, slip);
            else
                cur = deal(m, rest, ngroups, masks, cur, slip);
            done += ngroups;
        }
        return done;
    }

    /** Entries sorted by CPU count: the release's heapsort (or another one), or a stable sort. */
    private static List<NodeCount> sorted(KernelRelease kernel, List<NodeCount> entries, boolean stable, Slip slip) {
        Comparator<NodeCount> byCount = Comparator.comparingInt(NodeCount::ncpus);
        if (stable) {
            List<NodeCount> out = new ArrayList<>(entries);
            out.sort(byCount);
            return out;
        }
        KernelHeapsort.Variant variant = KernelHeapsort.variantOf(kernel);
        if (slip == Slip.SWAPPED_HEAPSORT)
            variant = variant == KernelHeapsort.Variant.BOTTOM_UP ? KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3 : KernelHeapsort.Variant.BOTTOM_UP;
        if (slip == Slip.HEAPSORT_OF_611_IN_69 && variant == KernelHeapsort.Variant.DOUBLE_POP)
            variant = KernelHeapsort.Variant.DOUBLE_POP_FINAL_2_OR_3;
        return KernelHeapsort.sorted(entries, byCount, variant);
    }

    /**
     * A node's stage CPUs {@code s} cut into clusters as counted: the part of the cluster of each
     * lowest CPU not yet in one; empty (fall back) when that CPU's live cluster mask is empty, that is
     * when it is offline. The slip {@link Slip#NO_EMPTY_MASK_FALLBACK} reads the hardware cluster.
     */
    private static List<CpuSet> clusters(Topology m, CpuSet s, CpuSet stage, Slip slip) {
        List<CpuSet> out = new ArrayList<>();
        CpuSet left = s;
        while (!left.isEmpty()) {
            int cpu = left.first();
            CpuSet mask = slip == Slip.NO_EMPTY_MASK_FALLBACK ? m.clusterOf(cpu) : m.topologyClusterCpumask(cpu);
            if (mask.isEmpty()) return List.of();
            CpuSet part = slip == Slip.CLUSTER_NOT_CUT_AT_NODE ? m.clusterOf(cpu).and(m.online()).and(stage) : mask.and(left);
            out.add(part);
            left = left.andNot(part);
        }
        return out;
    }

    /**
     * The cluster step: shares of the node's {@code ngroups} groups among its clusters, fewest CPUs
     * first as sorted, each cluster dealt into its share of groups from the cursor; returns the cursor.
     */
    private static int dealClusters(KernelRelease kernel, Topology m, List<CpuSet> clusters, int ncpus, int ngroups,
                                    CpuSet.Builder[] masks, int cur, Slip slip) {
        List<NodeCount> entries = new ArrayList<>();
        for (int i = 0; i < clusters.size(); i++) entries.add(new NodeCount(i, clusters.get(i).size()));
        List<NodeCount> sorted = sorted(kernel, entries, slip == Slip.CLUSTERS_STABLE_SORT, slip);
        int left = ngroups, cpusLeft = ncpus;
        int[] shares = new int[clusters.size()];
        for (NodeCount e : sorted) {
            // Signed arithmetic: with more clusters than groups (the slip) left goes to 0 and below, share to 1.
            shares[e.id()] = Math.max(1, left * e.ncpus() / cpusLeft);
            left -= shares[e.id()];
            cpusLeft -= e.ncpus();
        }
        List<NodeCount> order = slip == Slip.CLUSTERS_DEALT_AS_COUNTED ? entries : sorted;
        for (NodeCount e : order) cur = deal(m, clusters.get(e.id()), shares[e.id()], masks, cur, slip);
        return cur;
    }

    /** Deals {@code rest} into {@code ngroups} groups from the cursor, lowest CPU first with its online siblings; returns the cursor. */
    private static int deal(Topology m, CpuSet rest, int ngroups, CpuSet.Builder[] masks, int cur, Slip slip) {
        int numgrps = masks.length;
        int n = rest.size();
        int extra = n - ngroups * (n / ngroups);
        for (int v = 0; v < ngroups; v++, cur++) {
            int per = n / ngroups + (extra-- > 0 ? 1 : 0);
            if (cur >= numgrps) cur = 0;
            while (per > 0 && !rest.isEmpty()) {
                int c = rest.first();
                rest = rest.without(c);
                masks[cur].add(c);
                per--;
                if (slip == Slip.SIBLINGS_SPLIT || !m.online().contains(c)) continue;
                for (int s : m.onlineSiblingsOf(c).toArray()) {
                    if (per == 0) break;
                    if (rest.contains(s)) {
                        rest = rest.without(s);
                        masks[cur].add(s);
                        per--;
                    }
                }
            }
        }
        return cur;
    }
}
