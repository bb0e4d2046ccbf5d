package dev.numaspread.conformance.certify.glue;

import dev.numaspread.conformance.steps.ImplementationUnderTest;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Glue of the certifier's test feature; runs against the implementation under test, as real glue does. */
public class TestSpreadSteps {

    static final Topology TWO_NODES = TopologyBuilder.machine("two-nodes").node(0, "0-1").node(1, "2-3")
            .distances(new int[]{10, 20}, new int[]{20, 10}).build();

    private int[] cpus;

    @When("a driver on node {int} asks for {int} CPUs on Linux {word}")
    public void asks(int node, int count, String kernel) {
        cpus = ImplementationUnderTest.get().localSpreadCpus(KernelRelease.parse(kernel), TWO_NODES, node, count);
    }

    @Then("the CPUs are {string}")
    public void theCpusAre(String list) {
        assertEquals(list, CpuSet.of(cpus).toList(), "CPUs of the plan");
    }

    @Then("the last CPU is the first")
    public void lastIsFirst() {
        assertEquals(cpus[0], cpus[cpus.length - 1], "CPU of index " + (cpus.length - 1));
    }
}
