package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;


/**
 * Glue of features/blk-mq.feature: {@code blk_mq_map_queues}, run against the implementation under
 * test. The map (CPU to queue) is the scenario's result in {@link World}.
 */
public final class BlkMqSteps {
    private final World world;

    public BlkMqSteps(World world) {
        this.world = world;
    }

    @When("the default queue map is built for {int} queues")
    public void built(int nrQueues) {
        builtAt(nrQueues, 0);
    }

    @When("a queue map is built for {int} queues at offset {int}")
    public void builtAt(int nrQueues, int offset) {
        LocalSpreadSteps.record(world, () -> world.implementation().blkMqMapQueues(world.kernel(), world.machine(), nrQueues, offset));
    }

    /** One row per queue: its CPUs as /sys/block/NAME/mq/N/cpu_list shows them. */
    @Then("the queues serve:")
    public void theQueuesServe(DataTable table) {
        int[] map = world.result(int[].class);
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
