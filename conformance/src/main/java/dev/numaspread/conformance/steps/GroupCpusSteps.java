package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;


/**
 * Glue of features/group-cpus.feature: {@code group_cpus_evenly}, run against the implementation
 * under test. The groups (or NULL) are the scenario's result in {@link World}.
 */
public final class GroupCpusSteps {
    private final World world;

    public GroupCpusSteps(World world) {
        this.world = world;
    }

    @When("the CPUs are grouped into {int} groups")
    public void grouped(int numgrps) {
        LocalSpreadSteps.record(world, () -> world.implementation().groupCpusEvenly(world.kernel(), world.machine(), numgrps));
    }

    @Then("the groups are:")
    public void theGroupsAre(DataTable table) {
        List<String> want = new ArrayList<>(), got = new ArrayList<>();
        List<CpuSet> actual = groups().orElseThrow(() -> new AssertionError("groupCpusEvenly returned NULL"));
        for (Map<String, String> row : table.asMaps()) {
            int g = Integer.parseInt(row.get("group"));
            String cpus = row.get("cpus") == null ? "" : row.get("cpus");
            want.add(g + ": " + cpus);
            got.add(g + ": " + (g < actual.size() ? actual.get(g).toList() : "missing"));
        }
        if (!want.equals(got)) throw new AssertionError("expected " + want + "; actual " + got);
        if (table.asMaps().size() != actual.size())
            throw new AssertionError("expected " + table.asMaps().size() + " groups; actual " + actual.size());
    }

    @Then("the result is NULL")
    public void theResultIsNull() {
        Optional<List<CpuSet>> groups = groups();
        if (groups.isPresent()) throw new AssertionError("expected NULL; actual " + groups.get().size() + " groups");
    }

    /** What the last {@code group_cpus_evenly} call returned: the groups, or empty for NULL. */
    @SuppressWarnings("unchecked")
    private Optional<List<CpuSet>> groups() {
        return (Optional<List<CpuSet>>) world.result(Optional.class);
    }
}
