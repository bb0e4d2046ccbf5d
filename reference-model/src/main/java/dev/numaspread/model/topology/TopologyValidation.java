package dev.numaspread.model.topology;

import dev.numaspread.model.kernel.Numa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The kernel's rules for a topology and the unusual shapes worth a warning (spec/topology.md).
 *
 * <p>Two kinds of finding. A <em>kernel rule</em> (TOPO-4 distance values, TOPO-1 online ⊆
 * present ⊆ possible, TOPO-3 siblings in one node, TOPO-5 node lines list online CPUs) is an error
 * in {@link Mode#STRICT} and a {@link TopologyWarning} in {@link Mode#LENIENT}, the mode of files
 * tagged with {@code expect}. A <em>warning</em> (TOPO-6 asymmetric, TOPO-7 non-metric, TOPO-8
 * CPU-less and memory-less nodes, TOPO-9 node 0 not representative, TOPO-10 sparse node ids) is
 * reported in both modes and never stops a load: real firmware produces all of them.
 */
public final class TopologyValidation {

    private TopologyValidation() {}

    /** How kernel rules are treated. */
    public enum Mode {
        /** A broken kernel rule rejects the file. */
        STRICT,
        /** A broken kernel rule is a warning; for pathological fixtures tagged with {@code expect}. */
        LENIENT;

        /** {@code strict} or {@code lenient}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The mode of a file with these {@code expect} tags (FMT-9): lenient when it has any. */
        public static Mode forTags(Collection<String> expect) {
            return expect.isEmpty() ? STRICT : LENIENT;
        }
    }

    // Warning codes: the words an `expect` line uses for them.
    public static final String SLIT_INVALID = "slit-invalid";
    public static final String ONLINE_NOT_PRESENT = "online-not-present";
    public static final String PRESENT_NOT_POSSIBLE = "present-not-possible";
    public static final String SIBLINGS_SPAN_NODES = "siblings-span-nodes";
    public static final String OFFLINE_CPU_IN_NODE_LINE = "offline-cpu-in-node-line";
    public static final String ASYMMETRIC = "asymmetric";
    public static final String NON_METRIC = "non-metric";
    public static final String CPULESS_NODES = "cpuless-nodes";
    public static final String MEMLESS_NODES = "memless-nodes";
    public static final String NODE0_NOT_REPRESENTATIVE = "node0-not-representative";
    public static final String SPARSE_NODE_IDS = "sparse-node-ids";
    public static final String CPUS_WITHOUT_NODE = "cpus-without-node";
    public static final String PACKAGES_INCOMPLETE = "packages-incomplete";
    /** A sysfs snapshot's offline CPU lost its topology/ directory (x86): siblings and package were inferred. */
    public static final String OFFLINE_CPU_TOPOLOGY = "offline-cpu-topology";
    /** No clusters were given: each SMT core is taken as its own cluster (TOPO-12); said by check-topology, not by a load. */
    public static final String CLUSTERS_ASSUMED = "clusters-assumed";
    /** A cluster holds CPUs of two nodes; x86 splits it at the node boundary (TOPO-14). */
    public static final String CLUSTER_SPANS_NODES = "cluster-spans-nodes";

    /** The codes of kernel rules: errors in strict mode. */
    public static final List<String> KERNEL_RULE_CODES = List.of(
            SLIT_INVALID, ONLINE_NOT_PRESENT, PRESENT_NOT_POSSIBLE, OFFLINE_CPU_IN_NODE_LINE);

    /** The codes reported in both modes. */
    public static final List<String> WARNING_CODES = List.of(
            ASYMMETRIC, NON_METRIC, CPULESS_NODES, MEMLESS_NODES, NODE0_NOT_REPRESENTATIVE, SPARSE_NODE_IDS,
            CPUS_WITHOUT_NODE, PACKAGES_INCOMPLETE, OFFLINE_CPU_TOPOLOGY, CLUSTER_SPANS_NODES, SIBLINGS_SPAN_NODES);

    /** Where the parts of a topology came from; every method may answer a position without a line. */
    public interface Positions {
        SourcePosition topology();

        SourcePosition node(int node);

        SourcePosition distanceRow(int node);

        /** Positions for a topology built in code: everything points at {@code where}. */
        static Positions none(String where) {
            SourcePosition p = SourcePosition.at(where);
            return new Positions() {
                public SourcePosition topology() { return p; }
                public SourcePosition node(int node) { return p; }
                public SourcePosition distanceRow(int node) { return p; }
            };
        }
    }

    /**
     * Collects findings for one load: kernel rules throw in strict mode and warn in lenient mode,
     * warnings accumulate, structural faults always throw.
     */
    public static final class Findings {
        private final Mode mode;
        private final List<TopologyWarning> warnings = new ArrayList<>();

        public Findings(Mode mode) {
            this.mode = mode;
        }

        public Mode mode() {
            return mode;
        }

        /** A kernel rule is broken: rejects in strict mode, warns in lenient mode. */
        public void kernelRule(SourcePosition at, String code, String problem) {
            if (mode == Mode.STRICT)
                throw new InvalidTopologyException(at.where(), problem + " (strict mode; tag the file with 'expect " + code + "' to load it leniently)");
            warnings.add(new TopologyWarning(at.line(), code, problem));
        }

        /** A legal but unusual shape: always a warning. */
        public void warn(SourcePosition at, String code, String message) {
            warnings.add(new TopologyWarning(at.line(), code, message));
        }

        /** A fault no mode can load. */
        public InvalidTopologyException reject(SourcePosition at, String problem) {
            return new InvalidTopologyException(at.where(), problem);
        }

        /** The warnings so far, sorted by line (stable within a line). */
        public List<TopologyWarning> warnings() {
            List<TopologyWarning> out = new ArrayList<>(warnings);
            out.sort((a, b) -> Integer.compare(a.line(), b.line()));
            return List.copyOf(out);
        }
    }

    /**
     * The warnings of a topology built in code (generators, JSON, builder): kernel rules are
     * checked in {@code mode}.
     *
     * @throws InvalidTopologyException in strict mode when a kernel rule is broken
     */
    public static List<TopologyWarning> validate(Topology t, Mode mode) {
        Findings f = new Findings(mode);
        check(t, f, Positions.none(t.name()));
        return f.warnings();
    }

    /**
     * Checks the distance values (TOPO-4) and reports the warnings of TOPO-6 to TOPO-10 into
     * {@code findings}. The structural rules were checked by whoever built the topology.
     */
    public static void check(Topology t, Findings findings, Positions at) {
        checkDistanceValues(t, findings, at);
        warnAsymmetric(t, findings, at);
        warnNonMetric(t, findings, at);
        warnCpulessAndMemless(t, findings, at);
        warnNode0NotRepresentative(t, findings, at);
        warnSparseIds(t, findings, at);
    }

    /** TOPO-4: diagonal 10, off-diagonal 11..255, as ACPI's SLIT check and the u8 table demand. */
    static void checkDistanceValues(Topology t, Findings f, Positions at) {
        int[] ids = t.nodeIds();
        int[][] table = t.distances().among(ids);
        for (int i = 0; i < ids.length; i++) {
            int a = ids[i];
            for (int j = 0; j < ids.length; j++) {
                int b = ids[j];
                int d = table[i][j];
                if (a == b && d != Numa.LOCAL_DISTANCE)
                    f.kernelRule(at.distanceRow(a), SLIT_INVALID, "distance from node " + a + " to itself is " + d
                            + "; expected " + Numa.LOCAL_DISTANCE + " (LOCAL_DISTANCE)");
                if (a != b && (d <= Numa.LOCAL_DISTANCE || d > 255))
                    f.kernelRule(at.distanceRow(a), SLIT_INVALID, "distance from node " + a + " to node " + b + " is " + d
                            + "; expected 11..255 (firmware tables with other values are discarded by the kernel)");
            }
        }
    }

    /** TOPO-6: an asymmetric table is legal (HMAT, Granite Rapids SNC-3) but flagged. */
    static void warnAsymmetric(Topology t, Findings f, Positions at) {
        int[] ids = t.nodeIds();
        int pairs = 0;
        String first = null;
        int firstRow = -1;
        int[][] table = t.distances().among(ids);
        for (int i = 0; i < ids.length; i++)
            for (int j = i + 1; j < ids.length; j++) {
                int ab = table[i][j];
                int ba = table[j][i];
                if (ab != ba) {
                    if (first == null) {
                        first = "distance(" + ids[i] + "," + ids[j] + ") = " + ab + " but distance(" + ids[j] + "," + ids[i] + ") = " + ba;
                        firstRow = ids[j];
                    }
                    pairs++;
                }
            }
        if (first != null)
            f.warn(at.distanceRow(firstRow), ASYMMETRIC, "the distance table is asymmetric: " + first
                    + (pairs > 1 ? " (and " + (pairs - 1) + " more pairs)" : ""));
    }

    /** TOPO-7: a table that breaks the triangle inequality (a detour is shorter than the direct path). */
    static void warnNonMetric(Topology t, Findings f, Positions at) {
        t.distances().firstTriangleViolation().ifPresent(v -> f.warn(at.distanceRow(v.a()), NON_METRIC,
                "the distance table breaks the triangle inequality: distance(" + v.a() + "," + v.b() + ") = " + t.distance(v.a(), v.b())
                        + " > distance(" + v.a() + "," + v.c() + ") + distance(" + v.c() + "," + v.b() + ") = "
                        + (t.distance(v.a(), v.c()) + t.distance(v.c(), v.b())) + (v.pairs() > 1 ? " (and " + (v.pairs() - 1) + " more)" : "")));
    }

    /** TOPO-8: nodes without online CPUs, nodes without memory. */
    static void warnCpulessAndMemless(Topology t, Findings f, Positions at) {
        NodeMask cl = NodeMask.ofStream(t.nodes().stream().mapToInt(Node::id).filter(t::isCpuless));
        NodeMask ml = NodeMask.ofStream(t.nodes().stream().filter(n -> !n.hasMemory()).mapToInt(Node::id));
        if (!cl.isEmpty())
            f.warn(at.node(cl.first()), CPULESS_NODES, (cl.size() == 1 ? "node " : "nodes ") + cl.toList()
                    + (cl.size() == 1 ? " has" : " have") + " no online CPUs (CPU-less)");
        if (!ml.isEmpty())
            f.warn(at.node(ml.first()), MEMLESS_NODES, (ml.size() == 1 ? "node " : "nodes ") + ml.toList()
                    + (ml.size() == 1 ? " has" : " have") + " no memory (memory-less)");
    }

    /**
     * TOPO-9: the distinct values of node 0's row, over the nodes with CPUs, miss a value of the
     * table over those nodes; code that derives NUMA levels from node 0 alone (before commit
     * 620a6dc40754 "sched/topology: Make sched_init_numa() use a set for the deduplicating sort")
     * then loses levels.
     */
    static void warnNode0NotRepresentative(Topology t, Findings f, Positions at) {
        if (!t.hasNode(0) || t.isCpuless(0)) return;
        int[] cpuNodes = Arrays.stream(t.nodeIds()).filter(n -> !t.isCpuless(n)).toArray();
        // Most machines pass: look first, and build the sets for the message only when one is missed.
        boolean[] inRow0 = new boolean[DistanceTable.MAX_VALUE + 1];
        for (int b : cpuNodes) inRow0[t.distance(0, b)] = true;
        boolean misses = false;
        for (int v : t.distances().distinctValuesAmong(cpuNodes)) misses |= !inRow0[v];
        if (!misses) return;
        TreeSet<Integer> row0 = new TreeSet<>();
        TreeSet<Integer> all = new TreeSet<>();
        for (int b : cpuNodes) row0.add(t.distance(0, b));
        for (int v : t.distances().distinctValuesAmong(cpuNodes)) all.add(v);
        TreeSet<Integer> missing = new TreeSet<>(all);
        missing.removeAll(row0);
        if (!missing.isEmpty())
            f.warn(at.distanceRow(0), NODE0_NOT_REPRESENTATIVE, "node 0's distances " + join(row0)
                    + " miss " + join(missing) + " of the table over the nodes with CPUs " + join(all));
    }

    /** TOPO-10: node ids that are not 0..n-1. */
    static void warnSparseIds(Topology t, Findings f, Positions at) {
        int[] ids = t.nodeIds();
        if (ids[ids.length - 1] == ids.length - 1) return;
        f.warn(at.topology(), SPARSE_NODE_IDS, "node ids " + t.nodeMask().toList() + " are sparse (not 0-"
                + (ids.length - 1) + "); nr_node_ids is " + t.nrNodeIds());
    }

    private static String join(TreeSet<Integer> values) {
        StringBuilder sb = new StringBuilder("{");
        for (int v : values) sb.append(sb.length() > 1 ? "," : "").append(v);
        return sb.append('}').toString();
    }
}
