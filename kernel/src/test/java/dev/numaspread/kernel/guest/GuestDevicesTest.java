package dev.numaspread.kernel.guest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.conformance.snapshot.Tar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The devices a guest boots with (issue 27): QEMU's arguments, the modules, and what a run keeps of them. */
class GuestDevicesTest {

    @TempDir
    Path dir;

    @Test
    void onTheRootBusEachDeviceIsOneArgumentWithItsQueues() throws IOException {
        List<String> a = new GuestDevices(10, 4, 6, -1).qemuArguments(dir, "run-1");
        assertEquals(List.of(
                "-netdev", "tap,id=nt0,ifname=nsqrun1,script=no,downscript=no,vhost=off,queues=10",
                "-device", "virtio-net-pci,netdev=nt0,mq=on,vectors=22",
                "-drive", "if=none,id=vd0,format=raw,file=" + dir.resolve("vda.img"),
                "-device", "virtio-blk-pci,drive=vd0,num-queues=4",
                "-drive", "if=none,id=nv0,format=raw,file=" + dir.resolve("nvme.img"),
                "-device", "nvme,serial=numaspread,drive=nv0,max_ioqpairs=6"), a);
        assertEquals(1 << 20, Files.size(dir.resolve("vda.img")));
        assertEquals(1 << 20, Files.size(dir.resolve("nvme.img")));
    }

    @Test
    void onANodeTheDevicesSitBehindAnExpanderBridgeEachOnARootPortOfItsOwn() throws IOException {
        List<String> a = new GuestDevices(2, 0, 3, 1).qemuArguments(dir, "g");
        assertEquals(List.of(
                "-device", "pxb-pcie,id=pxb0,bus_nr=128,numa_node=1,bus=pcie.0",
                "-netdev", "tap,id=nt0,ifname=nsqg,script=no,downscript=no,vhost=off,queues=2",
                "-device", "pcie-root-port,id=rp0,bus=pxb0,chassis=1,slot=0",
                "-device", "virtio-net-pci,netdev=nt0,mq=on,vectors=6,bus=rp0",
                "-drive", "if=none,id=nv0,format=raw,file=" + dir.resolve("nvme.img"),
                "-device", "pcie-root-port,id=rp1,bus=pxb0,chassis=2,slot=0",
                "-device", "nvme,serial=numaspread,drive=nv0,max_ioqpairs=3,bus=rp1"), a);
        assertFalse(Files.exists(dir.resolve("vda.img")));
    }

    @Test
    void aTapNameFitsIfnamsizAndKeepsTheTagsEnd() {
        assertEquals("nsqabc", GuestDevices.tapName("a-b.c"));
        String t = GuestDevices.tapName("a-2node-2s2c2t-linux-6.12-0123456789");
        assertEquals(15, t.length());
        assertTrue(t.endsWith("0123456789"), t);
    }

    @Test
    void theModulesAreTheDriversOfTheDevicesAskedFor() {
        assertEquals(List.of("virtio_net", "virtio_blk", "nvme"), new GuestDevices(1, 1, 1, -1).modules());
        assertEquals(List.of("nvme"), new GuestDevices(0, 0, 2, -1).modules());
        assertTrue(GuestDevices.NONE.isEmpty());
        assertTrue(GuestDevices.NONE.modules().isEmpty());
        assertFalse(new GuestDevices(0, 1, 0, -1).isEmpty());
    }

    @Test
    void nvmesWriteAndPollQueuesAreParametersOfItsModule() {
        assertEquals(List.of("nvme write_queues=2 poll_queues=2"), new GuestDevices(0, 0, 8, -1, 2, 2).modules());
        assertEquals(List.of("virtio_blk", "nvme poll_queues=1"), new GuestDevices(0, 4, 8, -1, 0, 1).modules());
        String init = GuestImage.init(List.of("nvme_core", "nvme"), Map.of("nvme", "write_queues=2 poll_queues=2"));
        assertTrue(init.contains("\n/bin/busybox insmod /lib/modules/nvme_core.ko || echo"), init);
        assertTrue(init.contains("\n/bin/busybox insmod /lib/modules/nvme.ko write_queues=2 poll_queues=2 || echo"), init);
        assertEquals("write or poll queues without an NVMe controller; expected --nvme too",
                assertThrows(IllegalArgumentException.class, () -> new GuestDevices(1, 0, 0, -1, 2, 0)).getMessage());
    }

    @Test
    void queuesAndNodesOutOfRangeAreRefused() {
        assertEquals("queues 65; expected 0 to 64",
                assertThrows(IllegalArgumentException.class, () -> new GuestDevices(65, 0, 0, -1)).getMessage());
        assertEquals("queues -1; expected 0 to 64",
                assertThrows(IllegalArgumentException.class, () -> new GuestDevices(0, 0, -1, -1)).getMessage());
        assertEquals("node -2; expected a node id or -1",
                assertThrows(IllegalArgumentException.class, () -> new GuestDevices(1, 0, 0, -2)).getMessage());
        new GuestDevices(64, 64, 64, 0);
    }

    static Tar.File file(String path, String text) {
        return new Tar.File(path, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aSnapshotIsSettledOnceEveryDeviceAskedForShowsItsQueues() {
        GuestDevices d = new GuestDevices(2, 1, 1, -1);
        List<Tar.Entry> early = List.of(file("sys/block/vda/mq/0/cpu_list", "0, 1\n"), file("sys/class/net/eth0/queues/tx-0/xps_cpus", "1\n"));
        assertFalse(DeviceRun.settled(early, d));   // nvme probes later, in a work item
        List<Tar.Entry> late = new ArrayList<>(early);
        late.add(file("sys/block/nvme0n1/mq/0/cpu_list", "0\n"));
        assertTrue(DeviceRun.settled(late, d));
        assertTrue(DeviceRun.settled(List.of(), GuestDevices.NONE));
    }

    @Test
    void aRunKeepsTheDeviceFilesAndLinksAndGivesThemBack() {
        List<Tar.Entry> shown = List.of(
                file("proc/interrupts", "CPU0\n"),
                file("proc/irq/27/smp_affinity_list", "1\n"),
                file("sys/devices/system/cpu/online", "0-7\n"),   // the machine: not a device file
                file("sys/class/net/eth0/queues/tx-1/xps_cpus", "02\n"),
                new Tar.Link("sys/bus/pci/devices/0000:00:03.0/driver", "../../../bus/pci/drivers/virtio-pci"));
        JsonNode j = DeviceRun.json(new GuestDevices(2, 0, 0, 1), shown);
        assertEquals(2, j.at("/asked/virtio_net_queue_pairs").asInt());
        assertEquals(0, j.at("/asked/nvme_max_ioqpairs").asInt());
        assertEquals(1, j.at("/asked/node").asInt());
        assertEquals(3, j.get("files").size());
        assertEquals("1\n", j.get("files").get("proc/irq/27/smp_affinity_list").asText());
        assertEquals(new HashSet<>(shown.stream().filter(e -> !e.path().startsWith("sys/devices")).toList()),
                new HashSet<>(DeviceRun.entries(j)));
    }
}
