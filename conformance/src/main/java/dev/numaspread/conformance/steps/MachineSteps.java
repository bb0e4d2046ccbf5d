package dev.numaspread.conformance.steps;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import io.cucumber.java.en.Given;

/** The shared steps: which machine, which release. */
public class MachineSteps {
    private final World world;

    public MachineSteps(World world) {
        this.world = world;
    }

    @Given("the machine:")
    public void theMachine(Topology machine) {
        world.machine = machine;
    }

    @Given("Linux {kernel}")
    public void linux(KernelRelease kernel) {
        world.kernel = kernel;
    }
}
