package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.races.Race;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.topology.Topology;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;


/**
 * Glue of features/sibling-spread.feature (spec/sibling-spread.md): MANA's irq_setup() and
 * mana_gd_setup_irqs() run by the implementation under test on a quiet {@link Machine}.
 */
public final class SiblingSpreadSteps {

    private final World world;

    public SiblingSpreadSteps(World world) {
        this.world = world;
    }

    /** irq_setup() as its caller runs it, under cpus_read_lock(). */
    private void irqSetup(int node, int len, boolean skipFirstCpu) {
        try {
            List<CpuSet> got = Race.irqSetupUnderCallersLock(world.implementation(), world.kernel(), node, len, skipFirstCpu)
                    .run(Machine.boot(world.machine(), world.kernel()));
            world.result(new Affinities(got));
        } catch (RuntimeException e) {
            world.error(e);
        }
    }

    private void setup(Machine.Config config, int node) {
        try {
            world.result(new Affinities(world.implementation().manaSetupIrqs(world.kernel(), Machine.boot(config), node)));
        } catch (RuntimeException e) {
            world.error(e);
        }
    }

    /** What the last MANA routine gave: one affinity per IRQ (or vector), in order. */
    record Affinities(List<CpuSet> masks) {}

    @When("the driver sets up {int} IRQs on {node}")
    public void setsUpIrqs(int len, int node) {
        irqSetup(node, len, false);
    }

    @When("the driver sets up {int} IRQs on {node} skipping the first core")
    public void setsUpIrqsSkipping(int len, int node) {
        irqSetup(node, len, true);
    }

    @When("MANA sets up its vectors on node {int}")
    public void manaSetsUp(int node) {
        setup(Machine.Config.of(world.machine(), world.kernel()), node);
    }

    @When("MANA sets up its vectors on node {int} with {int} vector(s) granted")
    public void manaSetsUpGranted(int node, int granted) {
        setup(Machine.Config.of(world.machine(), world.kernel()).withGrantedVectors(granted), node);
    }

    @When("MANA sets up its vectors on node {int} with dynamic MSI-X and a device maximum of {int}")
    public void manaSetsUpDynamic(int node, int maxMsix) {
        setup(Machine.Config.of(world.machine(), world.kernel()).withGrantedVectors(maxMsix).withDynamicMsix(true), node);
    }

    private List<CpuSet> masks() {
        return world.result(Affinities.class).masks();
    }

    /** A table {@code | irq | cpus |}; an empty cpus cell means the IRQ got no affinity. */
    @Then("the IRQs get:")
    public void theIrqsGet(DataTable table) {
        List<CpuSet> want = new ArrayList<>();
        List<String> irqs = new ArrayList<>();
        for (Map<String, String> row : table.asMaps()) {
            irqs.add(row.get("irq"));
            String cpus = row.get("cpus");
            want.add(cpus == null || cpus.isBlank() ? CpuSet.EMPTY : CpuSet.parseList(cpus.strip()));
        }
        List<CpuSet> got = masks();
        assertEquals(CpuSet.toText(want), CpuSet.toText(got), "affinities of IRQs " + irqs);
    }

    @Then("no IRQ gets an affinity")
    public void noIrqGetsAnAffinity() {
        assertEquals("[]", CpuSet.toText(masks()), "affinities");
    }

    @Then("{int} IRQs get an affinity")
    public void irqsGetAnAffinity(int n) {
        assertEquals(n, masks().size(), "IRQs assigned: " + CpuSet.toText(masks()));
    }

    /**
     * A table {@code | irqs | cores of |} or {@code | irqs | single CPUs |}: IRQs {@code a-b} get,
     * one each and in order, the online sibling masks of the cores holding the listed CPUs, or
     * those CPUs one by one.
     */
    @Then("the IRQs get, in order:")
    public void theIrqsGetInOrder(DataTable table) {
        Topology t = world.machine();
        int total = 0;
        for (Map<String, String> row : table.asMaps()) {
            CpuSet irqs = CpuSet.parseList(row.get("irqs").strip());
            List<CpuSet> want = new ArrayList<>();
            if (row.containsKey("cores of")) {
                CpuSet cpus = CpuSet.parseList(row.get("cores of").strip());
                for (CpuSet g : t.smtSiblings()) if (g.intersects(cpus)) want.add(g.and(t.online()));
            } else {
                CpuSet.parseList(row.get("single CPUs").strip()).forEachCpu(c -> want.add(CpuSet.of(c)));
            }
            expectRun(irqs.first(), irqs.last(), want);
            total = Math.max(total, irqs.last() + 1);
        }
        assertEquals(total, masks().size(), "number of IRQs that got an affinity");
    }

    /**
     * A table {@code | irqs | cpus |}: the IRQs {@code a-b} of a row get distinct cores (each the
     * online sibling mask of a core holding a CPU of {@code cpus}), in any order: the contract
     * (SIB-1..SIB-4) without the kernel's order of cores (SIB-5). The rows cover every IRQ that got
     * an affinity.
     */
    @Then("the IRQs get, row by row, distinct cores of:")
    public void theIrqsGetDistinctCores(DataTable table) {
        Topology t = world.machine();
        List<CpuSet> got = masks();
        int total = 0;
        for (Map<String, String> row : table.asMaps()) {
            CpuSet irqs = CpuSet.parseList(row.get("irqs").strip());
            CpuSet cpus = CpuSet.parseList(row.get("cpus").strip());
            if (got.size() <= irqs.last())
                throw new AssertionError("only " + got.size() + " IRQs got an affinity; expected IRQ " + irqs.last() + " too: " + CpuSet.toText(got));
            List<CpuSet> seen = new ArrayList<>();
            for (int irq : irqs.toArray()) {
                CpuSet mask = got.get(irq);
                boolean core = !mask.isEmpty() && t.online().contains(mask.first()) && mask.equals(t.onlineSiblingsOf(mask.first()));
                if (!core || !mask.intersects(cpus) || seen.contains(mask))
                    throw new AssertionError("IRQ " + irq + ": expected the online sibling mask of a core of " + cpus.toList()
                            + (seen.isEmpty() ? "" : " other than " + CpuSet.toText(seen)) + "; actual " + mask.toText()
                            + " (IRQs " + row.get("irqs").strip() + " get distinct cores; all IRQs: " + CpuSet.toText(got) + ")");
                seen.add(mask);
            }
            total = Math.max(total, irqs.last() + 1);
        }
        assertEquals(total, got.size(), "number of IRQs that got an affinity (" + CpuSet.toText(got) + ")");
    }

    /** SIB-9 as one example: IRQ 0 (the HWC) gets one CPU of {@code cpus}, and IRQ 1 the online siblings of that CPU. */
    @Then("IRQ 0 gets a single CPU of {cpulist} and IRQ 1 gets that CPU's core")
    public void hwcSharesItsCore(CpuSet cpus) {
        List<CpuSet> got = masks();
        if (got.size() < 2) throw new AssertionError("expected at least 2 IRQs with an affinity; actual " + CpuSet.toText(got));
        CpuSet hwc = got.get(0);
        if (hwc.size() != 1 || !cpus.contains(hwc.first()))
            throw new AssertionError("IRQ 0 (the HWC): expected a single CPU of " + cpus.toList() + "; actual " + CpuSet.toText(got));
        CpuSet core = world.machine().onlineSiblingsOf(hwc.first());
        assertEquals(core.toList(), got.get(1).toList(), "IRQ 1: the core of the HWC's CPU " + hwc.first() + " (" + CpuSet.toText(got) + ")");
    }

    private void expectRun(int from, int to, List<CpuSet> want) {
        assertEquals(to - from + 1, want.size(), "the step names " + (to - from + 1) + " IRQs and " + want.size() + " masks");
        List<CpuSet> got = masks();
        if (got.size() <= to) throw new AssertionError("only " + got.size() + " IRQs got an affinity; expected IRQ " + to + " too");
        assertEquals(CpuSet.toText(want), CpuSet.toText(got.subList(from, to + 1)), "affinities of IRQs " + from + " to " + to);
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
