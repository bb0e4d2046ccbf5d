package dev.numaspread.conformance.steps;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What a plan (the CPU of each queue or vector, in index order) is expected to hold, as the Then
 * steps of local spread and mlx5 state it. Failures are {@link AssertionError}s that name the
 * indices, the expected and the actual CPUs in kernel list notation.
 */
final class PlanExpectations {
    private PlanExpectations() {}

    /**
     * Entries {@code from..to} of {@code plan} are exactly {@code cpus}, in ascending CPU order
     * (every range a feature names lies inside one ring, or one classic block, so its CPUs ascend).
     */
    static void range(String what, int[] plan, int from, int to, CpuSet cpus) {
        if (to >= plan.length)
            throw new AssertionError(what + " " + from + " to " + to + ": the plan has only " + plan.length + " entries");
        int[] got = Arrays.copyOfRange(plan, from, to + 1);
        int[] want = cpus.toArray();
        if (!Arrays.equals(want, got))
            throw new AssertionError(what + " " + from + " to " + to + ": expected CPUs " + cpus.toList() + " in ascending order; actual "
                    + Sequences.text(got));
    }

    /**
     * Entries {@code from..to} of {@code plan} are {@code cpus}, each once, in any order: what a
     * contract (MUST) rule says of a block of the plan, where the order inside it is an exact (EXACT) matter.
     */
    static void rangeAnyOrder(String what, int[] plan, int from, int to, CpuSet cpus) {
        if (to >= plan.length)
            throw new AssertionError(what + " " + from + " to " + to + ": the plan has only " + plan.length + " entries");
        int[] got = Arrays.copyOfRange(plan, from, to + 1);
        int[] sorted = got.clone();
        Arrays.sort(sorted);
        if (!Arrays.equals(cpus.toArray(), sorted))
            throw new AssertionError(what + " " + from + " to " + to + ": expected the CPUs " + cpus.toList() + ", each once, in any order; actual "
                    + Sequences.text(got));
    }

    /** Every entry of {@code plan} is an online CPU of {@code machine}. */
    static void allOnline(String what, int[] plan, Topology machine) {
        for (int i = 0; i < plan.length; i++)
            if (!machine.online().contains(plan[i]))
                throw new AssertionError(what.substring(0, what.length() - 1) + " " + i + ": expected an online CPU (online "
                        + machine.online().toList() + "); actual " + (plan[i] < machine.nrCpuIds() ? "CPU " + plan[i] : "none (" + plan[i] + ")")
                        + " in " + Sequences.text(plan));
    }

    /** The whole plan is {@code want}, entry by entry. */
    static void sequence(String what, int[] plan, int[] want) {
        if (!Arrays.equals(want, plan))
            throw new AssertionError("the " + what + " get: expected CPUs " + Sequences.text(want) + "; actual " + Sequences.text(plan));
    }

    /**
     * Each row {@code | queues | cpus |} (or {@code vectors}): the index range and its CPUs in
     * ascending order; the rows together must cover the whole plan, in order.
     */
    static void table(String what, int[] plan, List<Map<String, String>> rows) {
        table(what, plan, rows, true);
    }

    /**
     * As {@link #table(String, int[], List)}, each row's CPUs in any order when {@code ascending} is
     * false: a table of rings (or blocks) whose order inside is an exact (EXACT) matter.
     */
    static void table(String what, int[] plan, List<Map<String, String>> rows, boolean ascending) {
        int next = 0;
        for (Map<String, String> row : rows) {
            String indices = row.get(what);
            if (indices == null) throw new IllegalArgumentException("plan table: no column '" + what + "'; expected columns '" + what + "' and 'cpus'");
            String[] fromTo = indices.strip().split("\\s*-\\s*");
            int from = Integer.parseInt(fromTo[0]);
            int to = fromTo.length > 1 ? Integer.parseInt(fromTo[1]) : from;
            if (from != next)
                throw new IllegalArgumentException("plan table: row '" + indices + "' starts at " + from + "; expected " + next + " (rows cover the plan in order)");
            CpuSet cpus = CpuSet.parseList(row.get("cpus").strip());
            if (ascending) range(what, plan, from, to, cpus);
            else rangeAnyOrder(what, plan, from, to, cpus);
            next = to + 1;
        }
        if (next != plan.length)
            throw new AssertionError("the plan has " + plan.length + " entries; the table covers " + next);
    }

    /**
     * The plan equals the single-CPU masks of a {@code /proc/irq} listing ({@code IRQ: hex mask}
     * per line, in IRQ order), as the seeds printed them.
     */
    static void listing(String what, int[] plan, String name, String text, Topology machine) {
        List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        if (lines.size() != plan.length)
            throw new AssertionError("listing " + name + " has " + lines.size() + " lines; the plan has " + plan.length + " " + what);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            CpuSet mask = CpuSet.parseMask(line.substring(line.indexOf(':') + 1).strip());
            if (mask.size() != 1)
                throw new IllegalArgumentException("fixtures/listings/" + name + ":" + (i + 1) + ": mask " + mask.toList() + "; expected one CPU per IRQ");
            if (mask.first() != plan[i])
                throw new AssertionError(what.substring(0, what.length() - 1) + " " + i + " (" + line + "): expected CPU " + mask.first()
                        + " (node " + machine.nodeOf(mask.first()) + "); actual CPU " + plan[i]
                        + (plan[i] < machine.nrCpuIds() ? " (node " + machine.nodeOf(plan[i]) + ")" : " (none)"));
        }
    }

    /** Entries {@code from..to} hold every online CPU exactly once. */
    static void everyOnlineCpuOnce(String what, int[] plan, int from, int to, Topology machine) {
        int[] got = Arrays.copyOfRange(plan, from, to + 1);
        int[] sorted = got.clone();
        Arrays.sort(sorted);
        if (!Arrays.equals(machine.online().toArray(), sorted))
            throw new AssertionError(what + " " + from + " to " + to + ": expected every online CPU (" + machine.online().toList()
                    + ") once; actual " + Sequences.text(got));
    }
}
