package dev.numaspread.model.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
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
 * 6.1, 6.12 and 7.3 kernels returned, the machines read with {@code TopoFormat}.
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

    static Topology readTopo(Path file) {
        return TopoFormat.read(file).topology();
    }

    static List<String> lists(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
