package dev.numaspread.conformance.audit;

import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.Numa;
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
    private static final Pattern PCI_ADDRESS = Pattern.compile("[0-9a-f]{4,}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    private static final Pattern BY_IRQ_BLOCK = Pattern.compile("nvme\\d+n\\d+|vd[a-z]+");

    /** One IRQ line recognised as vector {@code index} of a device. */
    private record Vector(String device, DeviceKind kind, Optional<String> pci, int index, int irq, String name, boolean isQueue) {}

    /**
     * The devices of the snapshot, IRQ devices in order of their first IRQ, then block devices by name.
     *
     * @throws InvalidTopologyException when {@code /proc/interrupts} or an affinity file cannot be read
     */
    public static List<Device> find(MachineSnapshot s, Topology m) {
        List<Device> out = new ArrayList<>();
        Optional<String> interrupts = s.text("proc/interrupts");
        if (interrupts.isPresent()) {
            ProcInterrupts pi = ProcInterrupts.parse(interrupts.get(), s.where("proc/interrupts"));
            TreeMap<String, List<Vector>> byDevice = new TreeMap<>();
            List<String> order = new ArrayList<>();
            for (ProcInterrupts.Line l : pi.lines())
                for (String t : l.tokens())
                    vector(t, l.irq()).ifPresent(v -> {
                        if (!byDevice.containsKey(v.device())) order.add(v.device());
                        byDevice.computeIfAbsent(v.device(), k -> new ArrayList<>()).add(v);
                    });
            for (String d : order) {
                List<Vector> v = byDevice.get(d);
                // Every virtio device has a config vector; only those with request queues are virtio-blk.
                if (v.get(0).kind() == DeviceKind.VIRTIO_BLK_IRQS && v.stream().noneMatch(Vector::isQueue)) continue;
                out.add(irqDevice(s, m, v));
            }
        }
        for (String dev : s.children("sys/block")) {
            TreeMap<Integer, String> queues = new TreeMap<>();
            for (String q : s.children("sys/block/" + dev + "/mq"))
                if (!q.isEmpty() && q.length() <= 5 && q.chars().allMatch(Character::isDigit) && s.text("sys/block/" + dev + "/mq/" + q + "/cpu_list").isPresent())
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
            out.add(new Device(dev, kind, node[0], nodeSource, slots));
        }
        return out;
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

    private static Device irqDevice(MachineSnapshot s, Topology m, List<Vector> vectors) {
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
        Optional<String> pci = first.pci().or(() -> msiOwner(s, first.irq()));
        String nodeSource = pci.flatMap(a -> numaNode(s, a, m, node))
                .or(() -> irqNode(s, first.irq(), m, node))
                .orElse("no numa_node found: NUMA_NO_NODE");
        String name = first.device();
        return new Device(name, first.kind(), node[0], nodeSource, List.copyOf(slots.values()));
    }

    /** The PCI device whose {@code msi_irqs/} holds {@code irq}. */
    private static Optional<String> msiOwner(MachineSnapshot s, int irq) {
        for (String pci : s.children("sys/bus/pci/devices"))
            if (s.text("sys/bus/pci/devices/" + pci + "/msi_irqs/" + irq).isPresent()) return Optional.of(pci);
        return Optional.empty();
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
        int n;
        try {
            n = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new InvalidTopologyException(s.where(f), "found '" + text.strip() + "'; expected a node id or -1");
        }
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
