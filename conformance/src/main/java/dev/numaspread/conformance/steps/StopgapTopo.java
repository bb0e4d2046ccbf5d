package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.DistanceTable;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A stopgap reader for the {@code .topo} directives the grouping features use (possible, present,
 * online, siblings, node N cpus/size, node-of, node distances). To be replaced by
 * {@code TopoFormat.read(text, name)} (formats engineer) when that lands; no line positions in errors.
 */
final class StopgapTopo {
    private StopgapTopo() {}

    static Topology read(String text, String name) {
        List<String> lines = text.lines().toList();
        CpuSet possible = null, present = null, online = null;
        List<CpuSet> siblings = new ArrayList<>();
        TreeMap<Integer, CpuSet> nodeCpus = new TreeMap<>();
        TreeMap<Integer, Long> nodeSize = new TreeMap<>();
        List<int[]> rows = new ArrayList<>();
        boolean inDistances = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            String[] w = line.split("\\s+");
            if (line.isEmpty()) continue;
            if (inDistances && w[0].endsWith(":")) {
                int[] row = new int[w.length - 1];
                for (int k = 1; k < w.length; k++) row[k - 1] = Integer.parseInt(w[k]);
                rows.add(row);
                continue;
            }
            inDistances = false;
            switch (w[0]) {
                case "possible" -> possible = CpuSet.parseList(w[1]);
                case "present" -> present = CpuSet.parseList(w[1]);
                case "online" -> online = CpuSet.parseList(w[1]);
                case "siblings" -> { for (int k = 1; k < w.length; k++) siblings.add(CpuSet.parseList(w[k])); }
                case "node-of" -> nodeCpus.merge(Integer.parseInt(w[2]), CpuSet.of(Integer.parseInt(w[1])), CpuSet::or);
                case "node" -> {
                    if (w[1].equals("distances:")) { inDistances = true; i++; continue; }
                    int id = Integer.parseInt(w[1]);
                    if (w[2].equals("cpus:")) {
                        CpuSet.Builder b = CpuSet.builder();
                        for (int k = 3; k < w.length; k++) b.add(Integer.parseInt(w[k]));
                        nodeCpus.merge(id, b.build(), CpuSet::or);
                    } else if (w[2].equals("size:")) {
                        nodeSize.put(id, Long.parseLong(w[3]));
                    }
                }
                default -> { }
            }
        }
        CpuSet all = CpuSet.EMPTY;
        for (CpuSet c : nodeCpus.values()) all = all.or(c);
        if (possible == null) possible = all;
        if (present == null) present = possible;
        if (online == null) online = present;
        if (rows.isEmpty())
            for (int i = 0; i < nodeCpus.size(); i++) {
                int[] row = new int[nodeCpus.size()];
                for (int j = 0; j < row.length; j++) row[j] = i == j ? 10 : 20;
                rows.add(row);
            }
        List<Node> nodes = new ArrayList<>();
        for (var e : nodeCpus.entrySet()) {
            long size = nodeSize.getOrDefault(e.getKey(), -1L);
            nodes.add(new Node(e.getKey(), e.getValue(), size != 0, size));
        }
        int[] ids = nodeCpus.keySet().stream().mapToInt(Integer::intValue).toArray();
        return new Topology(name, "feature doc string", possible, present, online, nodes,
                DistanceTable.of(ids, rows.toArray(new int[0][])), siblings, List.of(), List.of());
    }
}
