package dev.numaspread.kernel.guest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.conformance.snapshot.Tar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a guest booted with {@link GuestDevices} shows of them (issue 27): the device files of its
 * snapshot ({@code /proc/interrupts}, each IRQ's affinity files, block queues, PCI devices, network
 * interfaces' XPS maps), kept under {@code results.devices} of a kernel run
 * (fixtures/kernel-runs/README.md) and read back into a snapshot for {@code numaspread audit}.
 * Every value is a file the kernel wrote; none is computed here.
 */
public final class DeviceRun {

    private DeviceRun() {}

    /** The prefixes of the device files: everything the agent's {@code devsnap} reads. */
    static final List<String> DEVICE_FILES = List.of("proc/interrupts", "proc/irq/", "sys/block/", "sys/class/block/", "sys/bus/pci/",
            "sys/class/net/", "sys/module/nvme/parameters/");

    /**
     * The guest's snapshot once its devices have set up their queues: asked again, every half
     * second, until the block devices the guest was given show their queues (nvme probes in a
     * work item, after its module loaded) or {@code wait} has passed.
     */
    public static List<Tar.Entry> settledSnapshot(QemuGuest g, GuestDevices d, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        List<Tar.Entry> s = g.deviceSnapshot();
        while (!settled(s, d) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            s = g.deviceSnapshot();
        }
        return s;
    }

    /** True when each block device asked for shows a queue, and virtio-net its transmit queues. */
    static boolean settled(List<Tar.Entry> s, GuestDevices d) {
        boolean vd = d.virtioBlkQueues() == 0 || s.stream().anyMatch(e -> e.path().matches("sys/block/vd[a-z]+/mq/0/cpu_list"));
        boolean nvme = d.nvmeQueues() == 0 || s.stream().anyMatch(e -> e.path().matches("sys/block/nvme\\d+n\\d+/mq/0/cpu_list"));
        boolean net = d.virtioNetPairs() == 0 || s.stream().anyMatch(e -> e.path().matches("sys/class/net/[^/]+/queues/tx-0/xps_cpus"));
        return vd && nvme && net;
    }

    /**
     * {@code results.devices} of a run: the devices asked for ({@code asked}: the QEMU options) and
     * the device files of {@code snapshot}, {@code files} by path and {@code links} by path, in
     * path order.
     */
    public static ObjectNode json(GuestDevices d, List<Tar.Entry> snapshot) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        ObjectNode asked = o.putObject("asked");
        asked.put("virtio_net_queue_pairs", d.virtioNetPairs());
        asked.put("virtio_blk_num_queues", d.virtioBlkQueues());
        asked.put("nvme_max_ioqpairs", d.nvmeQueues());
        if (d.nvmeWriteQueues() > 0) asked.put("nvme_write_queues", d.nvmeWriteQueues());
        if (d.nvmePollQueues() > 0) asked.put("nvme_poll_queues", d.nvmePollQueues());
        asked.put("node", d.node());
        TreeMap<String, String> files = new TreeMap<>(), links = new TreeMap<>();
        for (Tar.Entry e : snapshot) {
            if (DEVICE_FILES.stream().noneMatch(p -> e.path().startsWith(p))) continue;
            if (e instanceof Tar.File f) files.put(f.path(), f.text());
            else if (e instanceof Tar.Link l) links.put(l.path(), l.target());
        }
        ObjectNode f = o.putObject("files");
        files.forEach(f::put);
        ObjectNode l = o.putObject("links");
        links.forEach(l::put);
        return o;
    }

    /**
     * The device files of a run's {@code results.devices} as snapshot entries, to add to the
     * system files of its machine ({@link MachineSnapshot#of}).
     */
    public static List<Tar.Entry> entries(JsonNode devices) {
        List<Tar.Entry> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = devices.path("files").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.add(new Tar.File(e.getKey(), e.getValue().asText().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = devices.path("links").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.add(new Tar.Link(e.getKey(), e.getValue().asText()));
        }
        return out;
    }
}
