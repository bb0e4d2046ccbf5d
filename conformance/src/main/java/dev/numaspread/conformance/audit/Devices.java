package dev.numaspread.conformance.audit;

import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.nic.QueueIrq;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the devices of a snapshot (spec/audit.md AUD-1): IRQ vectors by the handler names of
 * {@code /proc/interrupts}, block devices by their {@code /sys/block/DEV/mq/} queues; and each
 * device's node from its PCI device's {@code numa_node} (named in the handler, or owning the IRQ
 * in {@code msi_irqs/}), else {@code /proc/irq/N/node}, else NUMA_NO_NODE.
 */
public final class Devices {

    private Devices() {}

    // Queue and vector numbers have at most 5 digits (a device has at most 65536 queues): a longer
    // number is not one of these devices' names, and parsing it can never overflow.
    private static final Pattern MLX5 = Pattern.compile("mlx5_comp(\\d{1,5})@pci:(\\S+)");
    private static final Pattern MANA_Q = Pattern.compile("mana_q(\\d{1,5})@pci:(\\S+)");
    private static final Pattern MANA_HWC = Pattern.compile("mana_hwc@pci:(\\S+)");
    private static final Pattern NVME = Pattern.compile("(nvme\\d+)q(\\d{1,5})");
    private static final Pattern VIRTIO_REQ = Pattern.compile("(virtio\\d+)-req\\.(\\d{1,5})");
    private static final Pattern VIRTIO_CONFIG = Pattern.compile("(virtio\\d+)-config");
    // The NICs of spec/nic.md (AUD-6).
    private static final Pattern VIRTIO_NET_Q = Pattern.compile("(virtio\\d+)-(input|output)\\.(\\d{1,5})");
    private static final Pattern ENA_IO = Pattern.compile("(\\S+)-Tx-Rx-(\\d{1,5})");
    private static final Pattern ENA_MGMT = Pattern.compile("ena-mgmnt@pci:(\\S+)");
    private static final Pattern GVE_BLOCK = Pattern.compile("gve-ntfy-blk(\\d{1,5})@pci:(\\S+)");
    private static final Pattern GVE_MGMT = Pattern.compile("gve-mgmnt@pci:(\\S+)");
    private static final Pattern GVE_BLOCK_6_1 = Pattern.compile("(\\S+)-ntfy-block\\.(\\d{1,5})");
    private static final Pattern ICE = Pattern.compile("ice-(\\S+)-TxRx-(\\d{1,5})");
    private static final Pattern I40E = Pattern.compile("i40e-(\\S+)-TxRx-(\\d{1,5})");
    private static final Pattern TXRX = Pattern.compile("(\\S+)-TxRx-(\\d{1,5})");
    private static final Pattern PCI_ADDRESS = Pattern.compile("[0-9a-f]{4,}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    private static final Pattern BY_IRQ_BLOCK = Pattern.compile("nvme\\d+n\\d+|vd[a-z]+");
    // An nvme disk's sys/class/block link names its controller: .../nvme/nvme0/nvme0n1.
    private static final Pattern NVME_CONTROLLER = Pattern.compile("/nvme/(nvme\\d{1,5})/");

    /**
     * One IRQ line recognised as vector {@code index} of a device. A NIC's IRQ (spec/nic.md) also
     * has its role and queue; its index, which needs the device's queue count, comes once every
     * IRQ of the device is known ({@link NicLayout}).
     */
    private record Vector(String device, DeviceKind kind, Optional<String> pci, int index, int irq, String name, boolean isQueue,
                          Optional<QueueIrq.Role> role, int queue) {
        Vector(String device, DeviceKind kind, Optional<String> pci, int index, int irq, String name, boolean isQueue) {
            this(device, kind, pci, index, irq, name, isQueue, Optional.empty(), 0);
        }

        static Vector nic(String device, DeviceKind kind, Optional<String> pci, int irq, String name, QueueIrq.Role role, int queue) {
            return new Vector(device, kind, pci, -1, irq, name, role.isQueue(), Optional.of(role), queue);
        }

        Vector at(int index, QueueIrq.Role role, int queue) {
            return new Vector(device, kind, pci, index, irq, name, role.isQueue(), Optional.of(role), queue);
        }
    }

    /**
     * The devices of the snapshot, IRQ devices in order of their first IRQ, then block devices by name.
     *
     * @throws InvalidTopologyException when {@code /proc/interrupts} or an affinity file cannot be read
     */
    public static List<Device> find(MachineSnapshot s, Topology m) {
        List<Device> out = new ArrayList<>();
        Optional<String> interrupts = s.text("proc/interrupts");
        if (interrupts.isPresent()) {
            ProcInterrupts pi = ProcInterrupts.parse(interrupts.get(), s.where("proc/interrupts"), m);
            Map<Integer, String> msiOwners = msiOwners(s);
            TreeMap<String, List<Vector>> byDevice = new TreeMap<>();
            List<String> order = new ArrayList<>();
            for (ProcInterrupts.Line l : pi.lines())
                for (String t : l.tokens())
                    vector(t, l.irq()).or(() -> nicVector(s, t, l.irq(), msiOwners)).ifPresent(v -> {
                        if (!byDevice.containsKey(v.device())) order.add(v.device());
                        byDevice.computeIfAbsent(v.device(), k -> new ArrayList<>()).add(v);
                    });
            for (String d : order) {
                List<Vector> v = byDevice.get(d);
                // Every virtio device has a config vector; a NIC has input and output queues, a disk request queues.
                if (v.stream().anyMatch(x -> x.kind() == DeviceKind.VIRTIO_NET)) v = virtioNet(v);
                else if (v.get(0).kind() == DeviceKind.VIRTIO_BLK_IRQS && v.stream().noneMatch(Vector::isQueue)) continue;
                if (v.get(0).kind().isNic()) v = laidOut(v);
                Device device = irqDevice(s, m, v, msiOwners);
                // An nvme controller's I/O vectors may be split into write and read sets (AUD-8).
                if (device.kind() == DeviceKind.NVME_IRQS) device = withNvmeSplit(s, device, device.name(), device.count() - 1);
                out.add(device);
            }
        }
        List<Device> controllers = List.copyOf(out);
        for (String dev : s.children("sys/block")) {
            TreeMap<Integer, String> queues = new TreeMap<>();
            for (String q : s.children("sys/block/" + dev + "/mq"))
                if (q.length() <= 5 && ProcInterrupts.isNumber(q) && s.text("sys/block/" + dev + "/mq/" + q + "/cpu_list").isPresent())
                    queues.put(Integer.parseInt(q), "sys/block/" + dev + "/mq/" + q + "/cpu_list");
            if (queues.isEmpty()) continue;
            List<Device.Slot> slots = new ArrayList<>();
            for (Map.Entry<Integer, String> q : queues.entrySet())
                slots.add(new Device.Slot(q.getKey(), "queue " + q.getKey(), OptionalInt.empty(), list(s, q.getValue()),
                        Optional.empty(), Optional.empty(), true, s.where(q.getValue())));
            DeviceKind kind = BY_IRQ_BLOCK.matcher(dev).matches() ? DeviceKind.BLOCK_BY_IRQ : DeviceKind.BLOCK_DEFAULT;
            Optional<String> pci = s.linkTarget("sys/class/block/" + dev).flatMap(Devices::pciIn);
            int[] node = {Numa.NUMA_NO_NODE};
            String nodeSource = pci.flatMap(a -> numaNode(s, a, m, node)).orElse("no PCI device: NUMA_NO_NODE");
            Device d = new Device(dev, kind, node[0], nodeSource, slots);
            // An nvme disk: its controller's I/O vectors serve its first queues, the rest are polled (AUD-8).
            Optional<String> controller = s.linkTarget("sys/class/block/" + dev).map(NVME_CONTROLLER::matcher).filter(Matcher::find)
                    .map(x -> x.group(1));
            if (controller.isPresent()) {
                Optional<Device> c = controllers.stream().filter(x -> x.kind() == DeviceKind.NVME_IRQS && x.name().equals(controller.get())).findFirst();
                if (c.isPresent()) d = withNvmeSplit(s, d, controller.get(), c.get().count() - 1);
            }
            out.add(d);
        }
        return out;
    }

    static final String WRITE_QUEUES = "sys/module/nvme/parameters/write_queues";

    /** {@code d} with how nvme split the I/O queues of {@code controller}: {@code ioIrqs} vectors, sets by {@code write_queues}. */
    private static Device withNvmeSplit(MachineSnapshot s, Device d, String controller, int ioIrqs) {
        Optional<String> text = s.text(WRITE_QUEUES);
        int write = 0;
        String source = "no " + WRITE_QUEUES + ": write_queues 0 assumed";
        if (text.isPresent()) {
            String t = text.get().strip();
            if (!t.matches("[0-9]{1,5}"))
                throw new InvalidTopologyException(s.where(WRITE_QUEUES), "found " + dev.numaspread.model.input.Printable.quote(t)
                        + "; expected a queue count");
            write = Integer.parseInt(t);
            source = s.where(WRITE_QUEUES);
        }
        return new Device(d.name(), d.kind(), d.node(), d.nodeSource(), d.slots(), d.xps(),
                Optional.of(new Device.NvmeSplit(controller, Math.max(ioIrqs, 0), write, source)));
    }

    /**
     * What the snapshot does not let the audit see, one line each: without {@code proc/interrupts}
     * no IRQ device (mlx5, mana, nvme, virtio) can be found, and an audit of the block devices
     * alone is no full match.
     */
    public static List<String> unaudited(MachineSnapshot s) {
        if (s.text("proc/interrupts").isPresent()) return List.of();
        return List.of(s.where("proc/interrupts") + ": no such file, so no IRQ device (mlx5, mana, nvme, virtio) was audited;"
                + " take the snapshot again with 'numaspread snapshot' to audit them");
    }

    private static Optional<Vector> vector(String token, int irq) {
        Matcher x;
        if ((x = MLX5.matcher(token)).matches())
            return Optional.of(new Vector("mlx5 " + x.group(2), DeviceKind.MLX5_COMP, Optional.of(x.group(2)), Integer.parseInt(x.group(1)), irq, token, true));
        if ((x = MANA_Q.matcher(token)).matches())
            return Optional.of(new Vector("mana " + x.group(2), DeviceKind.MANA, Optional.of(x.group(2)), Integer.parseInt(x.group(1)) + 1, irq, token, true));
        if ((x = MANA_HWC.matcher(token)).matches())
            return Optional.of(new Vector("mana " + x.group(1), DeviceKind.MANA, Optional.of(x.group(1)), 0, irq, token, false));
        if ((x = NVME.matcher(token)).matches()) {
            int q = Integer.parseInt(x.group(2));
            return Optional.of(new Vector(x.group(1), DeviceKind.NVME_IRQS, Optional.empty(), q, irq, token, q > 0));
        }
        if ((x = VIRTIO_REQ.matcher(token)).matches())
            return Optional.of(new Vector(x.group(1), DeviceKind.VIRTIO_BLK_IRQS, Optional.empty(), Integer.parseInt(x.group(2)) + 1, irq, token, true));
        if ((x = VIRTIO_CONFIG.matcher(token)).matches())
            return Optional.of(new Vector(x.group(1), DeviceKind.VIRTIO_BLK_IRQS, Optional.empty(), 0, irq, token, false));
        return Optional.empty();
    }

    /**
     * The IRQ of a NIC named {@code token} (AUD-6): virtio-net's queues (its config IRQ is found as
     * any virtio device's), ena's, gve's (6.1's names and later ones), ice's and i40e's, and bnxt's
     * {@code IF-TxRx-Q}, a name many drivers give, taken as bnxt's only when the PCI device owning
     * the IRQ is bound to {@code bnxt_en}.
     */
    private static Optional<Vector> nicVector(MachineSnapshot s, String token, int irq, Map<Integer, String> msiOwners) {
        Matcher x;
        if ((x = VIRTIO_NET_Q.matcher(token)).matches())
            return Optional.of(Vector.nic(x.group(1), DeviceKind.VIRTIO_NET, Optional.empty(), irq, token,
                    x.group(2).equals("input") ? QueueIrq.Role.RX : QueueIrq.Role.TX, Integer.parseInt(x.group(3))));
        if ((x = ENA_MGMT.matcher(token)).matches())
            return Optional.of(Vector.nic("ena " + x.group(1), DeviceKind.ENA, Optional.of(x.group(1)), irq, token, QueueIrq.Role.MANAGEMENT, 0));
        if ((x = ENA_IO.matcher(token)).matches())
            return Optional.of(nicOf(msiOwners, "ena", DeviceKind.ENA, x.group(1), irq, token, QueueIrq.Role.RX_TX, Integer.parseInt(x.group(2))));
        // gve's blocks are numbered: transmit first, then receive; laidOut() tells them apart by the block count.
        if ((x = GVE_BLOCK.matcher(token)).matches())
            return Optional.of(Vector.nic("gve " + x.group(2), DeviceKind.GVE, Optional.of(x.group(2)), irq, token, QueueIrq.Role.TX,
                    Integer.parseInt(x.group(1))));
        if ((x = GVE_MGMT.matcher(token)).matches())
            return Optional.of(Vector.nic("gve " + x.group(1), DeviceKind.GVE, Optional.of(x.group(1)), irq, token, QueueIrq.Role.MANAGEMENT, 0));
        if ((x = GVE_BLOCK_6_1.matcher(token)).matches())
            return Optional.of(nicOf(msiOwners, "gve", DeviceKind.GVE, x.group(1), irq, token, QueueIrq.Role.TX, Integer.parseInt(x.group(2))));
        if ((x = ICE.matcher(token)).matches())
            return Optional.of(nicOf(msiOwners, "ice", DeviceKind.ICE, x.group(1), irq, token, QueueIrq.Role.RX_TX, Integer.parseInt(x.group(2))));
        if ((x = I40E.matcher(token)).matches())
            return Optional.of(nicOf(msiOwners, "i40e", DeviceKind.I40E, x.group(1), irq, token, QueueIrq.Role.RX_TX, Integer.parseInt(x.group(2))));
        if ((x = TXRX.matcher(token)).matches()) {
            Optional<String> pci = Optional.ofNullable(msiOwners.get(irq));
            if (pci.isPresent() && s.linkTarget("sys/bus/pci/devices/" + pci.get() + "/driver").filter(t -> t.endsWith("/bnxt_en")).isPresent())
                return Optional.of(Vector.nic("bnxt " + pci.get(), DeviceKind.BNXT, pci, irq, token, QueueIrq.Role.RX_TX, Integer.parseInt(x.group(2))));
        }
        return Optional.empty();
    }

    /** A NIC IRQ named after its interface: the device is its PCI device when the snapshot tells, else the interface. */
    private static Vector nicOf(Map<Integer, String> msiOwners, String driver, DeviceKind kind, String iface, int irq, String token, QueueIrq.Role role, int queue) {
        Optional<String> pci = Optional.ofNullable(msiOwners.get(irq));
        return Vector.nic(driver + " " + pci.orElse(iface), kind, pci, irq, token, role, queue);
    }

    /** A virtio device with input and output queues: its config IRQ is the NIC's. */
    private static List<Vector> virtioNet(List<Vector> v) {
        List<Vector> out = new ArrayList<>();
        for (Vector x : v)
            out.add(x.kind() == DeviceKind.VIRTIO_NET ? x
                    : x.kind() == DeviceKind.VIRTIO_BLK_IRQS && !x.isQueue()
                    ? Vector.nic(x.device(), DeviceKind.VIRTIO_NET, x.pci(), x.irq(), x.name(), QueueIrq.Role.CONFIG, 0) : x);
        out.removeIf(x -> x.kind() != DeviceKind.VIRTIO_NET);
        return out;
    }

    /** A NIC's IRQs with their vector index, once the queue count is known from the highest queue shown. */
    private static List<Vector> laidOut(List<Vector> v) {
        DeviceKind kind = v.get(0).kind();
        int highest = v.stream().filter(x -> x.role().orElseThrow().isQueue()).mapToInt(Vector::queue).max().orElse(-1);
        // gve's numbers are blocks: the transmit half, then the receive half.
        int queues = kind == DeviceKind.GVE ? (highest + 2) / 2 : highest + 1;
        List<Vector> out = new ArrayList<>();
        for (Vector x : v) {
            QueueIrq.Role role = x.role().orElseThrow();
            int queue = x.queue();
            if (kind == DeviceKind.GVE && role == QueueIrq.Role.TX && queue >= queues) {
                role = QueueIrq.Role.RX;
                queue -= queues;
            }
            out.add(x.at(NicLayout.index(kind, role, queue, queues), role, queue));
        }
        return out;
    }

    private static Device irqDevice(MachineSnapshot s, Topology m, List<Vector> vectors, Map<Integer, String> msiOwners) {
        Vector first = vectors.get(0);
        TreeMap<Integer, Device.Slot> slots = new TreeMap<>();
        for (Vector v : vectors) {
            String dir = "proc/irq/" + v.irq() + "/";
            String source = dir + "smp_affinity_list";
            CpuSet actual;
            if (s.text(source).isPresent()) actual = list(s, source);
            else if (s.text(dir + "smp_affinity").isPresent()) actual = mask(s, (source = dir + "smp_affinity"));
            else throw new InvalidTopologyException(s.where(source), "no such file; expected the affinity of IRQ " + v.irq() + " ("
                    + v.name() + "), which /proc/interrupts lists: was the snapshot taken while the device was set up? take it again");
            Optional<CpuSet> effective = s.text(dir + "effective_affinity_list").isPresent()
                    ? Optional.of(list(s, dir + "effective_affinity_list")) : Optional.empty();
            Optional<CpuSet> hint = s.text(dir + "affinity_hint").isPresent()
                    ? Optional.of(mask(s, dir + "affinity_hint")).filter(h -> !h.isEmpty()) : Optional.empty();
            slots.putIfAbsent(v.index(), new Device.Slot(v.index(), "IRQ " + v.irq() + " (" + v.name() + ")", OptionalInt.of(v.irq()),
                    actual, effective, hint, v.isQueue(), s.where(source)));
        }
        int[] node = {Numa.NUMA_NO_NODE};
        Optional<String> pci = first.pci().or(() -> Optional.ofNullable(msiOwners.get(first.irq())));
        String nodeSource = pci.flatMap(a -> numaNode(s, a, m, node))
                .or(() -> irqNode(s, first.irq(), m, node))
                .orElse("no numa_node found: NUMA_NO_NODE");
        String name = first.device();
        List<Device.Xps> xps = first.kind().isNic() ? xps(s, name, pci) : List.of();
        return new Device(name, first.kind(), node[0], nodeSource, List.copyOf(slots.values()), xps);
    }

    /**
     * The XPS maps of the NIC {@code name} (spec/nic.md): those of the interface whose
     * {@code sys/class/net/IF} link leads through its virtio device or its PCI device, or that is
     * named in the device's name; in transmit queue order.
     */
    private static List<Device.Xps> xps(MachineSnapshot s, String name, Optional<String> pci) {
        String virtio = name.startsWith("virtio") ? "/" + name + "/" : null;
        for (String iface : s.children("sys/class/net")) {
            Optional<String> target = s.linkTarget("sys/class/net/" + iface);
            boolean ours = virtio != null ? target.filter(t -> t.contains(virtio)).isPresent()
                    : pci.isPresent() ? target.filter(t -> t.contains("/" + pci.get() + "/")).isPresent()
                    : name.endsWith(" " + iface);
            if (!ours) continue;
            TreeMap<Integer, Device.Xps> out = new TreeMap<>();
            for (String q : s.children("sys/class/net/" + iface + "/queues")) {
                if (!q.matches("tx-\\d{1,5}")) continue;
                String f = "sys/class/net/" + iface + "/queues/" + q + "/xps_cpus";
                if (s.text(f).isEmpty()) continue;
                int queue = Integer.parseInt(q.substring(3));
                out.put(queue, new Device.Xps(queue, mask(s, f), s.where(f)));
            }
            return List.copyOf(out.values());
        }
        return List.of();
    }

    /**
     * The PCI device whose {@code msi_irqs/} holds each IRQ, read once: a look-up per device
     * would walk every PCI device for each, quadratic in the devices (issue 25: 6,000 devices took 69 s).
     */
    private static Map<Integer, String> msiOwners(MachineSnapshot s) {
        Map<Integer, String> out = new java.util.HashMap<>();
        String prefix = "sys/bus/pci/devices/";
        for (String path : s.paths(prefix)) {
            int msi = path.indexOf("/msi_irqs/", prefix.length());
            if (msi < 0 || path.indexOf('/', prefix.length()) != msi) continue;
            String irq = path.substring(msi + "/msi_irqs/".length());
            if (irq.length() > 9 || !ProcInterrupts.isNumber(irq) || s.text(path).isEmpty()) continue;
            out.putIfAbsent(Integer.parseInt(irq), path.substring(prefix.length(), msi));
        }
        return out;
    }

    private static Optional<String> pciIn(String linkTarget) {
        Optional<String> last = Optional.empty();
        for (String part : linkTarget.split("/")) if (PCI_ADDRESS.matcher(part).matches()) last = Optional.of(part);
        return last;
    }

    /** Sets {@code node[0]} from the PCI device's numa_node and returns the file, when the snapshot has it. */
    private static Optional<String> numaNode(MachineSnapshot s, String pci, Topology m, int[] node) {
        String f = "sys/bus/pci/devices/" + pci + "/numa_node";
        return s.text(f).map(t -> {
            node[0] = nodeNumber(s, f, t, m);
            return s.where(f);
        });
    }

    private static Optional<String> irqNode(MachineSnapshot s, int irq, Topology m, int[] node) {
        String f = "proc/irq/" + irq + "/node";
        return s.text(f).map(t -> {
            node[0] = nodeNumber(s, f, t, m);
            return s.where(f);
        });
    }

    private static int nodeNumber(MachineSnapshot s, String f, String text, Topology m) {
        String t = text.strip();
        // ASCII digits only: Integer.parseInt would read '١' as 1 (FMT-16).
        if (!t.matches("-?[0-9]{1,9}"))
            throw new InvalidTopologyException(s.where(f), "found " + dev.numaspread.model.input.Printable.quote(t) + "; expected a node id or -1");
        int n = Integer.parseInt(t);
        if (n != Numa.NUMA_NO_NODE && !m.hasNode(n))
            throw new InvalidTopologyException(s.where(f), "names node " + n + ", which the snapshot's machine does not have (nodes "
                    + m.nodeMask().toList() + "); expected a node of sys/devices/system/node or -1");
        return n;
    }

    private static CpuSet list(MachineSnapshot s, String f) {
        try {
            return CpuSet.parseList(s.text(f).orElseThrow());
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(s.where(f), e.getMessage());
        }
    }

    private static CpuSet mask(MachineSnapshot s, String f) {
        try {
            return CpuSet.parseMask(s.text(f).orElseThrow());
        } catch (IllegalArgumentException e) {
            throw new InvalidTopologyException(s.where(f), e.getMessage());
        }
    }
}
