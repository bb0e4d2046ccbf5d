package dev.numaspread.model.hotplug;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The outcomes a run under hotplug may have, each graded as jcstress grades its results:
 * acceptable, interesting (allowed but worth a look) or forbidden, with a one-line reason. A
 * {@code "*"} entry grades every outcome the table does not name.
 *
 * <p>The outcome ids the explorer gives (first match wins, in this order):
 * <pre>
 *   BUG               the kernel reached BUG() (a {@code KernelBug})
 *   lock-leaked       the routine returned with cpus_read_lock() still held
 *   offline-target    an affinity named a CPU that was offline when it was set
 *   same-plan         the result equals the plan on the machine before the events
 *   plan-after-event  the result equals the plan on the machine after one or all events
 *   stale-count       num_online_cpus() was read, then an affinity was set with another online count
 *   mixed             anything else: part of the plan before, part after
 * </pre>
 */
public final class Outcomes {

    public enum Grade { ACCEPTABLE, INTERESTING, FORBIDDEN }

    /** One row of the table. */
    public record Outcome(String id, Grade grade, String reason) {}

    public static final String BUG = "BUG";
    public static final String LOCK_LEAKED = "lock-leaked";
    public static final String OFFLINE_TARGET = "offline-target";
    public static final String SAME_PLAN = "same-plan";
    public static final String PLAN_AFTER_EVENT = "plan-after-event";
    public static final String STALE_COUNT = "stale-count";
    public static final String MIXED = "mixed";

    /** Every outcome id, in grading order. */
    public static final List<String> IDS = List.of(BUG, LOCK_LEAKED, OFFLINE_TARGET, SAME_PLAN, PLAN_AFTER_EVENT, STALE_COUNT, MIXED);

    /**
     * What a routine that holds {@code cpus_read_lock()} from sizing to its last affinity may give
     * (HP-1..HP-3): the plan of one consistent machine, nothing else.
     */
    public static final Outcomes ATOMIC = of(
            acceptable(SAME_PLAN, "hotplug deferred to cpus_read_unlock(): plan as without it"),
            acceptable(PLAN_AFTER_EVENT, "event before cpus_read_lock(): plan of the machine after it"),
            forbidden(OFFLINE_TARGET, "an IRQ was bound to a CPU that was offline when its affinity was set"),
            forbidden(STALE_COUNT, "sized from num_online_cpus() of one machine, spread over another"),
            forbidden(MIXED, "part of the plan before the event, part after"),
            forbidden(LOCK_LEAKED, "cpus_read_lock() still held on return: the next hotplug writer hangs"),
            forbidden(BUG, "the kernel reached BUG()"),
            forbidden("*", "anything else"));

    /**
     * What MANA's 6.17+ setup may give: it sizes its vectors from {@code num_online_cpus()} before
     * it takes {@code cpus_read_lock()} (commit 755391121038 "net: mana: Allocate MSI-X vectors
     * dynamically"), so a count read before an event may size a spread done after it. The spread
     * itself stays under the lock: no offline target, no mix inside irq_setup.
     */
    public static final Outcomes SIZED_BEFORE_LOCK = of(
            acceptable(SAME_PLAN, "hotplug deferred to cpus_read_unlock(): plan as without it"),
            acceptable(PLAN_AFTER_EVENT, "event before the sizing: plan of the machine after it"),
            interesting(STALE_COUNT, "vectors sized before cpus_read_lock() from the count before the event"),
            forbidden(OFFLINE_TARGET, "an IRQ was bound to a CPU that was offline when its affinity was set"),
            forbidden(MIXED, "part of the plan before the event, part after"),
            forbidden(LOCK_LEAKED, "cpus_read_lock() still held on return: the next hotplug writer hangs"),
            forbidden(BUG, "the kernel reached BUG()"),
            forbidden("*", "anything else"));

    /** What a caller of a routine without any hotplug protection may see; nothing is forbidden, everything is shown. */
    public static final Outcomes UNPROTECTED = of(
            acceptable(SAME_PLAN, "the event came after the routine's last read"),
            acceptable(PLAN_AFTER_EVENT, "the event came before the routine's first read"),
            interesting(OFFLINE_TARGET, "an IRQ was bound to a CPU that was offline when its affinity was set"),
            interesting(STALE_COUNT, "sized from one machine, spread over another"),
            interesting(MIXED, "part of the plan before the event, part after"),
            interesting(BUG, "the kernel reached BUG()"),
            forbidden(LOCK_LEAKED, "cpus_read_lock() still held on return"),
            interesting("*", "anything else"));

    private final List<Outcome> rows;

    private Outcomes(List<Outcome> rows) {
        this.rows = List.copyOf(rows);
    }

    public static Outcomes of(Outcome... rows) {
        List<Outcome> list = new ArrayList<>(List.of(rows));
        for (int i = 0; i < list.size(); i++)
            for (int j = 0; j < i; j++)
                if (list.get(i).id().equals(list.get(j).id()))
                    throw new IllegalArgumentException("outcome table: '" + list.get(i).id() + "' is graded twice; expected one row per outcome");
        return new Outcomes(list);
    }

    public static Outcome acceptable(String id, String reason) { return new Outcome(id, Grade.ACCEPTABLE, reason); }
    public static Outcome interesting(String id, String reason) { return new Outcome(id, Grade.INTERESTING, reason); }
    public static Outcome forbidden(String id, String reason) { return new Outcome(id, Grade.FORBIDDEN, reason); }

    /** The rows, in table order. */
    public List<Outcome> rows() { return rows; }

    /** The row grading {@code id}: its own, else the {@code "*"} row; empty when neither exists. */
    public Optional<Outcome> rowOf(String id) {
        for (Outcome o : rows) if (o.id().equals(id)) return Optional.of(o);
        for (Outcome o : rows) if (o.id().equals("*")) return Optional.of(o);
        return Optional.empty();
    }

    /** The grade of {@code id}; an outcome the table does not grade at all is forbidden. */
    public Grade gradeOf(String id) {
        return rowOf(id).map(Outcome::grade).orElse(Grade.FORBIDDEN);
    }

    /**
     * The table with a count column, as jcstress prints its results:
     * <pre>
     *   outcome           grade        count  reason
     *   same-plan         ACCEPTABLE     412  hotplug deferred ...
     * </pre>
     * Outcomes seen but not named in the table are listed under their own id.
     */
    public String render(SortedMap<String, Integer> counts) {
        StringBuilder out = new StringBuilder(String.format("  %-17s %-12s %6s  %s%n", "outcome", "grade", "count", "reason"));
        List<String> shown = new ArrayList<>();
        for (Outcome o : rows) {
            if (o.id().equals("*")) continue;
            shown.add(o.id());
            out.append(String.format("  %-17s %-12s %6d  %s%n", o.id(), o.grade(), counts.getOrDefault(o.id(), 0), o.reason()));
        }
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (shown.contains(e.getKey())) continue;
            Outcome o = rowOf(e.getKey()).orElse(forbidden(e.getKey(), "not graded"));
            out.append(String.format("  %-17s %-12s %6d  %s%n", e.getKey(), o.grade(), e.getValue(), o.reason()));
        }
        return out.toString();
    }
}
