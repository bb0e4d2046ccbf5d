package dev.numaspread.conformance.audit;

import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The device runs of fixtures/kernel-runs (issue 27): real 6.1, 6.12 and 7.3 kernels booted by
 * {@code numaspread kernel run --virtio-net --virtio-blk --nvme}, whose {@code results.devices}
 * hold the files the guest showed. Each is read back as a snapshot of its machine and audited as
 * its release: every device must match the model (spec/nic.md NIC-1 to NIC-3 for virtio-net,
 * spec/blk-mq.md for virtio-blk and nvme), every NIC IRQ sit where the kernel put it, and every
 * XPS map be the driver's.
 */
class BootedDeviceRunsTest {

    @Test
    void the6_1_6_12And7_3KernelsWereBootedWithTheirDevices() {
        List<BootedDeviceRuns.Run> runs = BootedDeviceRuns.all();
        for (String k : List.of("6.1", "6.12", "7.3"))
            assertTrue(runs.stream().filter(r -> r.kernel().equals(KernelRelease.parse(k))).count() >= 2,
                    "fewer than two device runs of Linux " + k + " (devices on no node and on node 1) in " + BootedDeviceRuns.RUNS);
    }

    @TestFactory
    @Proves({"NIC-1", "NIC-2", "NIC-3", "AUD-6", "MQ-9", "MQ-10"})
    Stream<DynamicTest> everyDeviceARealKernelSetUpIsWhatTheModelGives() {
        List<DynamicTest> tests = new ArrayList<>();
        for (BootedDeviceRuns.Run run : BootedDeviceRuns.all())
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                Topology m = run.snapshot().topology().topology();
                List<Device> devices = Devices.find(run.snapshot(), m);
                List<DeviceKind> kinds = devices.stream().map(Device::kind).toList();
                assertTrue(kinds.contains(DeviceKind.VIRTIO_NET) && kinds.contains(DeviceKind.VIRTIO_BLK_IRQS) && kinds.contains(DeviceKind.NVME_IRQS),
                        run.name() + ": found " + kinds + "; expected the virtio-net, virtio-blk and nvme devices the run booted with");
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
