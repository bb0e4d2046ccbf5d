package dev.numaspread.conformance.topogen;

import dev.numaspread.model.topology.Topology;
import org.apache.commons.math3.stat.Frequency;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-run statistics of generated machines: how many fell in each {@link MachineClass}
 * (Commons Math {@link Frequency}) and summaries of nodes, possible CPUs and distance levels
 * ({@link SummaryStatistics}). {@link #belowMinimum()} names the classes under their minimum share.
 */
public final class MachineStatistics {

    private final Frequency classes = new Frequency();
    private final SummaryStatistics nodes = new SummaryStatistics();
    private final SummaryStatistics cpus = new SummaryStatistics();
    private final SummaryStatistics levels = new SummaryStatistics();
    private long machines;

    /** Counts one machine. */
    public void add(Topology t) {
        machines++;
        for (MachineClass c : MachineClass.of(t)) classes.addValue(c.name());
        nodes.addValue(t.nodes().size());
        cpus.addValue(t.possible().size());
        levels.addValue(t.distances().distinctValues().length);
    }

    public long machines() {
        return machines;
    }

    /** The share of machines in class {@code c}, 0 before any machine was counted. */
    public double share(MachineClass c) {
        return machines == 0 ? 0 : (double) classes.getCount(c.name()) / machines;
    }

    /** The classes under their minimum share, as {@code "SMT4 2.1% < 4.0%"}, in declaration order. */
    public List<String> belowMinimum() {
        List<String> out = new ArrayList<>();
        for (MachineClass c : MachineClass.values())
            if (share(c) < c.minimumShare())
                out.add(String.format("%s %.1f%% < %.1f%%", c, 100 * share(c), 100 * c.minimumShare()));
        return out;
    }

    /** One line per class: share and minimum; then the summaries. */
    public String table() {
        StringBuilder sb = new StringBuilder(String.format("%d machines%n", machines));
        for (MachineClass c : MachineClass.values())
            sb.append(String.format("  %-26s %6.1f%%  (minimum %4.1f%%)%n", c, 100 * share(c), 100 * c.minimumShare()));
        sb.append(String.format("  nodes  mean %.1f max %.0f%n", nodes.getMean(), nodes.getMax()));
        sb.append(String.format("  cpus   mean %.1f max %.0f%n", cpus.getMean(), cpus.getMax()));
        sb.append(String.format("  levels mean %.1f max %.0f%n", levels.getMean(), levels.getMax()));
        return sb.toString();
    }
}
