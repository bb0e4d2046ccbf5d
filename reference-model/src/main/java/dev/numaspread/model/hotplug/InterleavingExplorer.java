package dev.numaspread.model.hotplug;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Runs a routine once for every point at which a hotplug event can arrive, and grades each run.
 *
 * <p>A <em>point</em> is a service-call boundary of the run without events: "just before service
 * call p". One event at every point is always explored; on small machines every ordered pair of
 * distinct events at every pair of points {@code p1 <= p2} is explored too. The exploration is
 * exhaustive over those points and deterministic: events and points are visited in ascending
 * order, and the routine itself is deterministic (a routine that is not is reported as
 * {@code mixed} against its own plan).
 *
 * <p>Each run is given an {@link Outcome}, graded by an {@link OutcomeTable}, from what the machine recorded: a
 * {@code KernelBug}, the lock depth on return, every affinity with the online CPUs at that
 * instant, every {@code num_online_cpus()} read, and the routine's result compared with the
 * result of the same routine run, without events, on each consistent machine the run went
 * through (the machine before any event, after the first, after both).
 */
public final class InterleavingExplorer {

    /** Pairs of events are explored when the machine has at most this many present CPUs. */
    public static final int PAIR_CPU_LIMIT = 6;
    /** ... and the run without events makes at most this many service calls. */
    public static final int PAIR_BOUNDARY_LIMIT = 64;

    private InterleavingExplorer() {}

    /** Which events to try, and whether to try pairs of them. */
    public record Scope(List<HotplugEvent> events, boolean pairs) {
        public Scope {
            events = List.copyOf(events);
        }

        /**
         * Every event the machine allows: each online CPU going offline (the last online CPU
         * cannot), each present offline CPU coming online; pairs when the machine is small.
         */
        public static Scope everyEvent(Machine.Config config) {
            List<HotplugEvent> events = new ArrayList<>();
            CpuSet online = config.topology().online();
            if (online.size() > 1) online.forEachCpu(c -> events.add(HotplugEvent.offline(c)));
            config.topology().present().andNot(online).forEachCpu(c -> events.add(HotplugEvent.online(c)));
            return new Scope(events, config.topology().present().size() <= PAIR_CPU_LIMIT);
        }

        /** The same events, one at a time only. */
        public Scope singleEventsOnly() {
            return new Scope(events, false);
        }

        /** The same events, one at a time and in ordered pairs, on a machine of any size. */
        public Scope withPairs() {
            return new Scope(events, true);
        }

        /** Only these single events. */
        public static Scope only(HotplugEvent... events) {
            return new Scope(List.of(events), false);
        }
    }

    /** One event arriving just before service call {@code boundary} ({@code call} in the run without events). */
    public record Arrival(HotplugEvent event, int boundary, String beforeCall) {
        @Override
        public String toString() {
            return event + " before #" + boundary + " " + beforeCall;
        }
    }

    /**
     * One explored run: where the events arrived, the row of the table that grades what it gave,
     * the result, and what broke.
     */
    public record Interleaving<T>(List<Arrival> arrivals, OutcomeTable.Row row, Optional<T> result, String detail) {
        public Interleaving {
            arrivals = List.copyOf(arrivals);
        }

        public Outcome outcome() { return row.outcome(); }

        public Grade grade() { return row.grade(); }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder();
            for (Arrival a : arrivals) s.append(s.length() == 0 ? "" : "; then ").append(a);
            return s + ": " + outcome() + " (" + grade() + ")" + (detail.isEmpty() ? "" : ": " + detail);
        }
    }

    /**
     * Explores {@code routine} on the machine {@code config} with every event it allows
     * ({@link Scope#everyEvent}) and grades the runs by {@code table}.
     */
    public static <T> Exploration<T> explore(Machine.Config config, HotplugRoutine<T> routine, OutcomeTable table) {
        return explore(config, routine, table, Scope.everyEvent(config));
    }

    /** Explores {@code routine} on {@code config} with the events of {@code scope}, graded by {@code table}. */
    public static <T> Exploration<T> explore(Machine.Config config, HotplugRoutine<T> routine, OutcomeTable table, Scope scope) {
        Explorer<T> x = new Explorer<>(config, routine, table);
        Run<T> dry = x.run(List.of());
        List<String> callNames = dry.machine.calls().stream().map(Machine.ServiceCall::call).toList();
        int points = callNames.size();
        boolean pairs = pairsExplored(scope, points);
        List<Interleaving<T>> out = new ArrayList<>();
        for (HotplugEvent e : scope.events())
            for (int p = 0; p < points; p++)
                out.add(x.grade(List.of(new Arrival(e, p, callNames.get(p)))));
        if (pairs)
            for (HotplugEvent e1 : scope.events())
                for (HotplugEvent e2 : scope.events()) {
                    if (e1.equals(e2)) continue;
                    for (int p1 = 0; p1 < points; p1++)
                        for (int p2 = p1; p2 < points; p2++)
                            out.add(x.grade(List.of(new Arrival(e1, p1, callNames.get(p1)),
                                                    new Arrival(e2, p2, callNames.get(p2)))));
                }
        return new Exploration<>(config, table, scope, dry.result, points, pairs, out);
    }

    /**
     * Returns how many runs {@link #explore(Machine.Config, HotplugRoutine, OutcomeTable, Scope)}
     * would make: one per event and point, plus one per ordered pair of distinct events and pair of
     * points {@code p1 <= p2} when pairs are explored. Costs one run of {@code routine}.
     */
    public static long runs(Machine.Config config, HotplugRoutine<?> routine, Scope scope) {
        Machine dry = Machine.boot(config);
        try {
            routine.run(dry);
        } catch (KernelBug e) {
            // The run without events reaches BUG(): its calls up to there are the points.
        }
        long points = dry.boundaries(), events = scope.events().size();
        long runs = events * points;
        if (pairsExplored(scope, points)) runs += events * (events - 1) * points * (points + 1) / 2;
        return runs;
    }

    private static boolean pairsExplored(Scope scope, long points) {
        return scope.pairs() && points <= PAIR_BOUNDARY_LIMIT;
    }

    /** What one run gave. */
    private record Run<T>(Machine machine, Optional<T> result, Optional<KernelBug> bug) {}

    private static final class Explorer<T> {
        private final Machine.Config config;
        private final HotplugRoutine<T> routine;
        private final OutcomeTable table;
        private final TreeMap<CpuSet, Run<T>> plans = new TreeMap<>();
        private final TreeMap<CpuSet, Topology> machines = new TreeMap<>();

        Explorer(Machine.Config config, HotplugRoutine<T> routine, OutcomeTable table) {
            this.config = config;
            this.routine = routine;
            this.table = table;
            machines.put(config.topology().online(), config.topology());
        }

        Run<T> run(List<Arrival> arrivals) {
            Machine m = Machine.boot(config, b -> eventsAt(arrivals, b), this::machineWithOnline);
            try {
                return new Run<>(m, Optional.of(routine.run(m)), Optional.empty());
            } catch (KernelBug bug) {
                return new Run<>(m, Optional.empty(), Optional.of(bug));
            } catch (RuntimeException e) {
                throw new IllegalStateException("routine failed under " + arrivals + ": " + e, e);
            }
        }

        /**
         * The events of {@code arrivals} that arrive at {@code boundary}, in order. Asked at every
         * service call of every run, and most calls get none: those share one empty list (issue 26).
         */
        static List<HotplugEvent> eventsAt(List<Arrival> arrivals, int boundary) {
            List<HotplugEvent> at = List.of();
            for (int i = 0; i < arrivals.size(); i++) {
                Arrival a = arrivals.get(i);
                if (a.boundary() != boundary) continue;
                if (at.isEmpty()) at = new ArrayList<>(arrivals.size());
                at.add(a.event());
            }
            return at;
        }

        /** The machine with {@code online} online: one instance per online set for all the runs (see {@link Machine#boot(Machine.Config, Machine.EventSchedule, java.util.function.Function)}). */
        Topology machineWithOnline(CpuSet online) {
            return machines.computeIfAbsent(online, config.topology()::withOnline);
        }

        /** The run without events on the machine whose online set is {@code online}: the plan of that machine. */
        Run<T> plan(CpuSet online) {
            return plans.computeIfAbsent(online, o -> {
                Machine m = Machine.boot(config.withTopology(machineWithOnline(o)));
                try {
                    return new Run<>(m, Optional.of(routine.run(m)), Optional.empty());
                } catch (KernelBug bug) {
                    return new Run<>(m, Optional.empty(), Optional.of(bug));
                }
            });
        }

        Interleaving<T> grade(List<Arrival> arrivals) {
            Run<T> r = run(arrivals);
            Machine m = r.machine;
            Optional<Machine.AffinityCall> offlineTarget = offlineTarget(m);
            Optional<String> staleCount;
            Outcome outcome;
            String detail = "";
            if (r.bug.isPresent()) {
                outcome = Outcome.BUG;
                detail = r.bug.get().getMessage();
            } else if (m.lockDepth() != 0) {
                outcome = Outcome.LOCK_LEAKED;
                detail = "cpus_read_lock() held " + m.lockDepth() + " time(s) on return; events waiting: " + m.waitingEvents();
            } else if (offlineTarget.isPresent()) {
                Machine.AffinityCall a = offlineTarget.get();
                outcome = Outcome.OFFLINE_TARGET;
                detail = "irq " + a.irq() + " bound to " + a.mask().toList() + " while cpu " + a.offlineTargets().toList()
                        + " was offline (online " + a.online().toList() + ")";
            } else if (Objects.equals(r.result, plan(config.topology().online()).result)) {
                outcome = Outcome.SAME_PLAN;
            } else if (equalsPlanAfterEvent(r.result, m.appliedEvents())) {
                outcome = Outcome.PLAN_AFTER_EVENT;
            } else if ((staleCount = staleCount(m)).isPresent()) {
                outcome = Outcome.STALE_COUNT;
                detail = staleCount.get();
            } else {
                outcome = Outcome.MIXED;
                detail = "the result is the plan of no machine the run went through";
            }
            return new Interleaving<>(arrivals, table.row(outcome), r.result, detail);
        }

        private boolean equalsPlanAfterEvent(Optional<T> result, List<HotplugEvent> applied) {
            CpuSet online = config.topology().online();
            for (HotplugEvent e : applied) {
                online = e.kind() == HotplugEvent.Kind.OFFLINE ? online.without(e.cpu()) : online.with(e.cpu());
                if (Objects.equals(result, plan(online).result)) return true;
            }
            return false;
        }

        private static Optional<Machine.AffinityCall> offlineTarget(Machine m) {
            for (Machine.AffinityCall a : m.affinityCalls()) if (a.hasOfflineTargets()) return Optional.of(a);
            return Optional.empty();
        }

        // Graded on what a run shows, never on which services it read (HP-4): the affinities, the
        // CPUs online when each was set, and the holds of cpus_read_lock() they were set in. A run
        // that is no plan is stale-count when the online CPUs changed only where a hold had ended:
        // between two consecutive affinities whose earlier one was set under the lock, released
        // before the later one (or not at all: every affinity, if any, saw one machine, so what was
        // read before, a count or a mask, came from another). An event while no hold covered a spread
        // makes it mixed. A read that nothing uses adds a point, never a grade: the same
        // affinities and holds get the same outcome.
        private static Optional<String> staleCount(Machine m) {
            List<Machine.ServiceCall> calls = m.calls();
            List<Spread> spread = spread(m);
            // Nothing spread (every vector untouched, SIB-8): what makes the result differ from
            // every plan, its vector count, was read before an event.
            if (spread.isEmpty()) return Optional.of("nothing was spread; the result's shape was read before an event");
            StringBuilder where = new StringBuilder();
            for (int k = 0; k + 1 < spread.size(); k++) {
                Spread a = spread.get(k), b = spread.get(k + 1);
                CpuSet before = calls.get(a.call()).online(), after = calls.get(b.call()).online();
                if (before.equals(after)) continue;
                boolean released = false;
                for (int j = a.call() + 1; j < b.call(); j++)
                    released |= calls.get(j).service().equals("cpus_read_unlock") && calls.get(j).lockDepth() == 1;
                if (calls.get(a.call()).lockDepth() == 0 || !released) return Optional.empty();
                where.append(where.length() == 0 ? "" : "; ").append(b.what()).append(" on ").append(after.toList())
                        .append(" after the hold of ").append(a.what()).append(" on ").append(before.toList()).append(" ended");
            }
            return Optional.of(where.length() == 0
                    ? "the whole spread saw " + calls.get(spread.get(0).call()).online().toList() + " online; what was read before"
                            + " came from another machine"
                    : "each hold saw one machine: " + where);
        }

        /** One answer that makes the result: the index of its call, and how a message names it. */
        private record Spread(int call, String what) {}

        // The answers that make the result: the affinities set or, for a routine that sets none
        // (cpumask_local_spread() itself), the answers of its calls.
        private static List<Spread> spread(Machine m) {
            List<Spread> out = new ArrayList<>();
            for (Machine.AffinityCall a : m.affinityCalls()) out.add(new Spread(a.boundary(), "irq " + a.irq()));
            if (!out.isEmpty()) return out;
            List<Machine.ServiceCall> calls = m.calls();
            for (int j = 0; j < calls.size(); j++)
                if (calls.get(j).service().equals("cpumask_local_spread")) out.add(new Spread(j, calls.get(j).call()));
            return out;
        }
    }

    /** The result of one exploration: every run, graded, with counts per outcome. */
    public static final class Exploration<T> {
        private final Machine.Config config;
        private final OutcomeTable table;
        private final Scope scope;
        private final Optional<T> plan;
        private final int points;
        private final boolean pairs;
        private final List<Interleaving<T>> interleavings;

        Exploration(Machine.Config config, OutcomeTable table, Scope scope, Optional<T> plan, int points, boolean pairs,
                    List<Interleaving<T>> interleavings) {
            this.config = config;
            this.table = table;
            this.scope = scope;
            this.plan = plan;
            this.points = points;
            this.pairs = pairs;
            this.interleavings = List.copyOf(interleavings);
        }

        public Machine.Config config() { return config; }
        /** The table the runs were graded by. */
        public OutcomeTable table() { return table; }
        /** The events tried. */
        public Scope scope() { return scope; }
        /** The result of the run without events (empty when it reached BUG()). */
        public Optional<T> plan() { return plan; }
        /** The number of points (service calls of the run without events) at which events were tried. */
        public int points() { return points; }
        /** True when pairs of events were explored. */
        public boolean pairsExplored() { return pairs; }
        /** Every run, in exploration order. */
        public List<Interleaving<T>> interleavings() { return interleavings; }

        /** The number of runs per outcome seen, in grading order. */
        public SortedMap<Outcome, Integer> counts() {
            TreeMap<Outcome, Integer> c = new TreeMap<>();
            for (Interleaving<T> i : interleavings) c.merge(i.outcome(), 1, Integer::sum);
            return Collections.unmodifiableSortedMap(c);
        }

        /** The runs whose outcome the table forbids, in exploration order. */
        public List<Interleaving<T>> forbidden() {
            return interleavings.stream().filter(i -> i.grade() == Grade.FORBIDDEN).toList();
        }

        /** The forbidden runs whose row names {@code rule} as the rule they break, in exploration order. */
        public List<Interleaving<T>> forbiddenBreaking(String rule) {
            return forbidden().stream().filter(i -> i.row().rule().equals(rule)).toList();
        }

        /** The runs with outcome {@code outcome}. */
        public List<Interleaving<T>> withOutcome(Outcome outcome) {
            return interleavings.stream().filter(i -> i.outcome() == outcome).toList();
        }

        /** The first forbidden run: the one a report shows (fewest events, earliest point). */
        public Optional<Interleaving<T>> firstForbidden() {
            return forbidden().stream().findFirst();
        }

        /**
         * What was explored, in one line: {@code 592 interleavings on 2node-4core-8cpu (Linux 6.12):
         * 4 points, 8 events, single events and ordered pairs; graded atomic}.
         */
        public String summary() {
            return interleavings.size() + " interleavings on " + config.topology().name() + " (Linux " + config.kernel() + "): "
                    + points + " points, " + scope.events().size() + " events, "
                    + (pairs ? "single events and ordered pairs"
                       : scope.pairs() ? "single events (pairs skipped: more than " + PAIR_BOUNDARY_LIMIT + " points)"
                       : "single events")
                    + "; graded " + table.name();
        }

        /** The summary, the outcome table with counts, then the first forbidden run, if any. */
        public String report() {
            StringBuilder s = new StringBuilder(summary()).append('\n').append(table.render(counts()));
            firstForbidden().ifPresent(f -> s.append("first forbidden:\n").append(describe(f)).append('\n'));
            return s.toString();
        }

        /**
         * The summary, the outcome table with counts, every forbidden run (every run when
         * {@code everyRun}) with what broke, and a closing line: what {@code numaspread races} prints.
         */
        public String report(boolean everyRun) {
            StringBuilder s = new StringBuilder(summary()).append('\n').append(table.render(counts()));
            List<Interleaving<T>> shown = everyRun ? interleavings : forbidden();
            if (!shown.isEmpty()) s.append('\n').append(everyRun ? "interleavings:" : "forbidden interleavings:").append('\n');
            for (Interleaving<T> i : shown) s.append(describe(i)).append('\n');
            int f = forbidden().size();
            s.append('\n').append(f == 0 ? "no forbidden outcome" : f + " forbidden interleaving" + (f == 1 ? "" : "s")).append('\n');
            return s.toString();
        }

        /**
         * One run on three lines or four: the events and the calls they arrived before; the
         * outcome, its grade and the table's reason; what broke; and, for a mixed run, the result.
         */
        public String describe(Interleaving<T> i) {
            StringBuilder s = new StringBuilder("  ");
            for (int a = 0; a < i.arrivals().size(); a++) s.append(a == 0 ? "" : "; then ").append(i.arrivals().get(a));
            s.append("\n    ").append(i.outcome()).append(" (").append(i.grade()).append("): ").append(i.row().reason());
            if (!i.detail().isEmpty()) s.append("\n    ").append(i.detail());
            if (i.outcome() == Outcome.MIXED && i.result().isPresent()) s.append("\n    result: ").append(resultText(i.result().get()));
            return s.toString();
        }

        // A list of CPU sets as the glossary writes one ([0-1 | none]); anything else as it prints.
        private static String resultText(Object result) {
            if (result instanceof List<?> list && list.stream().allMatch(o -> o instanceof CpuSet))
                return CpuSet.toText(list.stream().map(o -> (CpuSet) o).toList());
            return String.valueOf(result);
        }
    }
}
