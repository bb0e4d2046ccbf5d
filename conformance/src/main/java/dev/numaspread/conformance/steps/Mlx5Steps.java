package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
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

    @When("mlx5 with the 2022 distance patch on {node} sets up {int} vectors")
    public void numaDistance(int node, int count) {
        this.node = node;
        LocalSpreadSteps.record(world, () -> world.implementation().mlx5NumaDistanceCpus(world.kernel(), world.machine(), node, count));
    }

    @When("mlx5 on {node} sets up {int} completion vectors")
    public void compIrqs(int node, int count) {
        this.node = node;
        LocalSpreadSteps.record(world, () -> world.implementation().mlx5CompIrqCpus(world.kernel(), world.machine(), node, count));
    }

    // The plan's own steps ("vectors 0 to 3 get CPUs ...") are local spread's, with vectors for queues (LocalSpreadSteps).

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
