package dev.numaspread.cli.plan;

import dev.numaspread.conformance.picture.Placement;

/** A request and the plan the routine gave for it: one release's answer. */
public record Planned(PlanRequest request, Plan plan) {

    /** The plan as a placement titled {@code Linux 6.12}: slot {@code i} on its CPUs. */
    public Placement placement() {
        return new Placement("Linux " + request.kernel(), plan.word(), plan.slots());
    }
}
