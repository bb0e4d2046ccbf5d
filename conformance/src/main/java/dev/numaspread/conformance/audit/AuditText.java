package dev.numaspread.conformance.audit;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/** The audit as {@code numaspread audit} prints it: one line per device, the first difference, findings, the releases that explain it. */
public final class AuditText {

    private AuditText() {}

    /** The devices and findings of {@code result}. */
    public static String devices(Audit.Result result) {
        StringBuilder sb = new StringBuilder();
        if (result.devices().isEmpty())
            sb.append("no device found: /proc/interrupts names no mlx5, mana, nvme, virtio, ena, gve, ice, i40e or bnxt IRQ and sys/block"
                    + " has no mq/ queues\n");
        for (Audit.DeviceResult r : result.devices()) {
            Device d = r.device();
            String verdict = r.outcome() instanceof Audit.Match ? "MATCH" : r.outcome() instanceof Audit.Differs ? "DIFFERS" : "NOT-MODELLED";
            sb.append(String.format("%-13s %-22s %-19s node %-3d %s%n", verdict, d.name(), d.kind().routine().id(), d.node(), slots(d)));
            if (r.outcome() instanceof Audit.Differs x) {
                sb.append("              ").append(x.label()).append(": expected ").append(x.expected().toText()).append(", actual ")
                        .append(x.actual().map(CpuSet::toText).orElse("missing")).append('\n');
                if (!x.why().isEmpty()) sb.append("              ").append(x.why()).append('\n');
            } else if (r.outcome() instanceof Audit.NotModelled n) sb.append("              ").append(n.reason()).append('\n');
            for (Audit.IrqVerdict v : r.irqs())
                sb.append(String.format("              %-28s %-14s shows %-10s %s%n", v.slot().label(), v.driver(), v.slot().actual().toText(), v.text()));
        }
        if (!result.findings().isEmpty()) {
            sb.append("\nfindings\n");
            for (Finding f : result.findings()) sb.append(String.format("  %-18s %s%n", f.code(), f.text()));
        }
        long differ = result.devices().stream().filter(r -> r.outcome() instanceof Audit.Differs).count();
        long notModelled = result.devices().stream().filter(r -> r.outcome() instanceof Audit.NotModelled).count();
        sb.append('\n').append(differ == 0 ? "every device" + (notModelled > 0 ? " the model covers" : "") + " matches Linux " + result.kernel()
                : differ + " of " + result.devices().size() + " devices differ from Linux " + result.kernel());
        if (notModelled > 0) sb.append("; ").append(notModelled).append(" not modelled for it");
        return sb.append('\n').toString();
    }

    /** The {@code --identify} section: per device, then for the whole machine, the releases that explain what it shows. */
    public static String identify(List<Audit.Result> everyRelease, List<Device> devices, Optional<KernelRelease> running) {
        StringBuilder sb = new StringBuilder("releases that explain what the machine shows (" + Identify.ranges(
                everyRelease.stream().map(Audit.Result::kernel).toList()) + " modelled)\n");
        for (Device d : devices)
            sb.append(String.format("  %-22s %s%n", d.name(), Identify.ranges(Identify.explaining(everyRelease, d))));
        List<KernelRelease> all = Identify.explaining(everyRelease);
        sb.append(String.format("  %-22s %s%n", "every device", Identify.ranges(all)));
        running.ifPresent(k -> sb.append(all.contains(k) ? "the machine runs " + k + ", which is among them\n"
                : all.isEmpty() ? "the machine runs " + k + "; no modelled release explains everything it shows\n"
                : "the machine runs " + k + " but behaves like " + Identify.ranges(all) + "\n"));
        return sb.toString();
    }

    private static String slots(Device d) {
        List<Device.Slot> s = d.slots();
        if (s.get(0).irq().isEmpty()) return s.size() + (s.size() == 1 ? " queue" : " queues");
        CpuSet irqs = CpuSet.ofStream(s.stream().mapToInt(x -> x.irq().getAsInt()));
        return s.size() + (s.size() == 1 ? " IRQ " : " IRQs ") + irqs.toList();
    }

    /** The header: where the snapshot came from, the machine, the release it runs and the one audited. */
    public static String header(String snapshot, Topology m, int skipped, Optional<String> osrelease, KernelRelease audited) {
        return "snapshot  " + snapshot + (skipped == 0 ? "" : " (" + skipped + " unreadable files skipped)") + "\n"
                + "machine   " + m.nodes().size() + " nodes, possible CPUs " + m.possible().toList() + ", online " + m.online().toList() + "\n"
                + "kernel    " + osrelease.map(o -> "Linux " + o + ", audited as " + audited).orElse("audited as " + audited) + "\n\n";
    }
}
