package dev.numaspread.cli;

import dev.numaspread.conformance.rules.Proves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code numaspread snapshot} and {@code numaspread audit} on the snapshots of fixtures/snapshots/ (README "Audit a machine"). */
class AuditCommandTest {

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    static final Path SNAPSHOTS = Path.of("..", "fixtures", "snapshots");

    @Test
    @Proves("AUD-2")
    void AUD_2_kernelRunMatchesItsRelease() {
        Run r = run("audit", SNAPSHOTS.resolve("a-2node-2s2c2t-linux-6.12-boot.tar").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("kernel    Linux 6.12.117+deb12-amd64, audited as 6.12\n"), r.out());
        assertTrue(r.out().contains("MATCH         nullb0                 blk-mq-map          node -1  3 queues\n"), r.out());
        assertTrue(r.out().endsWith("\nevery device matches Linux 6.12\n"), r.out());
    }

    @Test
    @Proves({"AUD-2", "AUD-4"})
    void AUD_4_oldRunAuditedAsNewDiffersAndIdentifies() {
        Run r = run("audit", SNAPSHOTS.resolve("a-2node-2s2c2t-linux-6.1-boot.tar").toString(), "--kernel", "6.12", "--identify");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("DIFFERS       nullb0                 blk-mq-map          node -1  3 queues\n"
                + "              queue 0: expected 4-7, actual 0,4-5\n"), r.out());
        assertTrue(r.out().contains("  every device           6.1\nthe machine runs 6.1, which is among them\n"), r.out());
    }

    @Test
    @Proves("AUD-3")
    void AUD_3_movedIrqsOfTheHandMadeSnapshot() {
        Run r = run("audit", SNAPSHOTS.resolve("a-2node-2s2c2t-linux-6.12-mlx5-moved.tar").toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("  moved              IRQ 62 (mlx5_comp2@pci:0000:08:00.0): affinity 0 is not the driver's hint 6"), r.out());
    }

    @Test
    @Proves({"FMT-15", "AUD-2"})
    void FMT_15_snapshotThenAuditTheCopiedTree(@TempDir Path tmp) throws Exception {
        Path root = tmp.resolve("root");
        for (String[] f : new String[][]{{"sys/devices/system/cpu/possible", "0-1"}, {"sys/devices/system/cpu/online", "0-1"},
                {"sys/devices/system/node/node0/cpulist", "0-1"}, {"sys/devices/system/node/node0/distance", "10"},
                {"proc/sys/kernel/osrelease", "6.12.5-test"},
                {"proc/interrupts", "      CPU0 CPU1\n 35:  0  1  PCI-MSIX-0000:00:02.0   0-edge  virtio1-config\n"
                        + " 36:  0  9  PCI-MSIX-0000:00:02.0   1-edge  virtio1-req.0\n"},
                {"proc/irq/35/smp_affinity_list", "0-1"}, {"proc/irq/36/smp_affinity_list", "0-1"},
                {"sys/block/vda/mq/0/cpu_list", "0, 1"}}) {
            Path p = root.resolve(f[0]);
            Files.createDirectories(p.getParent());
            Files.writeString(p, f[1] + "\n");
        }
        Path tar = tmp.resolve("vm.tar");
        Run s = run("snapshot", tar.toString(), "--root", root.toString());
        assertEquals(0, s.code(), s.err());
        assertEquals(tar + ": 9 files\n", s.out());
        Run a = run("audit", tar.toString());
        assertEquals(0, a.code(), a.err());
        assertTrue(a.out().contains("MATCH         virtio1                irq-affinity-masks  node -1  2 IRQs 35-36\n"), a.out());
        assertTrue(a.out().contains("MATCH         vda                    irq-affinity-masks  node -1  1 queue\n"), a.out());
        Run live = run("audit", "--live", "--root", root.toString());
        assertEquals(a.out().replace("snapshot  " + tar, "snapshot  this machine (" + root + ")"), live.out());
        Run check = run("check-topology", tar.toString());
        assertEquals(0, check.code(), check.err());
        assertTrue(check.out().startsWith("vm: valid (strict mode)\n"), check.out());
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_badSnapshotExitsOneNamingTheFile(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("bad.tar");
        Files.writeString(bad, "");
        Run r = run("audit", bad.toString());
        assertEquals(1, r.code());
        assertEquals("numaspread audit: " + bad + ":byte 0: an empty file; expected a tar archive written by 'numaspread snapshot'\n", r.err());
    }

    @Test
    void unknownReleaseWithoutKernelIsAUsageError() {
        Run r = run("audit", SNAPSHOTS.resolve("a-2node-2s2c2t-linux-6.12-boot.tar").toString(), "--kernel", "9.9");
        assertEquals(2, r.code());
        assertEquals("numaspread audit: --kernel: kernel release '9.9' is not modelled yet; expected 4.1 to " + dev.numaspread.model.kernel.KernelRelease.NEWEST + " (the newest modelled release is " + dev.numaspread.model.kernel.KernelRelease.NEWEST + ")\n", r.err());
    }

    /** Found by the second campaign (issue 25): an OSC sequence in osrelease retitled the terminal. */
    @Test
    @Proves("FMT-19")
    void FMT_19_textOfASnapshotIsEscaped(@TempDir Path tmp) throws Exception {
        dev.numaspread.conformance.snapshot.MachineSnapshot s = dev.numaspread.conformance.snapshot.MachineSnapshot.read(
                SNAPSHOTS.resolve("a-2node-2s2c2t-linux-6.12-boot.tar"));
        java.util.List<dev.numaspread.conformance.snapshot.Tar.Entry> e = new java.util.ArrayList<>(s.entries());
        e.removeIf(x -> x.path().equals("proc/sys/kernel/osrelease"));
        e.add(new dev.numaspread.conformance.snapshot.Tar.File("proc/sys/kernel/osrelease",
                "6.12.1\u001b]0;pwned\u0007\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        Path tar = tmp.resolve("evil.tar");
        dev.numaspread.conformance.snapshot.MachineSnapshot.of("evil", e).write(tar);
        Run r = run("audit", tar.toString());
        assertTrue(r.out().contains("kernel    Linux 6.12.1\\x1b]0;pwned\\x07, audited as 6.12\n"), r.out());
        assertTrue(r.out().chars().noneMatch(c -> c == 0x1b || c == 7), r.out());
    }
}
