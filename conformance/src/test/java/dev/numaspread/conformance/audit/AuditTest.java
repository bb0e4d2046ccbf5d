package dev.numaspread.conformance.audit;

import dev.numaspread.conformance.audit.KernelRunSnapshots.Mlx5Nic;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.conformance.snapshot.SysfsFiles;
import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The audit on snapshots built from the kernel runs (spec/audit.md): what the real 6.1 and 6.12
 * kernels placed must match the model of their own release, and the differences between them
 * must be found where the kernel runs differ. Expected CPU sets come from the kernel runs' JSON,
 * never from the model.
 */
class AuditTest {

    static final KernelRelease V6_1 = KernelRelease.of(6, 1), V6_12 = KernelRelease.of(6, 12);
    static final String A61 = "a-2node-2s2c2t-linux-6.1-boot", A612 = "a-2node-2s2c2t-linux-6.12-boot",
            A73 = "a-2node-2s2c2t-linux-7.3-boot";

    private static Audit.Result audit(MachineSnapshot s, KernelRelease k) {
        Topology m = s.topology().topology();
        return Audit.audit(m, Devices.find(s, m), k);
    }

    private static Map<String, String> outcomes(Audit.Result r) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (Audit.DeviceResult d : r.devices()) out.put(d.device().name(), d.outcome().getClass().getSimpleName());
        return out;
    }

    /** The null_blk map the kernel of {@code run} printed for {@code queues} queues: queue q's CPUs. */
    private static CpuSet kernelQueue(String run, int queues, int q) {
        CpuSet.Builder b = CpuSet.builder();
        Fixtures.kernelRun(run).at("/results/blk_mq_map_queues/" + queues).fields()
                .forEachRemaining(f -> { if (f.getValue().asInt() == q) b.add(Integer.parseInt(f.getKey())); });
        return b.build();
    }

    @Test
    @Proves("AUD-1")
    void AUD_1_devicesAreFoundByTheirKernelNames() {
        MachineSnapshot s = KernelRunSnapshots.build(A612, 5, 3, Optional.of(new Mlx5Nic(1, 8, Map.of())));
        List<Device> d = Devices.find(s, s.topology().topology());
        assertEquals(List.of("nvme0", "mlx5 0000:08:00.0", "nullb0", "nvme0n1"), d.stream().map(Device::name).toList());
        assertEquals(List.of(DeviceKind.NVME_IRQS, DeviceKind.MLX5_COMP, DeviceKind.BLOCK_DEFAULT, DeviceKind.BLOCK_BY_IRQ),
                d.stream().map(Device::kind).toList());
        assertEquals(List.of(5, 8, 3, 4), d.stream().map(Device::count).toList());
        assertEquals(List.of(-1, 1, -1, -1), d.stream().map(Device::node).toList());
        assertEquals("a-2node-2s2c2t-linux-6.12-boot.tar:sys/bus/pci/devices/0000:08:00.0/numa_node", d.get(1).nodeSource());
        Device.Slot q0 = d.get(0).slots().get(0);
        assertEquals("IRQ 40 (nvme0q0)", q0.label());
        assertEquals(false, q0.isQueue());
        assertEquals("0-3", q0.actual().toList());   // the admin queue started on node 0's CPUs (AUD-7)
    }

    @Test
    @Proves("AUD-1")
    void AUD_1_handMadeInterruptsOfEveryKind() {
        // Hand-made: a mana NIC (HWC and two queues), virtio-blk, a shared IRQ and counters.
        String interrupts = """
                            CPU0       CPU1       CPU2       CPU3
                  24:          1          0          0          0  IO-APIC   5-edge      ACPI:Ged
                  50:          0          0          0          0  PCI-MSIX-7870:00:00.0   0-edge      mana_hwc@pci:7870:00:00.0
                  51:         10          0          0          0  PCI-MSIX-7870:00:00.0   1-edge      mana_q0@pci:7870:00:00.0
                  52:          0         10          0          0  PCI-MSIX-7870:00:00.0   2-edge      mana_q1@pci:7870:00:00.0
                  35:          0          1          0          0  PCI-MSIX-0000:00:02.0   0-edge      virtio1-config
                  36:          0      28532          0          0  PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0
                  11:          0          0          0          0  IO-APIC  11-fasteoi   uhci_hcd:usb1, nvme1q0
                 NMI:          0          0          0          0   Non-maskable interrupts
                 LOC:      49483      50581       1000       1000   Local timer interrupts
                """;
        Topology m = Fixtures.topology("a-2node-2s2c2t-linux-6.12-boot");
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        e.add(file("proc/interrupts", interrupts));
        for (int irq : new int[]{50, 51, 52, 35, 36, 11}) e.add(file("proc/irq/" + irq + "/smp_affinity_list", "0-7\n"));
        e.add(file("proc/irq/35/node", "1\n"));
        e.add(file("sys/bus/pci/devices/7870:00:00.0/numa_node", "0\n"));
        MachineSnapshot s = MachineSnapshot.of("hand.tar", e);
        List<Device> d = Devices.find(s, m);
        assertEquals(List.of("mana 7870:00:00.0", "virtio1", "nvme1"), d.stream().map(Device::name).toList());
        assertEquals(List.of(3, 2, 1), d.stream().map(Device::count).toList());
        assertEquals(List.of("IRQ 50 (mana_hwc@pci:7870:00:00.0)", "IRQ 51 (mana_q0@pci:7870:00:00.0)", "IRQ 52 (mana_q1@pci:7870:00:00.0)"),
                d.get(0).slots().stream().map(Device.Slot::label).toList());
        assertEquals(List.of(0, 1, -1), d.stream().map(Device::node).toList());
        assertEquals("hand.tar:proc/irq/35/node", d.get(1).nodeSource());
    }

    @Test
    @Proves("AUD-2")
    void AUD_2_eachKernelRunMatchesItsOwnRelease() {
        for (String run : List.of(A61, A612, "c-epyc-4node-smt-split-linux-6.12-offline", "c2-epyc-8node-nps4-smt-split-linux-6.1-boot",
                "b-kunpeng920-4node-linux-6.12-offline", "d-memory-only-node-linux-6.12-boot",
                A73, "cl2-2node-2cl-2c-2t-linux-7.3-boot", "c-epyc-4node-smt-split-linux-7.3-offline")) {
            MachineSnapshot s = KernelRunSnapshots.build(run, 5, 3);
            KernelRelease k = KernelRelease.parse(s.osrelease().orElseThrow());
            Audit.Result r = audit(s, k);
            assertEquals(Map.of("nullb0", "Match", "nvme0", "Match", "nvme0n1", "Match"), outcomes(r), run);
        }
    }

    @Test
    @Proves("AUD-2")
    void AUD_2_firstDifferingQueueWithExpectedAndActual() {
        // 6.1's null_blk map, audited as 6.12: queue 0 is where the two kernels' maps part.
        Audit.Result r = audit(KernelRunSnapshots.build(A61, 5, 3), V6_12);
        Audit.Differs x = assertInstanceOf(Audit.Differs.class, r.devices().get(1).outcome());
        assertEquals("nullb0", r.devices().get(1).device().name());
        assertEquals("queue 0", x.label());
        assertEquals(kernelQueue(A612, 3, 0), x.expected());
        assertEquals(Optional.of(kernelQueue(A61, 3, 0)), x.actual());
        assertEquals("4-7", x.expected().toList());
        assertEquals("0,4-5", x.actual().orElseThrow().toList());
        assertTrue(r.devices().get(0).matches(), "the nvme masks are the same in 6.1 and 6.12 here");
    }

    @Test
    @Proves("AUD-2")
    void AUD_2_aMissingQueueDiffers() {
        MachineSnapshot full = KernelRunSnapshots.build(A612, 5, 3);
        List<Tar.Entry> e = full.entries().stream().filter(x -> !x.path().startsWith("sys/block/nullb0/mq/1/")).toList();
        Audit.Result r = audit(MachineSnapshot.of("gap.tar", e), V6_12);
        Audit.Differs x = assertInstanceOf(Audit.Differs.class, r.devices().get(1).outcome());
        assertEquals("queue 1", x.label());
        assertEquals(Optional.empty(), x.actual());
    }

    @Test
    @Proves({"AUD-2", "AUD-3"})
    void AUD_3_movedIrqIsFoundAndExplainsTheDifference() {
        // Hand-made: something moved comp vectors 2 and 3 of an mlx5 NIC on node 1 to CPU 0.
        MachineSnapshot s = KernelRunSnapshots.build(A612, 5, 3, Optional.of(new Mlx5Nic(1, 8, Map.of(2, 0, 3, 0))));
        Audit.Result r = audit(s, V6_12);
        Audit.DeviceResult mlx5 = r.devices().get(1);
        Audit.Differs x = assertInstanceOf(Audit.Differs.class, mlx5.outcome());
        assertEquals("IRQ 62 (mlx5_comp2@pci:0000:08:00.0)", x.label());
        assertEquals("6", x.expected().toList());   // the kernel run: cpumask_local_spread(2, 1) = 6
        assertEquals("0", x.actual().orElseThrow().toList());
        assertEquals("the driver's hint is the expected 6: something else moved the IRQ after setup (irqbalance?)", x.why());
        List<Finding> moved = r.findings().stream().filter(f -> f.code().equals(Finding.MOVED)).toList();
        assertEquals(List.of(
                new Finding("moved", "IRQ 62 (mlx5_comp2@pci:0000:08:00.0): affinity 0 is not the driver's hint 6: something else moved it (irqbalance, or a tuning script)"),
                new Finding("moved", "IRQ 63 (mlx5_comp3@pci:0000:08:00.0): affinity 0 is not the driver's hint 7: something else moved it (irqbalance, or a tuning script)")),
                moved);
    }

    @Test
    @Proves("AUD-3")
    void AUD_3_offlineAndCrossingFindings() {
        // c-epyc 6.12 with CPU 9 offline; 3 null_blk queues over 4 nodes cross nodes, as 6.12 places them.
        MachineSnapshot base = KernelRunSnapshots.build("c-epyc-4node-smt-split-linux-6.12-offline", 5, 3);
        List<Tar.Entry> e = new ArrayList<>(base.entries());
        // Hand-made: IRQ 41's effective affinity on the offline CPU 9, IRQ 42's affinity only on it.
        e.add(file("proc/irq/41/effective_affinity_list", "9\n"));
        e.removeIf(x -> x.path().equals("proc/irq/42/smp_affinity_list"));
        e.add(file("proc/irq/42/smp_affinity_list", "9\n"));
        Audit.Result r = audit(MachineSnapshot.of("c.tar", e), V6_12);
        assertEquals(List.of(
                new Finding("offline-effective", "IRQ 41 (nvme0q1): effective affinity 9 includes offline CPUs 9"),
                new Finding("offline-only", "IRQ 42 (nvme0q2): affinity 9 lies only on offline CPUs (a managed IRQ is shut down until one comes back)"),
                new Finding("crosses-nodes", "queue 0 of nullb0: CPUs 0-1,6-9,14-15 span nodes 0,3 (as Linux 6.12 places them)")),
                r.findings());
    }

    @Test
    @Proves("AUD-4")
    void AUD_4_identifyNamesTheReleasesThatExplainTheRun() {
        MachineSnapshot s612 = KernelRunSnapshots.build(A612, 5, 3);
        Topology m = s612.topology().topology();
        List<Device> d = Devices.find(s612, m);
        List<Audit.Result> every = Identify.everyRelease(m, d);
        List<KernelRelease> all = Identify.explaining(every);
        assertTrue(all.contains(V6_12) && !all.contains(V6_1), Identify.ranges(all));
        // 7.0 deals each node's cores as clusters (GRP-11) and numbers the queues differently: the
        // 7.3.4 run of the same machine (a-2node-2s2c2t-linux-7.3-boot) maps 3 queues 2 2 1 1 0 0 0 0.
        assertEquals("6.3-6.19", Identify.ranges(all));
        assertEquals("5.4-6.2", Identify.ranges(Identify.explaining(Identify.everyRelease(m, Devices.find(KernelRunSnapshots.build(A61, 5, 3), m)),
                Devices.find(KernelRunSnapshots.build(A61, 5, 3), m).get(1))));
    }

    @Test
    @Proves("AUD-4")
    void AUD_4_identifyNames7_3OnTheArchiveOfThe7_3Run() {
        // The archive of fixtures/snapshots as a user audits it, built from the real 7.3.4 run.
        MachineSnapshot s = MachineSnapshot.read(java.nio.file.Path.of("..", "fixtures", "snapshots", A73 + ".tar"));
        assertEquals(Optional.of(Fixtures.kernelRun(A73).get("kernel").asText()), s.osrelease());
        KernelRelease running = KernelRelease.parse(s.osrelease().orElseThrow());
        assertEquals(KernelRelease.of(7, 3), running);
        Topology m = s.topology().topology();
        List<Device> d = Devices.find(s, m);
        // What null_blk showed under 7.3.4 is not what 6.12.117 showed on the same machine from queue 1 on (clusters, GRP-11).
        assertEquals(kernelQueue(A73, 3, 1), CpuSet.parseList(s.text("sys/block/nullb0/mq/1/cpu_list").orElseThrow().replace(" ", "").trim()));
        assertEquals(kernelQueue(A612, 3, 0), kernelQueue(A73, 3, 0));
        assertTrue(!kernelQueue(A73, 3, 1).equals(kernelQueue(A612, 3, 1)), "the 7.3 and 6.12 runs place queue 1 differently");
        assertEquals(Map.of("nullb0", "Match", "nvme0", "Match", "nvme0n1", "Match"), outcomes(audit(s, running)));
        Audit.Differs x = assertInstanceOf(Audit.Differs.class, audit(s, V6_12).devices().get(1).outcome());
        assertEquals("queue 1", x.label());
        assertEquals(kernelQueue(A612, 3, 1), x.expected());
        assertEquals(Optional.of(kernelQueue(A73, 3, 1)), x.actual());

        List<Audit.Result> every = Identify.everyRelease(m, d);
        List<KernelRelease> explaining = Identify.explaining(every);
        assertEquals("7.0-7.3", Identify.ranges(explaining), "nothing these devices show changed from 7.0 to 7.3");
        String id = AuditText.identify(every, d, Optional.of(running));
        assertTrue(id.contains("  every device           7.0-7.3\n"), id);
        assertTrue(id.endsWith("the machine runs 7.3, which is among them\n"), id);
    }

    @Test
    @Proves("AUD-2")
    void AUD_2_moreVectorsThanTheRoutineSetsUpDiffer() {
        // MANA sizes itself: a machine showing a vector past those the routine set up differs there.
        List<Device.Slot> slots = new ArrayList<>();
        for (int v = 0; v < 3; v++)
            slots.add(new Device.Slot(v, "IRQ " + (70 + v), java.util.OptionalInt.of(70 + v), CpuSet.of(v), Optional.empty(), Optional.empty(), v > 0, "x"));
        Device d = new Device("mana 7870:00:00.0", DeviceKind.MANA, 0, "x", slots);
        Audit.Differs x = assertInstanceOf(Audit.Differs.class, Audit.compare(d, List.of(CpuSet.of(0), CpuSet.of(1))));
        assertEquals("IRQ 72", x.label());
        assertEquals(CpuSet.EMPTY, x.expected());
        assertEquals("Linux gives the device 2 vectors; the machine shows more", x.why());
        assertInstanceOf(Audit.Match.class, Audit.compare(d, List.of(CpuSet.of(0), CpuSet.of(1), CpuSet.of(2))));
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_shortInterruptsLineNamesFileAndLine() {
        Topology m = Fixtures.topology(A612);
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        e.add(file("proc/interrupts", "      CPU0   CPU1\n 24:  1  0  IO-APIC 5-edge ACPI:Ged\n 45:  0  nvme0q1\n"));
        MachineSnapshot s = MachineSnapshot.of("snap.tar", e);
        InvalidTopologyException x = assertThrows(InvalidTopologyException.class, () -> Devices.find(s, m));
        assertEquals("snap.tar:proc/interrupts:3: found 'nvme0q1' as IRQ 45's count on CPU1; expected a count for each of the 2 CPU"
                + " columns (was a line cut, or the header changed?)", x.getMessage());
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_oversizedNumbersInInterruptsAreMessagesNotCrashes() {
        Topology m = Fixtures.topology(A612);
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        e.add(file("proc/interrupts", "      CPU0   CPU99999999999\n 45:  0  0  PCI-MSI 524289-edge nvme0q1\n"));
        InvalidTopologyException x = assertThrows(InvalidTopologyException.class, () -> Devices.find(MachineSnapshot.of("snap.tar", e), m));
        assertEquals("snap.tar:proc/interrupts:1: found 'CPU99999999999' in the header; expected one column per online CPU (CPU0 CPU1 ...)",
                x.getMessage());

        e.set(e.size() - 1, file("proc/interrupts", "      CPU0   CPU8192\n 45:  0  0  PCI-MSI 524289-edge nvme0q1\n"));
        x = assertThrows(InvalidTopologyException.class, () -> Devices.find(MachineSnapshot.of("snap.tar", e), m));
        assertEquals("snap.tar:proc/interrupts:1: found 'CPU8192' in the header; expected CPU ids below NR_CPUS, 8192 (FMT-16)", x.getMessage());

        // A queue number too long for any device is not one of the known devices' names: nothing to audit, no crash.
        e.set(e.size() - 1, file("proc/interrupts", "      CPU0   CPU1\n 45:  0  0  PCI-MSI 524289-edge nvme0q99999999999\n"));
        assertEquals(List.of(), Devices.find(MachineSnapshot.of("snap.tar", e), m));
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_irqWithoutAffinityFilesIsRefused() {
        Topology m = Fixtures.topology(A612);
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        e.add(file("proc/interrupts", "      CPU0   CPU1\n 45:  0  0  PCI-MSI 524289-edge nvme0q1\n"));
        MachineSnapshot s = MachineSnapshot.of("snap.tar", e);
        InvalidTopologyException x = assertThrows(InvalidTopologyException.class, () -> Devices.find(s, m));
        assertEquals("snap.tar:proc/irq/45/smp_affinity_list: no such file; expected the affinity of IRQ 45 (nvme0q1), which"
                + " /proc/interrupts lists: was the snapshot taken while the device was set up? take it again", x.getMessage());
    }

    @Test
    @Proves("AUD-5")
    void AUD_5_numaNodeOfAnUnknownNodeIsRefused() {
        MachineSnapshot full = KernelRunSnapshots.build(A612, 5, 3, Optional.of(new Mlx5Nic(1, 2, Map.of())));
        List<Tar.Entry> e = new ArrayList<>(full.entries());
        e.removeIf(x -> x.path().equals("sys/bus/pci/devices/0000:08:00.0/numa_node"));
        e.add(file("sys/bus/pci/devices/0000:08:00.0/numa_node", "3\n"));
        MachineSnapshot s = MachineSnapshot.of("snap.tar", e);
        InvalidTopologyException x = assertThrows(InvalidTopologyException.class, () -> Devices.find(s, s.topology().topology()));
        assertEquals("snap.tar:sys/bus/pci/devices/0000:08:00.0/numa_node: names node 3, which the snapshot's machine does not have"
                + " (nodes 0-1); expected a node of sys/devices/system/node or -1", x.getMessage());
    }

    @Test
    void headerAndTextNameTheReleases() {
        MachineSnapshot s = KernelRunSnapshots.build(A61, 5, 3);
        Topology m = s.topology().topology();
        List<Device> d = Devices.find(s, m);
        String text = AuditText.devices(Audit.audit(m, d, V6_12));
        assertTrue(text.contains("DIFFERS       nullb0                 blk-mq-map          node -1  3 queues\n"
                + "              queue 0: expected 4-7, actual 0,4-5\n"), text);
        assertTrue(text.endsWith("\n1 of 3 devices differ from Linux 6.12\n"), text);
        String id = AuditText.identify(Identify.everyRelease(m, d), d, Optional.of(V6_1));
        assertTrue(id.contains("  every device           6.1\n"), id);
        assertTrue(id.endsWith("the machine runs 6.1, which is among them\n"), id);
    }

    static Tar.File file(String path, String text) {
        return new Tar.File(path, text.getBytes(StandardCharsets.UTF_8));
    }

    /** A snapshot of {@code m} with {@code interrupts} and every IRQ it lists on {@code 0-7}. */
    static MachineSnapshot withInterrupts(Topology m, String interrupts, int... irqs) {
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        e.add(file("proc/interrupts", interrupts));
        for (int irq : irqs) e.add(file("proc/irq/" + irq + "/smp_affinity_list", "0-7\n"));
        return MachineSnapshot.of("snap.tar", e);
    }

    /** Found by the second campaign (issue 25): IRQ numbers of 8192 and more were read as CPU ids and refused. */
    @Test
    @Proves("AUD-1")
    void AUD_1_irqNumbersPastNrCpusAreOrdinary() {
        Topology m = Fixtures.topology(A612);
        MachineSnapshot s = withInterrupts(m, "      CPU0   CPU1\n 9040:  0  0  PCI-MSI 1-edge nvme0q0\n 9041:  0  0  PCI-MSI 2-edge nvme0q1\n"
                + " 70000:  0  0  PCI-MSI 3-edge nvme0q2\n", 9040, 9041, 70000);
        List<Device> d = Devices.find(s, m);
        assertEquals(List.of(3), d.stream().map(Device::count).toList());
        String text = AuditText.devices(Audit.audit(m, d, V6_12));
        assertTrue(text.contains(" 3 IRQs 9040-9041,70000\n"), text);
    }

    /** Found by the second campaign: without proc/interrupts the IRQ devices vanished and the audit said "every device matches". */
    @Test
    @Proves("AUD-2")
    void AUD_2_aSnapshotWithoutInterruptsIsNoFullMatch() {
        MachineSnapshot full = KernelRunSnapshots.build(A612, 5, 3);
        List<Tar.Entry> e = new ArrayList<>(full.entries());
        e.removeIf(x -> x.path().equals("proc/interrupts"));
        MachineSnapshot s = MachineSnapshot.of("snap.tar", e);
        Topology m = s.topology().topology();
        List<String> unaudited = Devices.unaudited(s);
        assertEquals(List.of("snap.tar:proc/interrupts: no such file, so no IRQ device (mlx5, mana, nvme, virtio) was audited;"
                + " take the snapshot again with 'numaspread snapshot' to audit them"), unaudited);
        String text = AuditText.devices(Audit.audit(m, Devices.find(s, m), V6_12), unaudited);
        assertTrue(text.startsWith("NOT-AUDITED   snap.tar:proc/interrupts: no such file"), text);
        assertTrue(text.endsWith("\nevery device found matches Linux 6.12; not a full audit: 1 part of the machine could not be audited\n"), text);
        assertEquals(List.of(), Devices.unaudited(full));
    }

    /** Found by the second campaign: a header with a column twice, or a CPU the machine lacks, was read as given. */
    @Test
    @Proves("AUD-5")
    void AUD_5_aHeaderWithAColumnTwiceOrAForeignCpuIsRefused() {
        Topology m = Fixtures.topology(A612);
        InvalidTopologyException twice = assertThrows(InvalidTopologyException.class, () -> Devices.find(
                withInterrupts(m, "\n      CPU0   CPU1   CPU0\n 45:  0  0  0  PCI-MSI 1-edge nvme0q1\n", 45), m));
        assertEquals("snap.tar:proc/interrupts:2: found 'CPU0' twice in the header (columns 1 and 3); expected one column per online CPU",
                twice.getMessage());
        InvalidTopologyException foreign = assertThrows(InvalidTopologyException.class, () -> Devices.find(
                withInterrupts(m, "      CPU0   CPU9\n 45:  0  0  PCI-MSI 1-edge nvme0q1\n", 45), m));
        assertEquals("snap.tar:proc/interrupts:1: found 'CPU9' in the header, a CPU the machine does not have (possible 0-7); expected a"
                + " column per online CPU of the snapshot's machine", foreign.getMessage());
    }

    /** Found by the second campaign: full-width and Arabic-Indic digits were read as numbers. */
    @Test
    @Proves("AUD-5")
    void AUD_5_onlyAsciiDigitsAreNumbers() {
        Topology m = Fixtures.topology(A612);
        // '９９' is no IRQ number: the line is a counter line, as NMI's is, and names no device.
        assertEquals(List.of(), Devices.find(withInterrupts(m, "      CPU0   CPU1\n ９９:  0  0  PCI-MSI 1-edge nvme0q1\n", 99), m));
        InvalidTopologyException count = assertThrows(InvalidTopologyException.class, () -> Devices.find(
                withInterrupts(m, "      CPU0   CPU1\n 45:  0  ١  PCI-MSI 1-edge nvme0q1\n", 45), m));
        assertTrue(count.getMessage().startsWith("snap.tar:proc/interrupts:2: found '١' as IRQ 45's count on CPU1; expected a count"), count.getMessage());
        List<Tar.Entry> e = new ArrayList<>(withInterrupts(m, "      CPU0   CPU1\n 45:  0  0  PCI-MSI 1-edge nvme0q1\n", 45).entries());
        e.add(file("proc/irq/45/node", "١\n"));
        InvalidTopologyException node = assertThrows(InvalidTopologyException.class, () -> Devices.find(MachineSnapshot.of("snap.tar", e), m));
        assertEquals("snap.tar:proc/irq/45/node: found '١'; expected a node id or -1", node.getMessage());
    }

    /**
     * Found by the second campaign: 6,000 devices took 69 s, each looking for its PCI device among
     * all and --identify comparing each device with every other. Bounded as the fuzz campaign bounds
     * an input: the CPU time of the reading thread, with the margin of a quadratic algorithm's 30 s.
     */
    @Test
    @Proves("AUD-4")
    void AUD_4_manyDevicesAreAuditedInLinearTime() {
        Topology m = Fixtures.topology(A612);
        int n = 6000;
        StringBuilder interrupts = new StringBuilder("      CPU0   CPU1\n");
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        for (int i = 0; i < n; i++) {
            int irq = 100 + i;
            interrupts.append(' ').append(irq).append(":  0  0  PCI-MSI 1-edge nvme").append(i).append("q0\n");
            e.add(file("proc/irq/" + irq + "/smp_affinity_list", "0-7\n"));
            e.add(file("sys/bus/pci/devices/0000:" + String.format("%02x:%02x.0", i / 256, i % 256) + "/msi_irqs/" + irq, "msix\n"));
            e.add(file("sys/bus/pci/devices/0000:" + String.format("%02x:%02x.0", i / 256, i % 256) + "/numa_node", "0\n"));
        }
        e.add(file("proc/interrupts", interrupts.toString()));
        MachineSnapshot s = MachineSnapshot.of("snap.tar", e);
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        List<Device> d = Devices.find(s, m);
        long finding = mx.getCurrentThreadCpuTime() - cpu0;
        // Two releases stand for all: the model's cost per release and device is linear anyway.
        List<Audit.Result> every = List.of(Audit.audit(m, d, V6_1), Audit.audit(m, d, V6_12));
        long cpu1 = mx.getCurrentThreadCpuTime();
        String id = AuditText.identify(every, d, Optional.of(V6_12));
        long seconds = (finding + mx.getCurrentThreadCpuTime() - cpu1) / 1_000_000_000L;
        assertEquals(n, d.size());
        assertEquals(0, d.get(n - 1).node(), d.get(n - 1).nodeSource());
        assertEquals(n + 3, id.lines().count(), "a line per device, the machine and the release it runs");
        assertTrue(seconds < 5, n + " devices took " + seconds + " s of CPU to find and identify");
    }
}
