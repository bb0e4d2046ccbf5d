package dev.numaspread.cli.plan;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.numa.ArchSchedNodeDistance;
import dev.numaspread.model.topology.NodeMask;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/**
 * {@code table}: for a reader. One row per slot with its CPUs, their node, the distance from the
 * device's node (the scheduler's, {@code arch_sched_node_distance()}, where the routine walks the
 * NUMA levels and the release's hook changes it on this machine: a last line says so, LVL-8)
 * and the core they lie in ({@code -} where that says nothing); an untouched IRQ
 * says {@code untouched}, a slot without a CPU {@code none} (the glossary's words). For a queue map, one row per possible
 * CPU with its queue and node.
 */
public final class TableFormat implements PlanFormat {

    @Override
    public String name() {
        return "table";
    }

    @Override
    public String render(List<Planned> plans) {
        Plan plan = PlanFormat.only(plans).plan();
        PlanRequest request = PlanFormat.only(plans).request();
        StringBuilder sb = new StringBuilder();
        Topology m = request.machine();
        if (plan instanceof Plan.QueueMap map) {
            int[] q = map.queueOfCpu();
            sb.append(String.format("%-5s %-6s %s%n", "cpu", "queue", "node"));
            for (int c = 0; c < q.length; c++)
                if (q[c] >= 0) sb.append(String.format("%-5d %-6d %d%n", c, q[c], m.nodeOf(c)));
            return sb.toString();
        }
        Plan.Slots slots = (Plan.Slots) plan;
        List<CpuSet> sets = slots.slots();
        ArchSchedNodeDistance distance = shownDistance(request);
        sb.append(String.format("%-6s %-12s %-5s %-8s %s%n", slots.word(), "cpu", "node", "distance", "core"));
        for (int i = 0; i < sets.size(); i++) {
            CpuSet s = sets.get(i);
            String cpus = slots.isUntouched(i) ? "untouched" : s.toText();
            sb.append(String.format("%-6d %-12s %-5s %-8s %s%n", i, cpus, nodesOf(s, m), distanceOf(s, m, request.node(), distance), coreOf(s, m)));
        }
        if (distance.rewritesDistances() && request.node() != Numa.NUMA_NO_NODE)
            sb.append("distance: the scheduler's, arch_sched_node_distance(), which Linux ").append(request.kernel())
                    .append(" builds the NUMA levels from on this machine; node_distance() differs (spec/numa-levels.md LVL-8)\n");
        return sb.toString();
    }

    /**
     * The distance the table shows: the scheduler's where the routine walks the NUMA levels (LVL-6),
     * else {@code node_distance()}.
     */
    static ArchSchedNodeDistance shownDistance(PlanRequest r) {
        return r.routine().walksNumaLevels() ? ArchSchedNodeDistance.of(r.kernel(), r.machine()) : ArchSchedNodeDistance.raw(r.machine());
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
