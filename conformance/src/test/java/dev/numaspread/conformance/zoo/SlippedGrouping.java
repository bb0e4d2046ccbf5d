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
 * GroupingZooTest), so every rejection is due to the slip alone.
 */
final class SlippedGrouping {

    enum Slip { NONE, STABLE_SORT, SWAPPED_HEAPSORT, ROUNDING, STAGE_TWO_AT_ZERO, SIBLINGS_SPLIT, NODE_WITHOUT_GROUP }

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
        Comparator<NodeCount> byCount = Comparator.comparingInt(NodeCount::ncpus);
        KernelHeapsort.Variant variant = KernelHeapsort.variantOf(kernel);
        if (slip == Slip.SWAPPED_HEAPSORT)
            variant = variant == KernelHeapsort.Variant.BOTTOM_UP ? KernelHeapsort.Variant.DOUBLE_POP : KernelHeapsort.Variant.BOTTOM_UP;
        List<NodeCount> sorted = new ArrayList<>(entries);
        if (slip == Slip.STABLE_SORT) sorted.sort(byCount);
        else sorted = KernelHeapsort.sorted(entries, byCount, variant);

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
            done += ngroups;
        }
        return done;
    }
}
