package dev.numaspread.kernel.guest;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The devices a guest boots with beside its channel, for the queue placements of spec/nic.md and
 * spec/blk-mq.md (issue 27): a multi-queue virtio-net NIC on a tap backend, a virtio-blk disk and
 * an NVMe controller, each with the queues asked for, and each on node {@code node} through a PCI
 * expander bridge when {@code node >= 0} (else on the root bus, where Linux gives it no node).
 *
 * @param virtioNetPairs  virtio-net queue pairs ({@code -netdev tap,queues=N}, {@code mq=on}); 0 for none
 * @param virtioBlkQueues virtio-blk request queues ({@code num-queues}); 0 for none
 * @param nvmeQueues      NVMe I/O queue pairs the controller offers ({@code max_ioqpairs}); 0 for none
 * @param node            the node the devices sit on (a PCI expander bridge with {@code numa_node}), or -1
 * @param nvmeWriteQueues the nvme module's {@code write_queues}: with more than 0, the I/O queues are
 *                        split into write (default) and read queues, one interrupt set each
 * @param nvmePollQueues  the nvme module's {@code poll_queues}: queues without an IRQ, polled
 */
public record GuestDevices(int virtioNetPairs, int virtioBlkQueues, int nvmeQueues, int node, int nvmeWriteQueues, int nvmePollQueues) {

    /** No device: the guest of the routine runs. */
    public static final GuestDevices NONE = new GuestDevices(0, 0, 0, -1);

    /** The devices with nvme's default queue types (no write or poll queues). */
    public GuestDevices(int virtioNetPairs, int virtioBlkQueues, int nvmeQueues, int node) {
        this(virtioNetPairs, virtioBlkQueues, nvmeQueues, node, 0, 0);
    }

    /** The most queues asked of one device: QEMU's virtio allows 1024 virtqueues, and this keeps boots small. */
    public static final int MAX_QUEUES = 64;

    public GuestDevices {
        for (int q : new int[]{virtioNetPairs, virtioBlkQueues, nvmeQueues, nvmeWriteQueues, nvmePollQueues})
            if (q < 0 || q > MAX_QUEUES) throw new IllegalArgumentException("queues " + q + "; expected 0 to " + MAX_QUEUES);
        if (node < -1) throw new IllegalArgumentException("node " + node + "; expected a node id or -1");
        if (nvmeQueues == 0 && (nvmeWriteQueues > 0 || nvmePollQueues > 0))
            throw new IllegalArgumentException("write or poll queues without an NVMe controller; expected --nvme too");
    }

    public boolean isEmpty() {
        return virtioNetPairs == 0 && virtioBlkQueues == 0 && nvmeQueues == 0;
    }

    /**
     * The modules the guest loads for them (with their dependencies), by name and then the module's
     * parameters, if any ({@code nvme write_queues=2 poll_queues=2}): the drivers are modules in
     * Debian's kernels.
     */
    public List<String> modules() {
        List<String> out = new ArrayList<>();
        if (virtioNetPairs > 0) out.add("virtio_net");
        if (virtioBlkQueues > 0) out.add("virtio_blk");
        if (nvmeQueues > 0)
            out.add("nvme" + (nvmeWriteQueues > 0 ? " write_queues=" + nvmeWriteQueues : "") + (nvmePollQueues > 0 ? " poll_queues=" + nvmePollQueues : ""));
        return out;
    }

    /**
     * QEMU's arguments for the devices; the disks' images (1 MiB of zeros) are made in {@code dir},
     * the tap interface is named after {@code tag} (QEMU makes it and removes it when it exits).
     *
     * @throws IOException when a disk image cannot be made
     */
    public List<String> qemuArguments(Path dir, String tag) throws IOException {
        List<String> a = new ArrayList<>();
        String bus = "";
        if (node >= 0) {
            a.addAll(List.of("-device", "pxb-pcie,id=pxb0,bus_nr=128,numa_node=" + node + ",bus=pcie.0"));
            bus = "pxb0";
        }
        int port = 0;
        if (virtioNetPairs > 0) {
            a.addAll(List.of("-netdev", "tap,id=nt0,ifname=" + tapName(tag) + ",script=no,downscript=no,vhost=off,queues=" + virtioNetPairs));
            device(a, bus, port++, "virtio-net-pci,netdev=nt0,mq=on,vectors=" + (2 * virtioNetPairs + 2));
        }
        if (virtioBlkQueues > 0) {
            a.addAll(List.of("-drive", "if=none,id=vd0,format=raw,file=" + image(dir.resolve("vda.img"))));
            device(a, bus, port++, "virtio-blk-pci,drive=vd0,num-queues=" + virtioBlkQueues);
        }
        if (nvmeQueues > 0) {
            a.addAll(List.of("-drive", "if=none,id=nv0,format=raw,file=" + image(dir.resolve("nvme.img"))));
            device(a, bus, port, "nvme,serial=numaspread,drive=nv0,max_ioqpairs=" + nvmeQueues);
        }
        return a;
    }

    /** The device {@code spec}: on the root bus, or behind the expander bridge {@code bus} on a root port of its own. */
    private static void device(List<String> a, String bus, int port, String spec) {
        if (bus.isEmpty()) {
            a.addAll(List.of("-device", spec));
            return;
        }
        a.addAll(List.of("-device", "pcie-root-port,id=rp" + port + ",bus=" + bus + ",chassis=" + (port + 1) + ",slot=0"));
        a.addAll(List.of("-device", spec + ",bus=rp" + port));
    }

    /** A tap name of at most 15 bytes (IFNAMSIZ - 1), unique per guest. */
    static String tapName(String tag) {
        String t = "nsq" + tag.replaceAll("[^A-Za-z0-9]", "");
        return t.length() > 15 ? t.substring(t.length() - 15) : t;
    }

    private static String image(Path p) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(1 << 20);
        }
        return p.toString();
    }
}
