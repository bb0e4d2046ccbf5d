package dev.numaspread.model.hotplug;

import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A graded table of the {@link Outcome}s a routine may have under hotplug, as jcstress writes its
 * {@code @Outcome} rows: each outcome with a grade and a one-line reason, and each forbidden
 * outcome with the rule of spec/hotplug.md it breaks. Every outcome has exactly one row, so a
 * table has no catch-all. The tables are named values ({@link #named}); the command line, the
 * checks and the features use them by name.
 */
public final class OutcomeTable {

    /**
     * One row: the outcome, its grade, the rule a forbidden outcome breaks ({@code HP-2}; empty
     * for an outcome that is not forbidden) and why it is graded so.
     */
    public record Row(Outcome outcome, Grade grade, String rule, String reason) {
        public Row {
            if ((grade == Grade.FORBIDDEN) == rule.isEmpty())
                throw new IllegalArgumentException("outcome table row " + outcome + ": rule '" + rule + "' with grade " + grade
                        + "; expected a rule for a forbidden outcome and none otherwise");
        }
    }

    /**
     * What a routine that holds {@code cpus_read_lock()} from its sizing to its last affinity may
     * give (HP-1 .. HP-3): the plan of one consistent machine, nothing else.
     */
    public static final OutcomeTable ATOMIC = new OutcomeTable("atomic",
            acceptable(Outcome.SAME_PLAN, "hotplug deferred to cpus_read_unlock(): plan as without it"),
            acceptable(Outcome.PLAN_AFTER_EVENT, "event before cpus_read_lock(): plan of the machine after it"),
            forbidden(Outcome.OFFLINE_TARGET, "HP-2", "an IRQ was bound to a CPU that was offline when its affinity was set"),
            // Alike on purpose (duplicates, issue 26) with the lines below: an outcome table per hotplug protection, a line per outcome.
            forbidden(Outcome.STALE_COUNT, "HP-1", "sized from num_online_cpus() of one machine, spread over another"),
            forbidden(Outcome.MIXED, "HP-1", "part of the plan before the event, part after"),
            forbidden(Outcome.LOCK_LEAKED, "HP-3", "cpus_read_lock() still held on return: the next hotplug writer hangs"),
            forbidden(Outcome.BUG, "HP-1", "the kernel reached BUG()"));

    /**
     * What MANA's 6.17+ setup may give (HP-4): it sizes its vectors from {@code num_online_cpus()}
     * before it takes {@code cpus_read_lock()} (commit 755391121038 "net: mana: Allocate MSI-X
     * vectors dynamically"), so a count read before an event may size a spread done after it. The
     * spread itself stays under the lock: no offline target, no mix inside irq_setup.
     */
    public static final OutcomeTable SIZED_BEFORE_LOCK = new OutcomeTable("sized-before-lock",
            acceptable(Outcome.SAME_PLAN, "hotplug deferred to cpus_read_unlock(): plan as without it"),
            acceptable(Outcome.PLAN_AFTER_EVENT, "event before the sizing: plan of the machine after it"),
            interesting(Outcome.STALE_COUNT, "sized before cpus_read_lock(), or HWC and queues in two holds: each spread on one machine"),
            forbidden(Outcome.OFFLINE_TARGET, "HP-2", "an IRQ was bound to a CPU that was offline when its affinity was set"),
            forbidden(Outcome.MIXED, "HP-4", "part of the plan before the event, part after"),
            forbidden(Outcome.LOCK_LEAKED, "HP-3", "cpus_read_lock() still held on return: the next hotplug writer hangs"),
            forbidden(Outcome.BUG, "HP-4", "the kernel reached BUG()"));

    /** What a caller of a routine without any hotplug protection may see: everything is shown, only a leaked lock is forbidden. */
    public static final OutcomeTable UNPROTECTED = new OutcomeTable("unprotected",
            acceptable(Outcome.SAME_PLAN, "the event came after the routine's last read"),
            acceptable(Outcome.PLAN_AFTER_EVENT, "the event came before the routine's first read"),
            interesting(Outcome.OFFLINE_TARGET, "an IRQ was bound to a CPU that was offline when its affinity was set"),
            interesting(Outcome.STALE_COUNT, "sized from one machine, spread over another"),
            interesting(Outcome.MIXED, "part of the plan before the event, part after"),
            interesting(Outcome.BUG, "the kernel reached BUG()"),
            forbidden(Outcome.LOCK_LEAKED, "HP-3", "cpus_read_lock() still held on return"));

    /** Every table, in the order {@code --expect} lists them. */
    public static final List<OutcomeTable> TABLES = List.of(ATOMIC, SIZED_BEFORE_LOCK, UNPROTECTED);

    /**
     * The table {@code mana_gd_setup_irqs()} of {@code kernel} is graded by: unprotected before 6.9
     * (no lock at all), atomic for 6.9 - 6.16 (HP-1), sized before the lock from 6.17 (HP-4).
     */
    public static OutcomeTable ofManaSetupIrqs(KernelRelease kernel) {
        if (kernel.before(6, 9)) return UNPROTECTED;
        if (kernel.before(6, 17)) return ATOMIC;
        return SIZED_BEFORE_LOCK;
    }

    /** The table named {@code name} ({@code atomic}); empty when none is. */
    public static Optional<OutcomeTable> named(String name) {
        return TABLES.stream().filter(t -> t.name.equals(name)).findFirst();
    }

    private final String name;
    private final List<Row> rows;
    private final Map<Outcome, Row> byOutcome = new EnumMap<>(Outcome.class);

    private OutcomeTable(String name, Row... rows) {
        this.name = name;
        this.rows = List.of(rows);
        for (Row r : rows)
            if (byOutcome.put(r.outcome(), r) != null)
                throw new IllegalArgumentException("outcome table " + name + ": " + r.outcome() + " is graded twice; expected one row per outcome");
        for (Outcome o : Outcome.values())
            if (!byOutcome.containsKey(o))
                throw new IllegalArgumentException("outcome table " + name + ": " + o + " is not graded; expected a row for every outcome");
    }

    private static Row acceptable(Outcome o, String reason) { return new Row(o, Grade.ACCEPTABLE, "", reason); }
    private static Row interesting(Outcome o, String reason) { return new Row(o, Grade.INTERESTING, "", reason); }
    private static Row forbidden(Outcome o, String rule, String reason) { return new Row(o, Grade.FORBIDDEN, rule, reason); }

    /** The name {@code --expect} takes: {@code atomic}. */
    public String name() { return name; }

    /** The rows, in table order. */
    public List<Row> rows() { return rows; }

    /** The row of {@code outcome}. */
    public Row row(Outcome outcome) { return byOutcome.get(outcome); }

    /** The grade of {@code outcome}. */
    public Grade gradeOf(Outcome outcome) { return row(outcome).grade(); }

    /** The rules the table's forbidden rows name, in table order, each once. */
    public List<String> rules() {
        List<String> out = new ArrayList<>();
        for (Row r : rows) if (!r.rule().isEmpty() && !out.contains(r.rule())) out.add(r.rule());
        return out;
    }

    /**
     * The table with a count column, as jcstress prints its results:
     * <pre>
     *   outcome           grade         count  rule  reason
     *   same-plan         ACCEPTABLE      412        hotplug deferred ...
     *   offline-target    FORBIDDEN         0  HP-2  an IRQ was bound ...
     * </pre>
     */
    public String render(Map<Outcome, Integer> counts) {
        StringBuilder out = new StringBuilder(String.format("  %-17s %-12s %6s  %-5s %s%n", "outcome", "grade", "count", "rule", "reason"));
        for (Row r : rows)
            out.append(String.format("  %-17s %-12s %6d  %-5s %s%n", r.outcome().id(), r.grade(), counts.getOrDefault(r.outcome(), 0),
                    r.rule(), r.reason()));
        return out.toString();
    }

    @Override
    public String toString() {
        return name;
    }
}
