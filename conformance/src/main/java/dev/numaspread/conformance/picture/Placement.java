package dev.numaspread.conformance.picture;

import dev.numaspread.model.cpu.CpuSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Where a routine put each of its queues, IRQs or groups: slot {@code i} on the CPUs
 * {@code slots().get(i)} (one CPU for {@code cpumask_local_spread}, a mask for a group).
 *
 * @param title what the placement is: {@code Linux 6.12}, {@code expected}, {@code actual}
 * @param word  what a slot is: {@code queue}, {@code IRQ}, {@code group}
 */
public record Placement(String title, String word, List<CpuSet> slots) {

    public Placement {
        slots = List.copyOf(slots);
    }

    /** The slots on {@code cpu}, ascending. */
    public CpuSet slotsOn(int cpu) {
        CpuSet.Builder b = CpuSet.builder();
        for (int i = 0; i < slots.size(); i++) if (slots.get(i).contains(cpu)) b.add(i);
        return b.build();
    }

    private static final Pattern PLAN = Pattern.compile("-?\\d+(, -?\\d+)*(, \\.\\.\\. \\(\\d+ queues\\))?");
    private static final Pattern SETS = Pattern.compile("\\[([0-9,\\-]+|none)( \\| ([0-9,\\-]+|none))*\\]");
    private static final Pattern PAIRS = Pattern.compile("\\d+:(\\d+|none)( \\d+:(\\d+|none))*");

    /** {@link #parse(String, String, String)} with IRQs as the slots of a list of sets. */
    public static Optional<Placement> parse(String title, String text) {
        return parse(title, text, "IRQ");
    }

    /**
     * The placement a certificate's expected or actual text spells, in the forms the checks print
     * (spec/README.md: plans and masks in kernel notation): {@code 4, 6, 7, 0} (slot i on one CPU),
     * {@code [0-3 | 4-7 | none]} (slot i on a set, {@code CpuSet.toText}; a slot is a
     * {@code setWord}), {@code 0:1 1:1 2:0} (CPU:queue pairs). Empty for any other text (a rule that
     * describes the answer instead of giving one).
     */
    public static Optional<Placement> parse(String title, String text, String setWord) {
        String t = text.strip();
        List<CpuSet> slots = new ArrayList<>();
        try {
            if (PLAN.matcher(t).matches()) {
                for (String s : t.replaceAll(", \\.\\.\\. \\(\\d+ queues\\)$", "").split(", ")) {
                    int c = Integer.parseInt(s);
                    slots.add(c >= 0 ? CpuSet.of(c) : CpuSet.EMPTY);
                }
                return Optional.of(new Placement(title, "queue", slots));
            }
            if (SETS.matcher(t).matches()) return Optional.of(new Placement(title, setWord, CpuSet.parseTexts(t)));
            if (PAIRS.matcher(t).matches()) {
                TreeMap<Integer, CpuSet.Builder> q = new TreeMap<>();
                for (String s : t.split(" ")) {
                    String[] kv = s.split(":");
                    if (!kv[1].equals("none")) q.computeIfAbsent(Integer.parseInt(kv[1]), k -> CpuSet.builder()).add(Integer.parseInt(kv[0]));
                }
                int last = q.isEmpty() ? -1 : q.lastKey();
                for (int i = 0; i <= last; i++) slots.add(q.containsKey(i) ? q.get(i).build() : CpuSet.EMPTY);
                return Optional.of(new Placement(title, "queue", slots));
            }
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * What a slot of a list of sets is, from the call that gave it (a violation's call text):
     * {@code group} for {@code groupCpusEvenly}, {@code hop} for {@code hopMasks}, else {@code IRQ}.
     */
    public static String setWordOf(String call) {
        if (call.startsWith("groupCpusEvenly")) return "group";
        if (call.startsWith("hopMasks")) return "hop";
        return "IRQ";
    }
}
