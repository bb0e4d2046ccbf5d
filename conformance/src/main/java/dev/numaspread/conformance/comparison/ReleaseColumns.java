package dev.numaspread.conformance.comparison;

import dev.numaspread.conformance.picture.Placement;
import dev.numaspread.model.cpu.CpuSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Plans of several releases side by side ({@code plan --kernel 6.1,6.12,7.3}): one row per queue,
 * IRQ or group, one column per release, and a mark on every row whose CPUs differ between the
 * releases, so the rows a release changed stand out.
 */
public final class ReleaseColumns {

    private ReleaseColumns() {}

    /** The mark of a row whose releases disagree. */
    public static final String DIFFERS = "<> differs";

    /** The indices of the rows whose CPUs differ between any two of {@code plans} (a missing row counts as no CPU). */
    public static List<Integer> differingRows(List<Placement> plans) {
        List<Integer> out = new ArrayList<>();
        int rows = plans.stream().mapToInt(p -> p.slots().size()).max().orElse(0);
        for (int i = 0; i < rows; i++) {
            final int row = i;
            if (plans.stream().map(p -> row < p.slots().size() ? p.slots().get(row) : CpuSet.EMPTY).distinct().count() > 1) out.add(i);
        }
        return out;
    }

    /**
     * The table: a header naming each column's release, one row per slot in kernel list notation
     * ({@code none} for the empty set), {@link #DIFFERS} after the rows that differ, and a last line counting them.
     */
    public static String text(String word, List<Placement> plans) {
        int rows = plans.stream().mapToInt(p -> p.slots().size()).max().orElse(0);
        List<Integer> differ = differingRows(plans);
        int[] width = new int[plans.size()];
        for (int c = 0; c < plans.size(); c++) {
            width[c] = plans.get(c).title().length();
            for (CpuSet s : plans.get(c).slots()) width[c] = Math.max(width[c], s.toText().length());
        }
        int first = Math.max(word.length(), String.valueOf(Math.max(rows - 1, 0)).length());
        StringBuilder sb = new StringBuilder(pad(word, first));
        for (int c = 0; c < plans.size(); c++) sb.append("  ").append(pad(plans.get(c).title(), width[c]));
        sb.append('\n');
        for (int i = 0; i < rows; i++) {
            StringBuilder line = new StringBuilder(pad(String.valueOf(i), first));
            for (int c = 0; c < plans.size(); c++) {
                List<CpuSet> s = plans.get(c).slots();
                line.append("  ").append(pad(i < s.size() ? s.get(i).toText() : "", width[c]));
            }
            if (differ.contains(i)) line.append("  ").append(DIFFERS);
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        sb.append(differ.isEmpty() ? "every " + word + " is the same in " + titles(plans)
                : differ.size() + " of " + rows + " " + word + (rows == 1 ? "" : "s") + " differ between " + titles(plans)).append('\n');
        return sb.toString();
    }

    private static String titles(List<Placement> plans) {
        List<String> t = plans.stream().map(Placement::title).toList();
        return t.size() <= 2 ? String.join(" and ", t) : String.join(", ", t.subList(0, t.size() - 1)) + " and " + t.get(t.size() - 1);
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }
}
