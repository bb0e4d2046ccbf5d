package dev.numaspread.conformance.audit;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/** The audit as {@code numaspread audit} prints it: one line per device, the first difference, findings, the releases that explain it. */
public final class AuditText {

    private AuditText() {}

    /** The devices and findings of {@code result}, of a snapshot in which everything could be audited. */
    public static String devices(Audit.Result result) {
        return devices(result, List.of());
    }

    /**
     * The devices and findings of {@code result}, then what the snapshot did not let the audit see
     * ({@code unaudited}, {@link Devices#unaudited}): then no full match is claimed.
     */
    public static String devices(Audit.Result result, List<String> unaudited) {
        StringBuilder sb = new StringBuilder();
        for (String u : unaudited) sb.append("NOT-AUDITED   ").append(u).append('\n');
        if (result.devices().isEmpty())
            sb.append("no device found: /proc/interrupts names no mlx5, mana, nvme, virtio, ena, gve, ice, i40e or bnxt IRQ and sys/block"
                    + " has no mq/ queues\n");
        for (Audit.DeviceResult r : result.devices()) {
            Device d = r.device();
            String verdict = r.outcome() instanceof Audit.Match ? "MATCH" : r.outcome() instanceof Audit.Differs ? "DIFFERS" : "NOT-MODELLED";
            sb.append(String.format("%-13s %-22s %-19s node %-3d %s%n", verdict, d.name(), d.kind().routine().id(), d.node(), slots(d)));
            nvmeQueues(d).ifPresent(t -> sb.append("              ").append(t).append('\n'));
            if (r.outcome() instanceof Audit.Differs x) {
                sb.append("              ").append(x.label()).append(": expected ").append(x.expected().toText()).append(", actual ")
                        .append(x.actual().map(CpuSet::toText).orElse("missing")).append('\n');
                if (!x.why().isEmpty()) sb.append("              ").append(x.why()).append('\n');
            } else if (r.outcome() instanceof Audit.NotModelled n) sb.append("              ").append(n.reason()).append('\n');
            for (Audit.IrqVerdict v : r.irqs())
                sb.append(String.format("              %-28s %-14s shows %-10s %s%n", v.slot().label(), v.driver(), v.slot().actual().toText(), v.text()));
            for (Audit.XpsVerdict v : r.xps())
                sb.append(String.format("              %-28s %-14s shows %-10s %s%n", "XPS of tx-" + v.xps().queue(),
                        v.driver().map(c -> "sets " + c.toText()).orElse("sets none"), v.xps().cpus().toText(), v.text()));
        }
        if (!result.findings().isEmpty()) {
            sb.append("\nfindings\n");
            for (Finding f : result.findings()) sb.append(String.format("  %-18s %s%n", f.code(), f.text()));
        }
        long differ = result.devices().stream().filter(r -> r.outcome() instanceof Audit.Differs).count();
        long notModelled = result.devices().stream().filter(r -> r.outcome() instanceof Audit.NotModelled).count();
        String every = unaudited.isEmpty() ? "every device" : "every device found";
        sb.append('\n').append(differ == 0 ? every + (notModelled > 0 ? " the model covers" : "") + " matches Linux " + result.kernel()
                : differ + " of " + result.devices().size() + (unaudited.isEmpty() ? " devices" : " devices found") + " differ from Linux " + result.kernel());
        if (!unaudited.isEmpty()) sb.append("; not a full audit: ").append(unaudited.size()).append(unaudited.size() == 1 ? " part" : " parts")
                .append(" of the machine could not be audited");
        if (notModelled > 0) sb.append("; ").append(notModelled).append(" not modelled for it");
        return sb.append('\n').toString();
    }

    /** The {@code --identify} section: per device, then for the whole machine, the releases that explain what it shows. */
    public static String identify(List<Audit.Result> everyRelease, List<Device> devices, Optional<KernelRelease> running) {
        StringBuilder sb = new StringBuilder("releases that explain what the machine shows (" + Identify.ranges(
                everyRelease.stream().map(Audit.Result::kernel).toList()) + " modelled)\n");
        for (int i = 0; i < devices.size(); i++)
            sb.append(String.format("  %-22s %s%n", devices.get(i).name(), Identify.ranges(Identify.explaining(everyRelease, i))));
        List<KernelRelease> all = Identify.explaining(everyRelease);
        sb.append(String.format("  %-22s %s%n", "every device", Identify.ranges(all)));
        running.ifPresent(k -> sb.append(all.contains(k) ? "the machine runs " + k + ", which is among them\n"
                : all.isEmpty() ? "the machine runs " + k + "; no modelled release explains everything it shows\n"
                : "the machine runs " + k + " but behaves like " + Identify.ranges(all) + "\n"));
        return sb.toString();
    }

    /**
     * How nvme split the I/O queues of {@code d} (spec/audit.md AUD-8), when not into one set of
     * vectors alone: {@code 2 write and 4 read vectors (write_queues 2, FILE); queues 6-7 polled}.
     */
    static Optional<String> nvmeQueues(Device d) {
        if (d.nvme().isEmpty()) return Optional.empty();
        Device.NvmeSplit n = d.nvme().get();
        List<Integer> sets = dev.numaspread.model.group.NvmeQueues.irqSets(n.ioIrqs(), n.writeQueues());
        int polled = d.kind() == DeviceKind.BLOCK_BY_IRQ && n.ioIrqs() > 0 ? Math.max(0, d.count() - n.ioIrqs()) : 0;
        if (sets.isEmpty() && polled == 0) return Optional.empty();
        String t = sets.isEmpty() ? n.ioIrqs() + " vectors of " + n.controller() + ", one set"
                : sets.get(0) + " write and " + sets.get(1) + " read vectors of " + n.controller() + " (write_queues " + n.writeQueues()
                        + ", " + n.source() + ")";
        if (polled > 0) t += "; " + (polled == 1 ? "queue " + n.ioIrqs() + " polled" : "queues " + n.ioIrqs() + "-" + (d.count() - 1) + " polled")
                + " (no IRQ: blk_mq_map_queues)";
        return Optional.of("nvme's queues: " + t);
    }

    private static String slots(Device d) {
        List<Device.Slot> s = d.slots();
        if (s.get(0).irq().isEmpty()) return s.size() + (s.size() == 1 ? " queue" : " queues");
        // IRQ numbers are no CPU ids: they pass NR_CPUS on large machines, so they are not a CpuSet.
        return s.size() + (s.size() == 1 ? " IRQ " : " IRQs ") + ranges(s.stream().mapToInt(x -> x.irq().getAsInt()).sorted().distinct().toArray());
    }

    /** Ascending numbers as ranges, as the kernel prints lists: {@code 24-31,9040}. */
    static String ranges(int[] ascending) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ascending.length; ) {
            int j = i;
            while (j + 1 < ascending.length && ascending[j + 1] == ascending[j] + 1) j++;
            sb.append(sb.length() == 0 ? "" : ",").append(ascending[i]);
            if (j > i) sb.append('-').append(ascending[j]);
            i = j + 1;
        }
        return sb.toString();
    }

    /** The header: where the snapshot came from, the machine, the release it runs and the one audited. */
    public static String header(String snapshot, Topology m, int skipped, Optional<String> osrelease, KernelRelease audited) {
        return "snapshot  " + snapshot + (skipped == 0 ? "" : " (" + skipped + " unreadable files skipped)") + "\n"
                + "machine   " + m.nodes().size() + " nodes, possible CPUs " + m.possible().toList() + ", online " + m.online().toList() + "\n"
                + "kernel    " + osrelease.map(o -> "Linux " + o + ", audited as " + audited).orElse("audited as " + audited) + "\n\n";
    }
}
