package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Glue of features/local-spread.feature: {@code cpumask_local_spread} and the 2020 proposal, run
 * against the implementation under test. Also the outcome steps every family shares ("the kernel
 * oopses"), since any call may hit a modelled kernel bug.
 */
public final class LocalSpreadSteps {
    private final World world;
    private int node;                       // the device node of the last request, for re-asking (LS-12)

    public LocalSpreadSteps(World world) {
        this.world = world;
    }

    @When("a driver on {node} asks for {int} queues")
    public void localSpread(int node, int count) {
        this.node = node;
        record(world, () -> world.implementation().localSpreadCpus(world.kernel(), world.machine(), node, count));
    }

    @When("a driver on {node} asks the 2020 proposal for {int} queues")
    public void proposal(int node, int count) {
        this.node = node;
        record(world, () -> world.implementation().localSpreadNearestNodeCpus(world.kernel(), world.machine(), node, count));
    }

    // ---------------------------------------------------------------- a plan of one CPU per slot: queues, or mlx5's vectors

    @Then("{slots} {int} to {int} get CPUs {cpulist}")
    public void slotsGet(String slots, int from, int to, CpuSet cpus) {
        PlanExpectations.range(slots, plan(), from, to, cpus);
    }

    @Then("{slots} {int} to {int} get the CPUs {cpulist} in any order")
    public void slotsGetAnyOrder(String slots, int from, int to, CpuSet cpus) {
        PlanExpectations.rangeAnyOrder(slots, plan(), from, to, cpus);
    }

    /** Rows {@code | queues | cpus |} (or {@code vectors}): each row's slots get its CPUs, each once, in any order (a ring, or a block). */
    @Then("the {slots} get, ring by ring:")
    public void slotsGetRingByRing(String slots, DataTable table) {
        PlanExpectations.table(slots, plan(), table.asMaps(), false);
    }

    @Then("{slot} {int} gets CPU {int}")
    public void slotGets(String slot, int i, int cpu) {
        int got = plan()[i];
        if (got != cpu) throw new AssertionError(slot + " " + i + ": expected CPU " + cpu + "; actual CPU " + got);
    }

    @Then("{slot} {int} gets the same CPU as {slot} {int}")
    public void sameCpu(String slot, int i, String other, int j) {
        int[] plan = plan();
        if (plan[i] != plan[j])
            throw new AssertionError(slot + " " + i + ": expected the CPU of " + other + " " + j + " (" + plan[j] + "); actual CPU " + plan[i]);
    }

    @Then("the {slots} get CPUs {sequence} in that order")
    public void slotsGetInOrder(String slots, int[] cpus) {
        PlanExpectations.sequence(slots, plan(), cpus);
    }

    @Then("the {slots} get:")
    public void slotsGetTable(String slots, DataTable table) {
        PlanExpectations.table(slots, plan(), table.asMaps());
    }

    @Then("the {slots} get the CPUs of the listing {string}")
    public void slotsGetListing(String slots, String name) {
        PlanExpectations.listing(slots, plan(), name, Fixtures.listing(name), world.machine());
    }

    // ---------------------------------------------------------------- local spread alone

    @Then("every queue gets an online CPU")
    public void everyQueueOnline() {
        PlanExpectations.allOnline("queues", plan(), world.machine());
    }

    @Then("queue {int} gets no CPU")
    public void noCpu(int i) {
        int got = plan()[i];
        if (got < world.machine().nrCpuIds())
            throw new AssertionError("queue " + i + ": expected no CPU (a value >= nr_cpu_ids = " + world.machine().nrCpuIds() + "); actual CPU " + got);
    }

    @Then("queues {int} to {int} use every online CPU once")
    public void everyOnlineCpuOnce(int from, int to) {
        PlanExpectations.everyOnlineCpuOnce("queues", plan(), from, to, world.machine());
    }

    @Then("asking for {int} queues gives the start of that plan")
    public void prefix(int count) {
        int[] longer = plan();
        int[] shorter = world.implementation().localSpreadCpus(world.kernel(), world.machine(), node, count);
        int[] head = Arrays.copyOf(longer, count);
        if (!Arrays.equals(head, shorter))
            throw new AssertionError("a plan of " + count + " queues: expected the first " + count + " of the longer plan (" + Sequences.text(head)
                    + "); actual " + Sequences.text(shorter));
    }

    @Then("the kernel oopses")
    public void theKernelOopses() {
        kernelBug("oops");
    }

    @Then("the kernel follows a wild pointer")
    public void wildPointer() {
        kernelBug("wild-pointer");
    }

    private void kernelBug(String kind) {
        RuntimeException e = world.error().orElseThrow(() -> new AssertionError("expected the kernel to fail (" + kind + "); the call returned"));
        if (!(e instanceof KernelBug bug))
            throw new AssertionError("expected a modelled kernel failure (" + kind + "); actual " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
        if (!bug.kind().equals(kind)) throw new AssertionError("expected the kernel to fail with " + kind + "; actual " + bug.getMessage());
    }

    private int[] plan() {
        return world.result(int[].class);
    }

    /** Runs a call, keeping what it returned or the kernel failure it modelled. */
    static void record(World world, Supplier<?> call) {
        try {
            world.result(call.get());
        } catch (KernelBug e) {
            world.error(e);
        }
    }
}
