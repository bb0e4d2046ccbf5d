package dev.numaspread.model.hotplug;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;

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
 * <p>Each run is graded (see {@link Outcomes} for the ids) from what the machine recorded: a
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

    /** One explored run: where the events arrived, what it gave, how that is graded, and why. */
    public record Interleaving<T>(List<Arrival> arrivals, String outcome, Outcomes.Grade grade,
                                  Optional<T> result, String detail) {
        public Interleaving {
            arrivals = List.copyOf(arrivals);
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder();
            for (Arrival a : arrivals) s.append(s.length() == 0 ? "" : "; then ").append(a);
            return s + ": " + outcome + " (" + grade + ")" + (detail.isEmpty() ? "" : ": " + detail);
        }
    }

    /**
     * Explores {@code routine} on the machine {@code config} with every event it allows
     * ({@link Scope#everyEvent}) and grades the runs by {@code expected}.
     */
    public static <T> Exploration<T> explore(Machine.Config config, HotplugRoutine<T> routine, Outcomes expected) {
        return explore(config, routine, expected, Scope.everyEvent(config));
    }

    /** Explores {@code routine} on {@code config} with the events of {@code scope}. */
    public static <T> Exploration<T> explore(Machine.Config config, HotplugRoutine<T> routine, Outcomes expected, Scope scope) {
        Explorer<T> x = new Explorer<>(config, routine, expected);
        Run<T> dry = x.run(List.of());
        List<String> callNames = dry.machine.calls().stream().map(Machine.ServiceCall::call).toList();
        int points = callNames.size();
        boolean pairs = scope.pairs() && points <= PAIR_BOUNDARY_LIMIT;
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
        return new Exploration<>(config, expected, dry.result, points, pairs, out);
    }

    /** What one run gave. */
    private record Run<T>(Machine machine, Optional<T> result, Optional<KernelBug> bug) {}

    private static final class Explorer<T> {
        private final Machine.Config config;
        private final HotplugRoutine<T> routine;
        private final Outcomes expected;
        private final TreeMap<CpuSet, Run<T>> plans = new TreeMap<>();

        Explorer(Machine.Config config, HotplugRoutine<T> routine, Outcomes expected) {
            this.config = config;
            this.routine = routine;
            this.expected = expected;
        }

        Run<T> run(List<Arrival> arrivals) {
            Machine m = Machine.boot(config, b -> {
                List<HotplugEvent> at = new ArrayList<>();
                for (Arrival a : arrivals) if (a.boundary() == b) at.add(a.event());
                return at;
            });
            try {
                return new Run<>(m, Optional.of(routine.run(m)), Optional.empty());
            } catch (KernelBug bug) {
                return new Run<>(m, Optional.empty(), Optional.of(bug));
            } catch (RuntimeException e) {
                throw new IllegalStateException("routine failed under " + arrivals + ": " + e, e);
            }
        }

        /** The run without events on the machine whose online set is {@code online}: the plan of that machine. */
        Run<T> plan(CpuSet online) {
            return plans.computeIfAbsent(online, o -> {
                Machine m = Machine.boot(config.withOnline(o));
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
            String outcome;
            String detail = "";
            if (r.bug.isPresent()) {
                outcome = Outcomes.BUG;
                detail = r.bug.get().getMessage();
            } else if (m.lockDepth() != 0) {
                outcome = Outcomes.LOCK_LEAKED;
                detail = "cpus_read_lock() held " + m.lockDepth() + " time(s) on return; events waiting: " + m.waitingEvents();
            } else if (offlineTarget.isPresent()) {
                Machine.AffinityCall a = offlineTarget.get();
                outcome = Outcomes.OFFLINE_TARGET;
                detail = "irq " + a.irq() + " bound to " + a.mask().toList() + " while cpu " + a.offlineTargets().toList()
                        + " was offline (online " + a.online().toList() + ")";
            } else if (Objects.equals(r.result, plan(config.topology().online()).result)) {
                outcome = Outcomes.SAME_PLAN;
            } else if (equalsPlanAfterEvent(r.result, m.appliedEvents())) {
                outcome = Outcomes.PLAN_AFTER_EVENT;
            } else if ((staleCount = staleCount(m)).isPresent()) {
                outcome = Outcomes.STALE_COUNT;
                detail = staleCount.get();
            } else {
                outcome = Outcomes.MIXED;
                detail = "the result is the plan of no machine the run went through";
            }
            return new Interleaving<>(arrivals, outcome, expected.gradeOf(outcome), r.result, detail);
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
            for (Machine.AffinityCall a : m.affinityCalls()) if (!a.offlineTargets().isEmpty()) return Optional.of(a);
            return Optional.empty();
        }

        // A count read at one boundary and an affinity set later with another online count.
        private static Optional<String> staleCount(Machine m) {
            List<Machine.ServiceCall> calls = m.calls();
            for (int i = 0; i < calls.size(); i++) {
                if (!calls.get(i).service().equals("num_online_cpus")) continue;
                int read = calls.get(i).online().size();
                for (Machine.AffinityCall a : m.affinityCalls())
                    if (a.boundary() > i && a.online().size() != read)
                        return Optional.of("num_online_cpus() read " + read + " at #" + i + ", but " + a.online().size()
                                + " CPUs were online when irq " + a.irq() + " got its affinity at #" + a.boundary());
            }
            return Optional.empty();
        }
    }

    /** The result of one exploration: every run, graded, with counts per outcome. */
    public static final class Exploration<T> {
        private final Machine.Config config;
        private final Outcomes expected;
        private final Optional<T> plan;
        private final int points;
        private final boolean pairs;
        private final List<Interleaving<T>> interleavings;

        Exploration(Machine.Config config, Outcomes expected, Optional<T> plan, int points, boolean pairs,
                    List<Interleaving<T>> interleavings) {
            this.config = config;
            this.expected = expected;
            this.plan = plan;
            this.points = points;
            this.pairs = pairs;
            this.interleavings = List.copyOf(interleavings);
        }

        public Machine.Config config() { return config; }
        public Outcomes expected() { return expected; }
        /** The result of the run without events (empty when it reached BUG()). */
        public Optional<T> plan() { return plan; }
        /** The number of points (service calls of the run without events) at which events were tried. */
        public int points() { return points; }
        /** True when pairs of events were explored. */
        public boolean pairsExplored() { return pairs; }
        /** Every run, in exploration order. */
        public List<Interleaving<T>> interleavings() { return interleavings; }

        /** The number of runs per outcome id. */
        public SortedMap<String, Integer> counts() {
            TreeMap<String, Integer> c = new TreeMap<>();
            for (Interleaving<T> i : interleavings) c.merge(i.outcome(), 1, Integer::sum);
            return Collections.unmodifiableSortedMap(c);
        }

        /** The runs whose outcome the table forbids, in exploration order. */
        public List<Interleaving<T>> forbidden() {
            return interleavings.stream().filter(i -> i.grade() == Outcomes.Grade.FORBIDDEN).toList();
        }

        /** The runs with outcome {@code id}. */
        public List<Interleaving<T>> withOutcome(String id) {
            return interleavings.stream().filter(i -> i.outcome().equals(id)).toList();
        }

        /** The first forbidden run: the one a report shows (fewest events, earliest point). */
        public Optional<Interleaving<T>> firstForbidden() {
            return forbidden().stream().findFirst();
        }

        /** The outcome table with counts, then the first forbidden run, if any. */
        public String report() {
            StringBuilder s = new StringBuilder();
            s.append(interleavings.size()).append(" interleavings on ").append(config.topology().name())
             .append(" (Linux ").append(config.kernel()).append("): ").append(points).append(" points, ")
             .append(pairs ? "single events and pairs" : "single events").append('\n');
            s.append(expected.render(counts()));
            firstForbidden().ifPresent(f -> s.append("first forbidden: ").append(f).append('\n'));
            return s.toString();
        }
    }
}
