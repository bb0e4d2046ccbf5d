package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.numa.NumaClosest;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Glue of features/numa-levels.feature and features/numa-hops.feature: the NUMA levels, the hop masks, the closest and the
 * n-th CPU and the nearest node with CPUs, against the implementation under test.
 */
public final class NumaSteps {
    private final World world;
    private int firstNumber;                // the first CPU number asked for, for tables of answers

    public NumaSteps(World world) {
        this.world = world;
    }

    // ---------------------------------------------------------------- levels (LVL)

    @When("the kernel builds its NUMA levels")
    public void buildLevels() {
        LocalSpreadSteps.record(world, () -> world.implementation().numaLevels(world.kernel(), world.machine()));
    }

    @Then("the NUMA levels are {sequence}")
    public void levelsAre(int[] want) {
        int[] got = world.result(int[].class);
        if (!Arrays.equals(want, got))
            throw new AssertionError("the NUMA levels: expected " + Sequences.text(want) + "; actual " + (got.length == 0 ? "none" : Sequences.text(got)));
    }

    /** LVL-5 as one example: strictly ascending from 10, and each of {@code want} among them (more may follow). */
    @Then("the NUMA levels ascend from 10 and include {sequence}")
    public void levelsInclude(int[] want) {
        int[] got = world.result(int[].class);
        boolean ascending = got.length > 0 && got[0] == 10;
        for (int i = 1; i < got.length; i++) ascending &= got[i] > got[i - 1];
        for (int w : want) ascending &= Arrays.binarySearch(got, w) >= 0;
        if (!ascending)
            throw new AssertionError("the NUMA levels: expected strictly ascending levels from 10 that include " + Sequences.text(want)
                    + "; actual " + (got.length == 0 ? "none" : Sequences.text(got)));
    }

    @Then("there are no NUMA levels")
    public void noLevels() {
        int[] got = world.result(int[].class);
        if (got.length != 0) throw new AssertionError("the NUMA levels: expected none; actual " + Sequences.text(got));
    }

    // ---------------------------------------------------------------- hop masks (HOP-1 .. HOP-4)

    @When("a driver walks the hop masks of {node}")
    public void walk(int node) {
        LocalSpreadSteps.record(world, () -> world.implementation().hopMasks(world.kernel(), world.machine(), node));
    }

    /**
     * Rows {@code | level | mask | ring |}, one per mask yielded, in order; {@code level} (optional)
     * is the NUMA level the mask belongs to, {@code ring} (optional) the mask minus the one before;
     * an empty cell or {@code none} is the empty set.
     */
    @Then("the hop masks are:")
    public void hopMasksAre(DataTable table) {
        List<CpuSet> got = masks();
        List<Map<String, String>> rows = table.asMaps();
        if (got.size() != rows.size())
            throw new AssertionError("the walk yields " + got.size() + " masks " + CpuSet.toText(got) + "; expected " + rows.size());
        int[] levels = rows.get(0).containsKey("level") ? world.implementation().numaLevels(world.kernel(), world.machine()) : new int[0];
        CpuSet previous = CpuSet.EMPTY;
        for (int k = 0; k < rows.size(); k++) {
            Map<String, String> row = rows.get(k);
            CpuSet mask = got.get(k);
            expectSet("hop " + k + " mask", cpus(row.get("mask")), mask);
            if (row.containsKey("ring")) expectSet("hop " + k + " ring", cpus(row.get("ring")), mask.andNot(previous));
            if (row.containsKey("level")) {
                int want = Integer.parseInt(row.get("level").strip());
                if (k >= levels.length || levels[k] != want)
                    throw new AssertionError("hop " + k + ": expected level " + want + "; the NUMA levels are " + Sequences.text(levels));
            }
            previous = mask;
        }
    }

    @Then("the walk yields only {cpulist}")
    public void yieldsOnly(CpuSet want) {
        List<CpuSet> got = masks();
        if (got.size() != 1 || !got.get(0).equals(want))
            throw new AssertionError("the walk: expected one mask " + want.toList() + "; actual " + got.size() + " " + CpuSet.toText(got));
    }

    @Then("the walk yields nothing")
    public void yieldsNothing() {
        List<CpuSet> got = masks();
        if (!got.isEmpty()) throw new AssertionError("the walk: expected no mask; actual " + got.size() + " " + CpuSet.toText(got));
    }

    /** HOP-2 as one example: the first mask holds (at least) {@code first}, the last is exactly {@code last}. */
    @Then("the first hop mask holds {cpulist} and the last is {cpulist}")
    public void firstAndLast(CpuSet first, CpuSet last) {
        List<CpuSet> got = masks();
        if (got.isEmpty()) throw new AssertionError("the walk: expected masks; it yields nothing");
        if (!first.isSubsetOf(got.get(0)))
            throw new AssertionError("the first hop mask: expected it to hold " + first.toList() + "; actual " + got.get(0).toList());
        expectSet("the last hop mask", last, got.get(got.size() - 1));
    }

    /** HOP-1 as one example: each mask holds the one before it, and only online CPUs. */
    @Then("every hop mask holds the one before it and only online CPUs")
    public void nestedAndOnline() {
        List<CpuSet> got = masks();
        if (got.isEmpty()) throw new AssertionError("the walk: expected masks; it yields nothing");
        CpuSet online = world.machine().online();
        for (int k = 0; k < got.size(); k++) {
            if (!got.get(k).isSubsetOf(online))
                throw new AssertionError("hop " + k + " mask " + got.get(k).toList() + ": expected online CPUs only (online " + online.toList()
                        + "); the walk yields " + CpuSet.toText(got));
            if (k > 0 && !got.get(k - 1).isSubsetOf(got.get(k)))
                throw new AssertionError("hop " + k + " mask " + got.get(k).toList() + ": expected it to hold hop " + (k - 1) + " mask "
                        + got.get(k - 1).toList() + "; the walk yields " + CpuSet.toText(got));
        }
    }

    // ---------------------------------------------------------------- closest, n-th, nearest node (HOP-5 .. HOP-8)

    @When("the scheduler looks for the CPU of {cpulist} closest to CPU {int}")
    public void closest(CpuSet cpus, int cpu) {
        LocalSpreadSteps.record(world, () -> world.implementation().numaClosest(world.kernel(), world.machine(), cpus, cpu));
    }

    /** Rows {@code | cpus | cpu |}: the calls, made in order on one CPU (HOP-10). */
    @When("the scheduler on CPU {int}, whose distribute state is {int}, looks for the closest CPUs in turn:")
    public void closestInTurn(int callingCpu, int prev, DataTable table) {
        List<NumaClosest.Call> calls = new java.util.ArrayList<>();
        for (Map<String, String> row : table.asMaps())
            calls.add(new NumaClosest.Call(CpuSet.parseList(row.get("cpus").strip()), Integer.parseInt(row.get("cpu").strip())));
        LocalSpreadSteps.record(world, () -> world.implementation().numaClosestCalls(world.kernel(), world.machine(), callingCpu, prev, calls));
    }

    @When("the scheduler looks for CPU number {int} of {cpulist} from {node}")
    public void nth(int n, CpuSet cpus, int node) {
        LocalSpreadSteps.record(world, () -> world.implementation().numaNth(world.kernel(), world.machine(), cpus, n, node));
    }

    /** Numbers {@code first..last}, one call each; a modelled kernel failure of any call is the outcome. */
    @When("the scheduler looks for CPU numbers {int} to {int} of {cpulist} from node {int}")
    public void nthRange(int first, int last, CpuSet cpus, int node) {
        firstNumber = first;
        LocalSpreadSteps.record(world, () -> {
            int[] out = new int[last - first + 1];
            for (int n = first; n <= last; n++) out[n - first] = world.implementation().numaNth(world.kernel(), world.machine(), cpus, n, node);
            return out;
        });
    }

    @When("the kernel looks for the nearest node with CPUs to {node}")
    public void nearestNode(int node) {
        LocalSpreadSteps.record(world, () -> world.implementation().numaNearestNode(world.kernel(), world.machine(), node));
    }

    @Then("the answer is CPU {int}")
    public void answerIsCpu(int cpu) {
        int got = world.result(Integer.class);
        if (got != cpu) throw new AssertionError("the answer: expected CPU " + cpu + "; actual " + cpuText(got));
    }

    @Then("the answer is none")
    public void answerIsNone() {
        int got = world.result(Integer.class);
        if (got < world.machine().nrCpuIds())
            throw new AssertionError("the answer: expected none (a value >= nr_cpu_ids = " + world.machine().nrCpuIds() + "); actual CPU " + got);
    }

    @Then("the answer is a CPU of {cpulist}")
    public void answerIsOneOf(CpuSet cpus) {
        int got = world.result(Integer.class);
        if (!cpus.contains(got)) throw new AssertionError("the answer: expected a CPU of " + cpus.toList() + "; actual " + cpuText(got));
    }

    /**
     * Rows {@code | numbers | cpus |} (numbers as in the When step): the answers of each row are
     * distinct CPUs of its set, in any order. A ring's order is an exact (EXACT) matter.
     */
    @Then("the answers are, ring by ring:")
    public void answersRingByRing(DataTable table) {
        int[] got = world.result(int[].class);
        int first = firstNumber;
        for (Map<String, String> row : table.asMaps()) {
            CpuSet numbers = CpuSet.parseList(row.get("numbers").strip());
            CpuSet want = CpuSet.parseList(row.get("cpus").strip());
            CpuSet seen = CpuSet.EMPTY;
            for (int n : numbers.toArray()) {
                int cpu = got[n - first];
                if (!want.contains(cpu) || seen.contains(cpu))
                    throw new AssertionError("CPU number " + n + ": expected a CPU of " + want.toList() + " not given to another number of the row;"
                            + " actual " + cpuText(cpu) + " (answers " + Sequences.text(got) + " for numbers " + first + " on)");
                seen = seen.with(cpu);
            }
        }
    }

    @Then("the answers are CPUs {sequence}")
    public void answersAre(int[] cpus) {
        int[] got = world.result(int[].class);
        if (!Arrays.equals(cpus, got))
            throw new AssertionError("the answers: expected CPUs " + Sequences.text(cpus) + "; actual " + Sequences.text(got));
    }

    @Then("the answer is node {int}")
    public void answerIsNode(int node) {
        int got = world.result(Integer.class);
        if (got != node) throw new AssertionError("the answer: expected node " + node + "; actual node " + got);
    }

    private String cpuText(int cpu) {
        return cpu >= world.machine().nrCpuIds() ? "none (" + cpu + " >= nr_cpu_ids)" : "CPU " + cpu;
    }

    @SuppressWarnings("unchecked")
    private List<CpuSet> masks() {
        return new ArrayList<CpuSet>(world.result(List.class));
    }

    private static CpuSet cpus(String cell) {
        return CpuSet.parseText(cell == null ? "" : cell);
    }

    private static void expectSet(String what, CpuSet want, CpuSet got) {
        if (!want.equals(got))
            throw new AssertionError(what + ": expected " + want.toText() + "; actual " + got.toText());
    }

}
