package dev.numaspread.conformance.snapshot;

import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.topology.Arch;
import dev.numaspread.model.topology.CpuModel;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code numaspread snapshot} archives (spec/formats.md FMT-15): capture, write, read back, read as a topology. */
class MachineSnapshotTest {

    @TempDir
    Path tmp;

    private static void write(Path root, String file, String content) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    /**
     * A two-node machine laid out as on the machine itself: CPUs 0-3 on node 0, 4-7 on node 1, SMT
     * pairs, CPU 7 offline (x86: no topology/, a cpu7/node1 link), an nvme IRQ with its affinity
     * files, a null_blk device reached through its /sys/block link, and two things a real machine
     * refuses to give: a power/ file and an smp_affinity that cannot be read (here: directories where
     * the files belong, which fail to read as write-only sysfs attributes do).
     */
    private Path machine() throws IOException {
        Path r = tmp.resolve("root");
        String cpu = "sys/devices/system/cpu/", node = "sys/devices/system/node/";
        write(r, cpu + "possible", "0-7\n");
        write(r, cpu + "present", "0-7\n");
        write(r, cpu + "online", "0-6\n");
        write(r, cpu + "kernel_max", "8191\n");
        for (int c = 0; c < 8; c++) {
            write(r, cpu + "cpu" + c + "/online", c == 7 ? "0\n" : "1\n");
            Files.createSymbolicLink(r.resolve(cpu + "cpu" + c + "/node" + (c / 4)), Path.of("../../node/node" + (c / 4)));
            if (c == 7) continue;
            int sib = c ^ 1;
            write(r, cpu + "cpu" + c + "/topology/thread_siblings_list", sib == 7 ? c + "\n" : Math.min(c, sib) + "-" + Math.max(c, sib) + "\n");
            write(r, cpu + "cpu" + c + "/topology/physical_package_id", (c / 4) + "\n");
        }
        Files.createDirectories(r.resolve(cpu + "cpu0/power/pm_qos_resume_latency_us"));   // not captured at all
        for (int n = 0; n < 2; n++) {
            write(r, node + "node" + n + "/cpulist", n == 0 ? "0-3\n" : "4-6\n");
            write(r, node + "node" + n + "/distance", n == 0 ? "10 20\n" : "20 10\n");
            write(r, node + "node" + n + "/meminfo", "Node " + n + " MemTotal:       1048576 kB\n");
        }
        write(r, node + "possible", "0-1\n");
        write(r, node + "online", "0-1\n");
        write(r, node + "has_cpu", "0-1\n");
        write(r, "proc/interrupts", "           CPU0       CPU1\n 40:  1  2  PCI-MSI 524288-edge      nvme0q0\nNMI:  0  0  Non-maskable interrupts\n");
        write(r, "proc/sys/kernel/osrelease", "6.12.117+deb12-amd64\n");
        write(r, "proc/irq/40/smp_affinity_list", "0-7\n");
        write(r, "proc/irq/40/effective_affinity_list", "3\n");
        Files.createDirectories(r.resolve("proc/irq/24/smp_affinity"));                      // unreadable
        write(r, "proc/irq/24/smp_affinity_list", "0-7\n");
        write(r, "sys/devices/virtual/block/nullb0/mq/0/cpu_list", "0, 1, 2, 3, 4, 5, 6, 7\n");
        Files.createDirectories(r.resolve("sys/block"));
        Files.createSymbolicLink(r.resolve("sys/block/nullb0"), Path.of("../devices/virtual/block/nullb0"));
        Files.createDirectories(r.resolve("sys/class/block"));
        Files.createSymbolicLink(r.resolve("sys/class/block/nullb0"), Path.of("../../devices/virtual/block/nullb0"));
        return r;
    }

    @Test
    @Proves("FMT-15")
    void FMT_15_captureKeepsWhatTheToolReadsAndCountsWhatItCouldNot() throws IOException {
        MachineSnapshot s = MachineSnapshot.capture(machine());
        assertEquals(List.of("proc/irq/24/smp_affinity (Is a directory)"), s.skipped());
        assertEquals(Optional.of("0-7\n"), s.text("proc/irq/40/smp_affinity_list"));
        assertEquals(Optional.of("0, 1, 2, 3, 4, 5, 6, 7\n"), s.text("sys/block/nullb0/mq/0/cpu_list"));
        assertEquals(Optional.of("../../devices/virtual/block/nullb0"), s.linkTarget("sys/class/block/nullb0"));
        assertEquals(Optional.of("../../node/node1"), s.linkTarget("sys/devices/system/cpu/cpu7/node1"));
        assertEquals(Optional.of("6.12.117+deb12-amd64"), s.osrelease());
        assertTrue(s.entries().stream().noneMatch(e -> e.path().contains("power")), "power/ is not what numaspread reads");
    }

    /**
     * A Granite Rapids-X of two packages in SNC-3 as its file system shows it: nodes 0-2 hold CPUs
     * 0-2 (package 0), nodes 3-5 CPUs 3-5 (package 1), the SLIT of commit 528d89a4707e, and a
     * /proc/cpuinfo of six processors whose first says {@code vendor}, family 6, model {@code model}.
     */
    private Path sncMachine(String vendor, int model) throws IOException {
        Path r = tmp.resolve("snc-" + vendor + "-" + model);
        String cpu = "sys/devices/system/cpu/", node = "sys/devices/system/node/";
        int[][] slit = {{10, 15, 17, 21, 28, 26}, {15, 10, 15, 23, 26, 23}, {17, 15, 10, 26, 23, 21},
                {21, 28, 26, 10, 15, 17}, {23, 26, 23, 15, 10, 15}, {26, 23, 21, 17, 15, 10}};
        write(r, cpu + "possible", "0-5\n");
        write(r, cpu + "present", "0-5\n");
        write(r, cpu + "online", "0-5\n");
        StringBuilder cpuinfo = new StringBuilder();
        for (int c = 0; c < 6; c++) {
            write(r, cpu + "cpu" + c + "/topology/thread_siblings_list", c + "\n");
            write(r, cpu + "cpu" + c + "/topology/physical_package_id", (c / 3) + "\n");
            write(r, node + "node" + c + "/cpulist", c + "\n");
            StringBuilder row = new StringBuilder();
            for (int d : slit[c]) row.append(row.length() == 0 ? "" : " ").append(d);
            write(r, node + "node" + c + "/distance", row + "\n");
            cpuinfo.append("processor\t: ").append(c).append("\nvendor_id\t: ").append(vendor).append("\ncpu family\t: 6\nmodel\t\t: ")
                    .append(model).append("\nmodel name\t: a CPU\nflags\t\t: fpu vme de pse\n\n");
        }
        write(r, node + "online", "0-5\n");
        write(r, "proc/cpuinfo", cpuinfo.toString());
        return r;
    }

    @Test
    @Proves({"FMT-15", "TOPO-16"})
    void FMT_15_snapshotOfAnSncMachineKnowsItsCpuModel() throws IOException {
        MachineSnapshot s = MachineSnapshot.capture(sncMachine("GenuineIntel", 173));   // family 6 model 0xad
        // Only the first processor's block is kept: the model is all that is read of it.
        assertEquals(Optional.of("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 173\nmodel name\t: a CPU\n"
                + "flags\t\t: fpu vme de pse\n"), s.text("proc/cpuinfo"));
        Path tar = tmp.resolve("gnr.tar");
        s.write(tar);
        Topology m = TopologyFiles.read(tar).topology();
        assertEquals(CpuModel.INTEL_GRANITERAPIDS_X, m.cpuModel());
        assertEquals(3, m.numNodesPerPackage());
        // The scheduler's distance follows (LVL-8): the other package is one level at 434 / 18 = 24.
        assertArrayEquals(new int[]{10, 15, 17, 21, 23, 26, 28}, NumaLevels.of(KernelRelease.of(6, 18), m).distances());
        assertArrayEquals(new int[]{10, 15, 17, 24}, NumaLevels.of(KernelRelease.of(7, 3), m).distances());
        // Clearwater Forest-X is family 6 model 0xdd.
        assertEquals(CpuModel.INTEL_ATOM_DARKMONT_X, MachineSnapshot.capture(sncMachine("GenuineIntel", 221)).topology().topology().cpuModel());
    }

    /** An arm64 /proc/cpuinfo names the CPU implementer and architecture: the snapshot's machine is arm64 (TOPO-13). */
    @Test
    @Proves({"FMT-15", "TOPO-13"})
    void FMT_15_snapshotOfAnArm64MachineIsArm64() throws IOException {
        Path r = sncMachine("GenuineIntel", 173);
        write(r, "proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 200.00\nFeatures\t: fp asimd evtstrm\nCPU implementer\t: 0x48\n"
                + "CPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd01\nCPU revision\t: 0\n\n");
        Path tar = tmp.resolve("arm64.tar");
        MachineSnapshot.capture(r).write(tar);
        Topology m = TopologyFiles.read(tar).topology();
        assertEquals(Arch.ARM64, m.arch());
        assertEquals(CpuModel.OTHER, m.cpuModel());
        // x86's cpuinfo (and a copy without proc/) keeps the default.
        assertEquals(Arch.X86, MachineSnapshot.capture(sncMachine("AuthenticAMD", 1)).topology().topology().arch());
    }

    @Test
    @Proves({"FMT-15", "TOPO-16"})
    void FMT_15_otherCpusAndCopiesWithoutProcAreOther() throws IOException {
        assertEquals(CpuModel.OTHER, MachineSnapshot.capture(sncMachine("AuthenticAMD", 173)).topology().topology().cpuModel());
        assertEquals(CpuModel.OTHER, MachineSnapshot.capture(sncMachine("GenuineIntel", 143)).topology().topology().cpuModel());   // Sapphire Rapids
        // A copy of /sys/devices/system alone has no cpuinfo.
        Path sys = sncMachine("GenuineIntel", 173).resolve("sys/devices/system");
        assertEquals(CpuModel.OTHER, TopologyFiles.read(sys).topology().cpuModel());
    }

    @Test
    @Proves("FMT-15")
    void FMT_15_archiveReadsBackTheSameFilesAndSkips() throws IOException {
        MachineSnapshot s = MachineSnapshot.capture(machine());
        Path tar = tmp.resolve("snap.tar");
        s.write(tar);
        MachineSnapshot back = MachineSnapshot.read(tar);
        assertEquals(s.entries(), back.entries());
        assertEquals(s.skipped(), back.skipped());
        assertEquals(tar.toString(), back.name());
    }

    @Test
    @Proves({"FMT-15", "FMT-14"})
    void FMT_15_archiveIsATopologyForEveryCommand() throws IOException {
        Path tar = tmp.resolve("two-node.tar");
        MachineSnapshot.capture(machine()).write(tar);
        Topology m = TopologyFiles.read(tar).topology();
        assertEquals("two-node", m.name());
        assertEquals("numaspread snapshot " + tar, m.source());
        assertEquals("0-6", m.online().toList());
        assertEquals(1, m.nodeOf(7));
        assertEquals("4-6", m.onlineCpusOf(1).toList());
        assertEquals(20, m.distance(0, 1));
    }

    @Test
    @Proves("FMT-15")
    void FMT_15_kernelRunMachineSurvivesTheRoundTrip() {
        // Every file of a booted kernel run's machine, through an archive and back, is the same machine.
        Topology fixture = Fixtures.topology("c2-epyc-8node-nps4-smt-split-linux-6.12-boot");
        MachineSnapshot s = MachineSnapshot.of("c2.tar", SysfsFiles.of(fixture));
        assertTrue(s.topology().topology().sameMachineAs(fixture), "c2-epyc-8node through sysfs files");
    }

    @Test
    @Proves("FMT-15")
    void FMT_15_longPathsRoundTrip() throws IOException {
        String deep = "sys/bus/pci/devices/0000:00:01.0/" + "x".repeat(120) + "/msi_irqs/" + "9".repeat(90);
        String deeper = "sys/" + "y".repeat(300) + "/numa_node";
        List<Tar.Entry> in = List.of(new Tar.File(deep, "msix\n".getBytes(StandardCharsets.UTF_8)),
                new Tar.File(deeper, "-1\n".getBytes(StandardCharsets.UTF_8)),
                new Tar.Link("sys/class/block/nvme0n1", "../../devices/" + "z".repeat(150) + "/nvme0n1"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Tar.write(out, in);
        assertEquals(in, Tar.read("t.tar", out.toByteArray()));
    }

    @Test
    @Proves("FMT-15")
    void FMT_15_gnuTarOfACopiedTreeReads() throws Exception {
        // An archive that GNU tar made of a copied tree reads too (directories skipped, links kept).
        Path root = machine();
        Path tar = tmp.resolve("gnu.tar");
        Process p = new ProcessBuilder("tar", "-C", root.toString(), "-cf", tar.toString(), "sys/devices/system", "proc/interrupts")
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), log);
        MachineSnapshot s = MachineSnapshot.read(tar);
        assertEquals(Optional.of("0-6\n"), s.text("sys/devices/system/cpu/online"));
        assertEquals("0-6", s.topology().topology().online().toList());
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_notATarNamesTheFileAndByte() throws IOException {
        Path f = tmp.resolve("notes.tar");
        Files.writeString(f, "x".repeat(600));
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> MachineSnapshot.read(f));
        assertEquals(f + ":byte 0: a header field 'xxxxxxxx'; expected an octal number of at most 11 digits (is this a tar archive?)",
                e.getMessage());
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_truncatedArchiveNamesTheEntry() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Tar.write(out, List.of(new Tar.File("proc/interrupts", "x".repeat(1000).getBytes(StandardCharsets.UTF_8))));
        byte[] cut = java.util.Arrays.copyOf(out.toByteArray(), 1024);
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> Tar.read("cut.tar", cut));
        assertEquals("cut.tar:byte 0: entry 'proc/interrupts' of 1000 bytes runs past the end of the file (1024 bytes);"
                + " expected the whole archive (was the file cut short?)", e.getMessage());
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_gzippedArchiveIsNamedAsSuch() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(bytes)) {
            Tar.write(gz, List.of(new Tar.File("proc/interrupts", new byte[10])));
        }
        byte[] b = java.util.Arrays.copyOf(bytes.toByteArray(), 1024);
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> Tar.read("snap.tar.gz", b));
        assertTrue(e.getMessage().startsWith("snap.tar.gz:byte 0: "), e.getMessage());
    }

    /**
     * Found by the second campaign (issue 25): a header of size {@code -0000000001} gave the Java
     * message {@code len < 0}; a pax entry of 32 MiB of short records took 1.24 GB and 11 s.
     */
    @Test
    @Proves("AUD-5")
    void AUD_5_aNegativeSizeOrAHugePaxEntryIsRefusedOrReadWithinBounds() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Tar.write(out, List.of(new Tar.File("proc/interrupts", "CPU0\n".getBytes(StandardCharsets.UTF_8))));
        byte[] b = out.toByteArray();
        byte[] size = "-0000000001".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(size, 0, b, 124, size.length);
        int sum = 0;
        for (int i = 0; i < 512; i++) sum += (i >= 148 && i < 156) ? ' ' : b[i] & 0xff;
        System.arraycopy(String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII), 0, b, 148, 8);
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> Tar.read("neg.tar", b));
        assertEquals("neg.tar:byte 0: a header field '-0000000001'; expected an octal number of at most 11 digits (is this a tar archive?)",
                e.getMessage());

        // A pax entry of 32 MiB of six-byte records ("6 a=b\n"): read within the fuzz campaign's bounds. (Apache Commons
        // Compress 1.28.0, measured as a replacement of this reader (issue 26), allocated 7.5 GB and took 90 s on it.)
        byte[] records = "6 a=b\n".repeat((Tar.MAX_ENTRY_BYTES - 1024) / 6).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream pax = new ByteArrayOutputStream();
        pax.write(ustar("PaxHeaders/x", records.length, 'x'));
        pax.write(records);
        pax.write(new byte[(512 - records.length % 512) % 512]);
        Tar.write(pax, List.of(new Tar.File("proc/interrupts", "CPU0\n".getBytes(StandardCharsets.UTF_8))));
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long mem0 = mx.getCurrentThreadAllocatedBytes(), cpu0 = mx.getCurrentThreadCpuTime();
        List<Tar.Entry> read = Tar.read("pax.tar", pax.toByteArray());
        long mem = mx.getCurrentThreadAllocatedBytes() - mem0, cpu = mx.getCurrentThreadCpuTime() - cpu0;
        assertEquals(List.of("proc/interrupts"), read.stream().map(Tar.Entry::path).toList());
        assertTrue(mem < 512L << 20, "allocated " + (mem >> 20) + " MiB");
        assertTrue(cpu < 4_000_000_000L, "took " + cpu / 1_000_000 + " ms of CPU");
    }

    /** A ustar header of {@code size} bytes and type {@code type}, checksummed. */
    static byte[] ustar(String name, int size, char type) {
        byte[] h = new byte[512];
        System.arraycopy(name.getBytes(StandardCharsets.US_ASCII), 0, h, 0, name.length());
        System.arraycopy(String.format("%07o\0", 0444).getBytes(StandardCharsets.US_ASCII), 0, h, 100, 8);
        System.arraycopy(String.format("%011o\0", size).getBytes(StandardCharsets.US_ASCII), 0, h, 124, 12);
        System.arraycopy(String.format("%011o\0", 0).getBytes(StandardCharsets.US_ASCII), 0, h, 136, 12);
        h[156] = (byte) type;
        System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 6);
        h[263] = '0';
        h[264] = '0';
        int sum = 0;
        for (int i = 0; i < 512; i++) sum += (i >= 148 && i < 156) ? ' ' : h[i] & 0xff;
        System.arraycopy(String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII), 0, h, 148, 8);
        return h;
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_partialSnapshotNamesTheMissingFileInTheArchive() throws IOException {
        Path tar = tmp.resolve("partial.tar");
        MachineSnapshot.of("x", List.of(new Tar.File("sys/devices/system/node/node0/cpulist", "0\n".getBytes(StandardCharsets.UTF_8)),
                new Tar.File("sys/devices/system/cpu/online", "0\n".getBytes(StandardCharsets.UTF_8)))).write(tar);
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> TopologyFiles.read(tar));
        assertEquals(tar + ":sys/devices/system/cpu/possible: no such file; expected the possible CPUs as the kernel lists them (e.g. 0-95):"
                + " take a snapshot with 'numaspread snapshot FILE.tar'", e.getMessage());
    }
}
