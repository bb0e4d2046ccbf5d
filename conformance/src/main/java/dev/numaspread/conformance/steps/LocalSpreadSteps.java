package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.Arrays;


/** Glue of features/local-spread.feature and features/mlx5.feature, against the implementation under test. */
public final class LocalSpreadSteps {
    private final World world;

    public LocalSpreadSteps(World world) {
        this.world = world;
    }

    @When("a driver on node {int} asks for {int} queues")
    public void localSpread(int node, int count) {
        call(() -> world.implementation().localSpread(world.kernel(), world.machine(), node, count));
    }

    @When("a driver on node {int} asks the 2020 proposal for {int} queues")
    public void proposal(int node, int count) {
        call(() -> world.implementation().localSpreadNearestNode(world.kernel(), world.machine(), node, count));
    }

    @When("mlx5 with the 2022 distance patch on node {int} sets up {int} vectors")
    public void mlx5NumaDistance(int node, int count) {
        call(() -> world.implementation().mlx5NumaDistance(world.kernel(), world.machine(), node, count));
    }

    @When("mlx5 on node {int} sets up {int} completion vectors")
    public void mlx5CompIrqs(int node, int count) {
        call(() -> world.implementation().mlx5CompIrqs(world.kernel(), world.machine(), node, count));
    }

    private void call(java.util.function.Supplier<int[]> f) {
        try {
            world.result(f.get());
        } catch (RuntimeException e) {
            world.error(e);
        }
    }

    @Then("queues {int} to {int} get CPUs {cpulist}")
    public void queuesGet(int from, int to, CpuSet cpus) {
        int[] plan = world.result(int[].class);
        int[] got = Arrays.copyOfRange(plan, from, to + 1);
        assertEquals(cpus.toList(), CpuSet.of(got).toList(), "queues " + from + ".." + to);
        int[] sorted = got.clone();
        Arrays.sort(sorted);
        assertEquals(Arrays.toString(sorted), Arrays.toString(got), "queues " + from + ".." + to + " in ascending CPU order");
    }

    @Then("the CPUs are {string}")
    public void theCpusAre(String commaList) {
        assertEquals(commaList, String.join(", ", Arrays.stream(world.result(int[].class)).mapToObj(String::valueOf).toList()));
    }

    @Then("the kernel oopses")
    public void theKernelOopses() {
        RuntimeException e = world.error().orElseThrow(() -> new AssertionError("expected a kernel oops (KernelBug); the call returned"));
        assertEquals(dev.numaspread.model.kernel.KernelBug.class, e.getClass());
    }

    private static void assertEquals(Object want, Object got, String what) {
        if (!want.equals(got)) throw new AssertionError(what + ": expected " + want + "; actual " + got);
    }

    private static void assertEquals(Object want, Object got) {
        assertEquals(want, got, "result");
    }
}
