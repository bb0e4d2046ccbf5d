package dev.numaspread.cli.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.Affinity;
import dev.numaspread.model.nic.AffinitySetting;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code numaspread plan --device D --queues N}: the IRQs a NIC driver of spec/nic.md requests
 * and the XPS masks it sets, for one or more releases; each IRQ with the mask the driver computes,
 * whether it forces it or only hints it, and what {@code smp_affinity_list} then shows (NIC-1).
 */
public final class DevicePlan {
    private DevicePlan() {}

    /** The devices {@code --device} names, each the routine {@code D-irqs}, in spec/nic.md's order. */
    public static List<String> devices() {
        return Arrays.stream(Routine.values()).filter(Routine::isNic).map(r -> r.id().substring(0, r.id().length() - "-irqs".length())).toList();
    }

    /** The routine of device {@code name} ({@code bnxt} is {@code bnxt-irqs}); empty for another name. */
    public static Optional<Routine> routineOf(String name) {
        return Routine.byId(name + "-irqs").filter(Routine::isNic);
    }

    /** The formats {@code --device} prints: one or more releases in list, table and json; one in smp_affinity. */
    public static final List<PlanFormat> FORMATS = List.of(PlanFormat.LIST, PlanFormat.TABLE, PlanFormat.JSON, PlanFormat.SMP_AFFINITY);

    /** One release's answer for the device. */
    public record Result(Routine routine, KernelRelease kernel, Topology machine, int node, int queues, NicQueues queuesSetUp) {}

    /** What {@code impl} gives for the device in release {@code k}. */
    public static Result ask(Implementation impl, Routine r, KernelRelease k, Topology m, int node, int queues) {
        NicQueues q = switch (r) {
            case VIRTIO_NET_IRQS -> impl.virtioNetIrqs(k, m, node, queues);
            case ENA_IRQS -> impl.enaIrqs(k, m, node, queues);
            case GVE_IRQS -> impl.gveIrqs(k, m, node, queues);
            case ICE_IRQS -> impl.iceIrqs(k, m, node, queues);
            case I40E_IRQS -> impl.i40eIrqs(k, m, node, queues);
            case BNXT_IRQS -> impl.bnxtIrqs(k, m, node, queues);
            default -> throw new IllegalArgumentException(r.id() + " is not a NIC routine");
        };
        return new Result(r, k, m, node, queues, q);
    }

    /** The text of {@code results} (one per release, in {@code --kernel}'s order) in {@code format}. */
    public static String render(List<Result> results, PlanFormat format, Optional<Integer> firstIrq) {
        return switch (format) {
            case LIST -> blocks(results, false);
            case TABLE -> blocks(results, true);
            case JSON -> json(results);
            case SMP_AFFINITY -> smpAffinity(results.get(0), firstIrq);
            default -> throw new IllegalArgumentException("--format '" + format.word() + "': --device prints " + PlanFormat.words(FORMATS));
        };
    }

    /** What the IRQ shows after setup, and why, in the words of a report. */
    static String why(Result r, QueueIrq irq) {
        CpuSet shown = Affinity.shown(r.machine(), r.node(), irq);
        String stays = "the IRQ keeps the default affinity " + shown.toText();
        return switch (irq.setting()) {
            case FORCED -> irq.mask().intersects(r.machine().online()) ? "" : "no online CPU in the mask: refused, " + stays;
            case HINT -> "hint only: " + stays + " until irqbalance or a user applies the hint";
            case NONE -> "not set: " + stays;
        };
    }

    private static String blocks(List<Result> results, boolean table) {
        StringBuilder sb = new StringBuilder();
        for (Result r : results) {
            if (results.size() > 1) sb.append(sb.length() == 0 ? "" : "\n").append("Linux ").append(r.kernel()).append('\n');
            List<String[]> rows = new ArrayList<>();
            rows.add(table ? new String[]{"irq", "setting", "cpus", "node", "shows", "note"} : null);
            for (QueueIrq irq : r.queuesSetUp().irqs()) {
                String cpus = irq.setting() == AffinitySetting.NONE ? "-" : irq.mask().toText();
                CpuSet shown = Affinity.shown(r.machine(), r.node(), irq);
                rows.add(table ? new String[]{irq.label(), irq.setting().id(), cpus, nodes(r.machine(), irq.mask()), shown.toText(), why(r, irq)}
                        : new String[]{irq.label(), irq.setting().id(), cpus, why(r, irq).isEmpty() ? "" : "(" + why(r, irq) + ")"});
            }
            rows.removeIf(java.util.Objects::isNull);
            sb.append(aligned(rows));
            if (r.queuesSetUp().xps().isEmpty()) sb.append("xps: none set\n");
            else for (int q = 0; q < r.queuesSetUp().xps().size(); q++)
                sb.append("xps tx ").append(q).append(": ").append(r.queuesSetUp().xps().get(q).toText()).append('\n');
        }
        return sb.toString();
    }

    private static String nodes(Topology m, CpuSet s) {
        CpuSet possible = s.and(m.possible());
        return possible.isEmpty() ? "-" : m.nodesOf(possible).toList();
    }

    /** The rows with their columns padded to the widest cell, the last column as it is. */
    private static String aligned(List<String[]> rows) {
        int cols = rows.get(0).length;
        int[] width = new int[cols];
        for (String[] row : rows) for (int c = 0; c < cols - 1; c++) width[c] = Math.max(width[c], row[c].length());
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cols; c++) line.append(c < cols - 1 ? String.format("%-" + (width[c] + 2) + "s", row[c]) : row[c]);
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private static String smpAffinity(Result r, Optional<Integer> firstIrq) {
        StringBuilder sb = new StringBuilder();
        List<QueueIrq> irqs = r.queuesSetUp().irqs();
        for (int k = 0; k < irqs.size(); k++) {
            if (firstIrq.isPresent()) sb.append(firstIrq.get() + k).append(": ");
            sb.append(Affinity.shown(r.machine(), r.node(), irqs.get(k)).toMask(r.machine().nrCpuIds())).append('\n');
        }
        return sb.toString();
    }

    private static String json(List<Result> results) {
        ArrayNode all = JsonText.array();
        for (Result r : results) {
            ObjectNode o = JsonText.asked(r.routine().id(), r.kernel(), r.machine());
            all.add(o);
            o.put("node", r.node());
            o.put("queues", r.queues());
            o.put("nrCpuIds", r.machine().nrCpuIds());
            ArrayNode irqs = o.putArray("irqs");
            for (QueueIrq irq : r.queuesSetUp().irqs()) {
                CpuSet shown = Affinity.shown(r.machine(), r.node(), irq);
                irqs.addObject().put("irq", irq.label()).put("role", irq.role().id()).put("queue", irq.queue())
                        .put("setting", irq.setting().id()).put("cpus", irq.mask().toList())
                        .put("shows", shown.toList()).put("mask", shown.toMask(r.machine().nrCpuIds()));
            }
            ArrayNode xps = o.putArray("xps");
            for (CpuSet s : r.queuesSetUp().xps()) xps.add(s.toList());
        }
        return JsonText.of(results.size() == 1 ? all.get(0) : all);
    }

    /** True when release {@code k} of the driver reads the device's node (gve from 6.17, bnxt). */
    public static boolean readsNode(Routine r, KernelRelease k) {
        return r == Routine.GVE_IRQS && k.atLeast(6, 17) || r == Routine.BNXT_IRQS;
    }
}
