package dev.numaspread.model.numa;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One run of fixtures/kernel-runs: the machine of the {@code .topo} and what the kernel of the
 * {@code .json} returned. The {@code .topo} reader here is a minimal stand-in for the formats
 * engineer's TopoFormat (only the directives the kernel runs use); replace it once TopoFormat lands.
 */
public record KernelRun(String name, KernelRelease kernel, Topology machine, JsonNode results) {

    public static final Path DIR = Path.of("..", "fixtures", "kernel-runs");

    /** Every run of fixtures/kernel-runs, by file name. */
    public static List<KernelRun> all() {
        try (Stream<Path> files = Files.list(DIR)) {
            List<KernelRun> out = new ArrayList<>();
            for (Path json : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) out.add(read(json));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static KernelRun read(Path json) throws IOException {
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        String base = json.getFileName().toString().replaceFirst("\\.json$", "");
        Topology machine = readTopo(DIR.resolve(base + ".topo"));
        return new KernelRun(base, KernelRelease.parse(root.get("kernel").asText()), machine, root.get("results"));
    }

    static Topology readTopo(Path file) throws IOException {
        TopologyBuilder b = TopologyBuilder.machine(file.getFileName().toString());
        TreeMap<Integer, CpuSet> cpus = new TreeMap<>();
        TreeMap<Integer, Boolean> memory = new TreeMap<>();
        List<int[]> rows = new ArrayList<>();
        List<String> siblings = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        boolean inTable = false;
        for (String raw : lines) {
            String line = raw.strip();
            String[] w = line.split("\\s+");
            if (line.isEmpty()) continue;
            if (inTable) {
                if (w[0].endsWith(":")) {
                    int[] row = new int[w.length - 1];
                    for (int k = 1; k < w.length; k++) row[k - 1] = Integer.parseInt(w[k]);
                    rows.add(row);
                }
                continue;
            }
            switch (w[0]) {
                case "possible" -> b.possible(w[1]);
                case "present" -> b.present(w[1]);
                case "online" -> b.online(w[1]);
                case "siblings" -> { for (int k = 1; k < w.length; k++) siblings.add(w[k]); }
                case "node-of" -> cpus.merge(Integer.parseInt(w[2]), CpuSet.of(Integer.parseInt(w[1])), CpuSet::or);
                case "node" -> {
                    if (w[1].equals("distances:")) { inTable = true; continue; }
                    int id = Integer.parseInt(w[1]);
                    if (w[2].equals("cpus:")) {
                        String list = line.substring(line.indexOf("cpus:") + 5);
                        cpus.merge(id, CpuSet.parseList(list), CpuSet::or);
                    } else if (w[2].equals("size:")) {
                        memory.put(id, Long.parseLong(w[3]) > 0);
                    }
                }
                default -> { }
            }
        }
        for (var e : cpus.entrySet()) {
            if (memory.getOrDefault(e.getKey(), true)) b.node(e.getKey(), e.getValue());
            else b.memorylessNode(e.getKey(), e.getValue().toList());
        }
        b.distances(rows.toArray(int[][]::new));
        if (!siblings.isEmpty()) b.siblings(siblings.toArray(String[]::new));
        return b.build();
    }

    /** The release the model is asked for: 6.1.0-57 is 6.1, 6.12.117 is 6.12. */
    public KernelRelease release() {
        return kernel;
    }

    /** Nodes are named by their id (or -1) in the JSON. */
    public static int nodeKey(String key) {
        return Integer.parseInt(key);
    }

    static List<Node> nodes(Topology m) {
        return m.nodes();
    }
}
