package dev.numaspread.model.hotplug;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The NUMA services a {@link Machine} offers, evaluated on the machine's topology of the moment.
 * TEMPORARY: stands in for {@code numa.NumaHops} and {@code spread.LocalSpread} until branch
 * wip/spread is merged; then both methods delegate.
 */
final class KernelNumaServices {
    private KernelNumaServices() {}

    static List<CpuSet> forEachNumaHopMask(KernelRelease kernel, Topology t, int node) {
        if (node == Numa.NUMA_NO_NODE) return List.of(t.online());
        if (!t.hasNode(node) || t.isCpuless(node)) return List.of();
        TreeSet<Integer> levels = new TreeSet<>();
        for (Node a : t.nodes())
            for (Node b : t.nodes())
                if (!t.isCpuless(a.id()) && !t.isCpuless(b.id())) levels.add(t.distance(a.id(), b.id()));
        List<CpuSet> out = new ArrayList<>();
        for (int level : levels) {
            CpuSet m = CpuSet.EMPTY;
            for (Node n : t.nodes()) if (t.distance(node, n.id()) <= level) m = m.or(t.onlineCpusOf(n.id()));
            out.add(m);
        }
        return out;
    }

    static int localSpread(KernelRelease kernel, Topology t, int i, int node) {
        int k = i % t.numOnlineCpus();
        List<CpuSet> hops = forEachNumaHopMask(kernel, t, node);
        CpuSet prev = CpuSet.EMPTY;
        for (CpuSet m : hops) {
            CpuSet ring = m.andNot(prev);
            if (k < ring.size()) return ring.nth(k);
            k -= ring.size();
            prev = m;
        }
        return t.online().nth(i % t.numOnlineCpus());
    }
}
