package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What {@code numaspread check-topology} says about a machine: its nodes with their CPUs, SMT,
 * packages, NUMA distance levels and the warnings of its load, as lines of text.
 */
public final class TopologyDescription {

    private TopologyDescription() {}

    /**
     * The distinct distances between nodes with online CPUs, ascending: the values the scheduler
     * turns into NUMA levels since commit 0fb3978b0aac "sched/numa: Fix NUMA topology for systems
     * with CPU-less nodes" (TOPO-8).
     */
    public static int[] distanceLevels(Topology t) {
        TreeSet<Integer> values = new TreeSet<>();
        for (int a : t.nodeIds())
            for (int b : t.nodeIds())
                if (!t.isCpuless(a) && !t.isCpuless(b)) values.add(t.distance(a, b));
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The description, one line per element, ending with the warnings. */
    public static List<String> describe(TopoDocument doc, TopologyValidation.Mode mode) {
        Topology t = doc.topology();
        List<String> out = new ArrayList<>();
        out.add(t.name() + ": valid (" + mode.word() + " mode" + (doc.expect().isEmpty() ? "" : ", expect " + String.join(" ", doc.expect())) + ")");
        if (!t.source().isEmpty()) out.add("source    " + t.source());
        for (String n : doc.notes()) out.add("note      " + n);
        out.add("cpus      possible " + t.possible().toList() + ", present " + t.present().toList() + ", online " + t.online().toList()
                + " (nr_cpu_ids " + t.nrCpuIds() + ")");
        out.add("nodes     " + t.nodes().size() + " (" + CpuSet.of(t.nodeIds()).toList() + ")");
        for (Node n : t.nodes()) {
            CpuSet on = t.onlineCpusOf(n.id());
            CpuSet off = n.cpus().and(t.present()).andNot(t.online());
            CpuSet absent = n.cpus().andNot(t.present());
            StringBuilder sb = new StringBuilder("  node " + n.id() + ": ");
            if (n.cpus().isEmpty()) sb.append("no CPUs");
            else sb.append("cpus ").append(on.isEmpty() ? "none online" : on.toList()).append(" (").append(on.size()).append(" online");
            if (!off.isEmpty()) sb.append(", offline ").append(off.toList());
            if (!absent.isEmpty()) sb.append(", not present ").append(absent.toList());
            if (!n.cpus().isEmpty()) sb.append(')');
            if (t.isCpuless(n.id())) sb.append(", CPU-less");
            if (!n.hasMemory()) sb.append(", memory-less");
            else if (n.sizeMiB() >= 0) sb.append(", ").append(n.sizeMiB()).append(" MB");
            out.add(sb.toString());
        }
        out.add("SMT       " + SmtLayout.of(t).describe());
        if (t.packages().isEmpty()) out.add("packages  unknown");
        else {
            List<String> p = new ArrayList<>();
            for (CpuPackage pkg : t.packages()) p.add(pkg.id() + " (" + pkg.cpus().toList() + ")");
            out.add("packages  " + t.packages().size() + ": " + String.join(", ", p));
        }
        if (!t.clusters().isEmpty()) out.add("clusters  " + t.clusters().size() + " of " + t.clusters().get(0).size() + " CPUs or fewer");
        int[] levels = distanceLevels(t);
        StringBuilder lv = new StringBuilder();
        for (int v : levels) lv.append(lv.length() > 0 ? " " : "").append(v);
        out.add("distances " + levels.length + (levels.length == 1 ? " level" : " levels") + " over the nodes with CPUs: " + lv);
        if (doc.warnings().isEmpty()) out.add("warnings  none");
        else {
            out.add("warnings  " + doc.warnings().size());
            for (TopologyWarning w : doc.warnings()) out.add("  " + w);
        }
        return out;
    }
}
