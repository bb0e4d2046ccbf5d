package dev.numaspread.model.numa;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One run of fixtures/kernel-runs: the machine of the {@code .topo} and what the kernel of the
 * {@code .json} returned. The {@code .topo} is read by {@link TopoFormat}.
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

    /** The machine of a kernel run's {@code .topo}, read by the formats' reader: errors name file and line. */
    static Topology readTopo(Path file) {
        return TopoFormat.read(file).topology();
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
