package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;


/**
 * Glue of features/blk-mq.feature: {@code blk_mq_map_queues} and {@code irq_create_affinity_masks},
 * run against the implementation under test. The map (CPU to queue), or the vectors' affinities
 * (NULL as empty), is the scenario's result in {@link World}.
 */
public final class BlkMqSteps {
    private final World world;
    private int lastNrQueues;               // the queue count of the last map, to build it again at offset 0

    public BlkMqSteps(World world) {
        this.world = world;
    }

    @When("the default queue map is built for {int} queues")
    public void built(int nrQueues) {
        builtAt(nrQueues, 0);
    }

    @When("a queue map is built for {int} queues at offset {int}")
    public void builtAt(int nrQueues, int offset) {
        lastNrQueues = nrQueues;
        LocalSpreadSteps.record(world, () -> world.implementation().blkMqMapQueues(world.kernel(), world.machine(), nrQueues, offset));
    }

    /** MQ-3 as one example: the CPUs of each queue lie in one node. */
    @Then("the CPUs of each queue lie in one node")
    public void eachQueueOneNode() {
        eachQueueServesNodes(1, "CPUs of one node");
    }

    /** MQ-4 as one example. */
    @Then("each queue serves CPUs of both nodes")
    public void eachQueueBothNodes() {
        eachQueueServesNodes(2, "CPUs of both nodes");
    }

    private void eachQueueServesNodes(int count, String expected) {
        for (var q : byQueue().entrySet()) {
            List<Integer> nodes = nodesOf(q.getValue());
            if (nodes.size() != count)
                throw new AssertionError("queue " + q.getKey() + " (" + q.getValue().toList() + "): expected " + expected + "; actual nodes " + nodes);
        }
    }

    /** MQ-6 as one example: the map equals the implementation's own map at offset 0, shifted. */
    @Then("every CPU's queue is {int} more than in the map at offset 0")
    public void shifted(int offset) {
        int[] map = map();
        int nrQueues = lastNrQueues;
        int[] base = fullLength(world.implementation().blkMqMapQueues(world.kernel(), world.machine(), nrQueues, 0));
        for (int cpu : world.machine().possible().toArray())
            if (map[cpu] != base[cpu] + offset)
                throw new AssertionError("cpu " + cpu + ": expected queue " + (base[cpu] + offset) + " (queue " + base[cpu] + " at offset 0, plus "
                        + offset + "); actual queue " + map[cpu]);
    }

    /** The CPUs of each queue that serves any, by queue number. */
    private java.util.TreeMap<Integer, CpuSet> byQueue() {
        int[] map = map();
        java.util.TreeMap<Integer, CpuSet> out = new java.util.TreeMap<>();
        for (int cpu : world.machine().possible().toArray()) out.merge(map[cpu], CpuSet.of(cpu), CpuSet::or);
        return out;
    }

    /** The map of the last call, one entry per CPU id below nr_cpu_ids (MQ-1), or the step fails. */
    private int[] map() {
        return fullLength(world.result(int[].class));
    }

    private int[] fullLength(int[] map) {
        int n = world.machine().nrCpuIds();
        if (map.length != n)
            throw new AssertionError("expected a map of nr_cpu_ids = " + n + " entries (MQ-1); actual " + map.length + " entries");
        return map;
    }

    private List<Integer> nodesOf(CpuSet cpus) {
        List<Integer> out = new ArrayList<>();
        for (var n : world.machine().nodes()) if (n.cpus().intersects(cpus)) out.add(n.id());
        return out;
    }

    /** One row per queue: its CPUs as /sys/block/NAME/mq/N/cpu_list shows them. */
    @Then("the queues serve:")
    public void theQueuesServe(DataTable table) {
        int[] map = map();
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

    /** {@code irq_create_affinity_masks(nvecs, affd)} with {@code pre_vectors} and {@code post_vectors} and no interrupt sets. */
    @When("a driver asks for {int} interrupt vectors, {int} pre and {int} post")
    public void vectors(int nvecs, int pre, int post) {
        LocalSpreadSteps.record(world, () -> world.implementation().irqCreateAffinityMasks(world.kernel(), world.machine(), nvecs, pre, post,
                List.of()));
    }

    /** One row per vector: its affinity in list notation (empty for an empty mask) and {@code yes} or {@code no} for managed. */
    @Then("the vectors are:")
    public void theVectorsAre(DataTable table) {
        @SuppressWarnings("unchecked")
        Optional<List<IrqAffinity.AffinityDesc>> result = (Optional<List<IrqAffinity.AffinityDesc>>) world.result(Optional.class);
        List<IrqAffinity.AffinityDesc> vectors = result.orElseThrow(() -> new AssertionError("irqCreateAffinityMasks returned NULL"));
        List<String> want = new ArrayList<>(), got = new ArrayList<>();
        for (Map<String, String> row : table.asMaps()) {
            int v = Integer.parseInt(row.get("vector"));
            want.add(v + ": " + (row.get("cpus") == null ? "" : row.get("cpus")) + " " + ("yes".equals(row.get("managed")) ? "managed" : "unmanaged"));
            got.add(v + ": " + (v < vectors.size() ? vectors.get(v).mask().toList() + " " + (vectors.get(v).managed() ? "managed" : "unmanaged")
                    : "missing"));
        }
        if (!want.equals(got)) throw new AssertionError("expected " + want + "; actual " + got);
        if (table.asMaps().size() != vectors.size())
            throw new AssertionError("expected " + table.asMaps().size() + " vectors; actual " + vectors.size());
    }
}
