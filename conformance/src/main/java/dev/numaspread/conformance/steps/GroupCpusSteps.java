package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;


/** Steps of features/group-cpus.feature, run against the implementation under test. */
public class GroupCpusSteps {
    private final World world;
    private Optional<List<CpuSet>> groups;

    public GroupCpusSteps(World world) {
        this.world = world;
    }

    @When("the CPUs are grouped into {int} groups")
    public void grouped(int numgrps) {
        groups = ImplementationUnderTest.get().groupCpusEvenly(world.kernel(), world.machine(), numgrps);
    }

    @Then("the groups are:")
    public void theGroupsAre(DataTable table) {
        List<String> want = new ArrayList<>(), got = new ArrayList<>();
        List<CpuSet> actual = groups.orElseThrow(() -> new AssertionError("groupCpusEvenly returned NULL"));
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
        if (groups.isPresent()) throw new AssertionError("expected NULL; actual " + groups.get().size() + " groups");
    }
}
