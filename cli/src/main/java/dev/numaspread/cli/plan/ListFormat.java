package dev.numaspread.cli.plan;

import dev.numaspread.conformance.comparison.ReleaseColumns;
import dev.numaspread.conformance.picture.Placement;

import java.util.List;

/**
 * {@code list}, the default: one {@code smp_affinity_list} per slot, as
 * {@code /proc/irq/N/smp_affinity_list} prints it (an untouched IRQ is an empty line); for a queue
 * map, {@code cpu queue} pairs for the possible CPUs. Several releases print one column each, the
 * rows that differ marked ({@link ReleaseColumns}).
 */
public final class ListFormat implements PlanFormat {

    @Override
    public String name() {
        return "list";
    }

    @Override
    public boolean takesSeveralReleases() {
        return true;
    }

    @Override
    public String render(List<Planned> plans) {
        if (plans.size() > 1) {
            List<Placement> columns = plans.stream()
                    .map(p -> new Placement(p.request().kernel().toString(), p.plan().word(), p.plan().slots())).toList();
            return ReleaseColumns.text(plans.get(0).plan().word(), columns);
        }
        Plan plan = PlanFormat.only(plans).plan();
        StringBuilder sb = new StringBuilder();
        if (plan instanceof Plan.QueueMap map) {
            int[] q = map.queueOfCpu();
            for (int c = 0; c < q.length; c++) if (q[c] >= 0) sb.append(c).append(' ').append(q[c]).append('\n');
        } else {
            plan.slots().forEach(s -> sb.append(s.toList()).append('\n'));
        }
        return sb.toString();
    }
}
