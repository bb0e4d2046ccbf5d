package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckContext;
import dev.numaspread.conformance.checks.NotApplicable;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.Property;
import dev.numaspread.conformance.gen.PropertyResult;
import dev.numaspread.conformance.gen.Recorder;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.topogen.OneLess;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counterexamples the shrinker leaves for the whole zoo are small and minimal (issue 11):
 * at least 95 % of them have at most 8 CPUs and 3 nodes (or are the smallest SNC machine their
 * rule can fail on, {@link #isSmallestSncMachine}), and none keeps a CPU or a queue its
 * failure does not need. Each zoo member's rule is run as the certifier runs it (the kit's
 * settings, the same property engine), and on the shrunk input each CPU of the machine is taken
 * away in turn (the CPUs above it move down one id), and each count lowered by one: the property
 * must then hold, or fail by another rule. Inputs the check could not draw (a machine outside the
 * check's narrowing, such as an SMT-only check without SMT) are not counted against it. The test
 * prints the size distribution.
 */
class ShrunkCounterexamplesTest {

    /** What the shrinker left for one zoo member. */
    record Shrunk(String member, String rule, Optional<Topology> machine, List<String> unneeded, String input) {}

    @Test
    void zooCounterexamples_areSmall_andKeepNothingTheFailureDoesNotNeed() {
        List<Shrunk> all = new ArrayList<>();
        List<String> notRejected = new ArrayList<>();
        for (ZooCatalogue.Entry e : ZooCatalogue.all()) {
            Optional<Shrunk> s = shrink(e);
            if (s.isPresent()) all.add(s.get());
            else notRejected.add(e.name() + " (" + e.rule() + ", " + e.kernel() + ")");
        }
        TreeMap<String, Integer> sizes = new TreeMap<>();
        int small = 0, withMachine = 0;
        List<String> big = new ArrayList<>(), wasteful = new ArrayList<>(), snc = new ArrayList<>();
        for (Shrunk s : all) {
            if (!s.unneeded().isEmpty())
                wasteful.add(s.member() + " " + s.rule() + " keeps " + s.unneeded() + ":\n" + s.input());
            if (s.machine().isEmpty()) continue;
            withMachine++;
            Topology m = s.machine().get();
            int cpus = m.possible().size(), nodes = m.nodes().size();
            sizes.merge(String.format("%2d CPUs, %d node%s", cpus, nodes, nodes == 1 ? "" : "s"), 1, Integer::sum);
            if (cpus <= 8 && nodes <= 3 || isSmallestSncMachine(m)) small++;
            else big.add(s.member() + " " + s.rule() + ": " + cpus + " CPUs, " + nodes + " nodes");
            if (isSmallestSncMachine(m) && nodes > 3) snc.add(s.member() + " " + s.rule() + ": " + cpus + " CPUs, " + nodes + " nodes");
        }
        StringBuilder table = new StringBuilder("shrunk machines of the zoo (" + withMachine + " of " + all.size()
                + " counterexamples name a machine):\n");
        sizes.forEach((k, n) -> table.append(String.format("  %-22s %3d%n", k, n)));
        table.append(String.format("  at most 8 CPUs and 3 nodes, or the smallest SNC machine: %d of %d (%.1f %%)%n", small, withMachine,
                withMachine == 0 ? 0.0 : 100.0 * small / withMachine));
        big.forEach(b -> table.append("  larger: ").append(b).append('\n'));
        snc.forEach(b -> table.append("  the smallest SNC machine of its rule: ").append(b).append('\n'));
        wasteful.forEach(w -> table.append("  keeps what it does not need: ").append(w).append('\n'));
        for (Shrunk s : all)
            if (s.machine().map(m -> (m.possible().size() > 8 || m.nodes().size() > 3) && !isSmallestSncMachine(m)).orElse(false))
                table.append("  ").append(s.member()).append(' ').append(s.rule()).append(":\n").append(s.input()).append('\n');
        System.out.print(table);

        assertTrue(notRejected.isEmpty(), "zoo members no check of their rule rejected: " + notRejected);
        assertTrue(withMachine >= 40, "only " + withMachine + " counterexamples name a machine; the zoo has more\n" + table);
        assertTrue(small >= 0.95 * withMachine, table.toString());
        assertTrue(wasteful.isEmpty(), String.join("\n", wasteful));
    }

    /**
     * True for an SNC-style machine as small as the SNC rules allow: two packages of at most three
     * one-CPU nodes. The scheduler's distance differs from the table only on machines of two or more
     * packages with two (LVL-8's SNC-2 slip) or three (LVL-8) nodes each, so a failure that needs
     * the SNC hook cannot shrink to three nodes; such a machine counts as small.
     */
    static boolean isSmallestSncMachine(Topology m) {
        return m.cpuModel().isSncDistanceModel() && m.maxPackages() == 2 && m.nodes().size() <= 6
                && m.possible().size() == m.nodes().size();
    }

    /** Runs the checks of {@code e}'s rule until one fails, probing that failure's shrunk input. */
    static Optional<Shrunk> shrink(ZooCatalogue.Entry e) {
        for (Check check : e.ruleChecks()) {
            Probe p = new Probe(e.impl(), e.kernel(), Settings.defaults());
            try {
                check.run(p);
            } catch (Violation v) {
                if (!v.rule().equals(e.rule())) continue;
                Optional<Topology> m = v.machine().or(() -> p.input instanceof Topology t ? Optional.of(t) : Optional.empty());
                String text = m.map(TopoFormat::write).orElse(String.valueOf(p.input)) + "call " + v.call();
                return Optional.of(new Shrunk(e.name(), e.rule(), m, p.unneeded, text));
            } catch (VirtualMachineError vm) {
                throw vm;
            } catch (RuntimeException | Error other) {
                // not this rule's failure: the zoo tests judge it
            }
        }
        return Optional.empty();
    }

    /** Failure key as the certifier's: the rule of a violation, else the exception class. */
    static String key(Throwable t) {
        return t instanceof Violation v ? "violation " + v.rule() : "error " + t.getClass().getName();
    }

    /**
     * A check context that runs each forAll as the certifier does and, on a failure, replays the
     * shrunk input with one CPU or one queue less ({@link OneLess}), noting each removal after
     * which the property still fails the same way.
     */
    static final class Probe implements CheckContext {
        final Implementation impl;
        final KernelRelease kernel;
        final Settings settings;
        final List<String> unneeded = new ArrayList<>();
        Object input;

        Probe(Implementation impl, KernelRelease kernel, Settings settings) {
            this.impl = impl;
            this.kernel = kernel;
            this.settings = settings;
        }

        @Override public Implementation implementation() { return impl; }
        @Override public KernelRelease kernel() { return kernel; }

        @Override
        public <T> void forAll(Gen<T> gen, UnaryOperator<Settings> tuning, Consumer<T> body) {
            Settings s = tuning.apply(settings);
            // As the certifier: a try the check says it does not judge is no failure.
            Consumer<T> judging = x -> {
                try {
                    body.accept(x);
                } catch (NotApplicable outside) {
                    // judged nothing
                }
            };
            PropertyResult<T> r = Property.check(gen, judging, Property.Config.of(s.tries(), s.seed(), s.budget()),
                    ShrunkCounterexamplesTest::key);
            if (!(r instanceof PropertyResult.Failed<T> f)) return;
            input = f.input();
            String failed = key(f.failure());
            for (OneLess.Candidate c : OneLess.of(f.choices())) {
                T smaller;
                try {
                    smaller = Recorder.replaying(c.indices()).draw(gen);
                } catch (RuntimeException outside) {
                    continue;   // the check could not have drawn it
                }
                try {
                    judging.accept(smaller);
                } catch (Gen.Unsatisfiable assumption) {
                    // outside the property
                } catch (RuntimeException | Error t) {
                    if (key(t).equals(failed)) unneeded.add(c.removed());
                }
            }
            if (f.failure() instanceof RuntimeException re) throw re;
            if (f.failure() instanceof Error er) throw er;
            throw new IllegalStateException(f.failure());
        }
    }
}
