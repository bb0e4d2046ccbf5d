package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.Printable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * What {@code numaspread check-topology} says about a machine: its nodes with their CPUs, SMT,
 * packages, clusters, NUMA distance levels and the warnings of its load (plus
 * {@code clusters-assumed} when it gave no clusters, TOPO-12), as lines of text.
 */
public final class TopologyDescription {

    private TopologyDescription() {}

    /**
     * The distinct distances between nodes with online CPUs, ascending: the values the scheduler
     * turns into NUMA levels since commit 0fb3978b0aac "sched/numa: Fix NUMA topology for systems
     * with CPU-less nodes" (TOPO-8).
     */
    public static int[] distanceLevels(Topology t) {
        return t.distances().distinctValuesAmong(Arrays.stream(t.nodeIds()).filter(n -> !t.isCpuless(n)).toArray());
    }

    /**
     * The clusters line: {@code assumed, each SMT core its own (N)} when the machine gave none, else
     * the count, the sizes and the clusters (the first eight of a long list).
     */
    static String clusters(Topology t) {
        List<CpuSet> cls = t.clusters();
        if (t.clustersAssumed()) return "assumed: each SMT core is its own cluster (" + cls.size() + "); no cluster lines were given";
        TreeSet<Integer> sizes = new TreeSet<>();
        for (CpuSet c : cls) sizes.add(c.size());
        StringBuilder sb = new StringBuilder().append(cls.size()).append(" of ");
        sb.append(String.join(" or ", sizes.stream().map(String::valueOf).toList())).append(sizes.size() == 1 && sizes.first() == 1 ? " CPU: " : " CPUs: ");
        int shown = cls.size() <= 16 ? cls.size() : 8;
        for (int i = 0; i < shown; i++) sb.append(i > 0 ? " " : "").append(cls.get(i).toList());
        if (shown < cls.size()) sb.append(" ...");
        return sb.toString();
    }

    /**
     * The line under the clusters naming the possible CPUs whose cluster mask is empty (TOPO-13:
     * offline or not present) and the nodes that holds them, whose CPUs 7.0+ groups node-wide
     * (GRP-13; not-present CPUs only in the second stage); empty when every possible CPU is online.
     */
    static java.util.Optional<String> emptyClusterMasks(Topology t) {
        CpuSet offline = t.present().andNot(t.online()), absent = t.possible().andNot(t.present());
        if (offline.isEmpty() && absent.isEmpty()) return java.util.Optional.empty();
        if (t.arch() == Arch.ARM64) {
            // arm64 keeps such a CPU's mask as itself (TOPO-13): no fall-back, a one-CPU cluster each.
            return java.util.Optional.of("  cluster mask of itself (arm64): " + offline.or(absent).toList()
                    + (offline.isEmpty() ? " (not present)" : absent.isEmpty() ? " (offline)" : " (offline or not present)")
                    + "; from 7.0 each counts as a cluster of one CPU (GRP-13)");
        }
        List<String> parts = new ArrayList<>();
        if (!offline.isEmpty()) parts.add(offline.toList() + " (offline)");
        if (!absent.isEmpty()) parts.add(absent.toList() + " (not present)");
        StringBuilder sb = new StringBuilder("  empty cluster mask: ").append(String.join(", ", parts));
        if (!offline.isEmpty()) {
            NodeMask n = t.nodesOf(offline);
            sb.append("; from 7.0 node").append(n.size() == 1 ? " " : "s ").append(n.toList())
                    .append(" grouped node-wide (GRP-13)");
        }
        return java.util.Optional.of(sb.toString());
    }

    /** The description, one line per element, ending with the warnings. */
    public static List<String> describe(TopoDocument doc, TopologyValidation.Mode mode) {
        return describe(doc, mode, List.of());
    }

    /**
     * The description with {@code more} lines (what other packages know of the machine, such as the
     * scheduler's distances per release) after the distances and before the warnings.
     */
    public static List<String> describe(TopoDocument doc, TopologyValidation.Mode mode, List<String> more) {
        Topology t = doc.topology();
        List<String> out = new ArrayList<>();
        out.add(t.name() + ": valid (" + mode.word() + " mode" + (doc.expect().isEmpty() ? "" : ", expect " + Printable.of(String.join(" ", doc.expect()))) + ")");
        // Source, notes and tags are free text from the file: printed escaped (FMT-19).
        if (!t.source().isEmpty()) out.add("source    " + Printable.of(t.source()));
        for (String n : doc.notes()) out.add("note      " + Printable.of(n));
        out.add("cpus      possible " + t.possible().toList() + ", present " + t.present().toList() + ", online " + t.online().toList()
                + " (nr_cpu_ids " + t.nrCpuIds() + ")");
        out.add("nodes     " + t.nodes().size() + " (" + t.nodeMask().toList() + ")");
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
        out.add("clusters  " + clusters(t));
        emptyClusterMasks(t).ifPresent(out::add);
        if (t.arch() != Arch.X86) out.add("arch      " + t.arch().id() + " (an offline or not-present CPU's cluster mask is the CPU itself)");
        if (t.cpuModel() != CpuModel.OTHER)
            out.add("cpu model " + t.cpuModel().id() + " (" + t.cpuModel().kernelName() + "), " + t.maxPackages()
                    + (t.maxPackages() == 1 ? " package, " : " packages, ") + t.numNodesPerPackage()
                    + (t.numNodesPerPackage() == 1 ? " node per package" : " nodes per package"));
        int[] levels = distanceLevels(t);
        StringBuilder lv = new StringBuilder();
        for (int v : levels) lv.append(lv.length() > 0 ? " " : "").append(v);
        out.add("distances " + levels.length + (levels.length == 1 ? " level" : " levels") + " over the nodes with CPUs: " + lv);
        out.addAll(more);
        List<TopologyWarning> warnings = new ArrayList<>(doc.warnings());
        if (t.clustersAssumed())
            warnings.add(0, new TopologyWarning(0, TopologyValidation.CLUSTERS_ASSUMED, "no clusters given: each SMT core is taken"
                    + " as its own cluster, as on most x86 servers; add 'cluster cpus LIST' or 'cluster every K cores' where cores share an L2"));
        if (warnings.isEmpty()) out.add("warnings  none");
        else {
            out.add("warnings  " + warnings.size());
            for (TopologyWarning w : warnings) out.add("  " + w);
        }
        return out;
    }
}
