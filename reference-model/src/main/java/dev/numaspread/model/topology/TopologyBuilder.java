package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A convenient way to write a machine in code (tests, generators, features). Defaults: online =
 * union of the nodes' CPUs, present = online, possible = present, no SMT, distance 10/20.
 */
public final class TopologyBuilder {
    private String name = "unnamed";
    private String source = "built in code";
    private CpuSet possible;
    private CpuSet present;
    private CpuSet online;
    private final TreeMap<Integer, Node> nodes = new TreeMap<>();
    private int[][] distanceRows;
    private final List<CpuSet> siblings = new ArrayList<>();
    private final List<CpuPackage> packages = new ArrayList<>();
    private final List<CpuSet> clusters = new ArrayList<>();

    public static TopologyBuilder machine(String name) {
        TopologyBuilder b = new TopologyBuilder();
        b.name = name;
        return b;
    }

    public TopologyBuilder source(String s) { source = s; return this; }
    public TopologyBuilder node(int id, String cpuList) { return node(id, CpuSet.parseList(cpuList)); }
    public TopologyBuilder node(int id, CpuSet cpus) { nodes.put(id, Node.of(id, cpus)); return this; }
    public TopologyBuilder memorylessNode(int id, String cpuList) {
        nodes.put(id, new Node(id, CpuSet.parseList(cpuList), false, 0));
        return this;
    }
    public TopologyBuilder possible(String l) { possible = CpuSet.parseList(l); return this; }
    public TopologyBuilder present(String l) { present = CpuSet.parseList(l); return this; }
    public TopologyBuilder online(String l) { online = CpuSet.parseList(l); return this; }
    public TopologyBuilder online(CpuSet s) { online = s; return this; }
    /** Rows in ascending node id order. */
    public TopologyBuilder distances(int[]... rows) { distanceRows = rows; return this; }
    public TopologyBuilder siblings(String... cpuLists) {
        for (String l : cpuLists) siblings.add(CpuSet.parseList(l));
        return this;
    }
    /** SMT of width {@code w} with adjacent numbering: {@code 0-1, 2-3, ...} over the possible CPUs. */
    public TopologyBuilder smtAdjacent(int w) {
        smtAdjacent = w;
        return this;
    }
    private int smtAdjacent = 1;
    public TopologyBuilder pkg(int id, String cpuList) { packages.add(new CpuPackage(id, CpuSet.parseList(cpuList))); return this; }
    public TopologyBuilder cluster(String cpuList) { clusters.add(CpuSet.parseList(cpuList)); return this; }

    public Topology build() {
        CpuSet all = CpuSet.EMPTY;
        for (Node n : nodes.values()) all = all.or(n.cpus());
        CpuSet on = online != null ? online : all;
        CpuSet pres = present != null ? present : on.or(all);
        CpuSet poss = possible != null ? possible : pres;
        int[] ids = nodes.keySet().stream().mapToInt(Integer::intValue).toArray();
        DistanceTable table = distanceRows == null ? DistanceTable.defaults(ids) : DistanceTable.of(ids, distanceRows);
        List<CpuSet> sib = new ArrayList<>(siblings);
        if (sib.isEmpty() && smtAdjacent > 1) {
            int[] cpus = poss.toArray();
            for (int i = 0; i < cpus.length; i += smtAdjacent) {
                CpuSet.Builder g = CpuSet.builder();
                for (int k = i; k < Math.min(cpus.length, i + smtAdjacent); k++) g.add(cpus[k]);
                sib.add(g.build());
            }
        }
        return new Topology(name, source, poss, pres, on, List.copyOf(nodes.values()), table, sib, packages, clusters);
    }
}
