package dev.numaspread.conformance.audit;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.NodeMask;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compares what a machine shows with what the model gives for one release (spec/audit.md
 * AUD-2, AUD-3): per device MATCH, or the first IRQ or queue that differs with the expected and
 * the actual CPUs; and findings that hold whatever the release.
 */
public final class Audit {

    private Audit() {}

    /** The verdict on one device. */
    public sealed interface Outcome permits Match, Differs, NotModelled {}

    /** Every IRQ or queue shows what the model gives. */
    public record Match() implements Outcome {}

    /**
     * The first slot that differs: {@code actual} is empty when the machine lacks the slot.
     *
     * @param label {@code IRQ 45 (nvme0q1)} or {@code queue 3}
     */
    public record Differs(int index, String label, CpuSet expected, Optional<CpuSet> actual, String why) implements Outcome {}

    /** The model has no answer for the device in this release (not modelled, or the release fails there). */
    public record NotModelled(String reason) implements Outcome {}

    /**
     * A device's verdict; for a NIC (AUD-6) and for nvme's and virtio-blk's IRQ vectors (AUD-9)
     * also one line per IRQ, saying whether it sits where the kernel put it.
     */
    public record DeviceResult(Device device, Outcome outcome, List<IrqVerdict> irqs, List<XpsVerdict> xps) {
        public DeviceResult {
            irqs = List.copyOf(irqs);
            xps = List.copyOf(xps);
        }

        public DeviceResult(Device device, Outcome outcome) {
            this(device, outcome, List.of(), List.of());
        }

        public boolean matches() {
            return outcome instanceof Match;
        }
    }

    /**
     * One IRQ of a NIC (AUD-6) or of a block device's vectors (AUD-9): how its driver or the kernel
     * set it, and whether it shows what the kernel put there ({@code kernels}) or something else did.
     *
     * @param slot    the IRQ as the machine shows it
     * @param driver  what the driver set: {@code forced 4}, {@code hint 4}, {@code not set}; for a
     *                block device {@code managed 4-7}, or {@code pre-vector 0-3} as the kernel started it
     * @param applied true when the kernel applied the driver's mask (forced, with an online CPU), or
     *                the mask of a managed vector
     * @param kernels true when it shows what the kernel put there (the forced mask, or the default affinity)
     * @param text    the verdict in words
     */
    public record IrqVerdict(Device.Slot slot, String driver, boolean applied, boolean kernels, String text) {}

    /**
     * One transmit queue's XPS map of a NIC (AUD-6): what the release's driver sets, if anything,
     * and whether the machine still shows it. Words, never a difference: a user or a tuning
     * script (GCP's guest agent) may set XPS after the driver.
     *
     * @param xps    the map as the machine shows it
     * @param driver the map the driver sets; empty when the release's driver sets none for the queue
     * @param text   the verdict in words
     */
    public record XpsVerdict(Device.Xps xps, Optional<CpuSet> driver, String text) {}

    /** The audit of a machine for one release. */
    public record Result(KernelRelease kernel, List<DeviceResult> devices, List<Finding> findings) {
        public Result {
            devices = List.copyOf(devices);
            findings = List.copyOf(findings);
        }

        /** True when every device matches (a machine without devices matches vacuously). */
        public boolean matches() {
            return devices.stream().allMatch(DeviceResult::matches);
        }
    }

    /** Audits {@code devices} of {@code machine} against release {@code kernel}. */
    public static Result audit(Topology machine, List<Device> devices, KernelRelease kernel) {
        List<DeviceResult> results = new ArrayList<>();
        List<Finding> findings = new ArrayList<>();
        for (Device d : devices) {
            Optional<List<CpuSet>> expected;
            Outcome o;
            List<IrqVerdict> irqs = List.of();
            List<XpsVerdict> xps = List.of();
            try {
                expected = Optional.of(Expectations.of(d, kernel, machine));
                if (d.kind().isNic()) {
                    dev.numaspread.model.nic.NicQueues q = Expectations.nicQueues(d, kernel, machine);
                    irqs = nicVerdicts(machine, d, q);
                    xps = xpsVerdicts(d, q);
                    o = compareNic(d, expected.get(), irqs);
                } else {
                    o = compare(d, expected.get());
                    if (d.kind().hasManagedIrqs()) irqs = managedVerdicts(d, expected.get(), kernel);
                }
            } catch (KernelBug e) {
                expected = Optional.empty();
                o = new NotModelled("Linux " + kernel + " would fail here: " + e.getMessage());
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                expected = Optional.empty();
                o = new NotModelled(e.getMessage() == null ? d.kind().routine().id() + " is not modelled for " + kernel : e.getMessage());
            }
            results.add(new DeviceResult(d, o, irqs, xps));
            findings.addAll(findings(machine, d, expected, kernel));
        }
        return new Result(kernel, results, findings);
    }

    static Outcome compare(Device d, List<CpuSet> expected) {
        int next = 0;
        for (Device.Slot s : d.slots()) {
            // A slot the machine lacks before this one: the driver asked for fewer, or the snapshot lost it.
            if (s.index() > next)
                return new Differs(next, slotName(d, next), expected.get(next), Optional.empty(), "the machine shows no " + slotName(d, next));
            // The routine may set up fewer vectors than the machine shows (MANA sizes itself): the rest differ.
            if (s.index() >= expected.size())
                return new Differs(s.index(), s.label(), CpuSet.EMPTY, Optional.of(s.actual()),
                        "Linux gives the device " + expected.size() + " vectors; the machine shows more");
            if (!s.actual().equals(expected.get(s.index())))
                return new Differs(s.index(), s.label(), expected.get(s.index()), Optional.of(s.actual()), movedBy(s, expected.get(s.index())));
            next = s.index() + 1;
        }
        return new Match();
    }

    /**
     * A NIC's verdict (AUD-6): it differs only where the kernel put something and the machine
     * shows otherwise (a forced mask moved), where a queue IRQ below the highest one shown is
     * missing, or where it shows more IRQs than the driver requests. An IRQ the kernel did not force
     * may show anything.
     */
    static Outcome compareNic(Device d, List<CpuSet> expected, List<IrqVerdict> irqs) {
        java.util.Map<Integer, Device.Slot> shown = new java.util.TreeMap<>();
        for (Device.Slot s : d.slots()) shown.put(s.index(), s);
        java.util.Map<Integer, IrqVerdict> verdicts = new java.util.TreeMap<>();
        for (IrqVerdict v : irqs) verdicts.put(v.slot().index(), v);
        for (int i = 0; i < d.count(); i++) {
            Device.Slot s = shown.get(i);
            if (s == null) {
                if (i < expected.size() && isQueueIndex(d, i))
                    return new Differs(i, slotName(d, i), expected.get(i), Optional.empty(), "the machine shows no " + slotName(d, i));
            } else if (i >= expected.size()) {
                return new Differs(i, s.label(), CpuSet.EMPTY, Optional.of(s.actual()),
                        "Linux gives the device " + expected.size() + " IRQs; the machine shows more");
            } else if (verdicts.get(i).applied() && !verdicts.get(i).kernels()) {
                return new Differs(i, s.label(), expected.get(i), Optional.of(s.actual()),
                        "the driver forced " + expected.get(i).toText() + "; something else moved the IRQ after setup (irqbalance, or a user)");
            }
        }
        return new Match();
    }

    /** False for a NIC's management and config vectors, which a snapshot may name otherwise: their absence is no difference. */
    private static boolean isQueueIndex(Device d, int index) {
        return switch (d.kind()) {
            case VIRTIO_NET, ENA -> index > 0;
            case GVE -> index < 2 * NicLayout.queues(d.kind(), d.count());
            default -> true;
        };
    }

    /** Each transmit queue the machine shows a map for, against what the release's driver sets (AUD-6). */
    static List<XpsVerdict> xpsVerdicts(Device d, dev.numaspread.model.nic.NicQueues q) {
        List<XpsVerdict> out = new ArrayList<>();
        for (Device.Xps x : d.xps()) {
            Optional<CpuSet> driver = x.queue() < q.xps().size() ? Optional.of(q.xps().get(x.queue())) : Optional.empty();
            String text = driver.isEmpty() ? (x.cpus().isEmpty() ? "none, as the driver left it" : "the driver sets none: a user or a tuning script set it")
                    : driver.get().equals(x.cpus()) ? "as the driver set it"
                    : "the driver set " + driver.get().toText() + ": changed since (a user, or a tuning script)";
            out.add(new XpsVerdict(x, driver, text));
        }
        return out;
    }

    /** Each IRQ of a NIC as its driver set it in the release, and whether the machine shows what the kernel put there (AUD-6). */
    static List<IrqVerdict> nicVerdicts(Topology m, Device d, dev.numaspread.model.nic.NicQueues q) {
        List<IrqVerdict> out = new ArrayList<>();
        for (Device.Slot s : d.slots()) {
            if (s.index() >= q.irqs().size()) continue;
            dev.numaspread.model.nic.QueueIrq irq = q.irqs().get(s.index());
            CpuSet left = dev.numaspread.model.nic.Affinity.shown(m, d.node(), irq);
            boolean applied = irq.setting() == dev.numaspread.model.nic.AffinitySetting.FORCED && irq.mask().intersects(m.online());
            String driver = switch (irq.setting()) {
                case FORCED -> "forced " + irq.mask().toText();
                case HINT -> "hint " + irq.mask().toText();
                case NONE -> "not set";
            };
            boolean kernels = s.actual().equals(left);
            String text;
            if (applied) text = kernels ? "where the kernel put it"
                    : "moved: the driver forced " + left.toText() + "; something else changed it (irqbalance, or a user)";
            else {
                String why = switch (irq.setting()) {
                    case FORCED -> "the driver's mask " + irq.mask().toText() + " has no online CPU";
                    case HINT -> "hint only";
                    case NONE -> "not set by the driver";
                };
                text = kernels ? "where the kernel left it: the default affinity (" + why + ")"
                        : why + ": the affinity may have been changed by irqbalance or a user (the kernel left " + left.toText() + ")";
            }
            out.add(new IrqVerdict(s, driver, applied, kernels, text));
        }
        return out;
    }

    /**
     * Each IRQ vector of an nvme controller or a virtio-blk disk (AUD-9): vector 0, the pre-vector,
     * where the kernel started it (AUD-7), the others managed with the mask of their set's spread,
     * and whether the machine shows that. User space cannot set a managed IRQ's affinity
     * ({@code irq_can_set_affinity_usr()}, kernel/irq/manage.c: 6.1.192 answers a write with -EIO,
     * 6.12.117 and 7.3.4 with -EPERM), so a managed vector elsewhere was placed so by the kernel;
     * the pre-vector is not managed, and irqbalance or a user may move it. {@code expected} has an
     * entry per index up to the device's count ({@link Expectations#of}).
     */
    static List<IrqVerdict> managedVerdicts(Device d, List<CpuSet> expected, KernelRelease kernel) {
        List<IrqVerdict> out = new ArrayList<>();
        for (Device.Slot s : d.slots()) {
            CpuSet put = expected.get(s.index());
            boolean pre = s.index() == 0, kernels = s.actual().equals(put);
            String text = kernels ? "where the kernel put it"
                    : pre ? "moved: the kernel started it on " + put.toText() + "; something else changed it (irqbalance, or a user)"
                    : "not where Linux " + kernel + " puts it: user space cannot move a managed IRQ, so a kernel placed it otherwise";
            out.add(new IrqVerdict(s, (pre ? "pre-vector " : "managed ") + put.toText(), !pre, kernels, text));
        }
        return out;
    }

    private static String slotName(Device d, int index) {
        return switch (d.kind()) {
            case BLOCK_BY_IRQ, BLOCK_DEFAULT -> "queue " + index;
            default -> "vector " + index;
        };
    }

    /** Why an IRQ may show other CPUs than the routine gave it, when the machine tells. */
    private static String movedBy(Device.Slot s, CpuSet expected) {
        if (s.hint().isPresent() && s.hint().get().equals(expected))
            return "the driver's hint is the expected " + expected.toList() + ": something else moved the IRQ after setup (irqbalance?)";
        return "";
    }

    /** The findings of one device (AUD-3). */
    static List<Finding> findings(Topology m, Device d, Optional<List<CpuSet>> expected, KernelRelease kernel) {
        List<Finding> out = new ArrayList<>();
        CpuSet offline = m.possible().andNot(m.online());
        for (Device.Slot s : d.slots()) {
            String who = s.irq().isPresent() ? s.label() : s.label() + " of " + d.name();
            if (s.effective().isPresent() && s.effective().get().intersects(offline))
                out.add(new Finding(Finding.OFFLINE_EFFECTIVE, who + ": effective affinity " + s.effective().get().toList()
                        + " includes offline CPUs " + s.effective().get().and(offline).toList()));
            if (s.irq().isPresent() && !s.actual().isEmpty() && s.actual().isSubsetOf(offline))
                out.add(new Finding(Finding.OFFLINE_ONLY, who + ": affinity " + s.actual().toList()
                        + " lies only on offline CPUs (a managed IRQ is shut down until one comes back)"));
            if (s.isQueue()) {
                NodeMask nodes = m.nodesOf(s.actual().and(m.possible()));
                if (nodes.size() > 1) {
                    boolean modelToo = expected.isPresent() && s.index() < expected.get().size()
                            && expected.get().get(s.index()).equals(s.actual());
                    out.add(new Finding(Finding.CROSSES_NODES, who + ": CPUs " + s.actual().toList() + " span nodes " + nodes.toList()
                            + (modelToo ? " (as Linux " + kernel + " places them)" : "")));
                }
            }
            // A NIC's hint the kernel never applied is no sign of a move: its IRQ lines say what it shows (AUD-6).
            if (s.hint().isPresent() && !s.hint().get().equals(s.actual()) && !d.kind().isNic())
                out.add(new Finding(Finding.MOVED, who + ": affinity " + s.actual().toList() + " is not the driver's hint "
                        + s.hint().get().toList() + ": something else moved it (irqbalance, or a tuning script)"));
        }
        return out;
    }
}
