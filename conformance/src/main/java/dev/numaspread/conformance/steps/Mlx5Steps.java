package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.Arrays;

/**
 * Glue of features/mlx5.feature: the 2022 distance patch ({@code mlx5-numa-distance}) and what
 * each release does ({@code mlx5-comp-irqs}), against the implementation under test.
 */
public final class Mlx5Steps {
    private final World world;
    private int node;                       // the device node of the last setup, to compare with local spread

    public Mlx5Steps(World world) {
        this.world = world;
    }

    @When("mlx5 with the 2022 distance patch on node {int} sets up {int} vectors")
    public void numaDistance(int node, int count) {
        this.node = node;
        LocalSpreadSteps.record(world, () -> world.implementation().mlx5NumaDistanceCpus(world.kernel(), world.machine(), node, count));
    }

    @When("mlx5 with the 2022 distance patch on NUMA_NO_NODE sets up {int} vectors")
    public void numaDistanceNoNode(int count) {
        numaDistance(Numa.NUMA_NO_NODE, count);
    }

    @When("mlx5 on node {int} sets up {int} completion vectors")
    public void compIrqs(int node, int count) {
        this.node = node;
        LocalSpreadSteps.record(world, () -> world.implementation().mlx5CompIrqCpus(world.kernel(), world.machine(), node, count));
    }

    @When("mlx5 on NUMA_NO_NODE sets up {int} completion vectors")
    public void compIrqsNoNode(int count) {
        compIrqs(Numa.NUMA_NO_NODE, count);
    }

    @Then("the vectors get CPUs {sequence} in that order")
    public void vectorsGetInOrder(int[] cpus) {
        PlanExpectations.sequence("vectors", plan(), cpus);
    }

    @Then("vectors {int} to {int} get CPUs {cpulist}")
    public void vectorsGet(int from, int to, CpuSet cpus) {
        PlanExpectations.range("vectors", plan(), from, to, cpus);
    }

    @Then("vectors {int} to {int} get the CPUs {cpulist} in any order")
    public void vectorsGetAnyOrder(int from, int to, CpuSet cpus) {
        PlanExpectations.rangeAnyOrder("vectors", plan(), from, to, cpus);
    }

    /** Rows {@code | vectors | cpus |}: each row's vectors get its CPUs, each once, in any order. */
    @Then("the vectors get, ring by ring:")
    public void vectorsGetRingByRing(DataTable table) {
        PlanExpectations.table("vectors", plan(), table.asMaps(), false);
    }

    @Then("vector {int} gets CPU {int}")
    public void vectorGets(int i, int cpu) {
        int got = plan()[i];
        if (got != cpu) throw new AssertionError("vector " + i + ": expected CPU " + cpu + "; actual CPU " + got);
    }

    @Then("vector {int} gets the same CPU as vector {int}")
    public void sameCpu(int i, int j) {
        int[] plan = plan();
        if (plan[i] != plan[j])
            throw new AssertionError("vector " + i + ": expected the CPU of vector " + j + " (" + plan[j] + "); actual CPU " + plan[i]);
    }

    @Then("the vectors get:")
    public void vectorsGetTable(DataTable table) {
        PlanExpectations.table("vectors", plan(), table.asMaps());
    }

    @Then("the vectors get the CPUs of the listing {string}")
    public void vectorsGetListing(String name) {
        PlanExpectations.listing("vectors", plan(), name, Fixtures.listing(name), world.machine());
    }

    @Then("the vectors get distinct online CPUs")
    public void distinctOnline() {
        int[] plan = plan();
        CpuSet got = CpuSet.of(plan);
        if (got.size() != plan.length || !got.isSubsetOf(world.machine().online()))
            throw new AssertionError("the vectors get: expected distinct online CPUs (online " + world.machine().online().toList() + "); actual "
                    + Sequences.text(plan));
    }

    @Then("each vector gets the CPU of the same queue under local spread in Linux {kernel}")
    public void sameAsLocalSpread(KernelRelease kernel) {
        int[] plan = plan();
        int[] spread = world.implementation().localSpreadCpus(kernel, world.machine(), node, plan.length);
        for (int i = 0; i < plan.length; i++)
            if (plan[i] != spread[i])
                throw new AssertionError("vector " + i + ": expected CPU " + spread[i] + " (local spread in Linux " + kernel + ", queue " + i
                        + "); actual CPU " + plan[i] + " (first " + (i + 1) + " of mlx5: " + Sequences.text(Arrays.copyOf(plan, i + 1)) + ")");
    }

    private int[] plan() {
        return world.result(int[].class);
    }
}
