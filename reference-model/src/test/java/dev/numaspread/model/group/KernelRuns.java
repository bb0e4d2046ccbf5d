package dev.numaspread.model.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.DistanceTable;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The kernel-run fixtures ({@code fixtures/kernel-runs/NAME.topo} + {@code NAME.json}): what real
 * 6.1 and 6.12 kernels returned. Reads only the {@code .topo} directives those files use; the full
 * reader is {@code TopoFormat} (formats engineer), which replaces this one when it lands.
 */
record KernelRuns(String name, KernelRelease kernel, Topology machine, JsonNode results) {

    static final Path DIR = locate();

    private static Path locate() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("fixtures/kernel-runs"))) p = p.getParent();
        if (p == null) throw new IllegalStateException("fixtures/kernel-runs not found above " + Path.of("").toAbsolutePath());
        return p.resolve("fixtures/kernel-runs");
    }

    static List<KernelRuns> all() {
        try (Stream<Path> files = Files.list(DIR)) {
            List<KernelRuns> out = new ArrayList<>();
            for (Path json : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = json.getFileName().toString().replaceFirst("\\.json$", "");
                JsonNode root = new ObjectMapper().readTree(json.toFile());
                Topology machine = readTopo(DIR.resolve(name + ".topo"));
                out.add(new KernelRuns(name, KernelRelease.parse(root.get("kernel").asText()), machine, root.get("results")));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Topology readTopo(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
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
        List<Node> nodes = new ArrayList<>();
        for (var e : nodeCpus.entrySet()) {
            long size = nodeSize.getOrDefault(e.getKey(), -1L);
            nodes.add(new Node(e.getKey(), e.getValue(), size != 0, size));
        }
        int[] ids = nodeCpus.keySet().stream().mapToInt(Integer::intValue).toArray();
        return new Topology(file.getFileName().toString(), "kernel run", possible, present, online, nodes,
                DistanceTable.of(ids, rows.toArray(new int[0][])), siblings, List.of(), List.of());
    }

    static List<String> lists(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
