package dev.numaspread.cli;

import dev.numaspread.cli.PlanCommand.Lines;
import dev.numaspread.cli.PlanCommand.Plan;
import dev.numaspread.cli.PlanCommand.QueueMap;
import dev.numaspread.cli.PlanCommand.Request;
import dev.numaspread.conformance.comparison.ReleaseColumns;
import dev.numaspread.conformance.explain.Explain;
import dev.numaspread.conformance.picture.Placement;
import dev.numaspread.conformance.picture.PlacementPicture;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.Numa;

import java.util.ArrayList;
import java.util.List;

/**
 * The views of {@code plan} that are not the kernel's own formats: the placement drawn as SVG
 * ({@code --format svg}), several releases side by side ({@code --kernel 6.1,6.12,7.3}) and the
 * reasons ({@code --explain}). Each takes the plans as the routines gave them.
 */
final class PlanPlacements {

    private PlanPlacements() {}

    /** The plan as a placement: line {@code i}'s CPUs, or queue {@code offset + i}'s CPUs of a map. */
    static Placement placement(Plan plan, Request r) {
        String title = "Linux " + r.kernel();
        if (plan instanceof Lines l) return new Placement(title, l.header(), l.sets());
        int[] q = ((QueueMap) plan).queueOfCpu();
        List<CpuSet> queues = new ArrayList<>();
        for (int k = 0; k < r.count(); k++) {
            CpuSet.Builder b = CpuSet.builder();
            for (int c = 0; c < q.length; c++) if (q[c] == r.offset() + k) b.add(c);
            queues.add(b.build());
        }
        return new Placement(title, "queue", queues);
    }

    private static List<Placement> placements(List<Plan> plans, List<Request> requests) {
        List<Placement> out = new ArrayList<>();
        for (int i = 0; i < plans.size(); i++) out.add(placement(plans.get(i), requests.get(i)));
        return out;
    }

    /** {@code --format svg}: one picture per release, side by side. */
    static String svg(String routine, List<Plan> plans, List<Request> requests) {
        Request r = requests.get(0);
        List<Placement> p = placements(plans, requests);
        String caption = routine + " on " + r.machine().name() + (r.node() == Numa.NUMA_NO_NODE ? "" : ", device on node " + r.node())
                + ", " + p.get(0).slots().size() + " " + p.get(0).word() + (p.get(0).slots().size() == 1 ? "" : "s");
        return PlacementPicture.svg(r.machine(), r.node(), p, caption, "np");
    }

    /** Several releases: one column each, the rows that differ marked. */
    static String columns(List<Plan> plans, List<Request> requests) {
        List<Placement> p = placements(plans, requests);
        List<Placement> titled = p.stream().map(x -> new Placement(x.title().replace("Linux ", ""), x.word(), x.slots())).toList();
        return ReleaseColumns.text(p.get(0).word(), titled);
    }

    /** {@code --explain}: each line's CPUs and why, with the rule ids. */
    static String explained(String routine, Plan plan, Request r) {
        Placement p = placement(plan, r);
        return Explain.text(p.word(), p.slots(), Explain.reasons(routine, r.kernel(), r.machine(), r.node(), p.slots()));
    }
}
