package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code .topo} text form of a machine: {@code numactl -H} plus a few directives
 * (research/topology-anchors.md §6a).
 *
 * <p>STUB written by the certifier engineer so the certifier and the {@code plan} command compile
 * before the formats engineer's reader lands; it reads the subset the kernel runs use
 * ({@code topology, source, note, possible, present, online, smt, siblings, package, cluster,
 * node-of, memless} and the numactl lines) and writes the same subset. The formats engineer's
 * version replaces this file on merge.
 */
public final class TopoFormat {
    private TopoFormat() {}

    private static final Pattern AVAILABLE = Pattern.compile("available:\\s*\\d+\\s+nodes?\\s*\\((.*)\\)");
    private static final Pattern NODE_CPUS = Pattern.compile("node\\s+(\\d+)\\s+cpus:(.*)");
    private static final Pattern NODE_SIZE = Pattern.compile("node\\s+(\\d+)\\s+size:\\s*(\\d+)\\s*MB");
    private static final Pattern NODE_FREE = Pattern.compile("node\\s+(\\d+)\\s+free:.*");
    private static final Pattern HEADER = Pattern.compile("node(\\s+\\d+)+");
    private static final Pattern ROW = Pattern.compile("(\\d+):((\\s+\\d+)+)");

    /** The machine described by the file at {@code path}. */
    public static Topology read(Path path) {
        try {
            return read(Files.readString(path, StandardCharsets.UTF_8), path.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * The machine described by {@code text}; {@code fileName} prefixes every error.
     *
     * @throws IllegalArgumentException {@code file:line: found ...; expected ...}
     */
    public static Topology read(String text, String fileName) {
        String name = fileName.replaceAll(".*/", "").replaceAll("\\.topo$", "");
        String source = fileName;
        CpuSet possible = null, present = null, online = null;
        Map<Integer, CpuSet> nodeCpus = new TreeMap<>();
        Map<Integer, Long> sizes = new TreeMap<>();
        Map<Integer, CpuSet> nodeOf = new TreeMap<>();
        List<Integer> memless = new ArrayList<>();
        List<Integer> order = new ArrayList<>();
        Map<Integer, int[]> rows = new TreeMap<>();
        List<CpuSet> siblings = new ArrayList<>();
        int smtWidth = 1, smtStride = 0;
        boolean smtAdjacent = false;
        List<CpuPackage> packages = new ArrayList<>();
        List<CpuSet> clusters = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String where = fileName + ":" + (n + 1) + ": ";
            String line = lines[n];
            int hash = line.indexOf('#');
            if (hash >= 0) line = line.substring(0, hash);
            line = line.strip();
            if (line.isEmpty()) continue;
            try {
                String[] w = line.split("\\s+", 2);
                String rest = w.length > 1 ? w[1].strip() : "";
                Matcher m;
                switch (w[0]) {
                    case "topology" -> name = rest;
                    case "source" -> source = rest;
                    case "note", "expect", "isolated", "llc", "die", "numactl:" -> { }
                    case "possible" -> possible = CpuSet.parseList(rest);
                    case "present" -> present = CpuSet.parseList(rest);
                    case "online" -> online = CpuSet.parseList(rest);
                    case "memless" -> { for (int id : CpuSet.parseList(rest).toArray()) memless.add(id); }
                    case "node-of" -> {
                        String[] p = rest.split("\\s+");
                        nodeOf.put(Integer.parseInt(p[p.length - 1]),
                                CpuSet.parseList(rest.substring(0, rest.lastIndexOf(' '))));
                    }
                    case "smt" -> {
                        String[] p = rest.split("\\s+");
                        if (p[0].equals("none")) smtWidth = 1;
                        else {
                            smtWidth = Integer.parseInt(p[0]);
                            if (p[1].equals("adjacent")) smtAdjacent = true;
                            else smtStride = Integer.parseInt(p[2]);
                        }
                    }
                    case "siblings" -> { for (String g : rest.split("\\s+")) siblings.add(CpuSet.parseList(g)); }
                    case "package" -> {
                        String[] p = rest.split("\\s+", 3);
                        packages.add(new CpuPackage(Integer.parseInt(p[0]), CpuSet.parseList(p[2])));
                    }
                    case "cluster" -> {
                        if (rest.startsWith("cpus")) clusters.add(CpuSet.parseList(rest.substring(4)));
                    }
                    case "available:" -> { }
                    case "No" -> { }
                    default -> {
                        if ((m = NODE_CPUS.matcher(line)).matches())
                            nodeCpus.put(Integer.parseInt(m.group(1)), CpuSet.parseList(m.group(2)));
                        else if ((m = NODE_SIZE.matcher(line)).matches())
                            sizes.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
                        else if (NODE_FREE.matcher(line).matches() || line.equals("node distances:")) { }
                        else if (HEADER.matcher(line).matches()) {
                            order.clear();
                            for (String id : line.substring(4).strip().split("\\s+")) order.add(Integer.parseInt(id));
                        } else if ((m = ROW.matcher(line)).matches()) {
                            String[] d = m.group(2).strip().split("\\s+");
                            int[] row = new int[d.length];
                            for (int k = 0; k < d.length; k++) row[k] = Integer.parseInt(d[k]);
                            rows.put(Integer.parseInt(m.group(1)), row);
                        } else
                            throw new IllegalArgumentException("found '" + line + "'; expected a .topo directive or a numactl -H line");
                    }
                }
                if (line.startsWith("available:") && !(m = AVAILABLE.matcher(line)).matches())
                    throw new IllegalArgumentException("found '" + line + "'; expected available: N nodes (LIST)");
                if (line.startsWith("available:")) {
                    m = AVAILABLE.matcher(line);
                    if (m.matches()) for (int id : CpuSet.parseList(m.group(1)).toArray()) nodeCpus.putIfAbsent(id, CpuSet.EMPTY);
                }
            } catch (RuntimeException e) {
                if (e.getMessage() != null && e.getMessage().startsWith(fileName)) throw e;
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
        }
        if (nodeCpus.isEmpty()) throw new IllegalArgumentException(fileName + ": no 'node N cpus:' line; expected numactl -H output");
        CpuSet union = CpuSet.EMPTY;
        for (CpuSet s : nodeCpus.values()) union = union.or(s);
        if (online == null) online = union;
        CpuSet extra = CpuSet.EMPTY;
        for (CpuSet s : nodeOf.values()) extra = extra.or(s);
        if (present == null) present = online.or(union).or(extra);
        if (possible == null) possible = present;
        List<Node> nodes = new ArrayList<>();
        for (Map.Entry<Integer, CpuSet> e : nodeCpus.entrySet()) {
            int id = e.getKey();
            CpuSet cpus = e.getValue().or(nodeOf.getOrDefault(id, CpuSet.EMPTY));
            long size = sizes.getOrDefault(id, -1L);
            nodes.add(new Node(id, cpus, !memless.contains(id) && size != 0, size));
        }
        int[] ids = nodeCpus.keySet().stream().mapToInt(Integer::intValue).toArray();
        DistanceTable table;
        if (rows.isEmpty()) table = DistanceTable.defaults(ids);
        else {
            int[][] matrix = new int[ids.length][];
            for (int k = 0; k < ids.length; k++) {
                int[] raw = rows.get(ids[k]);
                if (raw == null) throw new IllegalArgumentException(fileName + ": node " + ids[k] + " has no distance row");
                int[] row = new int[ids.length];
                for (int j = 0; j < ids.length; j++) row[j] = raw[order.isEmpty() ? j : order.indexOf(ids[j])];
                matrix[k] = row;
            }
            table = DistanceTable.of(ids, matrix);
        }
        if (siblings.isEmpty() && smtWidth > 1) {
            for (int c : possible.toArray()) {
                CpuSet.Builder g = CpuSet.builder();
                if (smtAdjacent) {
                    if (c % smtWidth != 0) continue;
                    for (int k = 0; k < smtWidth; k++) if (possible.contains(c + k)) g.add(c + k);
                } else {
                    if ((c / smtStride) % smtWidth != 0) continue;
                    for (int k = 0; k < smtWidth; k++) if (possible.contains(c + k * smtStride)) g.add(c + k * smtStride);
                }
                siblings.add(g.build());
            }
        }
        return new Topology(name, source, possible, present, online, nodes, table, siblings, packages, clusters);
    }

    /** The {@code .topo} text of {@code t}: directives, then the numactl lines; {@link #read} gives {@code t} back. */
    public static String write(Topology t) {
        StringBuilder sb = new StringBuilder();
        sb.append("topology ").append(t.name()).append('\n');
        if (!t.source().isEmpty()) sb.append("source ").append(t.source()).append('\n');
        sb.append("possible ").append(t.possible().toList()).append('\n');
        sb.append("present ").append(t.present().toList()).append('\n');
        sb.append("online ").append(t.online().toList()).append('\n');
        if (t.smtSiblings().stream().allMatch(g -> g.size() == 1)) sb.append("smt none\n");
        else {
            sb.append("siblings");
            for (CpuSet g : t.smtSiblings()) sb.append(' ').append(g.toList());
            sb.append('\n');
        }
        for (CpuPackage p : t.packages()) sb.append("package ").append(p.id()).append(" cpus ").append(p.cpus().toList()).append('\n');
        for (CpuSet c : t.clusters()) sb.append("cluster cpus ").append(c.toList()).append('\n');
        for (Node n : t.nodes()) {
            CpuSet notOnline = n.cpus().andNot(t.online());
            if (!notOnline.isEmpty()) sb.append("node-of ").append(notOnline.toList()).append(' ').append(n.id()).append('\n');
        }
        StringBuilder memless = new StringBuilder();
        for (Node n : t.nodes()) if (!n.hasMemory() && n.sizeMiB() != 0) memless.append(memless.length() == 0 ? "" : ",").append(n.id());
        if (memless.length() > 0) sb.append("memless ").append(memless).append('\n');
        int[] ids = t.nodeIds();
        sb.append("available: ").append(ids.length).append(" nodes (").append(CpuSet.of(ids).toList()).append(")\n");
        for (Node n : t.nodes()) {
            sb.append("node ").append(n.id()).append(" cpus:");
            for (int c : n.cpus().and(t.online()).toArray()) sb.append(' ').append(c);
            sb.append('\n');
            if (n.sizeMiB() >= 0) sb.append("node ").append(n.id()).append(" size: ").append(n.sizeMiB()).append(" MB\n");
            else if (!n.hasMemory()) sb.append("node ").append(n.id()).append(" size: 0 MB\n");
        }
        sb.append("node distances:\nnode");
        for (int id : ids) sb.append(String.format("%4d", id));
        sb.append('\n');
        for (int from : ids) {
            sb.append(String.format("%3d:", from));
            for (int to : ids) sb.append(String.format("%4d", t.distance(from, to)));
            sb.append('\n');
        }
        return sb.toString();
    }
}
