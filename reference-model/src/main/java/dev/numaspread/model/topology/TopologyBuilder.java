package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A machine written in code (tests, generators, checks): the lines of a {@code .topo} file as
 * method calls. It builds through the same {@link TopoDraft} as the file, JSON and sysfs readers,
 * so a machine has one set of defaults (FMT-6) and one SMT numbering (FMT-7) however it is given:
 * online is the union of the nodes' CPUs, present is online, possible is present; no SMT;
 * distances 10 local and 20 remote; node memory of unknown size.
 *
 * <p>Unlike a {@code node N cpus:} line, {@link #node(int, CpuSet)} takes every CPU of the node,
 * online or not ({@link Node#cpus()}); the builder hands the offline ones to the draft as
 * {@code node-of}. As a file without an {@code expect} line, the machine is validated strictly: a
 * machine that breaks a kernel rule on purpose says so with {@link #expect(String...)}.
 */
public final class TopologyBuilder {
    private String name;
    private String source = "built in code";
    private final TreeSet<String> expect = new TreeSet<>();
    private CpuSet possible;
    private CpuSet present;
    private CpuSet online;
    private final TreeMap<Integer, CpuSet> nodes = new TreeMap<>();
    private final TreeMap<Integer, Long> sizes = new TreeMap<>();
    private int[][] distanceRows;
    private final List<CpuSet> siblings = new ArrayList<>();
    private int smtAdjacent = 1;
    private final List<CpuPackage> packages = new ArrayList<>();
    private final List<CpuSet> clusters = new ArrayList<>();
    private CpuModel cpuModel = CpuModel.OTHER;
    private Arch arch = Arch.X86;

    private TopologyBuilder(String name) {
        this.name = name;
    }

    /** A builder for the machine {@code name} ({@code [a-z0-9._-]+}, as a {@code topology} line). */
    public static TopologyBuilder machine(String name) {
        return new TopologyBuilder(name);
    }

    public TopologyBuilder source(String s) { source = s; return this; }

    /** The {@code expect} tags (FMT-9): any tag makes validation lenient, a warning-code tag must be reported. */
    public TopologyBuilder expect(String... tags) { expect.addAll(Arrays.asList(tags)); return this; }

    /** Node {@code id} with every CPU whose {@code cpu_to_node} it is, online or not; empty for a CPU-less node. */
    public TopologyBuilder node(int id, String cpuList) { return node(id, CpuSet.parseList(cpuList)); }

    /** Node {@code id} with every CPU whose {@code cpu_to_node} it is, online or not; empty for a CPU-less node. */
    public TopologyBuilder node(int id, CpuSet cpus) { nodes.put(id, cpus); return this; }

    /** The memory of node {@code id} as {@code node N size: S MB}; 0 makes it memory-less. */
    public TopologyBuilder nodeSize(int id, long mib) { sizes.put(id, mib); return this; }

    /** A memory-less node: {@code node(id, cpuList)} with {@code size: 0 MB}. */
    public TopologyBuilder memorylessNode(int id, String cpuList) { return node(id, cpuList).nodeSize(id, 0); }

    public TopologyBuilder possible(String l) { return possible(CpuSet.parseList(l)); }
    public TopologyBuilder possible(CpuSet s) { possible = s; return this; }
    public TopologyBuilder present(String l) { return present(CpuSet.parseList(l)); }
    public TopologyBuilder present(CpuSet s) { present = s; return this; }
    public TopologyBuilder online(String l) { return online(CpuSet.parseList(l)); }
    public TopologyBuilder online(CpuSet s) { online = s; return this; }

    /** The distance table, rows in ascending node id order. */
    public TopologyBuilder distances(int[]... rows) { distanceRows = rows; return this; }

    /** The SMT sibling groups as {@code siblings G G ...}; CPUs no group names are their own core. */
    public TopologyBuilder siblings(String... cpuLists) {
        for (String l : cpuLists) siblings.add(CpuSet.parseList(l));
        return this;
    }

    /** The SMT sibling groups as {@code siblings G G ...}; CPUs no group names are their own core. */
    public TopologyBuilder siblings(List<CpuSet> groups) { siblings.addAll(groups); return this; }

    /** {@code smt W adjacent}: CPU {@code c} is thread {@code c mod w} of core {@code c / w} (FMT-7, {@link SmtLayout#adjacentGroups}). */
    public TopologyBuilder smtAdjacent(int w) { smtAdjacent = w; return this; }

    public TopologyBuilder pkg(int id, String cpuList) { return pkg(id, CpuSet.parseList(cpuList)); }
    public TopologyBuilder pkg(int id, CpuSet cpus) { packages.add(new CpuPackage(id, cpus)); return this; }
    public TopologyBuilder cluster(String cpuList) { return cluster(CpuSet.parseList(cpuList)); }
    public TopologyBuilder cluster(CpuSet cpus) { clusters.add(cpus); return this; }
    /** {@code cpu-model WORD} (FMT-20, TOPO-16). */
    public TopologyBuilder cpuModel(CpuModel m) { cpuModel = m; return this; }
    /** {@code arch WORD} (FMT-6, TOPO-13). */
    public TopologyBuilder arch(Arch a) { arch = a; return this; }

    /**
     * The machine, built as {@link TopoFormat} builds the file these calls describe.
     *
     * @throws InvalidTopologyException {@code NAME: found; expected}, as for a file named after the machine
     */
    public Topology build() {
        return whole().orElseGet(() -> document().topology());
    }

    /**
     * The machine straight from the builder's sets, when they are whole: the three masks given,
     * nested, every possible CPU in one node, the sibling groups, packages and clusters (when
     * given) partitions of the possible CPUs, a size only for a node with a CPU list. The draft
     * would then copy them through, defaulting and repairing nothing, so this is the machine
     * {@link #document()} builds (WholeBuildTest checks it on generated machines), refused where
     * it refuses; it is what generators build, a machine at a time, at about half the cost
     * (benchmarks/README.md, issue 26).
     * Empty otherwise, or when a set is not whole after all: the draft builds that machine, with
     * its defaults, its repairs and its messages.
     */
    public Optional<Topology> whole() {
        // What the draft refuses line by line: node ids past MAX_NUMNODES, sizes out of range, an SMT
        // width past 64 or given twice, an empty package or cluster. Left to the draft, for its message.
        if (possible == null || present == null || online == null || !nodes.keySet().containsAll(sizes.keySet())
                || (!siblings.isEmpty() && smtAdjacent > 1) || smtAdjacent > 64
                || nodes.isEmpty() || nodes.firstKey() < 0 || nodes.lastKey() >= Numa.MAX_NUMNODES
                || sizes.values().stream().anyMatch(mib -> mib < 0 || mib > Node.MAX_SIZE_MIB)
                || packages.stream().anyMatch(p -> p.cpus().isEmpty()) || clusters.stream().anyMatch(CpuSet::isEmpty)
                || siblings.stream().anyMatch(CpuSet::isEmpty))
            return Optional.empty();
        // The texts are checked as the draft checks them: a bad name or source is refused, never built.
        TopoDraft texts = new TopoDraft(name);
        texts.name(name, SourcePosition.at(name));
        texts.source(source);
        if (!expect.isEmpty()) texts.expect(expect);
        try {
            List<Node> list = new ArrayList<>(nodes.size());
            int[] ids = new int[nodes.size()];
            int i = 0;
            for (Map.Entry<Integer, CpuSet> e : nodes.entrySet()) {
                long size = sizes.getOrDefault(e.getKey(), -1L);
                list.add(new Node(e.getKey(), e.getValue(), size != 0, size));
                ids[i++] = e.getKey();
            }
            DistanceTable table = distanceRows != null ? DistanceTable.of(ids, distanceRows) : DistanceTable.defaults(ids);
            List<CpuSet> groups = smtAdjacent > 1 ? SmtLayout.adjacentGroups(possible, smtAdjacent) : siblings;
            Topology t = new Topology(name, source, possible, present, online, list, table, groups, packages, clusters, cpuModel, arch);
            // Of validation, only the kernel rule left to check can refuse the machine (TOPO-4's
            // values, in strict mode); build() drops the warnings, so they are not computed here.
            if (Mode.forTags(expect) == Mode.STRICT)
                TopologyValidation.checkDistanceValues(t, new TopologyValidation.Findings(Mode.STRICT), TopologyValidation.Positions.none(name));
            return Optional.of(t);
        } catch (RuntimeException notWhole) {
            return Optional.empty();
        }
    }

    /** The machine with its {@code expect} tags and the warnings validation reported. */
    public TopoDocument document() {
        SourcePosition at = SourcePosition.at(name);
        TopoDraft d = new TopoDraft(name);
        d.name(name, at);
        d.source(source);
        if (!expect.isEmpty()) d.expect(expect);
        if (possible != null) d.possible(possible, at);
        if (present != null) d.present(present, at);
        if (online != null) d.online(online, at);
        if (!siblings.isEmpty()) d.siblings(siblings, at);
        if (smtAdjacent > 1) d.smtAdjacent(smtAdjacent, at);
        for (CpuPackage p : packages) d.pkg(p.id(), p.cpus(), at);
        for (CpuSet c : clusters) d.cluster(c, at);
        if (cpuModel != CpuModel.OTHER) d.cpuModel(cpuModel, at);
        if (arch != Arch.X86) d.arch(arch, at);
        nodes.forEach((id, cpus) -> {
            // A node line lists online CPUs only (TOPO-5); the others are node-of.
            CpuSet listed = online == null ? cpus : cpus.and(online);
            d.nodeCpus(id, listed, at);
            if (!listed.equals(cpus)) d.nodeOf(cpus.andNot(listed), id, at);
        });
        sizes.forEach((id, mib) -> d.nodeSize(id, mib, at));
        if (distanceRows != null) {
            int[] ids = nodes.keySet().stream().mapToInt(Integer::intValue).toArray();
            d.distanceHeader(ids, at);
            if (distanceRows.length != ids.length)
                throw new InvalidTopologyException(name, distanceRows.length + " distance rows for " + ids.length
                        + " nodes; expected one row per node, in ascending node id order");
            for (int i = 0; i < ids.length; i++) d.distanceRow(ids[i], distanceRows[i], at);
        }
        return d.build(Optional.<Mode>empty());
    }
}
