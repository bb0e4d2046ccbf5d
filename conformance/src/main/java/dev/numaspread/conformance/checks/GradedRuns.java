package dev.numaspread.conformance.checks;

import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.Outcome;
import dev.numaspread.model.hotplug.OutcomeTable;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The interleavings a check explored under one {@link OutcomeTable}, counted per outcome, as
 * jcstress reports a test's results: what the certificate prints under a hotplug rule.
 *
 * @param table        the table the runs were graded by
 * @param explorations how many explorations (machine, routine, events) the counts add up
 * @param counts       runs per outcome seen, in grading order
 */
public record GradedRuns(OutcomeTable table, int explorations, SortedMap<Outcome, Integer> counts) {

    public GradedRuns {
        counts = Collections.unmodifiableSortedMap(new TreeMap<>(counts));
    }

    /** The runs of one exploration. */
    public static GradedRuns of(Exploration<?> x) {
        return new GradedRuns(x.table(), 1, x.counts());
    }

    /** These runs and {@code other}'s, graded by the same table. */
    public GradedRuns plus(GradedRuns other) {
        if (other.table != table)
            throw new IllegalArgumentException("graded runs: table " + other.table + " added to " + table + "; expected the same table");
        TreeMap<Outcome, Integer> sum = new TreeMap<>(counts);
        other.counts.forEach((o, n) -> sum.merge(o, n, Integer::sum));
        return new GradedRuns(table, explorations + other.explorations, sum);
    }

    /** Every run counted. */
    public int runs() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The runs whose outcome the table forbids. */
    public int forbidden() {
        int n = 0;
        for (var e : counts.entrySet()) if (table.gradeOf(e.getKey()) == dev.numaspread.model.hotplug.Grade.FORBIDDEN) n += e.getValue();
        return n;
    }

    /** {@code 2212 interleavings in 4 explorations, graded atomic}. */
    public String summary() {
        return runs() + " interleaving" + (runs() == 1 ? "" : "s") + " in " + explorations + " exploration"
                + (explorations == 1 ? "" : "s") + ", graded " + table.name();
    }

    /** The summary, then the table with counts. */
    public String render() {
        return summary() + ":\n" + table.render(counts);
    }
}
