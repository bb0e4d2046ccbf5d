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

    public record DeviceResult(Device device, Outcome outcome) {
        public boolean matches() {
            return outcome instanceof Match;
        }
    }

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
            try {
                expected = Optional.of(Expectations.of(d, kernel, machine));
                o = compare(d, expected.get());
            } catch (KernelBug e) {
                expected = Optional.empty();
                o = new NotModelled("Linux " + kernel + " would fail here: " + e.getMessage());
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                expected = Optional.empty();
                o = new NotModelled(e.getMessage() == null ? d.kind().routine().id() + " is not modelled for " + kernel : e.getMessage());
            }
            results.add(new DeviceResult(d, o));
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
            if (s.hint().isPresent() && !s.hint().get().equals(s.actual()))
                out.add(new Finding(Finding.MOVED, who + ": affinity " + s.actual().toList() + " is not the driver's hint "
                        + s.hint().get().toList() + ": something else moved it (irqbalance, or a tuning script)"));
        }
        return out;
    }
}
