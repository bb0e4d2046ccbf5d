package dev.numaspread.cli.plan;

import dev.numaspread.conformance.comparison.ReleaseColumns;
import dev.numaspread.conformance.picture.Placement;
import dev.numaspread.conformance.picture.PlacementPicture;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.numa.ArchSchedNodeDistance;
import dev.numaspread.model.topology.NodeMask;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The text forms of a plan ({@code plan --format NAME}), in the order help lists them, {@code list}
 * (the default) first. A format says only what its lines hold; the walk over a plan's rows is
 * {@link #lines}, once: a line per slot (a queue, hop, group or IRQ), or for a queue map a line
 * per possible CPU where the format prints it so. NIC and page pool plans print in some of these
 * formats too ({@link DevicePlan#FORMATS}, {@link PagePoolPlan#FORMATS}).
 */
public enum PlanFormat {

    /**
     * {@code list}: one {@code smp_affinity_list} per slot, as {@code /proc/irq/N/smp_affinity_list}
     * prints it (an untouched IRQ is an empty line); for a queue map, {@code cpu queue} pairs for the
     * possible CPUs. Several releases print one column each, the rows that differ marked
     * ({@link ReleaseColumns}).
     */
    LIST {
        @Override public boolean takesSeveralReleases() {
            return true;
        }

        @Override public String render(List<Planned> plans) {
            if (plans.size() == 1)
                return plans.get(0).plan() instanceof Plan.QueueMap map ? lines(map, (cpu, queue) -> cpu + " " + queue)
                        : lines(plans.get(0), (k, slot) -> slot.toList());
            List<Placement> columns = plans.stream()
                    .map(p -> new Placement(p.request().kernel().toString(), p.plan().word(), p.plan().slots())).toList();
            return ReleaseColumns.text(plans.get(0).plan().word(), columns);
        }
    },

    /**
     * {@code smp_affinity}: one hex mask per slot, as {@code /proc/irq/N/smp_affinity} prints it for
     * the machine's {@code nr_cpu_ids} (an untouched IRQ is the all-zero mask), prefixed {@code IRQ: }
     * from the request's first IRQ when it has one.
     */
    SMP_AFFINITY {
        @Override public String render(List<Planned> plans) {
            PlanRequest r = only(plans).request();
            IntFunction<String> irq = k -> r.firstIrq().map(first -> (first + k) + ": ").orElse("");
            return lines(only(plans), (k, slot) -> irq.apply(k) + slot.toMask(r.machine().nrCpuIds()));
        }
    },

    /**
     * {@code table}: for a reader. One row per slot with its CPUs, their node, the distance from the
     * device's node (the scheduler's, {@code arch_sched_node_distance()}, where the routine walks the
     * NUMA levels and the release's hook changes it on this machine: a last line says so, LVL-8)
     * and the core they lie in ({@code -} where that says nothing); an untouched IRQ says
     * {@code untouched}, a slot without a CPU {@code none} (the glossary's words). For a queue map,
     * one row per possible CPU with its queue and node.
     */
    TABLE {
        @Override public String render(List<Planned> plans) {
            Planned p = only(plans);
            PlanRequest r = p.request();
            Topology m = r.machine();
            if (p.plan() instanceof Plan.QueueMap map)
                return row("cpu", "queue", "node") + "\n" + lines(map, (cpu, queue) -> row(cpu, queue, m.nodeOf(cpu)));
            Plan.Slots slots = (Plan.Slots) p.plan();
            ArchSchedNodeDistance distance = shownDistance(r);
            String text = row(slots.word(), "cpu", "node", "distance", "core") + "\n" + lines(p, (k, s) -> row(k,
                    slots.isUntouched(k) ? "untouched" : s.toText(), nodesOf(s, m), distanceOf(s, m, r.node(), distance), coreOf(s, m)));
            if (distance.rewritesDistances() && r.node() != Numa.NUMA_NO_NODE)
                text += "distance: the scheduler's, arch_sched_node_distance(), which Linux " + r.kernel()
                        + " builds the NUMA levels from on this machine; node_distance() differs (spec/numa-levels.md LVL-8)\n";
            return text;
        }
    },

    /**
     * {@code json}: the request (routine, kernel, topology, node, count, {@code nrCpuIds}) and the
     * plan: {@code "<word>s": [{"<word>": i, "cpus": LIST, "mask": HEX}, ...]}, or for a queue map
     * its {@code offset} and {@code map} (the queue of every CPU id, -1 for one not possible).
     */
    JSON {
        @Override public String render(List<Planned> plans) {
            return JsonText.of(JsonText.plan(only(plans)));
        }
    },

    /** {@code cpu_list}: one line per slot as {@code /sys/block/DEV/mq/N/cpu_list} prints it: every CPU, comma and space separated. */
    CPU_LIST {
        @Override public String render(List<Planned> plans) {
            return lines(only(plans), (k, slot) -> cpuList(slot));
        }
    },

    /**
     * {@code svg}: the placement drawn ({@link PlacementPicture}): nodes nearest to the device first,
     * each CPU labelled with its slots; several releases are drawn next to each other.
     */
    SVG {
        @Override public boolean takesSeveralReleases() {
            return true;
        }

        @Override public String render(List<Planned> plans) {
            PlanRequest r = plans.get(0).request();
            List<Placement> p = plans.stream().map(Planned::placement).toList();
            int slots = p.get(0).slots().size();
            String caption = r.routine().id() + " on " + r.machine().name() + (r.node() == Numa.NUMA_NO_NODE ? "" : ", device on node " + r.node())
                    + ", " + slots + " " + p.get(0).word() + (slots == 1 ? "" : "s");
            // Each panel's node headers show the distance its release placed by (LVL-6).
            List<ArchSchedNodeDistance> distances = plans.stream().map(x -> shownDistance(x.request())).toList();
            return PlacementPicture.svg(r.machine(), r.node(), p, caption, "np", distances);
        }
    };

    /** The {@code --format} value, the constant's name in lower case: {@code list}, {@code smp_affinity}, ... */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when the format shows several releases at once ({@code --kernel 6.1,6.12,7.3}). */
    public boolean takesSeveralReleases() {
        return false;
    }

    /**
     * The text {@code plan} prints for the plans of the releases {@code --kernel} names, in its
     * order; one plan unless {@link #takesSeveralReleases()}.
     */
    public abstract String render(List<Planned> plans);

    /** Every format, in the order help lists them. */
    public static List<PlanFormat> all() {
        return List.of(values());
    }

    /** The format whose {@code --format} value is {@code word}, if there is one. */
    public static Optional<PlanFormat> named(String word) {
        return Arrays.stream(values()).filter(f -> f.word().equals(word)).findFirst();
    }

    /** The words of {@code formats}: {@code list, table or json}. */
    public static String words(List<PlanFormat> formats) {
        List<String> w = formats.stream().map(PlanFormat::word).toList();
        return String.join(", ", w.subList(0, w.size() - 1)) + " or " + w.get(w.size() - 1);
    }

    /** The one plan of a format that takes one release. */
    static Planned only(List<Planned> plans) {
        if (plans.size() != 1) throw new IllegalStateException("a format of one release was given " + plans.size() + " plans");
        return plans.get(0);
    }

    /** The line of slot {@code k}, its CPUs {@code slot}, without the newline. */
    interface SlotLine {
        String of(int k, CpuSet slot);
    }

    /** The line of CPU {@code cpu} of a queue map, whose queue is {@code queue}, without the newline. */
    interface CpuLine {
        String of(int cpu, int queue);
    }

    /** A line per slot of {@code p} (a queue map's slots are its queues), in order. */
    static String lines(Planned p, SlotLine line) {
        StringBuilder sb = new StringBuilder();
        List<CpuSet> slots = p.plan().slots();
        for (int k = 0; k < slots.size(); k++) sb.append(line.of(k, slots.get(k))).append('\n');
        return sb.toString();
    }

    /** A line per possible CPU of {@code map}, in CPU order. */
    static String lines(Plan.QueueMap map, CpuLine line) {
        StringBuilder sb = new StringBuilder();
        int[] q = map.queueOfCpu();
        for (int c = 0; c < q.length; c++) if (q[c] >= 0) sb.append(line.of(c, q[c])).append('\n');
        return sb.toString();
    }

    /** {@code 0, 1, 2, 3}: every CPU of {@code s}, as blk-mq's sysfs prints a queue's CPUs. */
    static String cpuList(CpuSet s) {
        StringBuilder sb = new StringBuilder();
        for (int c : s.toArray()) sb.append(sb.length() == 0 ? "" : ", ").append(c);
        return sb.toString();
    }

    /**
     * The distance the table and the picture show: the scheduler's where the routine walks the NUMA
     * levels (LVL-6), else {@code node_distance()}.
     */
    static ArchSchedNodeDistance shownDistance(PlanRequest r) {
        return r.routine().walksNumaLevels() ? ArchSchedNodeDistance.of(r.kernel(), r.machine()) : ArchSchedNodeDistance.raw(r.machine());
    }

    // A table row without its newline: a slot's five columns, or a queue map's three narrower ones.
    private static String row(Object... cells) {
        return cells.length == 3 ? String.format("%-5s %-6s %s", cells) : String.format("%-6s %-12s %-5s %-8s %s", cells);
    }

    // The core a set lies in: one CPU's, or a whole sibling mask (irq_setup); "-" when it spans cores.
    private static String coreOf(CpuSet s, Topology m) {
        if (s.isEmpty()) return "-";
        CpuSet core = m.siblingsOf(s.first());
        return s.isSubsetOf(core) ? core.toList() : "-";
    }

    private static String nodesOf(CpuSet s, Topology m) {
        if (s.isEmpty()) return "-";
        return m.nodesOf(s).toList();
    }

    private static String distanceOf(CpuSet s, Topology m, int node, ArchSchedNodeDistance distance) {
        if (s.isEmpty() || node == Numa.NUMA_NO_NODE) return "-";
        NodeMask nodes = m.nodesOf(s);
        if (nodes.size() != 1) return "-";
        return String.valueOf(distance.distance(node, nodes.first()));
    }
}
