package dev.numaspread.conformance.audit;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.topology.InvalidTopologyException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code /proc/interrupts} as the kernel prints it ({@code show_interrupts()}): a header naming
 * one column per online CPU ({@code CPU0 CPU1 ...}), then one line per IRQ with a count per
 * column, the chip, the hardware IRQ and trigger, and the names of the handlers
 * ({@code nvme0q1}, {@code mlx5_comp3@pci:0000:08:00.0}; shared IRQs list several, comma
 * separated). Lines of architecture counters ({@code NMI:}, {@code LOC:}) are kept out.
 *
 * @param cpus  the CPU of each count column (offline CPUs have no column)
 * @param lines the numbered IRQs, in file order
 */
public record ProcInterrupts(List<Integer> cpus, List<Line> lines) {

    public ProcInterrupts {
        cpus = List.copyOf(cpus);
        lines = List.copyOf(lines);
    }

    /**
     * One IRQ line.
     *
     * @param irq    the Linux IRQ number ({@code /proc/irq/N})
     * @param line   its line in the file, for messages
     * @param tokens what follows the counts, split at blanks and commas: chip, hardware IRQ, names
     */
    public record Line(int irq, int line, List<String> tokens) {
        public Line {
            tokens = List.copyOf(tokens);
        }

        /** The handler names: the tokens after chip and hardware IRQ ({@code ttyS0}), for messages. */
        public String names() {
            return tokens.isEmpty() ? "" : tokens.get(tokens.size() - 1);
        }
    }

    private static final Pattern HEADER_CPU = Pattern.compile("CPU(\\d{1,9})");
    private static final Pattern LABEL = Pattern.compile("\\s*([^\\s:]+):(.*)");

    /**
     * Reads the file's text.
     *
     * @param where the file for messages ({@code snap.tar:proc/interrupts})
     * @throws InvalidTopologyException {@code where:LINE: what was found; what was expected}
     */
    public static ProcInterrupts parse(String text, String where) {
        return parse(text, where, java.util.Optional.empty());
    }

    /**
     * Reads the file's text for {@code machine}: a count column of a CPU the machine does not have
     * is refused too.
     *
     * @throws InvalidTopologyException {@code where:LINE: what was found; what was expected}
     */
    public static ProcInterrupts parse(String text, String where, dev.numaspread.model.topology.Topology machine) {
        return parse(text, where, java.util.Optional.of(machine));
    }

    private static ProcInterrupts parse(String text, String where, java.util.Optional<dev.numaspread.model.topology.Topology> machine) {
        List<String> rows = text.lines().toList();
        int first = 0;
        while (first < rows.size() && rows.get(first).isBlank()) first++;
        if (first == rows.size())
            throw new InvalidTopologyException(where, "an empty file; expected /proc/interrupts as the kernel prints it (a header of CPU columns, then one line per IRQ)");
        List<Integer> cpus = new ArrayList<>();
        java.util.Map<Integer, Integer> columnOf = new java.util.HashMap<>();
        String at = where + ":" + (first + 1);
        for (String h : rows.get(first).strip().split("\\s+")) {
            Matcher m = HEADER_CPU.matcher(h);
            if (!m.matches())
                throw new InvalidTopologyException(at, "found " + Printable.quote(h) + " in the header; expected one column per online CPU (CPU0 CPU1 ...)");
            int cpu = Integer.parseInt(m.group(1));
            if (cpu >= CpuSet.NR_CPUS)
                throw new InvalidTopologyException(at, "found '" + h + "' in the header; expected CPU ids below NR_CPUS, "
                        + CpuSet.NR_CPUS + " (FMT-16)");
            Integer twice = columnOf.putIfAbsent(cpu, cpus.size() + 1);
            if (twice != null)
                throw new InvalidTopologyException(at, "found '" + h + "' twice in the header (columns " + twice + " and " + (cpus.size() + 1)
                        + "); expected one column per online CPU");
            if (machine.isPresent() && !machine.get().possible().contains(cpu))
                throw new InvalidTopologyException(at, "found '" + h + "' in the header, a CPU the machine does not have (possible "
                        + machine.get().possible().toList() + "); expected a column per online CPU of the snapshot's machine");
            cpus.add(cpu);
        }
        List<Line> lines = new ArrayList<>();
        for (int i = first + 1; i < rows.size(); i++) {
            String row = rows.get(i);
            if (row.isBlank()) continue;
            Matcher m = LABEL.matcher(row);
            if (!m.matches())
                throw new InvalidTopologyException(where + ":" + (i + 1), "found " + Printable.quote(row.strip()) + "; expected 'IRQ: counts chip hwirq names' or a counter line such as 'NMI: ...'");
            // NMI, LOC, ERR...: not a device's IRQ. ASCII digits only: Integer.parseInt reads '٩٩' and '９９' too (FMT-16).
            if (!isNumber(m.group(1))) continue;
            int irq;
            try {
                irq = Integer.parseInt(m.group(1));
            } catch (NumberFormatException e) {
                throw new InvalidTopologyException(where + ":" + (i + 1), "IRQ number " + Printable.quote(m.group(1)) + " does not fit an int; expected an IRQ number");
            }
            String[] rest = m.group(2).strip().split("\\s+");
            if (rest.length < cpus.size())
                throw new InvalidTopologyException(where + ":" + (i + 1), "IRQ " + irq + " has " + rest.length + " fields; expected a count for each of the "
                        + cpus.size() + " CPU columns, then the chip and the names");
            for (int c = 0; c < cpus.size(); c++)
                if (!isNumber(rest[c]))
                    throw new InvalidTopologyException(where + ":" + (i + 1), "found " + Printable.quote(rest[c]) + " as IRQ " + irq + "'s count on CPU" + cpus.get(c)
                            + "; expected a count for each of the " + cpus.size() + " CPU columns (was a line cut, or the header changed?)");
            List<String> tokens = new ArrayList<>();
            for (String t : String.join(" ", Arrays.copyOfRange(rest, cpus.size(), rest.length)).split("[\\s,]+"))
                if (!t.isEmpty()) tokens.add(t);
            lines.add(new Line(irq, i + 1, tokens));
        }
        return new ProcInterrupts(cpus, lines);
    }

    /** True for a non-empty run of the ASCII digits 0-9. */
    static boolean isNumber(String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
