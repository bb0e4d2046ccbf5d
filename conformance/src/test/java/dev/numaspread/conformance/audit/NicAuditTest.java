package dev.numaspread.conformance.audit;

import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.conformance.snapshot.SysfsFiles;
import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.numaspread.conformance.audit.KernelRunSnapshots.file;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The audit of NICs (spec/audit.md AUD-1, AUD-6; spec/nic.md NIC-1) on the cloud VMs of
 * {@link CloudVmSnapshots} and on hand-made interrupts. Expected values come from the rules of
 * spec/nic.md, worked out by hand.
 */
class NicAuditTest {

    static final KernelRelease V6_1 = KernelRelease.of(6, 1), V6_12 = KernelRelease.of(6, 12);

    private static Audit.Result audit(MachineSnapshot s, KernelRelease k) {
        Topology m = s.topology().topology();
        return Audit.audit(m, Devices.find(s, m), k);
    }

    private static List<String> verdicts(Audit.DeviceResult d) {
        return d.irqs().stream().map(v -> v.slot().label() + " " + v.driver() + " shows " + v.slot().actual().toText() + ": " + v.text()).toList();
    }

    @Test
    @Proves({"AUD-1", "AUD-6", "AUD-7", "NIC-1", "NIC-3"})
    void AUD_6_aBootedKvmGuestEveryQueueIrqWhereTheKernelPutIt() {
        // Real: Linux 6.12 booted with virtio-net (10 pairs), virtio-blk (4 queues) and nvme (6 queues) on
        // 8 vCPUs, 2 nodes (node 0 = 0-3); virtio0 is the guest's own channel, a virtio-serial device.
        MachineSnapshot s = BootedDeviceRuns.of("dev-a-2node-2s2c2t-linux-6.12-boot").snapshot();
        List<Device> d = Devices.find(s, s.topology().topology());
        assertEquals(List.of("virtio1", "virtio2", "nvme0", "nvme0n1", "vda"), d.stream().map(Device::name).toList());
        assertEquals(List.of(DeviceKind.VIRTIO_NET, DeviceKind.VIRTIO_BLK_IRQS, DeviceKind.NVME_IRQS, DeviceKind.BLOCK_BY_IRQ,
                DeviceKind.BLOCK_BY_IRQ), d.stream().map(Device::kind).toList());
        assertEquals(List.of(21, 5, 7, 6, 4), d.stream().map(Device::count).toList());
        Audit.Result r = audit(s, V6_12);
        assertTrue(r.matches(), AuditText.devices(r));
        List<String> v = verdicts(r.devices().get(0));
        assertEquals(21, v.size());
        // NIC-2: 8 online CPUs, 10 pairs offered: pair q on CPU q for q < 8; NIC-3 and NIC-1: pairs 8, 9 and the config IRQ not set, on every CPU.
        assertEquals("IRQ 26 (virtio1-config) not set shows 0-7: where the kernel left it: the default affinity (not set by the driver)", v.get(0));
        assertEquals("IRQ 27 (virtio1-input.0) forced 0 shows 0: where the kernel put it", v.get(1));
        assertEquals("IRQ 42 (virtio1-output.7) forced 7 shows 7: where the kernel put it", v.get(16));
        assertEquals("IRQ 43 (virtio1-input.8) not set shows 0-7: where the kernel left it: the default affinity (not set by the driver)", v.get(17));
        // AUD-7: the pre-vectors started on node 0's CPUs, not on every CPU.
        assertEquals(CpuSet.parseList("0-3"), d.get(1).slots().get(0).actual());
        assertEquals(CpuSet.parseList("0-3"), d.get(2).slots().get(0).actual());
        // XPS: the interface eth0 leads through virtio1 and has the 8 transmit queues in use, each with the driver's map.
        List<String> xps = r.devices().get(0).xps().stream().map(x -> "tx-" + x.xps().queue() + " " + x.xps().cpus().toText() + ": " + x.text()).toList();
        assertEquals(8, xps.size());
        assertEquals("tx-3 3: as the driver set it", xps.get(3));
        assertEquals("tx-7 7: as the driver set it", xps.get(7));
        assertTrue(AuditText.devices(r).contains("              IRQ 27 (virtio1-input.0)     forced 0       shows 0          where the kernel put it\n"),
                AuditText.devices(r));
        assertTrue(AuditText.devices(r).contains("              XPS of tx-3                  sets 3         shows 3          as the driver set it\n"),
                AuditText.devices(r));
    }

    @Test
    @Proves({"AUD-7", "NIC-1"})
    void AUD_7_preVectorsStartOnNode0EvenForADeviceOnNode1() {
        // Real: the same devices behind a PCI expander bridge on node 1 (7.3): virtio-net's config IRQ and unused
        // pairs start on node 1's CPUs (NIC-1), the pre-vectors of virtio-blk and nvme on node 0's (AUD-7).
        MachineSnapshot s = BootedDeviceRuns.of("dev-node1-a-2node-2s2c2t-linux-7.3-boot").snapshot();
        Audit.Result r = audit(s, KernelRelease.of(7, 3));
        assertTrue(r.matches(), AuditText.devices(r));
        assertEquals(List.of(1, 1, 1), r.devices().stream().limit(3).map(x -> x.device().node()).toList());
        assertEquals("not set shows 4-7", verdicts(r.devices().get(0)).get(0).replaceAll("^IRQ \\d+ \\(virtio1-config\\) ", "").replaceAll(":.*", ""));
        assertEquals(CpuSet.parseList("0-3"), r.devices().get(1).device().slots().get(0).actual());
        assertEquals(CpuSet.parseList("0-3"), r.devices().get(2).device().slots().get(0).actual());
    }

    @Test
    @Proves({"AUD-1", "AUD-6", "AUD-4"})
    void AUD_6_enaVmMatchesUntilIrqbalanceMovesAForcedIrq() {
        Audit.Result plain = audit(CloudVmSnapshots.enaVm(Map.of()), V6_1);
        assertEquals(List.of("ena 0000:00:05.0", "nvme0", "nvme0n1"), plain.devices().stream().map(x -> x.device().name()).toList());
        assertTrue(plain.matches(), AuditText.devices(plain));
        assertEquals("IRQ 30 (ena-mgmnt@pci:0000:00:05.0) forced 0 shows 0: where the kernel put it", verdicts(plain.devices().get(0)).get(0));
        // irqbalance moved queue 5's IRQ (36) from CPU 5 to CPU 2.
        Audit.Result moved = audit(CloudVmSnapshots.enaVm(Map.of(5, 2)), V6_1);
        Audit.Differs x = assertInstanceOf(Audit.Differs.class, moved.devices().get(0).outcome());
        assertEquals("IRQ 36 (eth0-Tx-Rx-5)", x.label());
        assertEquals(CpuSet.of(5), x.expected());
        assertEquals(CpuSet.of(2), x.actual().orElseThrow());
        assertEquals("the driver forced 5; something else moved the IRQ after setup (irqbalance, or a user)", x.why());
        assertEquals("IRQ 36 (eth0-Tx-Rx-5) forced 5 shows 2: moved: the driver forced 5; something else changed it (irqbalance, or a user)",
                verdicts(moved.devices().get(0)).get(6));
        // ena forces CPU id i in every release modelled: the device is explained by all of them.
        Topology m = CloudVmSnapshots.enaVm(Map.of()).topology().topology();
        List<Device> devices = Devices.find(CloudVmSnapshots.enaVm(Map.of()), m);
        assertEquals("6.1-7.3", Identify.ranges(Identify.explaining(Identify.everyRelease(m, devices), devices.get(0))));
    }

    /** An i40e device of 4 vectors on node 0 of the a-2node machine, its IRQs showing {@code shown}, with the hints the driver set. */
    static MachineSnapshot i40e(List<String> shown) {
        Topology m = Fixtures.topology(CloudVmSnapshots.A612);
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        StringBuilder interrupts = new StringBuilder("      CPU0 CPU1 CPU2 CPU3 CPU4 CPU5 CPU6 CPU7\n");
        for (int v = 0; v < 4; v++) {
            int irq = 70 + v;
            interrupts.append(irq).append(":  0 0 0 0 0 0 0 0  PCI-MSIX-0000:3b:00.0 ").append(v + 1).append("-edge  i40e-ens1f0-TxRx-").append(v).append('\n');
            e.add(file("proc/irq/" + irq + "/smp_affinity_list", shown.get(v) + "\n"));
            e.add(file("proc/irq/" + irq + "/affinity_hint", CpuSet.of(v).toMask(8) + "\n"));
            e.add(file("sys/bus/pci/devices/0000:3b:00.0/msi_irqs/" + irq, "msix\n"));
        }
        e.add(file("sys/bus/pci/devices/0000:3b:00.0/numa_node", "0\n"));
        e.add(file("proc/interrupts", interrupts.toString()));
        return MachineSnapshot.of("i40e.tar", e);
    }

    @Test
    @Proves({"AUD-6", "NIC-1"})
    void AUD_6_aHintOnlyIrqMatchesWhateverItShowsAndSaysSo() {
        // i40e hints the v-th online CPU (NIC-9) and forces nothing: the kernel leaves node 0's online CPUs 0-3 (NIC-1).
        Audit.Result left = audit(i40e(List.of("0-3", "0-3", "0-3", "0-3")), V6_12);
        assertTrue(left.matches(), AuditText.devices(left));
        assertEquals("IRQ 71 (i40e-ens1f0-TxRx-1) hint 1 shows 0-3: where the kernel left it: the default affinity (hint only)",
                verdicts(left.devices().get(0)).get(1));
        // irqbalance applied the hints: still no difference, and no 'moved' finding, but each IRQ says what happened.
        Audit.Result applied = audit(i40e(List.of("0", "1", "2", "3")), V6_12);
        assertTrue(applied.matches(), AuditText.devices(applied));
        assertEquals(List.of(), applied.findings());
        assertEquals("IRQ 72 (i40e-ens1f0-TxRx-2) hint 2 shows 2: hint only: the affinity may have been changed by irqbalance or a user"
                + " (the kernel left 0-3)", verdicts(applied.devices().get(0)).get(2));
    }

    @Test
    @Proves("AUD-1")
    void AUD_1_bnxtIsKnownByItsDriverOnlyAndGveByBothNames() {
        Topology m = Fixtures.topology(CloudVmSnapshots.A612);
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        String interrupts = """
                      CPU0 CPU1 CPU2 CPU3 CPU4 CPU5 CPU6 CPU7
                 80:  0 0 0 0 0 0 0 0  PCI-MSIX-0000:41:00.0 1-edge  ens2f0np0-TxRx-0
                 81:  0 0 0 0 0 0 0 0  PCI-MSIX-0000:41:00.0 2-edge  ens2f0np0-TxRx-1
                 82:  0 0 0 0 0 0 0 0  PCI-MSIX-0000:42:00.0 1-edge  eth3-TxRx-0
                 90:  0 0 0 0 0 0 0 0  PCI-MSIX-0000:00:04.0 0-edge  eth%d-ntfy-block.0
                 91:  0 0 0 0 0 0 0 0  PCI-MSIX-0000:00:04.0 1-edge  eth%d-ntfy-block.1
                 92:  0 0 0 0 0 0 0 0  PCI-MSIX-0000:00:05.0 0-edge  gve-ntfy-blk0@pci:0000:00:05.0
                 93:  0 0 0 0 0 0 0 0  PCI-MSIX-0000:00:05.0 1-edge  gve-ntfy-blk1@pci:0000:00:05.0
                 94:  0 0 0 0 0 0 0 0  PCI-MSIX-0000:00:05.0 2-edge  gve-mgmnt@pci:0000:00:05.0
                """;
        e.add(file("proc/interrupts", interrupts));
        for (int irq : new int[]{80, 81, 82, 90, 91, 92, 93, 94}) e.add(file("proc/irq/" + irq + "/smp_affinity_list", "0-7\n"));
        for (int irq : new int[]{80, 81}) e.add(file("sys/bus/pci/devices/0000:41:00.0/msi_irqs/" + irq, "msix\n"));
        e.add(file("sys/bus/pci/devices/0000:42:00.0/msi_irqs/82", "msix\n"));
        e.add(new Tar.Link("sys/bus/pci/devices/0000:41:00.0/driver", "../../../bus/pci/drivers/bnxt_en"));
        e.add(new Tar.Link("sys/bus/pci/devices/0000:42:00.0/driver", "../../../bus/pci/drivers/ixgbe"));
        MachineSnapshot s = MachineSnapshot.of("hand.tar", e);
        List<Device> d = Devices.find(s, m);
        // eth3-TxRx-0 belongs to ixgbe, which numaspread does not model: left out.
        assertEquals(List.of("bnxt 0000:41:00.0", "gve eth%d", "gve 0000:00:05.0"), d.stream().map(Device::name).toList());
        assertEquals(List.of(DeviceKind.BNXT, DeviceKind.GVE, DeviceKind.GVE), d.stream().map(Device::kind).toList());
        // gve's blocks: transmit first, then receive; the management IRQ after them.
        assertEquals(List.of("IRQ 92 (gve-ntfy-blk0@pci:0000:00:05.0)", "IRQ 93 (gve-ntfy-blk1@pci:0000:00:05.0)",
                "IRQ 94 (gve-mgmnt@pci:0000:00:05.0)"), d.get(2).slots().stream().map(Device.Slot::label).toList());
        assertEquals(List.of(0, 1, 2), d.get(2).slots().stream().map(Device.Slot::index).toList());
        Audit.Result r = Audit.audit(m, d, KernelRelease.of(6, 17));
        // 6.17 gve, NUMA_NO_NODE: both blocks of queue 0 forced to CPU 0 (NIC-6); the machine shows 0-7.
        Audit.Differs x = assertInstanceOf(Audit.Differs.class, r.devices().get(2).outcome());
        assertEquals(Optional.of(CpuSet.parseList("0-7")), x.actual());
        assertEquals(CpuSet.of(0), x.expected());
    }
}
