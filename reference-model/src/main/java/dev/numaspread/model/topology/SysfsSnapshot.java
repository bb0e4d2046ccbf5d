package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.InputText;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a copy of {@code /sys/devices/system} (as {@code numaspread snapshot} archives it, or
 * any copy of {@code cpu/} and {@code node/}) into a {@link TopoDocument} (spec/formats.md FMT-13, FMT-14). The snapshot
 * fills the same {@link TopoDraft} as a {@code .topo} file, so defaults, validation and messages
 * agree; positions are the snapshot's files ({@code snap/node/node3/distance}).
 *
 * <p>What each file gives ({@code drivers/base/node.c}, {@code cpu.c}, {@code topology.c}): {@code cpu/possible},
 * {@code present}, {@code online}; {@code cpuN/topology/thread_siblings_list} (or
 * {@code core_cpus_list}), {@code physical_package_id}, {@code cluster_cpus_list};
 * {@code node/nodeN/cpulist} (online CPUs), {@code distance} (one value per online node,
 * ascending id), {@code meminfo} ({@code MemTotal}), {@code node/has_cpu}, {@code has_memory}.
 *
 * <p>On x86 an offline CPU loses {@code cpuN/topology/} and drops out of its node's cpulist. Its
 * node then comes from a {@code cpuN/nodeM} link or a {@code node/nodeM/cpuN} entry, or the read
 * fails and says to use a {@code .topo} with {@code node-of}; its siblings fall back to itself
 * alone and its package to the one package of its node, with an {@code offline-cpu-topology}
 * warning.
 */
public final class SysfsSnapshot {

    private SysfsSnapshot() {}

    private static final String TAKE = "take a snapshot with 'numaspread snapshot FILE.tar'";

    /** Reads the snapshot in strict mode (a snapshot has no {@code expect} line). */
    public static TopoDocument read(Path dir) {
        return read(dir, Optional.empty());
    }

    /**
     * Reads the snapshot under {@code dir}: {@code dir/cpu} and {@code dir/node}, or
     * {@code dir/devices/system/...}, or {@code dir/sys/devices/system/...}.
     *
     * @throws InvalidTopologyException {@code snap/FILE: what was found; what was expected}
     */
    public static TopoDocument read(Path dir, Optional<Mode> mode) {
        if (!Files.isDirectory(dir))
            throw new InvalidTopologyException(dir.toString(), "not a directory; expected a copy of /sys/devices/system: " + TAKE);
        return read(SysfsTree.of(dir), mode);
    }

    /** Reads the copy {@code tree} (a directory, or an archive's entries), as {@link #read(Path, Optional)} reads a directory. */
    public static TopoDocument read(SysfsTree tree, Optional<Mode> mode) {
        String root = root(tree);
        String cpu = root + "cpu";
        String node = root + "node";
        TopoDraft d = new TopoDraft(tree.name());
        d.name(nameOf(tree.name()), at(tree, ""));
        d.source("sysfs snapshot " + tree.name());
        List<TopologyWarning> warnings = new ArrayList<>();

        // CPU masks: possible is the one the kernel always has; the others default as in .topo.
        String possiblePath = cpu + "/possible";
        if (!tree.isFile(possiblePath))
            throw new InvalidTopologyException(tree.where(possiblePath), "no such file; expected the possible CPUs as the kernel lists them"
                    + " (e.g. 0-95): " + TAKE);
        CpuSet possible = list(tree, possiblePath);
        d.possible(possible, at(tree, possiblePath));
        Optional<CpuSet> present = optionalList(tree, cpu + "/present");
        present.ifPresent(s -> d.present(s, at(tree, cpu + "/present")));
        Optional<CpuSet> online = optionalList(tree, cpu + "/online");
        online.ifPresent(s -> d.online(s, at(tree, cpu + "/online")));

        // Per-CPU directories, ascending id.
        TreeMap<Integer, String> cpuDirs = numbered(tree, cpu, "cpu", CpuSet.NR_CPUS);
        TreeMap<Integer, String> nodeDirs = numbered(tree, node, "node", Numa.MAX_NUMNODES);
        if (nodeDirs.isEmpty())
            throw new InvalidTopologyException(tree.where(node), "no nodeN directories; expected one per online node: " + TAKE);

        // Node membership: cpulists give the online CPUs; links and entries the others.
        TreeMap<Integer, Integer> nodeOfCpu = new TreeMap<>();
        TreeMap<Integer, CpuSet> onlineOfNode = new TreeMap<>();
        for (Map.Entry<Integer, String> e : nodeDirs.entrySet()) {
            int n = e.getKey();
            String cpulist = e.getValue() + "/cpulist";
            if (!tree.isFile(cpulist))
                throw new InvalidTopologyException(tree.where(cpulist), "no such file; expected the node's online CPUs (copy the node directory whole)");
            CpuSet listed = list(tree, cpulist);
            // Kernels before v4.x listed offline CPUs too: those go in as node-of, not as node lines.
            CpuSet on = online.map(listed::and).orElse(listed);
            d.nodeCpus(n, on, at(tree, cpulist));
            onlineOfNode.put(n, on);
            if (!listed.equals(on)) d.nodeOf(listed.andNot(on), n, at(tree, cpulist));
            listed.forEachCpu(c -> nodeOfCpu.putIfAbsent(c, n));
        }
        for (Map.Entry<Integer, String> e : nodeDirs.entrySet())
            for (int c : numbered(tree, e.getValue(), "cpu", CpuSet.NR_CPUS).keySet())
                if (!nodeOfCpu.containsKey(c)) {
                    d.nodeOf(CpuSet.of(c), e.getKey(), at(tree, e.getValue() + "/cpu" + c));
                    nodeOfCpu.put(c, e.getKey());
                }
        for (Map.Entry<Integer, String> e : cpuDirs.entrySet())
            for (Map.Entry<Integer, String> link : numbered(tree, e.getValue(), "node", Numa.MAX_NUMNODES).entrySet()) {
                int c = e.getKey();
                Integer known = nodeOfCpu.get(c);
                // A second source naming the same node adds nothing; a different one is a conflict the draft reports.
                if (known == null || known.intValue() != link.getKey()) d.nodeOf(CpuSet.of(c), link.getKey(), at(tree, link.getValue()));
                nodeOfCpu.putIfAbsent(c, link.getKey());
            }
        CpuSet presentCpus = present.orElse(CpuSet.ofStream(cpuDirs.keySet().stream().mapToInt(Integer::intValue)));
        CpuSet homeless = presentCpus.andNot(CpuSet.ofStream(nodeOfCpu.keySet().stream().mapToInt(Integer::intValue)));
        if (!homeless.isEmpty())
            throw new InvalidTopologyException(tree.where(cpu), "present CPUs " + homeless.toList() + " are in no node's cpulist and have no"
                    + " cpuN/nodeM link or node/nodeM/cpuN entry, so the snapshot does not say their node (x86 drops offline CPUs"
                    + " from cpulist); expected their node: describe the machine in a .topo file with 'node-of " + homeless.toList() + " NODE'");
        hasCpu(tree, node, onlineOfNode);

        // Distances: one value per online node, in ascending id; the node directories are the online nodes.
        int[] ids = nodeDirs.keySet().stream().mapToInt(Integer::intValue).toArray();
        d.distanceHeader(ids, at(tree, node));
        for (Map.Entry<Integer, String> e : nodeDirs.entrySet()) {
            String f = e.getValue() + "/distance";
            if (!tree.isFile(f))
                throw new InvalidTopologyException(tree.where(f), "no such file; expected the node's distances, one per online node");
            List<String> values = words(text(tree, f));
            if (values.size() != ids.length)
                throw new InvalidTopologyException(tree.where(f), "found " + values.size() + (values.size() == 1 ? " value" : " values") + "; expected " + ids.length + ", one per online node");
            int[] row = new int[values.size()];
            for (int i = 0; i < row.length; i++) {
                long v = InputText.decimalValue(values.get(i));
                if (v < 0 || v > DistanceTable.MAX_VALUE)
                    throw new InvalidTopologyException(tree.where(f), "found " + Printable.quote(values.get(i)) + "; expected distances as whole numbers 0-"
                            + DistanceTable.MAX_VALUE);
                row[i] = (int) v;
            }
            d.distanceRow(e.getKey(), row, at(tree, f));
        }

        // Memory: MemTotal gives numactl's size (kB / 1024, as numactl prints MB); has_memory marks the rest.
        for (Map.Entry<Integer, String> e : nodeDirs.entrySet()) {
            String f = e.getValue() + "/meminfo";
            if (!tree.isFile(f)) continue;
            d.nodeSize(e.getKey(), memTotalKiB(tree, f, e.getKey()) / 1024, at(tree, f));
        }
        String hasMemory = node + "/has_memory";
        Optional<NodeMask> withMemory = optionalNodeList(tree, hasMemory);
        if (withMemory.isPresent() && !withMemory.get().isEmpty()) {
            NodeMask absent = withMemory.get().andNot(NodeMask.of(ids));
            if (!absent.isEmpty())
                throw new InvalidTopologyException(tree.where(hasMemory), "lists nodes " + absent.toList() + ", which have no nodeN directory; expected"
                        + " online nodes only (" + NodeMask.of(ids).toList() + "): was the snapshot taken during memory hotplug? take it again");
            NodeMask memless = NodeMask.of(ids).andNot(withMemory.get());
            if (!memless.isEmpty()) d.memless(memless, at(tree, hasMemory));
        }

        // Hardware relations from topology/, with the x86 fallback for offline CPUs that lost it.
        TreeMap<Integer, String> topo = new TreeMap<>();
        cpuDirs.forEach((c, p) -> { if (tree.isDirectory(p + "/topology")) topo.put(c, p + "/topology"); });
        CpuSet lost = presentCpus.andNot(CpuSet.ofStream(topo.keySet().stream().mapToInt(Integer::intValue)));
        List<CpuSet> siblings = siblings(tree, topo, possible);
        if (siblings.stream().allMatch(g -> g.size() == 1)) d.smtNone(at(tree, cpu));
        else d.siblings(siblings.stream().filter(g -> g.size() > 1).toList(), at(tree, cpu));
        boolean packaged = packages(tree, d, topo, lost, nodeOfCpu, cpu);
        if (!lost.isEmpty()) {
            CpuSet alone = lost.and(CpuSet.ofStream(siblings.stream().filter(g -> g.size() == 1).mapToInt(CpuSet::first)));
            warnings.add(new TopologyWarning(0, TopologyValidation.OFFLINE_CPU_TOPOLOGY, "present CPUs " + lost.toList()
                    + " have no topology/ directory (x86 removes it when a CPU goes offline)"
                    + (packaged ? "; each is taken in the package of its node" : "")
                    + (alone.isEmpty() ? "" : "; CPUs " + alone.toList() + ", which no sibling list names, are taken as their own SMT siblings")));
        }
        clusters(tree, d, topo, possible);
        // An archive holds proc/ beside sys/: its cpuinfo names the CPU model (FMT-15, TOPO-16).
        if (packaged && root.endsWith("sys/devices/system/")) {
            String cpuinfo = root.substring(0, root.length() - "sys/devices/system/".length()) + "proc/cpuinfo";
            if (tree.isFile(cpuinfo)) {
                CpuModel model = cpuModel(tree, cpuinfo);
                if (model != CpuModel.OTHER) d.cpuModel(model, at(tree, cpuinfo));
                if (isArm64(tree, cpuinfo)) d.arch(Arch.ARM64, at(tree, cpuinfo));
            }
        }

        TopoDocument doc = d.build(mode);
        if (warnings.isEmpty()) return doc;
        List<TopologyWarning> all = new ArrayList<>(doc.warnings());
        all.addAll(warnings);
        return new TopoDocument(doc.topology(), doc.notes(), doc.expect(), all);
    }

    /**
     * The CPU model of the first processor in {@code /proc/cpuinfo} ({@code vendor_id},
     * {@code cpu family}, {@code model}); {@link CpuModel#OTHER} when a field is missing or not a
     * number (a non-x86 cpuinfo has none of them).
     */
    static CpuModel cpuModel(SysfsTree tree, String cpuinfo) {
        String vendor = null;
        long family = -1, model = -1;
        for (String line : text(tree, cpuinfo).split("\n")) {
            if (line.isBlank()) break;                       // the end of the first processor's block
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon).strip(), value = line.substring(colon + 1).strip();
            switch (key) {
                case "vendor_id" -> vendor = value;
                case "cpu family" -> family = InputText.decimalValue(value);
                case "model" -> model = InputText.decimalValue(value);
                default -> { }
            }
        }
        if (vendor == null || family < 0 || model < 0 || family > Integer.MAX_VALUE || model > Integer.MAX_VALUE) return CpuModel.OTHER;
        return CpuModel.ofCpuinfo(vendor, (int) family, (int) model);
    }

    /**
     * True when {@code /proc/cpuinfo}'s first processor block is arm64's: it names the
     * {@code CPU implementer} and {@code CPU architecture} (FMT-15); x86 names {@code vendor_id}.
     */
    static boolean isArm64(SysfsTree tree, String cpuinfo) {
        boolean implementer = false, architecture = false;
        for (String line : text(tree, cpuinfo).split("\n")) {
            if (line.isBlank()) break;
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon).strip();
            if (key.equals("CPU implementer")) implementer = true;
            if (key.equals("CPU architecture")) architecture = true;
        }
        return implementer && architecture;
    }

    /** The path (with a trailing {@code /}, or empty) holding {@code cpu/} and {@code node/}: the copy itself or its devices/system. */
    private static String root(SysfsTree tree) {
        for (String root : List.of("", "devices/system/", "sys/devices/system/"))
            if (tree.isDirectory(root + "cpu") && tree.isDirectory(root + "node")) return root;
        throw new InvalidTopologyException(tree.where(""), "no cpu/ and node/ directories (nor devices/system/cpu and devices/system/node);"
                + " expected a copy of /sys/devices/system: " + TAKE);
    }

    private static String nameOf(String name) {
        Path base = Path.of(name).toAbsolutePath().normalize().getFileName();
        String n = base == null ? "" : base.toString().toLowerCase(java.util.Locale.ROOT);
        if (n.endsWith(".tar")) n = n.substring(0, n.length() - 4);
        StringBuilder sb = new StringBuilder();
        for (char c : n.toCharArray()) sb.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ? c : '-');
        return sb.length() == 0 || sb.charAt(0) == '.' ? "sysfs" : sb.toString();
    }

    /** has_cpu, when the kernel filled it, must name the nodes with online CPUs (old dumps leave it empty). */
    private static void hasCpu(SysfsTree tree, String node, TreeMap<Integer, CpuSet> onlineOfNode) {
        String f = node + "/has_cpu";
        Optional<NodeMask> hasCpu = optionalNodeList(tree, f);
        if (hasCpu.isEmpty() || hasCpu.get().isEmpty()) return;
        NodeMask withCpus = NodeMask.ofStream(onlineOfNode.entrySet().stream().filter(e -> !e.getValue().isEmpty()).mapToInt(Map.Entry::getKey));
        if (!hasCpu.get().equals(withCpus))
            throw new InvalidTopologyException(tree.where(f), "lists nodes " + hasCpu.get().toList() + "; expected the nodes whose cpulist is not empty ("
                    + withCpus.toList() + "): was the snapshot taken during CPU hotplug? take it again");
    }

    /**
     * MemTotal of {@code nodeN/meminfo} in kB. Every line of the file is the node's own
     * ({@code Node N ...}); another node's line means the file is not this node's.
     */
    private static long memTotalKiB(SysfsTree tree, String f, int node) {
        long kib = -1;
        for (String line : InputText.lines(text(tree, f), tree.where(f))) {
            List<String> w = words(line);
            if (w.isEmpty()) continue;
            if (w.size() < 3 || !w.get(0).equals("Node"))
                throw new InvalidTopologyException(tree.where(f), "found " + Printable.quote(line) + "; expected lines 'Node " + node + " NAME: VALUE'");
            if (InputText.decimalValue(w.get(1)) != node)
                throw new InvalidTopologyException(tree.where(f), "found " + Printable.quote(line) + ", a line of another node; expected the lines of node " + node);
            if (w.get(2).equals("MemTotal:")) {
                long v = w.size() == 5 && w.get(4).equals("kB") ? InputText.decimalValue(w.get(3)) : -1;
                if (v < 0 || v > Node.MAX_SIZE_MIB * 1024)
                    throw new InvalidTopologyException(tree.where(f), "found " + Printable.quote(line) + "; expected 'Node " + node
                            + " MemTotal: N kB' with N at most " + Node.MAX_SIZE_MIB * 1024);
                kib = v;
            }
        }
        if (kib < 0) throw new InvalidTopologyException(tree.where(f), "no MemTotal line; expected 'Node " + node + " MemTotal: N kB'");
        return kib;
    }

    /**
     * SMT sibling groups of the possible CPUs: from thread_siblings_list (core_cpus_list on newer
     * kernels name the same mask); a CPU without topology/ joins a group that lists it, else
     * stands alone, as an unlisted CPU does in a .topo {@code siblings} line.
     */
    private static List<CpuSet> siblings(SysfsTree tree, TreeMap<Integer, String> topo, CpuSet possible) {
        TreeMap<Integer, CpuSet> groupOf = new TreeMap<>();
        TreeMap<Integer, String> saidBy = new TreeMap<>();
        for (Map.Entry<Integer, String> e : topo.entrySet()) {
            String f = e.getValue() + "/thread_siblings_list";
            if (!tree.isFile(f)) f = e.getValue() + "/core_cpus_list";
            if (!tree.isFile(f))
                throw new InvalidTopologyException(tree.where(e.getValue()), "no thread_siblings_list or core_cpus_list; expected the CPU's SMT siblings");
            CpuSet g = list(tree, f).with(e.getKey());
            for (int c : g.toArray()) {
                CpuSet old = groupOf.get(c);
                if (old != null && !old.equals(g))
                    throw new InvalidTopologyException(tree.where(f), "lists " + g.toList() + " but " + tree.where(saidBy.get(c)) + " lists " + old.toList()
                            + "; expected the same siblings from every thread of a core");
                groupOf.put(c, g);
                saidBy.put(c, f);
            }
        }
        TreeSet<CpuSet> groups = new TreeSet<>(groupOf.values());
        for (int c : possible.toArray()) if (!groupOf.containsKey(c)) groups.add(CpuSet.of(c));
        return List.copyOf(groups);
    }

    /** Gives packages by physical_package_id and returns true, or false when the snapshot has none; a CPU that lost topology/ goes to the one package of its node. */
    private static boolean packages(SysfsTree tree, TopoDraft d, TreeMap<Integer, String> topo, CpuSet lost, TreeMap<Integer, Integer> nodeOfCpu, String cpu) {
        TreeMap<Integer, CpuSet.Builder> byId = new TreeMap<>();
        TreeMap<Integer, TreeSet<Integer>> packagesOfNode = new TreeMap<>();
        for (Map.Entry<Integer, String> e : topo.entrySet()) {
            String f = e.getValue() + "/physical_package_id";
            if (!tree.isFile(f)) return false; // firmware gives no packages: leave them unknown, as a .topo without package lines
            String t = text(tree, f).strip();
            long v = t.equals("-1") ? -1 : InputText.decimalValue(t);
            if ((v < 0 && !t.equals("-1")) || v > Integer.MAX_VALUE)
                throw new InvalidTopologyException(tree.where(f), "found " + Printable.quote(t) + "; expected a package id (a whole number, -1 when unknown)");
            int id = (int) v;
            byId.computeIfAbsent(id, k -> CpuSet.builder()).add(e.getKey());
            Integer n = nodeOfCpu.get(e.getKey());
            if (n != null) packagesOfNode.computeIfAbsent(n, k -> new TreeSet<>()).add(id);
        }
        if (byId.isEmpty()) return false;
        for (int c : lost.toArray()) {
            int node = nodeOfCpu.get(c);
            TreeSet<Integer> candidates = packagesOfNode.getOrDefault(node, new TreeSet<>());
            if (candidates.size() != 1)
                throw new InvalidTopologyException(tree.where(cpu + "/cpu" + c), "cpu " + c + " has no topology/ directory and its node "
                        + node + " spans packages " + candidates + "; expected its package: describe the machine in a .topo file with 'package ID cpus LIST' lines");
            byId.get(candidates.first()).add(c);
        }
        byId.forEach((id, b) -> d.pkg(id, b.build(), at(tree, cpu)));
        return true;
    }

    /**
     * Clusters from cluster_cpus_list, when the kernel has them (5.16+); without them the draft
     * assumes each core its own cluster and says so (TOPO-12). A CPU without topology/ joins a
     * cluster that lists it, else stands alone, as it does for siblings (x86 lists online CPUs only).
     */
    private static void clusters(SysfsTree tree, TopoDraft d, TreeMap<Integer, String> topo, CpuSet possible) {
        TreeMap<Integer, CpuSet> groupOf = new TreeMap<>();
        TreeMap<CpuSet, String> saidBy = new TreeMap<>();
        for (Map.Entry<Integer, String> e : topo.entrySet()) {
            String f = e.getValue() + "/cluster_cpus_list";
            if (!tree.isFile(f)) return;
            CpuSet g = list(tree, f).with(e.getKey());
            saidBy.putIfAbsent(g, f);
            for (int c : g.toArray()) groupOf.putIfAbsent(c, g);
        }
        if (groupOf.isEmpty()) return;
        TreeSet<CpuSet> groups = new TreeSet<>(groupOf.values());
        for (int c : possible.toArray()) if (!groupOf.containsKey(c)) groups.add(CpuSet.of(c));
        // Overlapping lists (a cluster that differs from CPU to CPU) reach the draft, which names the file.
        String parent = topo.firstEntry().getValue();
        parent = parent.substring(0, parent.lastIndexOf('/'));
        for (CpuSet g : groups) d.cluster(g, saidBy.containsKey(g) ? at(tree, saidBy.get(g)) : at(tree, parent));
    }

    // ------------------------------------------------------------------ files

    /** The entries {@code PREFIXn} of {@code dir} by id n (ASCII digits), ascending; an id at or past {@code limit} is refused. */
    private static TreeMap<Integer, String> numbered(SysfsTree tree, String dir, String prefix, int limit) {
        TreeMap<Integer, String> out = new TreeMap<>();
        for (String name : tree.children(dir)) {
            if (!name.startsWith(prefix)) continue;
            long id = InputText.decimalValue(name.substring(prefix.length()));
            if (id < 0) continue;
            if (id >= limit)
                throw new InvalidTopologyException(tree.where(dir + "/" + name), "an id past " + (prefix.equals("cpu") ? "NR_CPUS" : "MAX_NUMNODES")
                        + "; expected " + prefix + "0 to " + prefix + (limit - 1) + " (spec/formats.md FMT-16)");
            out.put((int) id, dir + "/" + name);
        }
        return out;
    }

    /** The text of a sysfs file: UTF-8, leading NUL bytes dropped (some archived dumps have them, FMT-18). */
    private static String text(SysfsTree tree, String f) {
        byte[] b = tree.read(f);
        int start = 0;
        while (start < b.length && b[start] == 0) start++;
        try {
            return InputText.decode(start == 0 ? b : Arrays.copyOfRange(b, start, b.length), tree.where(f));
        } catch (InvalidInputException e) {
            throw InvalidTopologyException.of(e);
        }
    }

    /** The words of {@code text}, split at white space. */
    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        int i = 0, n = text.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(text.charAt(i))) i++;
            int start = i;
            while (i < n && !Character.isWhitespace(text.charAt(i))) i++;
            if (i > start) out.add(text.substring(start, i));
        }
        return out;
    }

    private static CpuSet list(SysfsTree tree, String f) {
        String text = text(tree, f);
        try {
            return CpuSet.parseList(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(tree.where(f), e.getMessage());
        }
    }

    private static Optional<CpuSet> optionalList(SysfsTree tree, String f) {
        return tree.isFile(f) ? Optional.of(list(tree, f)) : Optional.empty();
    }

    /** A node list file ({@code has_cpu}, {@code has_memory}), if the snapshot has it. */
    private static Optional<NodeMask> optionalNodeList(SysfsTree tree, String f) {
        if (!tree.isFile(f)) return Optional.empty();
        String text = text(tree, f);
        try {
            return Optional.of(NodeMask.parseList(text));
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(tree.where(f), e.getMessage());
        }
    }

    private static SourcePosition at(SysfsTree tree, String path) {
        return SourcePosition.at(tree.where(path));
    }
}
