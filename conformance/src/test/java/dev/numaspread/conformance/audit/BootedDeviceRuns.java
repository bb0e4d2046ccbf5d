package dev.numaspread.conformance.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.conformance.snapshot.SysfsFiles;
import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The device runs of fixtures/kernel-runs (issue 27): real kernels booted by {@code numaspread
 * kernel run --virtio-net --virtio-blk --nvme [--nvme-write-queues --nvme-poll-queues]}, whose {@code results.devices} hold the device files
 * the guest showed, read back as snapshots: the run's machine in sysfs form
 * ({@link SysfsFiles}), its osrelease, and every device file and link as the guest gave it.
 */
final class BootedDeviceRuns {
    private BootedDeviceRuns() {}

    static final Path RUNS = Path.of("..", "fixtures", "kernel-runs");

    /** A run: its name, release, the devices it asked QEMU for ({@code results.devices.asked}) and its snapshot. */
    record Run(String name, KernelRelease kernel, JsonNode asked, MachineSnapshot snapshot) {
        int asked(String key) {
            return asked.path(key).asInt(0);
        }
    }

    /** Every run with {@code results.devices}, by name. */
    static List<Run> all() {
        try (Stream<Path> files = Files.list(RUNS)) {
            List<Run> out = new ArrayList<>();
            for (Path json : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                String name = json.getFileName().toString().replace(".json", "");
                JsonNode run = new ObjectMapper().readTree(json.toFile());
                if (!run.path("results").path("devices").isMissingNode()) out.add(run(name, run));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The run {@code name} as a snapshot archive named {@code NAME.tar}. */
    static Run of(String name) {
        try {
            return run(name, new ObjectMapper().readTree(RUNS.resolve(name + ".json").toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Run run(String name, JsonNode run) throws IOException {
        JsonNode devices = run.path("results").path("devices");
        Topology t = TopoFormat.read(RUNS.resolve(name + ".topo")).topology();
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(t));
        e.add(new Tar.File("proc/sys/kernel/osrelease", (run.get("kernel").asText() + "\n").getBytes(StandardCharsets.UTF_8)));
        for (Iterator<Map.Entry<String, JsonNode>> it = devices.path("files").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            e.add(new Tar.File(f.getKey(), f.getValue().asText().getBytes(StandardCharsets.UTF_8)));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = devices.path("links").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            e.add(new Tar.Link(f.getKey(), f.getValue().asText()));
        }
        return new Run(name, KernelRelease.modelled(run.get("kernel").asText()), devices.path("asked"), MachineSnapshot.of(name + ".tar", e));
    }
}
