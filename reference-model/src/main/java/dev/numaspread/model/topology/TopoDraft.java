package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.TopologyValidation.Findings;
import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What a topology file says, piece by piece with the position of each piece, before it becomes a
 * {@link Topology}. The {@code .topo} reader ({@link TopoFormat}) and the JSON reader fill one, so
 * both forms share one set of defaults and one validation (spec/formats.md FMT-5 to FMT-9).
 *
 * <p>The setters reject what is wrong on its own (a second cpus line for a node, a distance row of
 * the wrong length); {@link #build(Optional)} applies the defaults, checks what needs the whole
 * file, and returns the document or throws {@link InvalidTopologyException}. Never a half-built
 * topology.
 *
 * <p>Over 450 lines on purpose (issue 26): the one draft every reader fills (setters that refuse what
 * is wrong on its own) and its build (defaults, repairs, messages with their positions); split, the
 * two halves would share every field.
 */
public final class TopoDraft implements TopologyValidation.Positions {

    /** How SMT siblings are given. */
    public enum Smt { UNSAID, NONE, ADJACENT, STRIDE, SIBLINGS }

    private static final Pattern NAME = Pattern.compile("[a-z0-9._-]+");

    private final String file;
    private String name;
    private SourcePosition namePos;
    private String source = "";
    private final List<String> notes = new ArrayList<>();
    private final TreeSet<String> expect = new TreeSet<>();

    private CpuSet possible;
    private SourcePosition possiblePos;
    private CpuSet present;
    private SourcePosition presentPos;
    private CpuSet online;
    private SourcePosition onlinePos;

    private Smt smt = Smt.UNSAID;
    private int smtWidth = 1;
    private int smtStride;
    private final List<CpuSet> siblingGroups = new ArrayList<>();
    private SourcePosition smtPos;

    private final List<CpuPackage> packages = new ArrayList<>();
    private final List<SourcePosition> packagePos = new ArrayList<>();
    private boolean packagesPerNode;
    private int packagesEveryCores;
    private SourcePosition packagesRulePos;

    private final List<CpuSet> clusters = new ArrayList<>();
    private final List<SourcePosition> clusterPos = new ArrayList<>();
    private int clustersEveryCores;
    private SourcePosition clustersRulePos;

    private CpuModel cpuModel = CpuModel.OTHER;
    private SourcePosition cpuModelPos;

    private Arch arch = Arch.X86;
    private SourcePosition archPos;

    private NodeMask available;
    private SourcePosition availablePos;
    private final TreeMap<Integer, CpuSet> nodeCpus = new TreeMap<>();
    private final TreeMap<Integer, SourcePosition> nodeCpusPos = new TreeMap<>();
    private final TreeMap<Integer, Long> nodeSize = new TreeMap<>();
    private final TreeMap<Integer, SourcePosition> nodeSizePos = new TreeMap<>();
    private NodeMask memless = NodeMask.EMPTY;
    private final List<Object[]> nodeOf = new ArrayList<>(); // {CpuSet, Integer node, SourcePosition}
    // The CPUs named so far by node-of, package, cluster and lscpu lines: a CPU named twice is
    // refused at its line, so a file of repeated lines costs its length, not lines x NR_CPUS.
    private final CpuSet.Builder nodeOfSeen = CpuSet.builder();
    private final CpuSet.Builder packageSeen = CpuSet.builder();
    private final CpuSet.Builder clusterSeen = CpuSet.builder();
    private final CpuSet.Builder lscpuSeen = CpuSet.builder();

    private int[] header;
    private SourcePosition headerPos;
    private final TreeMap<Integer, int[]> rows = new TreeMap<>();
    private final TreeMap<Integer, SourcePosition> rowPos = new TreeMap<>();
    private SourcePosition noDistancesPos;

    private final List<LscpuRow> lscpu = new ArrayList<>();

    /** One row of an {@code lscpu -p} block; {@code core}, {@code socket} -1 when lscpu printed {@code -}. */
    public record LscpuRow(int cpu, int core, int socket, int node, boolean online, int cluster, SourcePosition at) {}

    /** A draft for the file named {@code file} (used in every message). */
    public TopoDraft(String file) {
        this.file = file;
    }

    public String file() {
        return file;
    }

    // ------------------------------------------------------------------ pieces

    public void name(String n, SourcePosition at) {
        if (name != null) throw new InvalidTopologyException(at.where(), "a second 'topology' line (first at " + namePos.where() + "); expected one per file");
        if (!NAME.matcher(n).matches())
            throw new InvalidTopologyException(at.where(), "topology name " + Printable.quote(n) + "; expected lower-case letters, digits, '.', '_' or '-'");
        if (n.length() > MAX_TEXT_CHARS) throw tooLong(at.where(), "topology name", n);
        name = n;
        namePos = at;
    }

    public void source(String s) {
        source = text(s, "source");
    }

    public void note(String n) {
        notes.add(text(n, "note"));
    }

    public void expect(Collection<String> tags) {
        for (String t : tags) {
            if (t.isEmpty() || t.chars().anyMatch(c -> c <= ' ' || (c >= 0x7f && c < 0xa0)))
                throw new InvalidTopologyException(file, "expect tag " + Printable.quote(t) + "; expected a word without spaces or control characters");
            if (t.length() > MAX_TEXT_CHARS) throw tooLong(file, "expect tag", t);
            for (int i = 0; i < t.length(); i++) loneSurrogate(t, i, "expect tag");
            expect.add(t);
        }
    }

    /**
     * The longest name, source, note or tag: {@value} characters (spec/formats.md FMT-17). The JSON
     * form has no lines, so without it a machine read from JSON could be written as a {@code .topo}
     * line too long to read back.
     */
    public static final int MAX_TEXT_CHARS = 4096;

    private static InvalidTopologyException tooLong(String where, String what, String s) {
        return new InvalidTopologyException(where, what + " " + Printable.quote(s) + " of " + s.length() + " characters; expected at most "
                + MAX_TEXT_CHARS + " (spec/formats.md FMT-17)");
    }

    /** Free text (source, note) on one line: what a .topo line can hold, so JSON and .topo say the same. */
    private String text(String s, String what) {
        if (s.length() > MAX_TEXT_CHARS) throw tooLong(file, what, s);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t') || (c >= 0x7f && c < 0xa0))
                throw new InvalidTopologyException(file, what + " " + Printable.quote(s) + " holds a control character (U+"
                        + String.format("%04X", (int) c) + "); expected one line of text");
            loneSurrogate(s, i, what);
        }
        return s;
    }

    /**
     * Refuses a surrogate at {@code i} that is not half of a pair: JSON can escape one
     * ({@code "\ud800"}), UTF-8 cannot carry it, so the machine's own JSON and .topo would not read back.
     */
    private void loneSurrogate(String s, int i, String what) {
        char c = s.charAt(i);
        boolean lone = Character.isHighSurrogate(c) ? i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))
                : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
        if (lone)
            throw new InvalidTopologyException(file, what + " " + Printable.quote(s) + " holds a lone surrogate (U+"
                    + String.format("%04X", (int) c) + "); expected text");
    }

    public void possible(CpuSet s, SourcePosition at) {
        possiblePos = once(possiblePos, "possible", at);
        possible = s;
    }

    public void present(CpuSet s, SourcePosition at) {
        presentPos = once(presentPos, "present", at);
        present = s;
    }

    public void online(CpuSet s, SourcePosition at) {
        onlinePos = once(onlinePos, "online", at);
        online = s;
    }

    public void smtNone(SourcePosition at) {
        smt(Smt.NONE, 1, 0, at);
    }

    public void smtAdjacent(int width, SourcePosition at) {
        smt(Smt.ADJACENT, width, 0, at);
    }

    public void smtStride(int width, int stride, SourcePosition at) {
        if (stride < 1) throw new InvalidTopologyException(at.where(), "smt stride " + stride + "; expected a positive stride");
        smt(Smt.STRIDE, width, stride, at);
    }

    public void siblings(List<CpuSet> groups, SourcePosition at) {
        smt(Smt.SIBLINGS, 0, 0, at);
        siblingGroups.addAll(groups);
    }

    private void smt(Smt kind, int width, int stride, SourcePosition at) {
        if (smtPos != null)
            throw new InvalidTopologyException(at.where(), "a second SMT line (first at " + smtPos.where() + "); expected one of smt none | smt W adjacent | smt W stride S | siblings ...");
        if (kind != Smt.SIBLINGS && kind != Smt.NONE && (width < 1 || width > 64))
            throw new InvalidTopologyException(at.where(), "smt width " + width + "; expected 1 to 64 threads per core");
        smt = kind;
        smtWidth = width;
        smtStride = stride;
        smtPos = at;
    }

    /** {@code cpu-model WORD} (FMT-20): once per file. */
    public void cpuModel(CpuModel model, SourcePosition at) {
        cpuModelPos = once(cpuModelPos, "cpu-model", at);
        cpuModel = model;
    }

    /** {@code arch WORD} (FMT-6): once per file; x86 when absent. */
    public void arch(Arch a, SourcePosition at) {
        once(archPos, "arch", at);
        arch = a;
        archPos = at;
    }

    public void pkg(int id, CpuSet cpus, SourcePosition at) {
        if (packagesRulePos != null) throw mixed("package", packagesRulePos, at);
        if (cpus.isEmpty()) throw new InvalidTopologyException(at.where(), "package " + id + " has no CPUs; expected a cpulist");
        namedOnce(packageSeen, cpus, "package", packages.stream().map(CpuPackage::cpus).toList(), packagePos, at);
        packages.add(new CpuPackage(id, cpus));
        packagePos.add(at);
    }

    public void packagesPerNode(SourcePosition at) {
        if (packagesRulePos != null || !packages.isEmpty()) throw mixed("package", packagesRulePos != null ? packagesRulePos : packagePos.get(0), at);
        packagesPerNode = true;
        packagesRulePos = at;
    }

    public void packagesEvery(int cores, SourcePosition at) {
        if (packagesRulePos != null || !packages.isEmpty()) throw mixed("package", packagesRulePos != null ? packagesRulePos : packagePos.get(0), at);
        if (cores < 1) throw new InvalidTopologyException(at.where(), "packages every " + cores + " cores; expected a positive count");
        packagesEveryCores = cores;
        packagesRulePos = at;
    }

    public void cluster(CpuSet cpus, SourcePosition at) {
        if (clustersRulePos != null) throw mixed("cluster", clustersRulePos, at);
        if (cpus.isEmpty()) throw new InvalidTopologyException(at.where(), "cluster with no CPUs; expected a cpulist");
        namedOnce(clusterSeen, cpus, "cluster", clusters, clusterPos, at);
        clusters.add(cpus);
        clusterPos.add(at);
    }

    public void clustersEvery(int cores, SourcePosition at) {
        if (clustersRulePos != null || !clusters.isEmpty()) throw mixed("cluster", clustersRulePos != null ? clustersRulePos : clusterPos.get(0), at);
        if (cores < 1) throw new InvalidTopologyException(at.where(), "cluster every " + cores + " cores; expected a positive count");
        clustersEveryCores = cores;
        clustersRulePos = at;
    }

    /** Refuses {@code cpus} when an earlier line of the same kind named one of them; else adds them to {@code seen}. */
    private static void namedOnce(CpuSet.Builder seen, CpuSet cpus, String what, List<CpuSet> earlier, List<SourcePosition> earlierPos,
                                  SourcePosition at) {
        CpuSet before = seen.build();
        if (before.intersects(cpus)) {
            int cpu = before.and(cpus).first();
            String first = "";
            for (int i = 0; i < earlier.size(); i++) if (earlier.get(i).contains(cpu)) { first = " (" + earlierPos.get(i).where() + ")"; break; }
            throw new InvalidTopologyException(at.where(), "cpu " + cpu + " is in two " + what + " lines" + first + "; expected each CPU in one " + what);
        }
        seen.addAll(cpus);
    }

    private static void checkNode(int node, SourcePosition at) {
        if (node < 0 || node >= Numa.MAX_NUMNODES)
            throw new InvalidTopologyException(at.where(), "node id " + node + "; expected 0-" + (Numa.MAX_NUMNODES - 1)
                    + " (MAX_NUMNODES " + Numa.MAX_NUMNODES + ", spec/formats.md FMT-16)");
    }

    private InvalidTopologyException mixed(String what, SourcePosition first, SourcePosition at) {
        return new InvalidTopologyException(at.where(), "a second way of giving " + what + "s (first at " + first.where()
                + "); expected either '" + what + " ... cpus LIST' lines or one '" + what + "s'/'" + what + " every' rule");
    }

    public void available(NodeMask nodes, int count, SourcePosition at) {
        once(availablePos, "available:", at);
        if (!nodes.isEmpty()) checkNode(nodes.last(), at);
        if (nodes.size() != count)
            throw new InvalidTopologyException(at.where(), "available: says " + count + " nodes but lists " + nodes.size() + " (" + nodes.toList() + "); expected the count to match the list");
        available = nodes;
        availablePos = at;
    }

    public void nodeCpus(int node, CpuSet cpus, SourcePosition at) {
        checkNode(node, at);
        if (nodeCpusPos.containsKey(node))
            throw new InvalidTopologyException(at.where(), "a second cpus line for node " + node + " (first at " + nodeCpusPos.get(node).where() + "); expected one per node");
        nodeCpus.put(node, cpus);
        nodeCpusPos.put(node, at);
    }

    public void nodeSize(int node, long mib, SourcePosition at) {
        checkNode(node, at);
        if (mib < 0 || mib > Node.MAX_SIZE_MIB)
            throw new InvalidTopologyException(at.where(), "node " + node + " size " + mib + " MiB; expected 0-" + Node.MAX_SIZE_MIB
                    + " (a 64-bit physical address space, spec/formats.md FMT-16)");
        if (nodeSizePos.containsKey(node))
            throw new InvalidTopologyException(at.where(), "a second size line for node " + node + " (first at " + nodeSizePos.get(node).where() + "); expected one per node");
        nodeSize.put(node, mib);
        nodeSizePos.put(node, at);
    }

    public void memless(NodeMask nodes, SourcePosition at) {
        if (!nodes.isEmpty()) checkNode(nodes.last(), at);
        memless = memless.or(nodes);
    }

    public void nodeOf(CpuSet cpus, int node, SourcePosition at) {
        checkNode(node, at);
        List<CpuSet> earlier = new ArrayList<>();
        List<SourcePosition> earlierPos = new ArrayList<>();
        if (nodeOfSeen.build().intersects(cpus))
            for (Object[] o : nodeOf) { earlier.add((CpuSet) o[0]); earlierPos.add((SourcePosition) o[2]); }
        namedOnce(nodeOfSeen, cpus, "node-of", earlier, earlierPos, at);
        nodeOf.add(new Object[] {cpus, node, at});
    }

    public void distanceHeader(int[] ids, SourcePosition at) {
        if (ids.length > Numa.MAX_NUMNODES)
            throw new InvalidTopologyException(at.where(), "a distance header of " + ids.length + " nodes; expected at most "
                    + Numa.MAX_NUMNODES + " (MAX_NUMNODES, spec/formats.md FMT-16)");
        for (int id : ids) checkNode(id, at);
        if (headerPos != null)
            throw new InvalidTopologyException(at.where(), "a second distance header (first at " + headerPos.where() + "); expected one 'node 0 1 ...' line");
        for (int i = 1; i < ids.length; i++)
            if (ids[i] <= ids[i - 1])
                throw new InvalidTopologyException(at.where(), "distance header lists node " + ids[i] + " after node " + ids[i - 1] + "; expected ascending node ids");
        header = ids.clone();
        headerPos = at;
    }

    public void distanceRow(int node, int[] values, SourcePosition at) {
        if (header == null)
            throw new InvalidTopologyException(at.where(), "distance row for node " + node + " before the header; expected a 'node 0 1 ...' line first");
        if (Arrays.stream(header).noneMatch(h -> h == node))
            throw new InvalidTopologyException(at.where(), "distance row for node " + node + ", which the header does not list (" + NodeMask.of(header).toList() + ")");
        if (rowPos.containsKey(node))
            throw new InvalidTopologyException(at.where(), "a second distance row for node " + node + " (first at " + rowPos.get(node).where() + ")");
        if (values.length != header.length)
            throw new InvalidTopologyException(at.where(), "distance row for node " + node + " has " + values.length
                    + " values, the header lists " + header.length + " nodes");
        for (int v : values)
            if (v < 0 || v > DistanceTable.MAX_VALUE)
                throw new InvalidTopologyException(at.where(), "distance " + v + " in the row of node " + node + "; expected 0-"
                        + DistanceTable.MAX_VALUE + " (spec/formats.md FMT-16)");
        rows.put(node, values.clone());
        rowPos.put(node, at);
    }

    public void noDistanceInformation(SourcePosition at) {
        noDistancesPos = at;
    }

    public void lscpuRow(LscpuRow row) {
        if (row.node() >= 0) checkNode(row.node(), row.at());
        if (lscpuSeen.contains(row.cpu()))
            throw new InvalidTopologyException(row.at().where(), "cpu " + row.cpu() + " has a second lscpu -p row; expected one row per CPU");
        lscpuSeen.add(row.cpu());
        lscpu.add(row);
    }

    /** {@code at}, the position of a line a file may give once; {@code first} is that of an earlier one, null when none. */
    private static SourcePosition once(SourcePosition first, String what, SourcePosition at) {
        if (first != null)
            throw new InvalidTopologyException(at.where(), "a second '" + what + "' line (first at " + first.where() + "); expected one");
        return at;
    }

    // ------------------------------------------------------------------ positions

    @Override
    public SourcePosition topology() {
        if (namePos != null) return namePos;
        return SourcePosition.line(file, 1);
    }

    @Override
    public SourcePosition node(int node) {
        if (nodeCpusPos.containsKey(node)) return nodeCpusPos.get(node);
        if (nodeSizePos.containsKey(node)) return nodeSizePos.get(node);
        if (availablePos != null) return availablePos;
        return topology();
    }

    @Override
    public SourcePosition distanceRow(int node) {
        if (rowPos.containsKey(node)) return rowPos.get(node);
        if (headerPos != null) return headerPos;
        return topology();
    }

    // ------------------------------------------------------------------ build

    /**
     * The document: defaults applied (FMT-6), kernel rules checked in the mode the file asks for
     * ({@code expect} → lenient) unless {@code forced} says otherwise.
     *
     * @throws InvalidTopologyException with {@code file:line: found; expected}
     */
    public TopoDocument build(Optional<Mode> forced) {
        Mode mode = forced.orElse(Mode.forTags(expect));
        Findings findings = new Findings(mode);
        String topoName = name != null ? name : defaultName();

        // Nodes: every id any line mentions.
        TreeSet<Integer> ids = new TreeSet<>();
        if (available != null) for (int n : available.toArray()) ids.add(n);
        ids.addAll(nodeCpus.keySet());
        ids.addAll(nodeSize.keySet());
        for (int n : memless.toArray()) ids.add(n);
        for (Object[] o : nodeOf) ids.add((Integer) o[1]);
        for (LscpuRow r : lscpu) if (r.node() >= 0) ids.add(r.node());
        if (header != null) for (int h : header) ids.add(h);
        if (ids.isEmpty())
            throw findings.reject(topology(), "no NUMA nodes; expected numactl -H lines such as 'node 0 cpus: 0-3' or an lscpu-p: block with a Node column");
        if (available != null)
            for (int n : ids)
                if (!available.contains(n))
                    throw findings.reject(node(n), "node " + n + " is not in available: " + available.toList() + " (" + availablePos.where() + "); expected every node in the available: list");
        if (header != null)
            for (int n : ids)
                if (!rows.containsKey(n))
                    throw findings.reject(rowPos.isEmpty() || Arrays.stream(header).noneMatch(h -> h == n) ? node(n) : headerPos,
                            "node " + n + " has no row in the distance table (header at " + headerPos.where() + " lists " + NodeMask.of(header).toList() + "); expected a row for every node");

        // Node membership: node lines, then lscpu rows, then node-of.
        Owners owner = new Owners();
        CpuSet.Builder listed = CpuSet.builder();
        for (Map.Entry<Integer, CpuSet> e : nodeCpus.entrySet()) {
            for (int c : e.getValue().toArray()) claim(owner, c, e.getKey(), nodeCpusPos.get(e.getKey()), findings);
            listed.addAll(e.getValue());
        }
        CpuSet.Builder lscpuCpus = CpuSet.builder();
        for (LscpuRow r : lscpu) {
            lscpuCpus.add(r.cpu());
            if (r.node() >= 0) claim(owner, r.cpu(), r.node(), r.at(), findings);
            if (r.online() && nodeCpus.isEmpty()) listed.add(r.cpu());
        }
        CpuSet.Builder nodeOfCpus = CpuSet.builder();
        for (Object[] o : nodeOf) {
            CpuSet cpus = (CpuSet) o[0];
            for (int c : cpus.toArray()) claim(owner, c, (Integer) o[1], (SourcePosition) o[2], findings);
            nodeOfCpus.addAll(cpus);
        }

        // The three masks with their defaults (FMT-6) and the kernel's order (TOPO-1).
        CpuSet listedSet = listed.build();
        CpuSet on = online != null ? online : listedSet;
        CpuSet pres = present != null ? present : on.or(nodeOfCpus.build()).or(lscpuCpus.build());
        CpuSet poss = possible != null ? possible : pres;
        if (!on.isSubsetOf(pres)) {
            findings.kernelRule(onlinePos != null ? onlinePos : presentPos, TopologyValidation.ONLINE_NOT_PRESENT,
                    "online CPUs " + on.andNot(pres).toList() + " are not present (present " + pres.toList() + "); expected online ⊆ present");
            pres = pres.or(on);
            if (possible == null) poss = pres;
        }
        if (!pres.isSubsetOf(poss)) {
            findings.kernelRule(presentPos != null ? presentPos : possiblePos, TopologyValidation.PRESENT_NOT_POSSIBLE,
                    "present CPUs " + pres.andNot(poss).toList() + " are not possible (possible " + poss.toList() + "); expected present ⊆ possible");
            poss = poss.or(pres);
        }
        if (poss.isEmpty())
            throw findings.reject(topology(), "no CPUs; expected at least one CPU in a node line, node-of, online, present or possible");
        if (online != null)
            for (Map.Entry<Integer, CpuSet> e : nodeCpus.entrySet()) {
                CpuSet off = e.getValue().andNot(on);
                if (!off.isEmpty())
                    findings.kernelRule(nodeCpusPos.get(e.getKey()), TopologyValidation.OFFLINE_CPU_IN_NODE_LINE,
                            "node " + e.getKey() + " cpus: lists " + off.toList() + ", not online (online " + on.toList()
                                    + "); expected online CPUs only (numactl prints those), with 'node-of " + off.toList() + " " + e.getKey() + "' for the others");
            }
        CpuSet owned = owner.cpus();
        if (!owned.isSubsetOf(poss)) {
            int c = owned.andNot(poss).first();
            throw findings.reject(owner.at(c), "cpu " + c + " of node " + owner.nodeOf(c) + " is not possible (possible "
                    + poss.toList() + "); expected node CPUs within the possible CPUs");
        }

        // SMT sibling groups over the possible CPUs (hardware view, TOPO-3).
        List<CpuSet> groups = siblingGroups(poss, findings);

        // Possible CPUs no line placed: a sibling's node, else where x86 puts a CPU that SRAT does not
        // place for it (TOPO-2): numa_init_array() deals every CPU id to the nodes with memory in
        // turn, CPU c to the (c mod k)-th of the k of them, before the present CPUs take SRAT's node.
        CpuSet unplaced = poss.andNot(owned);
        if (!unplaced.isEmpty()) {
            int[] memoryNodes = ids.stream().filter(n -> nodeSize.getOrDefault(n, -1L) != 0 && !memless.contains(n))
                    .mapToInt(Integer::intValue).toArray();
            if (memoryNodes.length == 0) memoryNodes = new int[] {ids.first()};
            TreeMap<Integer, CpuSet> groupOf = new TreeMap<>();
            for (CpuSet g : groups) if (g.intersects(unplaced)) g.and(unplaced).forEachCpu(c -> groupOf.put(c, g));
            for (int c : unplaced.toArray()) {
                Integer viaSibling = null;
                CpuSet g = groupOf.get(c);
                if (g != null)
                    for (int s : g.toArray()) if (owner.nodeOf(s) >= 0) { viaSibling = owner.nodeOf(s); break; }
                owner.put(c, viaSibling != null ? viaSibling : memoryNodes[c % memoryNodes.length], possiblePos != null ? possiblePos : topology());
            }
            findings.warn(possiblePos != null ? possiblePos : topology(), TopologyValidation.CPUS_WITHOUT_NODE,
                    "possible CPUs " + unplaced.toList() + " are in no node line or node-of; placed with a sibling, or CPU c on the"
                            + " (c mod k)-th of the k nodes with memory " + NodeMask.of(memoryNodes).toList()
                            + " (x86 numa_init_array() does the same)");
        }

        // TOPO-3: x86 links two threads as siblings only inside one node (topology_sane()), so a
        // core whose threads sit in two nodes is one core per node to the kernel; QEMU can build it.
        List<CpuSet> checkedGroups = new ArrayList<>();
        for (CpuSet g : groups) {
            TreeMap<Integer, CpuSet.Builder> byNode = new TreeMap<>();
            for (int c : g.toArray()) byNode.computeIfAbsent(owner.nodeOf(c), k -> CpuSet.builder()).add(c);
            if (byNode.size() > 1) {
                findings.warn(smtPos != null ? smtPos : topology(), TopologyValidation.SIBLINGS_SPAN_NODES,
                        "SMT siblings " + g.toList() + " span nodes " + NodeMask.ofStream(byNode.keySet().stream().mapToInt(Integer::intValue)).toList()
                                + "; x86 splits the core at the node boundary (topology_sane): each node's threads are siblings of each other only");
                byNode.values().forEach(b -> checkedGroups.add(b.build()));
            } else {
                checkedGroups.add(g);
            }
        }

        // Nodes.
        List<Node> nodes = new ArrayList<>();
        TreeMap<Integer, CpuSet.Builder> members = new TreeMap<>();
        for (int n : ids) members.put(n, CpuSet.builder());
        owner.cpus().forEachCpu(c -> members.get(owner.nodeOf(c)).add(c));
        for (int n : ids) {
            long size = nodeSize.getOrDefault(n, -1L);
            boolean hasMemory = size != 0 && !memless.contains(n);
            nodes.add(new Node(n, members.get(n).build(), hasMemory, size));
        }

        List<CpuPackage> pkgs = packages(poss, pres, nodes, checkedGroups, findings);
        if (cpuModel != CpuModel.OTHER && pkgs.isEmpty())
            throw findings.reject(cpuModelPos, "cpu-model " + cpuModel.id() + " without packages; expected 'package ID cpus LIST' lines,"
                    + " 'packages every K cores' or an lscpu-p: block with a Socket column (the kernel counts nodes per package, TOPO-16)");
        List<CpuSet> cls = clusters(poss, checkedGroups, findings);
        clusterWarnings(cls, owner, findings);

        int[] idArray = ids.stream().mapToInt(Integer::intValue).toArray();
        DistanceTable table;
        if (header != null) {
            int[][] r = new int[idArray.length][];
            for (int i = 0; i < idArray.length; i++) r[i] = rows.get(idArray[i]);
            table = DistanceTable.of(idArray, r);
        } else {
            table = DistanceTable.defaults(idArray);
        }

        Topology t;
        try {
            t = new Topology(topoName, source, poss, pres, on, nodes, table, checkedGroups, pkgs, cls, cpuModel, arch);
        } catch (IllegalArgumentException e) {
            throw findings.reject(topology(), e.getMessage());
        }
        TopologyValidation.check(t, findings, this);
        return new TopoDocument(t, notes, expect, findings.warnings());
    }

    private String defaultName() {
        String base = file.replaceAll(".*[/\\\\]", "").replaceAll("\\.(topo|json)$", "").toLowerCase(java.util.Locale.ROOT);
        base = base.replaceAll("[^a-z0-9._-]", "-");
        return base.isEmpty() ? "unnamed" : base;
    }

    private void claim(Owners owner, int cpu, int node, SourcePosition at, Findings findings) {
        int old = owner.nodeOf(cpu);
        if (old >= 0 && old != node)
            throw findings.reject(at, "cpu " + cpu + " is in node " + node + " and in node " + old + " (" + owner.at(cpu).where()
                    + "); expected each CPU in exactly one node");
        if (old < 0) owner.put(cpu, node, at);
    }

    /**
     * The node of each CPU named so far and the position that named it, by CPU id: arrays grown
     * to the highest CPU named (as a {@link CpuSet} is), not a map entry per CPU, which cost a
     * generated machine more than the rest of its build.
     */
    private static final class Owners {
        private int[] node = new int[0];                 // -1: no node yet
        private SourcePosition[] at = new SourcePosition[0];
        private final CpuSet.Builder cpus = CpuSet.builder();

        /** The node of {@code cpu}, or -1 when no line placed it. */
        int nodeOf(int cpu) {
            return cpu < node.length ? node[cpu] : -1;
        }

        SourcePosition at(int cpu) {
            return at[cpu];
        }

        void put(int cpu, int n, SourcePosition where) {
            if (cpu >= node.length) {
                int size = Math.max(cpu + 1, 2 * node.length);
                int old = node.length;
                node = Arrays.copyOf(node, size);
                Arrays.fill(node, old, size, -1);
                at = Arrays.copyOf(at, size);
            }
            node[cpu] = n;
            at[cpu] = where;
            cpus.add(cpu);
        }

        /** The CPUs placed so far. */
        CpuSet cpus() {
            return cpus.build();
        }
    }

    private List<CpuSet> siblingGroups(CpuSet poss, Findings findings) {
        TreeMap<Integer, CpuSet.Builder> byKey = new TreeMap<>();
        switch (smt) {
            case ADJACENT -> { return SmtLayout.adjacentGroups(poss, smtWidth); }
            case STRIDE -> { return SmtLayout.strideGroups(poss, smtWidth, smtStride); }
            case SIBLINGS -> {
                CpuSet.Builder seen = CpuSet.builder();
                for (CpuSet g : siblingGroups) {
                    for (int c : g.toArray()) {
                        if (!poss.contains(c))
                            throw findings.reject(smtPos, "siblings group " + g.toList() + " holds cpu " + c + ", which is not possible (possible "
                                    + poss.toList() + "); expected sibling groups of possible CPUs");
                        if (seen.contains(c))
                            throw findings.reject(smtPos, "cpu " + c + " is in two siblings groups; expected each CPU in one group");
                        seen.add(c);
                    }
                    byKey.put(g.first(), CpuSet.builder().addAll(g));
                }
                poss.forEachCpu(c -> { if (!seen.contains(c)) byKey.put(c, CpuSet.builder().add(c)); });
            }
            case NONE -> poss.forEachCpu(c -> byKey.put(c, CpuSet.builder().add(c)));
            case UNSAID -> {
                if (!lscpu.isEmpty() && lscpu.stream().allMatch(r -> r.core() >= 0)) {
                    // lscpu: CPUs sharing (Socket, Core) are siblings.
                    TreeMap<Long, CpuSet.Builder> byCore = new TreeMap<>();
                    for (LscpuRow r : lscpu) byCore.computeIfAbsent(((long) r.socket() << 32) | (r.core() & 0xffffffffL), k -> CpuSet.builder()).add(r.cpu());
                    CpuSet.Builder seen = CpuSet.builder();
                    for (CpuSet.Builder b : byCore.values()) {
                        CpuSet g = b.build().and(poss);
                        if (g.isEmpty()) continue;
                        byKey.put(g.first(), CpuSet.builder().addAll(g));
                        seen.addAll(g);
                    }
                    poss.forEachCpu(c -> { if (!seen.contains(c)) byKey.put(c, CpuSet.builder().add(c)); });
                } else {
                    poss.forEachCpu(c -> byKey.put(c, CpuSet.builder().add(c)));
                }
            }
        }
        List<CpuSet> out = new ArrayList<>();
        for (CpuSet.Builder b : byKey.values()) out.add(b.build());
        return out;
    }

    private List<CpuPackage> packages(CpuSet poss, CpuSet pres, List<Node> nodes, List<CpuSet> cores, Findings findings) {
        List<CpuPackage> out = new ArrayList<>();
        List<SourcePosition> at = new ArrayList<>();
        if (packagesPerNode) {
            for (Node n : nodes) if (!n.cpus().isEmpty()) { out.add(new CpuPackage(n.id(), n.cpus())); at.add(packagesRulePos); }
        } else if (packagesEveryCores > 0) {
            for (CpuSet g : everyK(cores, packagesEveryCores)) { out.add(new CpuPackage(out.size(), g)); at.add(packagesRulePos); }
        } else if (!packages.isEmpty()) {
            out.addAll(packages);
            at.addAll(packagePos);
        } else if (!lscpu.isEmpty() && lscpu.stream().allMatch(r -> r.socket() >= 0)) {
            TreeMap<Integer, CpuSet.Builder> bySocket = new TreeMap<>();
            for (LscpuRow r : lscpu) bySocket.computeIfAbsent(r.socket(), k -> CpuSet.builder()).add(r.cpu());
            bySocket.forEach((s, b) -> { out.add(new CpuPackage(s, b.build().and(poss))); at.add(lscpu.get(0).at()); });
            out.removeIf(p -> p.cpus().isEmpty());
        } else {
            return List.of();
        }
        CpuSet.Builder seen = CpuSet.builder();
        for (int i = 0; i < out.size(); i++) {
            for (int c : out.get(i).cpus().toArray()) {
                if (!poss.contains(c))
                    throw findings.reject(at.get(i), "package " + out.get(i).id() + " holds cpu " + c + ", which is not possible (possible "
                            + poss.toList() + "); expected packages of possible CPUs");
                if (seen.contains(c))
                    throw findings.reject(at.get(i), "cpu " + c + " is in two packages; expected each CPU in one package");
                seen.add(c);
            }
        }
        CpuSet missing = poss.andNot(seen.build());
        if (!missing.isEmpty()) {
            CpuSet missingPresent = missing.and(pres);
            if (!missingPresent.isEmpty())
                throw findings.reject(at.get(0), "present CPUs " + missingPresent.toList() + " are in no package; expected the packages to cover the present CPUs "
                        + pres.toList());
            // Hot-plug capacity that is not present has no package: physical_package_id -1.
            out.add(new CpuPackage(-1, missing));
            findings.warn(at.get(0), TopologyValidation.PACKAGES_INCOMPLETE, "possible but not present CPUs " + missing.toList()
                    + " are in no package; placed in package -1 (firmware does not say)");
        }
        return out;
    }

    private List<CpuSet> clusters(CpuSet poss, List<CpuSet> cores, Findings findings) {
        if (clustersEveryCores > 0) return everyK(cores, clustersEveryCores);
        if (clusters.isEmpty()) return List.of();
        CpuSet.Builder seen = CpuSet.builder();
        for (int i = 0; i < clusters.size(); i++)
            for (int c : clusters.get(i).toArray()) {
                if (!poss.contains(c) || seen.contains(c))
                    throw findings.reject(clusterPos.get(i), "cluster " + clusters.get(i).toList() + " holds cpu " + c
                            + (poss.contains(c) ? ", which is in another cluster" : ", which is not possible") + "; expected clusters that partition the possible CPUs");
                seen.add(c);
            }
        CpuSet missing = poss.andNot(seen.build());
        if (!missing.isEmpty())
            throw findings.reject(clusterPos.get(0), "CPUs " + missing.toList() + " are in no cluster; expected the clusters to cover the possible CPUs " + poss.toList());
        return List.copyOf(clusters);
    }

    /** TOPO-14: a cluster across nodes. */
    private void clusterWarnings(List<CpuSet> cls, Owners owner, Findings findings) {
        // No clusters (TOPO-12) is no finding of the load: Topology.clustersAssumed() says it, and
        // check-topology warns.
        for (int i = 0; i < cls.size(); i++) {
            TreeSet<Integer> nodesOf = new TreeSet<>();
            cls.get(i).forEachCpu(c -> nodesOf.add(owner.nodeOf(c)));
            if (nodesOf.size() > 1)
                findings.warn(clustersRulePos != null ? clustersRulePos : clusterPos.get(i), TopologyValidation.CLUSTER_SPANS_NODES,
                        "cluster " + cls.get(i).toList() + " spans nodes " + NodeMask.ofStream(nodesOf.stream().mapToInt(Integer::intValue)).toList()
                                + "; x86 splits it at the node boundary (topology_sane), and group_cpus_evenly sees each node's part as a cluster");
        }
    }

    /** Consecutive runs of {@code k} cores (sibling groups in order of their first CPU). */
    private static List<CpuSet> everyK(List<CpuSet> cores, int k) {
        List<CpuSet> out = new ArrayList<>();
        for (int i = 0; i < cores.size(); i += k) {
            CpuSet.Builder b = CpuSet.builder();
            for (int j = i; j < Math.min(cores.size(), i + k); j++) b.addAll(cores.get(j));
            out.add(b.build());
        }
        return out;
    }
}
