package dev.numaspread.conformance.audit;

import dev.numaspread.conformance.audit.KernelRunSnapshots.Mlx5Nic;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The archives of {@code fixtures/snapshots/} are what {@link KernelRunSnapshots} builds from the
 * kernel runs, byte for byte, so they cannot drift from the runs. Run with
 * {@code -Dnumaspread.writeSnapshots=true} to write them again after a change of the builder.
 */
class SnapshotFixturesTest {

    static final Path DIR = Path.of("..", "fixtures", "snapshots");

    /** Each fixture and how it is built: 5 nvme vectors and 3 null_blk queues, plus the hand-made mlx5 NIC. */
    static Map<String, MachineSnapshot> fixtures() {
        Map<String, MachineSnapshot> out = new LinkedHashMap<>();
        for (String run : new String[]{"a-2node-2s2c2t-linux-6.1-boot", "a-2node-2s2c2t-linux-6.12-boot",
                "c-epyc-4node-smt-split-linux-6.12-offline",
                "a-2node-2s2c2t-linux-7.3-boot"})
            out.put(run + ".tar", KernelRunSnapshots.build(run, 5, 3));
        out.put("a-2node-2s2c2t-linux-6.12-mlx5-moved.tar", KernelRunSnapshots.build("a-2node-2s2c2t-linux-6.12-boot", 5, 3,
                Optional.of(new Mlx5Nic(1, 8, Map.of(2, 0, 3, 0)))));
        // A cloud VM QEMU cannot emulate (spec/audit.md AUD-6): its NIC values by hand from spec/nic.md, its disk's masks the run's own.
        MachineSnapshot ena = CloudVmSnapshots.enaVm(Map.of(5, 2));
        out.put(ena.name(), ena);
        // A real QEMU guest (TCG): what 6.12 showed of virtio-net, virtio-blk and nvme (the device run of fixtures/kernel-runs).
        MachineSnapshot booted = BootedDeviceRuns.of("dev-a-2node-2s2c2t-linux-6.12-boot").snapshot();
        out.put(booted.name(), booted);
        return out;
    }

    @Test
    @Proves("FMT-15")
    void FMT_15_fixtureArchivesAreBuiltFromTheKernelRuns() throws IOException {
        boolean write = Boolean.getBoolean("numaspread.writeSnapshots");
        for (Map.Entry<String, MachineSnapshot> f : fixtures().entrySet()) {
            Path p = DIR.resolve(f.getKey());
            Path fresh = Files.createTempFile("snapshot", ".tar");
            f.getValue().write(fresh);
            if (write) Files.copy(fresh, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertTrue(Files.exists(p) && Arrays.equals(Files.readAllBytes(fresh), Files.readAllBytes(p)),
                    p + " is not what KernelRunSnapshots builds; run this test with -Dnumaspread.writeSnapshots=true and commit the result");
            Files.delete(fresh);
        }
    }
}
