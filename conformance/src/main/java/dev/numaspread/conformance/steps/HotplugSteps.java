package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.races.Race;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.HotplugEvent;
import dev.numaspread.model.hotplug.InterleavingExplorer;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.InterleavingExplorer.Interleaving;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.hotplug.Outcome;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;


/**
 * Glue of features/hotplug.feature (spec/hotplug.md): the implementation's MANA routines run once
 * per point at which a hotplug event can arrive, graded by the table of the release.
 */
public final class HotplugSteps {

    private final World world;

    public HotplugSteps(World world) {
        this.world = world;
    }


    private void exploreSetup(Machine.Config config, int node, InterleavingExplorer.Scope scope) {
        world.result(Race.manaSetupIrqs(world.implementation(), world.kernel(), node).explore(config, scope));
    }

    @When("MANA sets up its vectors on node {int} while cpu {int} goes offline at any point")
    public void setupWhileOffline(int node, int cpu) {
        Machine.Config c = Machine.Config.of(world.machine(), world.kernel());
        exploreSetup(c, node, InterleavingExplorer.Scope.only(HotplugEvent.offline(cpu)));
    }

    @When("MANA sets up its vectors on node {int} with {int} vector(s) granted while cpu {int} goes offline at any point")
    public void setupGrantedWhileOffline(int node, int granted, int cpu) {
        Machine.Config c = Machine.Config.of(world.machine(), world.kernel()).withGrantedVectors(granted);
        exploreSetup(c, node, InterleavingExplorer.Scope.only(HotplugEvent.offline(cpu)));
    }

    @When("MANA sets up its vectors on node {int} under every hotplug event and pair of events")
    public void setupUnderEveryEvent(int node) {
        Machine.Config c = Machine.Config.of(world.machine(), world.kernel());
        exploreSetup(c, node, InterleavingExplorer.Scope.everyEvent(c));
    }

    @When("the driver sets up {int} IRQs on node {int} under cpus_read_lock\\() while cpu {int} goes offline at any point")
    public void irqSetupWhileOffline(int len, int node, int cpu) {
        world.result(Race.irqSetup(world.implementation(), world.kernel(), node, len, false)
                .explore(Machine.Config.of(world.machine(), world.kernel()), InterleavingExplorer.Scope.only(HotplugEvent.offline(cpu))));
    }

    @SuppressWarnings("unchecked")
    private Exploration<List<CpuSet>> exploration() {
        return world.result(Exploration.class);
    }

    @Then("every interleaving gives the plan before or after the event")
    public void planBeforeOrAfter() {
        Exploration<List<CpuSet>> x = exploration();
        for (Interleaving<List<CpuSet>> i : x.interleavings())
            assertTrue(i.outcome() == Outcome.SAME_PLAN || i.outcome() == Outcome.PLAN_AFTER_EVENT,
                    "interleaving " + i + "\n" + x.report());
    }

    /** A table {@code | outcome | grade |}: exactly the outcomes seen, each with the grade of the release's table. */
    @Then("the outcomes seen are:")
    public void outcomesSeen(DataTable table) {
        Exploration<List<CpuSet>> x = exploration();
        TreeMap<String, String> want = new TreeMap<>();
        for (Map<String, String> row : table.asMaps()) want.put(row.get("outcome"), row.get("grade"));
        TreeMap<String, String> got = new TreeMap<>();
        for (Outcome o : x.counts().keySet()) got.put(o.id(), x.table().gradeOf(o).name());
        assertEquals(want, got, x.report());
    }

    @Then("an interleaving gives {string}")
    public void anInterleavingGives(String id) {
        Exploration<List<CpuSet>> x = exploration();
        Outcome outcome = Outcome.byId(id).orElseThrow(() -> new AssertionError("no outcome is named '" + id + "'; expected one of "
                + java.util.Arrays.stream(Outcome.values()).map(Outcome::id).toList()));
        assertTrue(!x.withOutcome(outcome).isEmpty(), "no interleaving gave " + outcome + "\n" + x.report());
    }

    @Then("an interleaving binds IRQ {int} to offline cpu {int}")
    public void bindsToOffline(int irq, int cpu) {
        Exploration<List<CpuSet>> x = exploration();
        String prefix = "irq " + irq + " bound to ";
        String offline = "while cpu " + CpuSet.of(cpu).toList() + " was offline";
        boolean found = x.withOutcome(Outcome.OFFLINE_TARGET).stream()
                .anyMatch(i -> i.detail().startsWith(prefix) && i.detail().contains(offline));
        assertTrue(found, "no interleaving bound IRQ " + irq + " to offline cpu " + cpu + "\n" + x.report());
    }

    @Then("the hotplug lock is released on every interleaving")
    public void lockReleased() {
        Exploration<List<CpuSet>> x = exploration();
        assertEquals(List.of(), x.withOutcome(Outcome.LOCK_LEAKED), x.report());
        assertTrue(!x.interleavings().isEmpty(), "no interleaving explored");
    }

    // Glue runs in the kit's main code, without JUnit: a failed expectation is an AssertionError.
    private static void assertEquals(Object want, Object got, String what) {
        if (!java.util.Objects.equals(want, got))
            throw new AssertionError(what + "\n  expected: " + want + "\n  actual:   " + got);
    }

    private static void assertTrue(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
}
