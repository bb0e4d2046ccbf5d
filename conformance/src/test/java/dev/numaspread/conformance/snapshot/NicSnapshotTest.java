package dev.numaspread.conformance.snapshot;

import dev.numaspread.conformance.rules.Proves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a snapshot keeps of a NIC (spec/formats.md FMT-15, for spec/audit.md AUD-6): its PCI
 * device's {@code driver} link, and its interface's link with each transmit queue's
 * {@code xps_cpus}, laid out as on a machine (class links into {@code sys/devices}).
 */
class NicSnapshotTest {

    @TempDir
    Path tmp;

    private static void write(Path root, String file, String content) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private static void link(Path root, String file, String target) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.createSymbolicLink(p, Path.of(target));
    }

    @Test
    @Proves("FMT-15")
    void FMT_15_captureKeepsTheDriverLinkAndTheXpsMaps() throws IOException {
        Path r = tmp.resolve("root");
        String dev = "sys/devices/pci0000:00/0000:41:00.0";
        write(r, dev + "/numa_node", "1\n");
        write(r, dev + "/msi_irqs/80", "msix\n");
        write(r, dev + "/net/ens2f0np0/queues/tx-0/xps_cpus", "0f\n");
        write(r, dev + "/net/ens2f0np0/queues/tx-1/xps_cpus", "f0\n");
        write(r, dev + "/net/ens2f0np0/queues/rx-0/rps_cpus", "00\n");                  // not what numaspread reads
        write(r, "sys/bus/pci/drivers/bnxt_en/bind", "");
        link(r, dev + "/driver", "../../../bus/pci/drivers/bnxt_en");
        link(r, "sys/bus/pci/devices/0000:41:00.0", "../../../devices/pci0000:00/0000:41:00.0");
        link(r, "sys/class/net/ens2f0np0", "../../devices/pci0000:00/0000:41:00.0/net/ens2f0np0");
        MachineSnapshot s = MachineSnapshot.capture(r);
        assertEquals(Optional.of("../../../bus/pci/drivers/bnxt_en"), s.linkTarget("sys/bus/pci/devices/0000:41:00.0/driver"));
        assertEquals(Optional.of("../../devices/pci0000:00/0000:41:00.0/net/ens2f0np0"), s.linkTarget("sys/class/net/ens2f0np0"));
        assertEquals(Optional.of("0f\n"), s.text("sys/class/net/ens2f0np0/queues/tx-0/xps_cpus"));
        assertEquals(Optional.of("f0\n"), s.text("sys/class/net/ens2f0np0/queues/tx-1/xps_cpus"));
        assertEquals(Optional.empty(), s.text("sys/class/net/ens2f0np0/queues/rx-0/rps_cpus"));
        assertEquals(Optional.of("1\n"), s.text("sys/bus/pci/devices/0000:41:00.0/numa_node"));
    }

    @Test
    @Proves({"FMT-15", "AUD-8"})
    void FMT_15_captureKeepsNvmesQueueParameters() throws IOException {
        Path r = tmp.resolve("root");
        write(r, "sys/module/nvme/parameters/write_queues", "2\n");
        write(r, "sys/module/nvme/parameters/poll_queues", "1\n");
        write(r, "sys/module/nvme/parameters/io_queue_depth", "1024\n");       // not what numaspread reads
        MachineSnapshot s = MachineSnapshot.capture(r);
        assertEquals(Optional.of("2\n"), s.text("sys/module/nvme/parameters/write_queues"));
        assertEquals(Optional.of("1\n"), s.text("sys/module/nvme/parameters/poll_queues"));
        assertEquals(Optional.empty(), s.text("sys/module/nvme/parameters/io_queue_depth"));
    }
}
