package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import io.cucumber.java.en.Given;

/** The steps every family shares: which machine, which kernel release. */
public final class MachineSteps {

    private final World world;

    public MachineSteps(World world) {
        this.world = world;
    }

    /** A named fixture: {@code Given the machine "kunpeng920-4node"}. */
    @Given("the machine {string}")
    public void theMachine(String name) {
        world.machine(Fixtures.topology(name));
    }

    /** A named fixture and a release: {@code Given the machine "kunpeng920-4node" running Linux 6.12}. */
    @Given("the machine {string} running Linux {kernel}")
    public void theMachineRunning(String name, KernelRelease kernel) {
        world.machine(Fixtures.topology(name));
        world.kernel(kernel);
    }

    /** A machine written inline as a {@code """topo} doc string. */
    @Given("the machine:")
    public void theMachineInline(Topology machine) {
        world.machine(machine);
    }

    /** The release whose behaviour the scenario shows: {@code Given Linux 6.12}. */
    @Given("Linux {kernel}")
    public void linux(KernelRelease kernel) {
        world.kernel(kernel);
    }
}
