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
    private int numgrps;   // of the last call

    public GroupCpusSteps(World world) {
        this.world = world;
    }

    @When("the CPUs are grouped into {int} groups")
    public void grouped(int numgrps) {
        this.numgrps = numgrps;
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

    /**
     * GRP-3 as one example. Rows {@code | node | at least | at most |}: the number of groups that
     * hold CPUs of the node lies between the two, both included.
     */
    @Then("the number of groups holding each node's CPUs is:")
    public void groupsPerNode(DataTable table) {
        List<CpuSet> actual = present();
        for (Map<String, String> row : table.asMaps()) {
            int node = Integer.parseInt(row.get("node").strip());
            int least = Integer.parseInt(row.get("at least").strip()), most = Integer.parseInt(row.get("at most").strip());
            int count = groupsHolding(actual, world.machine().cpusOf(node));
            if (count < least || count > most)
                throw new AssertionError("node " + node + " (" + world.machine().cpusOf(node).toList() + "): expected its CPUs in "
                        + least + " to " + most + " groups; actual " + count + " (" + text(actual) + ")");
        }
    }

    /** GRP-3's sum: the groups holding each node's CPUs, counted per node, add up to {@code total}. */
    @Then("the nodes' group counts add up to {int}, the smaller of {int} groups and {int} CPUs")
    public void groupCountsAddUp(int total, int numgrps, int cpus) {
        if (total != Math.min(numgrps, cpus))
            throw new AssertionError("the scenario says " + total + " is the smaller of " + numgrps + " and " + cpus + "; it is " + Math.min(numgrps, cpus));
        List<CpuSet> actual = present();
        int sum = 0;
        for (var node : world.machine().nodes()) sum += groupsHolding(actual, node.cpus());
        if (sum != total)
            throw new AssertionError("expected the nodes' group counts to add up to " + total + "; actual " + sum + " (" + text(actual) + ")");
    }

    private static int groupsHolding(List<CpuSet> groups, CpuSet cpus) {
        int count = 0;
        for (CpuSet g : groups) if (g.intersects(cpus)) count++;
        return count;
    }

    /**
     * The groups holding CPUs of a node, as sets, whatever their numbers: a contract rule (GRP-13)
     * says what the node's groups hold, not which numbers they get (GRP-10, GRP-15).
     */
    @Then("the groups of node {int} are, in any order:")
    public void groupsOfNode(int node, DataTable table) {
        CpuSet cpus = world.machine().cpusOf(node);
        java.util.TreeSet<String> want = new java.util.TreeSet<>(), got = new java.util.TreeSet<>();
        for (Map<String, String> row : table.asMaps()) want.add(CpuSet.parseList(row.get("cpus").strip()).toList());
        for (CpuSet g : present()) if (g.intersects(cpus)) got.add(g.and(cpus).toList());
        if (!want.equals(got))
            throw new AssertionError("node " + node + " (" + cpus.toList() + "): expected its CPUs in groups " + want + "; actual " + got
                    + " (" + text(present()) + ")");
    }

    @Then("every group holds CPUs")
    public void everyGroupHoldsCpus() {
        List<CpuSet> actual = present();
        for (int g = 0; g < actual.size(); g++)
            if (actual.get(g).isEmpty()) throw new AssertionError("group " + g + ": expected CPUs; it is empty (" + text(actual) + ")");
    }

    /** GRP-5 as one example: every core (its SMT siblings) lies in one group. */
    @Then("no core is split between groups")
    public void noCoreSplit() {
        List<CpuSet> actual = present();
        for (CpuSet core : world.machine().smtSiblings())
            for (int g = 0; g < actual.size(); g++)
                if (actual.get(g).intersects(core) && !core.isSubsetOf(actual.get(g)))
                    throw new AssertionError("core " + core.toList() + ": expected it in one group; group " + g + " holds only "
                            + actual.get(g).and(core).toList() + " (" + text(actual) + ")");
    }

    /** GRP-8 as one example: the CPUs of each node lie in one group. */
    @Then("the CPUs of each node are in one group")
    public void eachNodeInOneGroup() {
        List<CpuSet> actual = present();
        for (var node : world.machine().nodes()) {
            int count = 0;
            for (CpuSet g : actual) if (g.intersects(node.cpus())) count++;
            if (node.cpus().size() > 0 && count != 1)
                throw new AssertionError("node " + node.id() + " (" + node.cpus().toList() + "): expected its CPUs in one group; actual "
                        + count + " groups (" + text(actual) + ")");
        }
    }

    /** GRP-6 as one example. */
    @Then("groups {int} to {int} hold one CPU each and groups {int} to {int} are empty")
    public void oneCpuThenEmpty(int from, int to, int emptyFrom, int emptyTo) {
        List<CpuSet> actual = present();
        if (actual.size() != emptyTo + 1) throw new AssertionError("expected " + (emptyTo + 1) + " groups; actual " + actual.size() + " (" + text(actual) + ")");
        for (int g = from; g <= to; g++)
            if (actual.get(g).size() != 1)
                throw new AssertionError("group " + g + ": expected one CPU; actual " + actual.get(g).size() + " (" + text(actual) + ")");
        for (int g = emptyFrom; g <= emptyTo; g++)
            if (!actual.get(g).isEmpty())
                throw new AssertionError("group " + g + ": expected it empty; actual " + actual.get(g).toList() + " (" + text(actual) + ")");
    }

    /**
     * GRP-10 as one line: every group holds one CPU, and group {@code g} holds the {@code g}-th CPU
     * of {@code cpus} (CPU ids separated by spaces, in group order).
     */
    @Then("each group holds one CPU, in group order {string}")
    public void oneCpuEachInOrder(String cpus) {
        List<CpuSet> actual = present();
        List<String> want = new ArrayList<>(), got = new ArrayList<>();
        for (String c : cpus.strip().split("\\s+")) want.add(c);
        for (CpuSet g : actual) got.add(g.toList());
        if (!want.equals(got))
            throw new AssertionError("expected groups " + String.join(" | ", want) + "; actual " + String.join(" | ", got));
    }

    /** GRP-7 as one example: the groups holding a CPU of {@code cpus} are exactly the groups {@code groups}. */
    @Then("the groups that hold CPUs of {cpulist} are groups {cpulist}")
    public void groupsHolding(CpuSet cpus, CpuSet groups) {
        List<CpuSet> actual = present();
        CpuSet.Builder got = CpuSet.builder();
        for (int g = 0; g < actual.size(); g++) if (actual.get(g).intersects(cpus)) got.add(g);
        if (!got.build().equals(groups))
            throw new AssertionError("the groups holding CPUs of " + cpus.toList() + ": expected groups " + groups.toList() + "; actual groups "
                    + got.build().toList() + " (" + text(actual) + ")");
    }

    /** GRP-11 as one example: every group's CPUs lie in one hardware cluster. */
    @Then("every group lies in one cluster")
    public void everyGroupInOneCluster() {
        List<CpuSet> actual = present();
        for (int g = 0; g < actual.size(); g++) {
            if (actual.get(g).isEmpty()) continue;
            CpuSet cluster = world.machine().clusterOf(actual.get(g).first());
            if (!actual.get(g).isSubsetOf(cluster))
                throw new AssertionError("group " + g + " = " + actual.get(g).toList() + ": expected it inside the cluster " + cluster.toList()
                        + " of its first CPU (" + text(actual) + ")");
        }
    }

    /** GRP-12 as one example: inside each cluster the groups hold floor(n/h) or ceil(n/h) of its n CPUs. */
    @Then("inside each cluster the group sizes differ by at most one")
    public void evenInsideClusters() {
        evenInside(world.machine().clusters(), "cluster");
    }

    /** GRP-4 and GRP-13 as one example: inside each node the groups hold floor(n/g) or ceil(n/g) of its n CPUs. */
    @Then("inside each node the group sizes differ by at most one")
    public void evenInsideNodes() {
        evenInside(world.machine().nodes().stream().map(n -> n.cpus()).filter(c -> !c.isEmpty()).toList(), "node");
    }

    private void evenInside(List<CpuSet> parts, String what) {
        List<CpuSet> actual = present();
        for (CpuSet part : parts) {
            List<Integer> sizes = new ArrayList<>();
            for (CpuSet g : actual) if (g.intersects(part)) sizes.add(g.and(part).size());
            int lo = part.size() / sizes.size(), hi = (part.size() + sizes.size() - 1) / sizes.size();
            for (int size : sizes)
                if (size < lo || size > hi)
                    throw new AssertionError(what + " " + part.toList() + ": expected its " + part.size() + " CPUs in " + sizes.size()
                            + " groups of " + lo + (hi > lo ? " or " + hi : "") + "; actual sizes " + sizes + " (" + text(actual) + ")");
        }
    }

    /** GRP-14: the nummasks the same call reports. */
    @Then("the call reports nummasks {int}")
    public void nummasksIs(int nummasks) {
        java.util.OptionalInt got = world.implementation().groupCpusEvenlyNummasks(world.kernel(), world.machine(), numgrps);
        if (got.isEmpty() || got.getAsInt() != nummasks)
            throw new AssertionError("nummasks of group_cpus_evenly(" + numgrps + "): expected " + nummasks + "; actual "
                    + (got.isEmpty() ? "NULL" : String.valueOf(got.getAsInt())));
    }

    @Then("the result is NULL")
    public void theResultIsNull() {
        Optional<List<CpuSet>> groups = groups();
        if (groups.isPresent()) throw new AssertionError("expected NULL; actual " + groups.get().size() + " groups");
    }

    private List<CpuSet> present() {
        return groups().orElseThrow(() -> new AssertionError("groupCpusEvenly returned NULL"));
    }

    /** The groups in kernel list notation: {@code 0: 4-7; 1: 0-1; 2: }. */
    static String text(List<CpuSet> groups) {
        List<String> s = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) s.add(g + ": " + groups.get(g).toList());
        return String.join("; ", s);
    }

    /** What the last {@code group_cpus_evenly} call returned: the groups, or empty for NULL. */
    @SuppressWarnings("unchecked")
    private Optional<List<CpuSet>> groups() {
        return (Optional<List<CpuSet>>) world.result(Optional.class);
    }
}
