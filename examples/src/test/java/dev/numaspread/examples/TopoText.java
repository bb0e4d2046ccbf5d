package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.DistanceTable;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * A small reader for the {@code .topo} texts the tests use (the numactl-like subset the kernel runs
 * and the seed machines need): possible/present/online, {@code smt none} or {@code smt W adjacent}, {@code siblings},
 * {@code cluster cpus LIST}, {@code node N cpus:}, {@code node N size:}, {@code node-of}, {@code node distances:}
 * ({@code package} lines are passed over). The example
 * keeps its own reader so that its tests do not lean on the project's parser either; the kernel
 * runs' machines as a whole come through the kit's reader ({@code KernelRuns}), as its certification
 * replays them.
 */
final class TopoText {
    private TopoText() {}

    static Topology read(Path file) throws IOException {
        return parse(Files.readString(file), file.getFileName().toString());
    }

    static Topology parse(String text, String fileName) {
        String name = fileName;
        String source = fileName;
        CpuSet possible = null;
        CpuSet present = null;
        CpuSet online = null;
        List<CpuSet> siblings = new ArrayList<>();
        List<CpuSet> clusters = new ArrayList<>();
        TreeMap<Integer, CpuSet> nodeCpus = new TreeMap<>();
        TreeMap<Integer, Long> nodeSize = new TreeMap<>();
        List<int[]> rows = new ArrayList<>();
        List<Integer> header = new ArrayList<>();
        boolean inDistances = false;
        String[] lines = text.split("\n");
        for (int ln = 0; ln < lines.length; ln++) {
            String line = lines[ln].replaceAll("#.*", "").strip();
            String where = fileName + ":" + (ln + 1);
            if (line.isEmpty()) continue;
            String[] w = line.split("\\s+");
            if (inDistances) {
                if (w[0].equals("node")) {
                    for (int i = 1; i < w.length; i++) header.add(Integer.parseInt(w[i]));
                    continue;
                }
                if (w[0].endsWith(":")) {
                    int[] row = new int[w.length - 1];
                    for (int i = 1; i < w.length; i++) row[i - 1] = Integer.parseInt(w[i]);
                    rows.add(row);
                    continue;
                }
                inDistances = false;
            }
            switch (w[0]) {
                case "topology" -> name = w[1];
                case "source" -> source = line.substring("source".length()).strip();
                case "possible" -> possible = CpuSet.parseList(w[1]);
                case "present" -> present = CpuSet.parseList(w[1]);
                case "online" -> online = CpuSet.parseList(w[1]);
                case "smt" -> {
                    // "smt none", or "smt W adjacent" as numaspread kernel run writes it: threads of a core numbered next to each other.
                    if (w[1].equals("none")) continue;
                    if (w.length != 3 || !w[2].equals("adjacent") || possible == null)
                        throw new IllegalArgumentException(where + ": smt '" + line + "'; expected none, or W adjacent after possible");
                    int width = Integer.parseInt(w[1]);
                    int[] cpus = possible.toArray();
                    for (int i = 0; i < cpus.length; i += width)
                        siblings.add(CpuSet.of(Arrays.copyOfRange(cpus, i, Math.min(i + width, cpus.length))));
                }
                case "siblings" -> {
                    for (int i = 1; i < w.length; i++) siblings.add(CpuSet.parseList(w[i]));
                }
                case "cluster" -> {
                    if (w.length != 3 || !w[1].equals("cpus"))
                        throw new IllegalArgumentException(where + ": '" + line + "'; expected cluster cpus LIST");
                    clusters.add(CpuSet.parseList(w[2]));
                }
                // Packages matter only with a CPU model a hook tests (TOPO-16), which this reader does not take.
                case "available:", "numactl:", "package" -> { }
                case "node-of" -> {
                    int node = Integer.parseInt(w[2]);
                    nodeCpus.merge(node, CpuSet.parseList(w[1]), CpuSet::or);
                }
                case "node" -> {
                    if (w[1].equals("distances:")) {
                        inDistances = true;
                    } else if (w[2].equals("cpus:")) {
                        String list = line.substring(line.indexOf("cpus:") + 5);
                        nodeCpus.merge(Integer.parseInt(w[1]), CpuSet.parseList(list), CpuSet::or);
                    } else if (w[2].equals("size:")) {
                        nodeSize.put(Integer.parseInt(w[1]), Long.parseLong(w[3]));
                    } else {
                        throw new IllegalArgumentException(where + ": '" + line + "'; expected node N cpus: or node N size:");
                    }
                }
                default -> throw new IllegalArgumentException(where + ": unknown directive '" + w[0] + "'");
            }
        }
        List<Node> nodes = new ArrayList<>();
        for (int id : header) {
            long size = nodeSize.getOrDefault(id, -1L);
            nodes.add(new Node(id, nodeCpus.getOrDefault(id, CpuSet.EMPTY), size != 0, size));
        }
        int[] ids = header.stream().mapToInt(Integer::intValue).toArray();
        CpuSet all = CpuSet.EMPTY;
        for (CpuSet s : nodeCpus.values()) all = all.or(s);
        if (online == null) online = all;
        if (present == null) present = all;
        if (possible == null) possible = present;
        return new Topology(name, source, possible, present, online, nodes,
                DistanceTable.of(ids, rows.toArray(new int[0][])), siblings, List.of(), clusters);
    }
}
