package dev.numaspread.conformance.audit;

import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The device runs of fixtures/kernel-runs (issue 27): real 6.1, 6.12 and 7.3 kernels booted by
 * {@code numaspread kernel run --virtio-net --virtio-blk --nvme [--nvme-write-queues --nvme-poll-queues]}, whose {@code results.devices}
 * hold the files the guest showed. Each is read back as a snapshot of its machine and audited as
 * its release: every device must match the model (spec/nic.md NIC-1 to NIC-3 for virtio-net,
 * spec/blk-mq.md for virtio-blk and nvme), every NIC IRQ sit where the kernel put it, and every
 * XPS map be the driver's.
 */
class BootedDeviceRunsTest {

    @Test
    void the6_1_6_12And7_3KernelsWereBootedWithTheirDevices() {
        List<BootedDeviceRuns.Run> runs = BootedDeviceRuns.all();
        for (String k : List.of("6.1", "6.12", "7.3")) {
            List<BootedDeviceRuns.Run> of = runs.stream().filter(r -> r.kernel().equals(KernelRelease.parse(k))).toList();
            assertTrue(of.stream().filter(r -> r.asked("virtio_net_queue_pairs") > 0).count() >= 2,
                    "fewer than two virtio-net runs of Linux " + k + " (devices on no node and on node 1) in " + BootedDeviceRuns.RUNS);
            assertTrue(of.stream().anyMatch(r -> r.asked("nvme_write_queues") > 0 && r.asked("nvme_poll_queues") > 0),
                    "no run of Linux " + k + " with nvme's write and poll queues in " + BootedDeviceRuns.RUNS);
            // NIC-2 gives the online CPUs left over by an even cut to the first pairs: only a run whose
            // pairs in use do not divide the online CPUs shows to which (cloud-vm-*: 3 pairs, 8 CPUs).
            assertTrue(of.stream().anyMatch(r -> {
                int n = r.snapshot().topology().topology().numOnlineCpus(), pairs = r.asked("virtio_net_queue_pairs");
                return pairs > 0 && n % Math.min(pairs, n) != 0;
            }), "no virtio-net run of Linux " + k + " whose pairs in use leave CPUs over, in " + BootedDeviceRuns.RUNS);
        }
    }

    /**
     * AUD-8 on the real kernels: nvme, loaded with write_queues=2 and poll_queues=2 on a controller
     * of 8 I/O queues, showed 6 I/O vectors (2 write, 4 read, each set spread on its own) and a disk
     * of 8 queues, the last 2 polled on the default map; all as the model gives. Read as one set of
     * 6 vectors (write_queues 0 assumed, as without the rule), the controller and the disk differ.
     */
    @TestFactory
    @Proves("AUD-8")
    Stream<DynamicTest> nvmesWriteReadAndPollQueuesAreWhereTheKernelPutThem() {
        List<DynamicTest> tests = new ArrayList<>();
        for (BootedDeviceRuns.Run run : BootedDeviceRuns.all()) {
            if (run.asked("nvme_write_queues") == 0) continue;
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                Topology m = run.snapshot().topology().topology();
                List<Device> devices = Devices.find(run.snapshot(), m);
                Device nvme = devices.stream().filter(d -> d.name().equals("nvme0")).findFirst().orElseThrow();
                Device disk = devices.stream().filter(d -> d.name().equals("nvme0n1")).findFirst().orElseThrow();
                assertEquals(7, nvme.count());
                assertEquals(8, disk.count());
                assertEquals(Optional.of(new Device.NvmeSplit("nvme0", 6, 2, run.name() + ".tar:sys/module/nvme/parameters/write_queues")),
                        disk.nvme());
                assertEquals("nvme's queues: 2 write and 4 read vectors of nvme0 (write_queues 2, " + run.name()
                        + ".tar:sys/module/nvme/parameters/write_queues); queues 6-7 polled (no IRQ: blk_mq_map_queues)",
                        AuditText.nvmeQueues(disk).orElseThrow());
                assertTrue(Audit.audit(m, List.of(nvme, disk), run.kernel()).matches(), run.name());
                // Without the rule: one set of the 6 vectors, and 8 queues each taking a vector.
                Device oneSet = new Device(nvme.name(), nvme.kind(), nvme.node(), nvme.nodeSource(), nvme.slots(), nvme.xps(),
                        Optional.of(new Device.NvmeSplit("nvme0", 6, 0, "as if write_queues were 0")));
                Device noSplit = new Device(disk.name(), disk.kind(), disk.node(), disk.nodeSource(), disk.slots());
                Audit.Result wrong = Audit.audit(m, List.of(oneSet, noSplit), run.kernel());
                assertTrue(wrong.devices().get(0).outcome() instanceof Audit.Differs, run.name() + ":\n" + AuditText.devices(wrong));
                assertTrue(wrong.devices().get(1).outcome() instanceof Audit.Differs, run.name() + ":\n" + AuditText.devices(wrong));
            }));
        }
        return tests.stream();
    }

    @TestFactory
    @Proves({"NIC-1", "NIC-2", "NIC-3", "AUD-6", "AUD-7", "AUD-8", "MQ-9", "MQ-10"})
    Stream<DynamicTest> everyDeviceARealKernelSetUpIsWhatTheModelGives() {
        List<DynamicTest> tests = new ArrayList<>();
        for (BootedDeviceRuns.Run run : BootedDeviceRuns.all())
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                Topology m = run.snapshot().topology().topology();
                List<Device> devices = Devices.find(run.snapshot(), m);
                List<DeviceKind> kinds = devices.stream().map(Device::kind).toList();
                for (var asked : List.of(Map.entry("virtio_net_queue_pairs", DeviceKind.VIRTIO_NET),
                        Map.entry("virtio_blk_num_queues", DeviceKind.VIRTIO_BLK_IRQS), Map.entry("nvme_max_ioqpairs", DeviceKind.NVME_IRQS)))
                    assertEquals(run.asked(asked.getKey()) > 0, kinds.contains(asked.getValue()),
                            run.name() + ": found " + kinds + "; asked " + run.asked());
                Audit.Result r = Audit.audit(m, devices, run.kernel());
                String text = AuditText.devices(r);
                assertTrue(r.matches(), run.name() + " audited as " + run.kernel() + ":\n" + text);
                for (Audit.DeviceResult d : r.devices()) {
                    for (Audit.IrqVerdict v : d.irqs()) assertTrue(v.kernels(), run.name() + ": " + v + "\n" + text);
                    for (Audit.XpsVerdict x : d.xps())
                        assertEquals("as the driver set it".equals(x.text()) || x.text().startsWith("none, as the driver"), true, run.name() + ": " + x);
                }
            }));
        return tests.stream();
    }
}
