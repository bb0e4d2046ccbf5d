package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;


/** Steps of features/blk-mq.feature, run against the implementation under test. */
public class BlkMqSteps {
    private final World world;
    private int[] map;

    public BlkMqSteps(World world) {
        this.world = world;
    }

    @When("the default queue map is built for {int} queues")
    public void built(int nrQueues) {
        map = ImplementationUnderTest.get().blkMqMapQueues(world.kernel(), world.machine(), nrQueues, 0);
    }

    @When("a queue map is built for {int} queues at offset {int}")
    public void builtAt(int nrQueues, int offset) {
        map = ImplementationUnderTest.get().blkMqMapQueues(world.kernel(), world.machine(), nrQueues, offset);
    }

    /** One row per queue: its CPUs as /sys/block/NAME/mq/N/cpu_list shows them. */
    @Then("the queues serve:")
    public void theQueuesServe(DataTable table) {
        List<String> want = new ArrayList<>(), got = new ArrayList<>();
        for (Map<String, String> row : table.asMaps()) {
            int q = Integer.parseInt(row.get("queue"));
            want.add(q + ": " + (row.get("cpus") == null ? "" : row.get("cpus")));
            CpuSet.Builder b = CpuSet.builder();
            for (int cpu : world.machine().possible().toArray()) if (map[cpu] == q) b.add(cpu);
            got.add(q + ": " + b.build().toList());
        }
        if (!want.equals(got)) throw new AssertionError("expected " + want + "; actual " + got);
    }
}
