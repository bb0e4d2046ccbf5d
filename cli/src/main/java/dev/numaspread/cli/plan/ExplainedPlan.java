package dev.numaspread.cli.plan;

import dev.numaspread.conformance.explain.Explain;
import dev.numaspread.conformance.picture.Placement;

import java.util.List;

/**
 * {@code plan --explain}: each slot's CPUs and why it got them, with the rule ids of
 * {@code spec/} ({@link Explain}). Not a {@code --format}: it replaces the format's text.
 */
public final class ExplainedPlan implements PlanFormat {

    @Override
    public String name() {
        return "explain";
    }

    @Override
    public String render(List<Planned> plans) {
        Planned only = PlanFormat.only(plans);
        PlanRequest r = only.request();
        Placement p = only.placement();
        return Explain.text(p.word(), p.slots(), Explain.reasons(r.routine().id(), r.kernel(), r.machine(), r.node(), p.slots()));
    }
}
