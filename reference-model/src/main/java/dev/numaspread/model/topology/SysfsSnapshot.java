package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads a copy of {@code /sys/devices/system} (as {@code numaspread snapshot} archives it, or
 * any copy of {@code cpu/} and {@code node/}) into a {@link TopoDocument} (spec/formats.md FMT-13, FMT-14). The snapshot
 * fills the same {@link TopoDraft} as a {@code .topo} file, so defaults, validation and messages
 * agree; positions are the snapshot's files ({@code snap/node/node3/distance}).
 *
 * <p>What each file gives (research/topology-anchors.md §2.5, §2.6): {@code cpu/possible},
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

    private static final Pattern CPU_DIR = Pattern.compile("cpu(\\d+)");
    private static final Pattern NODE_DIR = Pattern.compile("node(\\d+)");
    private static final Pattern MEM_TOTAL = Pattern.compile("Node\\s+(\\d+)\\s+MemTotal:\\s*(\\d+)\\s*kB");
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
        Path root = root(dir);
        Path cpu = root.resolve("cpu");
        Path node = root.resolve("node");
        TopoDraft d = new TopoDraft(dir.toString());
        d.name(nameOf(dir), at(dir));
        d.source("sysfs snapshot " + dir);
        List<TopologyWarning> warnings = new ArrayList<>();

        // CPU masks: possible is the one the kernel always has; the others default as in .topo.
        Path possiblePath = cpu.resolve("possible");
        if (!Files.isRegularFile(possiblePath))
            throw new InvalidTopologyException(possiblePath.toString(), "no such file; expected the possible CPUs as the kernel lists them"
                    + " (e.g. 0-95): " + TAKE);
        CpuSet possible = list(possiblePath);
        d.possible(possible, at(possiblePath));
        Optional<CpuSet> present = optionalList(cpu.resolve("present"));
        present.ifPresent(s -> d.present(s, at(cpu.resolve("present"))));
        Optional<CpuSet> online = optionalList(cpu.resolve("online"));
        online.ifPresent(s -> d.online(s, at(cpu.resolve("online"))));

        // Per-CPU directories, ascending id.
        TreeMap<Integer, Path> cpuDirs = numbered(cpu, CPU_DIR);
        TreeMap<Integer, Path> nodeDirs = numbered(node, NODE_DIR);
        if (nodeDirs.isEmpty())
            throw new InvalidTopologyException(node.toString(), "no nodeN directories; expected one per online node: " + TAKE);

        // Node membership: cpulists give the online CPUs; links and entries the others.
        TreeMap<Integer, Integer> nodeOfCpu = new TreeMap<>();
        TreeMap<Integer, CpuSet> onlineOfNode = new TreeMap<>();
        for (Map.Entry<Integer, Path> e : nodeDirs.entrySet()) {
            int n = e.getKey();
            Path cpulist = e.getValue().resolve("cpulist");
            if (!Files.isRegularFile(cpulist))
                throw new InvalidTopologyException(cpulist.toString(), "no such file; expected the node's online CPUs (copy the node directory whole)");
            CpuSet listed = list(cpulist);
            // Kernels before v4.x listed offline CPUs too: those go in as node-of, not as node lines.
            CpuSet on = online.map(listed::and).orElse(listed);
            d.nodeCpus(n, on, at(cpulist));
            onlineOfNode.put(n, on);
            if (!listed.equals(on)) d.nodeOf(listed.andNot(on), n, at(cpulist));
            listed.forEachCpu(c -> nodeOfCpu.putIfAbsent(c, n));
        }
        for (Map.Entry<Integer, Path> e : nodeDirs.entrySet())
            for (int c : numbered(e.getValue(), CPU_DIR).keySet())
                if (!nodeOfCpu.containsKey(c)) {
                    d.nodeOf(CpuSet.of(c), e.getKey(), at(e.getValue().resolve("cpu" + c)));
                    nodeOfCpu.put(c, e.getKey());
                }
        for (Map.Entry<Integer, Path> e : cpuDirs.entrySet())
            for (Map.Entry<Integer, Path> link : numbered(e.getValue(), NODE_DIR).entrySet()) {
                int c = e.getKey();
                Integer known = nodeOfCpu.get(c);
                // A second source naming the same node adds nothing; a different one is a conflict the draft reports.
                if (known == null || known.intValue() != link.getKey()) d.nodeOf(CpuSet.of(c), link.getKey(), at(link.getValue()));
                nodeOfCpu.putIfAbsent(c, link.getKey());
            }
        CpuSet presentCpus = present.orElse(CpuSet.ofStream(cpuDirs.keySet().stream().mapToInt(Integer::intValue)));
        CpuSet homeless = presentCpus.andNot(CpuSet.ofStream(nodeOfCpu.keySet().stream().mapToInt(Integer::intValue)));
        if (!homeless.isEmpty())
            throw new InvalidTopologyException(cpu.toString(), "present CPUs " + homeless.toList() + " are in no node's cpulist and have no"
                    + " cpuN/nodeM link or node/nodeM/cpuN entry, so the snapshot does not say their node (x86 drops offline CPUs"
                    + " from cpulist); expected their node: describe the machine in a .topo file with 'node-of " + homeless.toList() + " NODE'");
        hasCpu(node, onlineOfNode);

        // Distances: one value per online node, in ascending id; the node directories are the online nodes.
        int[] ids = nodeDirs.keySet().stream().mapToInt(Integer::intValue).toArray();
        d.distanceHeader(ids, at(node));
        for (Map.Entry<Integer, Path> e : nodeDirs.entrySet()) {
            Path f = e.getValue().resolve("distance");
            if (!Files.isRegularFile(f))
                throw new InvalidTopologyException(f.toString(), "no such file; expected the node's distances, one per online node");
            String[] values = text(f).strip().split("\\s+");
            if (values.length == 1 && values[0].isEmpty()) values = new String[0];
            if (values.length != ids.length)
                throw new InvalidTopologyException(f.toString(), "found " + values.length + (values.length == 1 ? " value" : " values") + "; expected " + ids.length + ", one per online node");
            int[] row = new int[values.length];
            for (int i = 0; i < values.length; i++) {
                try {
                    row[i] = Integer.parseInt(values[i]);
                } catch (NumberFormatException x) {
                    throw new InvalidTopologyException(f.toString(), "found '" + values[i] + "'; expected distances as whole numbers");
                }
            }
            d.distanceRow(e.getKey(), row, at(f));
        }

        // Memory: MemTotal gives numactl's size (kB / 1024, as numactl prints MB); has_memory marks the rest.
        for (Map.Entry<Integer, Path> e : nodeDirs.entrySet()) {
            Path f = e.getValue().resolve("meminfo");
            if (!Files.isRegularFile(f)) continue;
            Matcher m = MEM_TOTAL.matcher(text(f));
            if (!m.find())
                throw new InvalidTopologyException(f.toString(), "no MemTotal line; expected 'Node " + e.getKey() + " MemTotal: N kB'");
            d.nodeSize(e.getKey(), Long.parseLong(m.group(2)) / 1024, at(f));
        }
        Path hasMemory = node.resolve("has_memory");
        Optional<NodeMask> withMemory = optionalNodeList(hasMemory);
        if (withMemory.isPresent() && !withMemory.get().isEmpty()) {
            NodeMask memless = NodeMask.of(ids).andNot(withMemory.get());
            if (!memless.isEmpty()) d.memless(memless, at(hasMemory));
        }

        // Hardware relations from topology/, with the x86 fallback for offline CPUs that lost it.
        TreeMap<Integer, Path> topo = new TreeMap<>();
        cpuDirs.forEach((c, p) -> { if (Files.isDirectory(p.resolve("topology"))) topo.put(c, p.resolve("topology")); });
        CpuSet lost = presentCpus.andNot(CpuSet.ofStream(topo.keySet().stream().mapToInt(Integer::intValue)));
        List<CpuSet> siblings = siblings(topo, possible);
        if (siblings.stream().allMatch(g -> g.size() == 1)) d.smtNone(at(cpu));
        else d.siblings(siblings.stream().filter(g -> g.size() > 1).toList(), at(cpu));
        boolean packaged = packages(d, topo, lost, nodeOfCpu, cpu);
        if (!lost.isEmpty()) {
            CpuSet alone = lost.and(CpuSet.ofStream(siblings.stream().filter(g -> g.size() == 1).mapToInt(CpuSet::first)));
            warnings.add(new TopologyWarning(0, TopologyValidation.OFFLINE_CPU_TOPOLOGY, "present CPUs " + lost.toList()
                    + " have no topology/ directory (x86 removes it when a CPU goes offline)"
                    + (packaged ? "; each is taken in the package of its node" : "")
                    + (alone.isEmpty() ? "" : "; CPUs " + alone.toList() + ", which no sibling list names, are taken as their own SMT siblings")));
        }
        clusters(d, topo, possible);

        TopoDocument doc = d.build(mode);
        if (warnings.isEmpty()) return doc;
        List<TopologyWarning> all = new ArrayList<>(doc.warnings());
        all.addAll(warnings);
        return new TopoDocument(doc.topology(), doc.notes(), doc.expect(), all);
    }

    /** The directory holding {@code cpu/} and {@code node/}: the snapshot itself or its devices/system. */
    private static Path root(Path dir) {
        if (!Files.isDirectory(dir))
            throw new InvalidTopologyException(dir.toString(), "not a directory; expected a copy of /sys/devices/system: " + TAKE);
        for (Path root : List.of(dir, dir.resolve("devices/system"), dir.resolve("sys/devices/system")))
            if (Files.isDirectory(root.resolve("cpu")) && Files.isDirectory(root.resolve("node"))) return root;
        throw new InvalidTopologyException(dir.toString(), "no cpu/ and node/ directories (nor devices/system/cpu and devices/system/node);"
                + " expected a copy of /sys/devices/system: " + TAKE);
    }

    private static String nameOf(Path dir) {
        Path base = dir.toAbsolutePath().normalize().getFileName();
        String n = base == null ? "" : base.toString().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
        return n.isEmpty() ? "sysfs" : n;
    }

    /** has_cpu, when the kernel filled it, must name the nodes with online CPUs (old dumps leave it empty). */
    private static void hasCpu(Path node, TreeMap<Integer, CpuSet> onlineOfNode) {
        Path f = node.resolve("has_cpu");
        Optional<NodeMask> hasCpu = optionalNodeList(f);
        if (hasCpu.isEmpty() || hasCpu.get().isEmpty()) return;
        NodeMask withCpus = NodeMask.ofStream(onlineOfNode.entrySet().stream().filter(e -> !e.getValue().isEmpty()).mapToInt(Map.Entry::getKey));
        if (!hasCpu.get().equals(withCpus))
            throw new InvalidTopologyException(f.toString(), "lists nodes " + hasCpu.get().toList() + "; expected the nodes whose cpulist is not empty ("
                    + withCpus.toList() + "): was the snapshot taken during CPU hotplug? take it again");
    }

    /**
     * SMT sibling groups of the possible CPUs: from thread_siblings_list (core_cpus_list on newer
     * kernels name the same mask); a CPU without topology/ joins a group that lists it, else
     * stands alone, as an unlisted CPU does in a .topo {@code siblings} line.
     */
    private static List<CpuSet> siblings(TreeMap<Integer, Path> topo, CpuSet possible) {
        TreeMap<Integer, CpuSet> groupOf = new TreeMap<>();
        TreeMap<Integer, Path> saidBy = new TreeMap<>();
        for (Map.Entry<Integer, Path> e : topo.entrySet()) {
            Path f = e.getValue().resolve("thread_siblings_list");
            if (!Files.isRegularFile(f)) f = e.getValue().resolve("core_cpus_list");
            if (!Files.isRegularFile(f))
                throw new InvalidTopologyException(e.getValue().toString(), "no thread_siblings_list or core_cpus_list; expected the CPU's SMT siblings");
            CpuSet g = list(f).with(e.getKey());
            for (int c : g.toArray()) {
                CpuSet old = groupOf.get(c);
                if (old != null && !old.equals(g))
                    throw new InvalidTopologyException(f.toString(), "lists " + g.toList() + " but " + saidBy.get(c) + " lists " + old.toList()
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
    private static boolean packages(TopoDraft d, TreeMap<Integer, Path> topo, CpuSet lost, TreeMap<Integer, Integer> nodeOfCpu, Path cpu) {
        TreeMap<Integer, CpuSet.Builder> byId = new TreeMap<>();
        TreeMap<Integer, Integer> packageOfCpu = new TreeMap<>();
        for (Map.Entry<Integer, Path> e : topo.entrySet()) {
            Path f = e.getValue().resolve("physical_package_id");
            if (!Files.isRegularFile(f)) return false; // firmware gives no packages: leave them unknown, as a .topo without package lines
            int id;
            try {
                id = Integer.parseInt(text(f).strip());
            } catch (NumberFormatException x) {
                throw new InvalidTopologyException(f.toString(), "found '" + text(f).strip() + "'; expected a package id (a whole number, -1 when unknown)");
            }
            byId.computeIfAbsent(id, k -> CpuSet.builder()).add(e.getKey());
            packageOfCpu.put(e.getKey(), id);
        }
        if (byId.isEmpty()) return false;
        for (int c : lost.toArray()) {
            int node = nodeOfCpu.get(c);
            TreeSet<Integer> candidates = new TreeSet<>();
            nodeOfCpu.forEach((other, n) -> { if (n == node && packageOfCpu.containsKey(other)) candidates.add(packageOfCpu.get(other)); });
            if (candidates.size() != 1)
                throw new InvalidTopologyException(cpu.resolve("cpu" + c).toString(), "cpu " + c + " has no topology/ directory and its node "
                        + node + " spans packages " + candidates + "; expected its package: describe the machine in a .topo file with 'package ID cpus LIST' lines");
            byId.get(candidates.first()).add(c);
        }
        byId.forEach((id, b) -> d.pkg(id, b.build(), at(cpu)));
        return true;
    }

    /**
     * Clusters from cluster_cpus_list, when the kernel has them (5.16+); without them the draft
     * assumes each core its own cluster and says so (TOPO-12). A CPU without topology/ joins a
     * cluster that lists it, else stands alone, as it does for siblings (x86 lists online CPUs only).
     */
    private static void clusters(TopoDraft d, TreeMap<Integer, Path> topo, CpuSet possible) {
        TreeMap<Integer, CpuSet> groupOf = new TreeMap<>();
        TreeMap<CpuSet, Path> saidBy = new TreeMap<>();
        for (Map.Entry<Integer, Path> e : topo.entrySet()) {
            Path f = e.getValue().resolve("cluster_cpus_list");
            if (!Files.isRegularFile(f)) return;
            CpuSet g = list(f).with(e.getKey());
            saidBy.putIfAbsent(g, f);
            for (int c : g.toArray()) groupOf.putIfAbsent(c, g);
        }
        if (groupOf.isEmpty()) return;
        TreeSet<CpuSet> groups = new TreeSet<>(groupOf.values());
        for (int c : possible.toArray()) if (!groupOf.containsKey(c)) groups.add(CpuSet.of(c));
        // Overlapping lists (a cluster that differs from CPU to CPU) reach the draft, which names the file.
        for (CpuSet g : groups) d.cluster(g, saidBy.containsKey(g) ? at(saidBy.get(g)) : at(topo.firstEntry().getValue().getParent()));
    }

    // ------------------------------------------------------------------ files

    private static TreeMap<Integer, Path> numbered(Path dir, Pattern name) {
        TreeMap<Integer, Path> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> {
                Matcher m = name.matcher(p.getFileName().toString());
                if (m.matches()) out.put(Integer.parseInt(m.group(1)), p);
            });
        } catch (IOException e) {
            throw new InvalidTopologyException(dir.toString(), "cannot list the directory (" + e.getClass().getSimpleName() + "); expected a readable copy of sysfs");
        } catch (NumberFormatException e) {
            throw new InvalidTopologyException(dir.toString(), "an id that does not fit an int; expected cpuN and nodeN entries as the kernel names them");
        }
        return out;
    }

    private static String text(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidTopologyException(f.toString(), "cannot read the file (" + e.getClass().getSimpleName() + "); expected a readable copy of sysfs");
        }
    }

    private static CpuSet list(Path f) {
        try {
            return CpuSet.parseList(text(f));
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(f.toString(), e.getMessage());
        }
    }

    private static Optional<CpuSet> optionalList(Path f) {
        return Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(f) ? Optional.of(list(f)) : Optional.empty();
    }

    /** A node list file ({@code has_cpu}, {@code has_memory}), if the snapshot has it. */
    private static Optional<NodeMask> optionalNodeList(Path f) {
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(f)) return Optional.empty();
        try {
            return Optional.of(NodeMask.parseList(text(f)));
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(f.toString(), e.getMessage());
        }
    }

    private static SourcePosition at(Path p) {
        return SourcePosition.at(p.toString());
    }
}
