package dev.numaspread.cli.plan;

import dev.numaspread.conformance.explain.Explain;
import dev.numaspread.conformance.picture.Placement;
import dev.numaspread.conformance.spi.Routine;

import java.util.List;

/**
 * {@code plan --explain}: each slot's CPUs and why it got them, with the rule ids of
 * {@code spec/} ({@link Explain}). Not a {@code --format}: it replaces the format's text.
 */
public final class ExplainedPlan {
    private ExplainedPlan() {}

    /** The text of the one plan of {@code plans}: each slot's CPUs, and why. */
    public static String render(List<Planned> plans) {
        Planned only = PlanFormat.only(plans);
        PlanRequest r = only.request();
        Placement p = only.placement();
        // The closest CPU depends on its arguments and the calling CPU's state, not on a device node.
        if (r.routine() == Routine.NUMA_CLOSEST && r.cpus().isPresent() && r.cpu().isPresent())
            return Explain.text(p.word(), p.slots(), Explain.numaClosest(r.kernel(), r.machine(), r.cpus().get(), r.cpu().get(),
                    r.callingCpu().orElse(r.cpu().get()), r.prev(), p.slots()));
        return Explain.text(p.word(), p.slots(), Explain.reasons(r.routine().id(), r.kernel(), r.machine(), r.node(), p.slots()));
    }
}
