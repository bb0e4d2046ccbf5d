package dev.numaspread.conformance.steps;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

/** The scenario's machine and kernel release; Cucumber creates one per scenario and injects it into the glue. */
public class World {
    public Topology machine;
    public KernelRelease kernel = KernelRelease.NEWEST;
}
