package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.Property;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.topogen.Call;
import dev.numaspread.conformance.topogen.InputClass;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Which input classes a check's tries ask the implementation about: the check runs as the
 * certifier runs it (same settings, seeds and generators), against the reference model, and each
 * try that reaches the implementation counts once, in every class one of its calls is in. A try
 * that makes no call, or that the check says it does not judge ({@link NotApplicable}), asks
 * nothing and is not counted; nor are the calls of fixed examples outside a {@code forAll}: they
 * are not draws. {@link #read} also says for which other releases the count holds: those the run
 * could not tell from its own ({@link KernelRelease.Watch}).
 */
public final class Census {
    private Census() {}

    /**
     * The tries of one rule in one release that asked the implementation something
     * ({@code tries}), the tries its checks made in all ({@code defaultTries}: what the settings
     * ask for, as tuned by each check), and how many asked about each class.
     */
    public record Tally(String rule, KernelRelease kernel, int tries, int defaultTries, Map<InputClass, Integer> hits) {
        public Tally {
            EnumMap<InputClass, Integer> m = new EnumMap<>(InputClass.class);
            m.putAll(hits);
            hits = java.util.Collections.unmodifiableMap(m);
        }

        /** The share of all tries made that asked about {@code c}; 0 when none was made. */
        public double share(InputClass c) {
            return defaultTries == 0 ? 0 : (double) hits.getOrDefault(c, 0) / defaultTries;
        }

        /** These tries and {@code other}'s (the same rule and release, another check). */
        public Tally plus(Tally other) {
            EnumMap<InputClass, Integer> sum = new EnumMap<>(InputClass.class);
            sum.putAll(hits);
            other.hits.forEach((c, n) -> sum.merge(c, n, Integer::sum));
            return new Tally(rule, kernel, tries + other.tries, defaultTries + other.defaultTries, sum);
        }
    }

    /**
     * A census of one check made in one release, and which releases it stands for: those the run
     * could not tell from its own ({@link KernelRelease.Watch#standsFor}), in which the check draws
     * the same inputs and the model answers them alike, so the tally is theirs too.
     */
    public record Reading(Tally tally, java.util.function.Predicate<KernelRelease> standsFor) {}

    /**
     * The census of {@code check} in {@code kernel}, counting the classes {@code counted}, with the
     * releases it stands for ({@link Reading}).
     */
    public static Reading read(Check check, KernelRelease kernel, Settings settings, java.util.Set<InputClass> counted) {
        try (KernelRelease.Watch watch = KernelRelease.Watch.of(kernel)) {
            Tally t = of(check, watch.release(), settings, counted);
            return new Reading(new Tally(t.rule(), kernel, t.tries(), t.defaultTries(), t.hits()), watch::standsFor);
        }
    }

    /** The census of {@code check} for {@code kernel} under {@code settings}, counting the classes {@code counted}. */
    public static Tally of(Check check, KernelRelease kernel, Settings settings, java.util.Set<InputClass> counted) {
        Counting ctx = new Counting(kernel, settings, EnumSet.copyOf(counted));
        try {
            check.run(ctx);
        } catch (NotApplicable | CannotJudge nothing) {
            // the check judges nothing here: what ran so far is counted
        }
        return new Tally(check.rule(), kernel, ctx.tries, ctx.made, ctx.hits);
    }

    /** The context the census runs a check in: the reference model answers, and every try's calls are classified. */
    private static final class Counting implements CheckContext {
        private final KernelRelease kernel;
        private final Settings settings;
        private final Implementation model = new ReferenceModel();
        private final Implementation recording;
        private final List<Call> calls = new ArrayList<>();
        private final EnumSet<InputClass> classes;
        private boolean inForAll;
        int tries;
        int made;
        final EnumMap<InputClass, Integer> hits = new EnumMap<>(InputClass.class);

        Counting(KernelRelease kernel, Settings settings, EnumSet<InputClass> counted) {
            this.classes = counted;
            this.kernel = kernel;
            this.settings = settings;
            this.recording = (Implementation) Proxy.newProxyInstance(Implementation.class.getClassLoader(),
                    new Class<?>[] {Implementation.class}, (proxy, m, args) -> {
                        if (m.getDeclaringClass() == Object.class) {
                            return switch (m.getName()) {
                                case "equals" -> proxy == args[0];
                                case "hashCode" -> System.identityHashCode(proxy);
                                default -> "census of " + model.name();
                            };
                        }
                        if (inForAll && args != null) record(m, args);
                        try {
                            return m.invoke(model, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        private void record(Method m, Object[] args) {
            Topology machine = null;
            KernelRelease k = kernel;
            Map<String, Object> named = new LinkedHashMap<>();
            Parameter[] ps = m.getParameters();
            for (int i = 0; i < args.length; i++) {
                Object a = args[i];
                if (a instanceof Topology t) machine = t;
                else if (a instanceof Machine mm) machine = mm.topology();
                else if (a instanceof KernelRelease r) k = r;
                else named.put(ps[i].getName(), a);
            }
            if (machine != null) calls.add(new Call(m.getName(), k, machine, named));
        }

        @Override public Implementation implementation() { return recording; }
        @Override public KernelRelease kernel() { return kernel; }
        @Override public boolean countsDrawsOnly() { return true; }

        @Override
        public <T> void forAll(Gen<T> gen, UnaryOperator<Settings> tuning, Consumer<T> body) {
            Settings s = tuning.apply(settings);
            Consumer<T> counted = input -> {
                made++;
                calls.clear();
                inForAll = true;
                try {
                    body.accept(input);
                } catch (NotApplicable outside) {
                    calls.clear();
                } catch (Gen.Unsatisfiable assumption) {
                    made--;   // a discard, not a try
                    throw assumption;
                } catch (RuntimeException | AssertionError judged) {
                    // the model's answer was judged (a census does not care how)
                } finally {
                    inForAll = false;
                }
                if (calls.isEmpty()) return;
                tries++;
                EnumSet<InputClass> seen = EnumSet.noneOf(InputClass.class);
                // A call made again (a race's runs ask the same question on the same machine) is classified once,
                // and a class the try is in already is not asked again. The run's own release is left out of the
                // key, which would hash it: a census watches how the release is read (Census.read).
                Map<List<Object>, Call> distinct = new LinkedHashMap<>();
                for (Call c : calls)
                    distinct.putIfAbsent(List.of(c.method(), c.kernel() == kernel ? "" : c.kernel(), c.machine(), c.args()), c);
                for (Call c : distinct.values())
                    for (InputClass k : classes)
                        if (!seen.contains(k) && k.test(c)) seen.add(k);
                for (InputClass c : seen) hits.merge(c, 1, Integer::sum);
            };
            Property.check(gen, counted, Property.Config.of(s.tries(), s.seed(), s.budget()));
        }
    }
}
