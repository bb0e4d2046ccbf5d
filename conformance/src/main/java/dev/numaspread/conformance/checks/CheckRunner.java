package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.Property;
import dev.numaspread.conformance.gen.PropertyResult;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Runs one check against one implementation for one release, with the property engine of
 * {@code gen}: each {@code forAll} draws inputs at random from the settings' seed, and on the
 * first failure shrinks the input and rethrows what the shrunk input threw.
 *
 * <p>What a run can conclude, and why (issues 11 and 16: the kit is never the suspect, and a
 * pass is never vacuous):
 * <ul>
 * <li>{@link CheckResult.Passed}: every {@code forAll} ran all the tries its settings ask for,
 *     and at least one try judged the rule. A try judges when it reaches the implementation
 *     (a call) and does not end in {@link NotApplicable}.</li>
 * <li>{@link CheckResult.Failed}: a {@link Violation}, or an exception the implementation's
 *     answer caused: the same input with the reference model in its place runs clean, so the
 *     answer is what broke the check. That is the rule's FAIL, with the exception's message.</li>
 * <li>{@link CheckResult.Errored}: the implementation crashed, hung or broke the SPI's shape
 *     ({@link ImplementationFailure}, thrown by the kit's guard or by the implementation).</li>
 * <li>{@link CheckResult.NotVerified}: the time budget ended a {@code forAll} before its tries,
 *     the property gave up (too few inputs applied), or the check said {@link CannotJudge}.</li>
 * <li>{@link CheckResult.NotApplicable}: no try judged anything, or the check said so.</li>
 * <li>{@link CheckResult.KitFailed}: any other exception, which the reference model's answer
 *     causes as well: a bug of the kit, reported as an internal error naming the check.</li>
 * </ul>
 * A {@link VirtualMachineError} (out of memory, stack overflow) is not a result: it propagates.
 *
 * <p>Failures shrink by rule: the shrinker keeps an edit only while the body throws a
 * {@link Violation} of the same rule id (other exceptions: of the same class), so the reported
 * counterexample shows the rule that first failed. The result's seed replays the failing try
 * ({@code -Dnumaspread.seed=...}).
 */
public final class CheckRunner {
    private CheckRunner() {}

    public static CheckResult run(Check check, Implementation impl, KernelRelease kernel, Settings settings) {
        return run(check, impl, kernel, settings, t -> true);
    }

    /**
     * Runs {@code check}; failures {@code shrinks} rejects are not shrunk (see
     * {@link Property#check(Gen, Consumer, Property.Config, java.util.function.Function, Predicate)}).
     */
    public static CheckResult run(Check check, Implementation impl, KernelRelease kernel, Settings settings, Predicate<Throwable> shrinks) {
        Context ctx = new Context(check, impl, kernel, settings, shrinks);
        try {
            check.run(ctx);
            if (settings.pool().isPresent() && ctx.pooled.given() == 0)
                return new CheckResult.NotApplicable(ctx.pooled.refused().isPresent()
                        ? "no machine of the pool is within its narrowing (" + ctx.pooled.refused().get() + ")"
                        : "draws no machine, so the machines given (--topology, or a booted kernel's) do not reach it");
            // Calls outside a forAll (fixed examples) count as one judged try when no forAll ran.
            int outside = ctx.callsOutside > 0 ? 1 : 0;
            if (ctx.judged + outside == 0)
                return new CheckResult.NotApplicable(ctx.notApplicable != null ? ctx.notApplicable
                        : ctx.tries == 0 && settings.isExhaustive() && ctx.forAlls > 0
                        ? "no input of the small scope " + settings.exhaustive() + " fits the check (it needs a larger machine"
                                + " or a shape the scope leaves out)"
                        : ctx.tries == 0 ? "the check made no call to the implementation for kernel " + kernel
                        : "none of its " + ctx.tries + " tries reached the implementation");
            int tries = Math.max(ctx.tries, outside);
            int machines = settings.pool().isPresent() ? ctx.pooled.machinesJudged() : ctx.machines;
            return new CheckResult.Passed(tries, Math.min(tries, ctx.judged + outside), ctx.graded(), ctx.cases, machines);
        } catch (Violation v) {
            return new CheckResult.Failed(v, ctx.failureSeed, ctx.tries, ctx.shrunk, ctx.graded());
        } catch (BudgetSpent | CannotJudge e) {
            return new CheckResult.NotVerified(e.getMessage(), ctx.tries);
        } catch (NotApplicable e) {
            return new CheckResult.NotApplicable(e.getMessage());
        } catch (KitFailure e) {
            return new CheckResult.KitFailed(e, ctx.failureSeed, ctx.shrunk);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            if (isImplementationFailure(e)) return new CheckResult.Errored(e, ctx.failureSeed, ctx.shrunk);
            // Thrown outside a forAll: run the whole check again with the reference model answering.
            Context model = new Context(check, new ReferenceModel(), kernel, settings, t -> true);
            Throwable again = null;
            try {
                check.run(model);
            } catch (Violation | NotApplicable | CannotJudge | BudgetSpent ok) {
                // The model's answer was judged; the check itself did not break.
            } catch (VirtualMachineError vm) {
                throw vm;
            } catch (RuntimeException | Error other) {
                again = other;
            }
            if (again == null)
                return new CheckResult.Failed(unreadable(check, e, ctx.lastCall(), Optional.empty()), ctx.failureSeed, ctx.tries,
                        ctx.shrunk, ctx.graded());
            return new CheckResult.KitFailed(kitFailure(check, e), ctx.failureSeed, ctx.shrunk);
        }
    }

    /** The failure key of a check body: the rule of a violation, else the exception class. */
    static String failureKey(Throwable t) {
        return t instanceof Violation v ? "violation " + v.rule() : "error " + t.getClass().getName();
    }

    /** The property engine's settings for the check settings {@code s}. */
    static Property.Config config(Settings s) {
        return Property.Config.of(s.tries(), s.seed(), s.budget());
    }

    static boolean isImplementationFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) if (c instanceof ImplementationFailure) return true;
        return false;
    }

    /**
     * The violation an exception of the check body stands for when the implementation's answer
     * caused it: the rule's FAIL, with the call that gave the answer and the exception's message
     * (a kernel crash the check did not expect reads as one).
     */
    static Violation unreadable(Check check, Throwable e, Call call, Optional<Topology> input) {
        String actual = e instanceof KernelBug bug ? "a kernel crash (" + bug.getMessage() + ")"
                : "an answer the check cannot judge: " + message(e);
        Violation v = Violation.of(check.rule(), call == null ? "a call of " + check.name() : call.text(),
                "an answer of the kind the rule describes (the reference model's answer on the same input is judged)", actual)
                .hint("the check " + check.name() + " broke on this answer; the reference model's answer on the same input passes it");
        Optional<Topology> machine = input.or(() -> call == null ? Optional.empty() : call.machine());
        return machine.isPresent() ? v.on(machine.get()) : v;
    }

    static KitFailure kitFailure(Check check, Throwable e) {
        return new KitFailure("the kit's check " + check.name() + " broke" + where(e) + ": " + message(e)
                + "; the reference model's answer breaks it too, so this is a bug of numaspread: please report it"
                + " with the replay line", e);
    }

    /** The exception's message, or its kind when it has none: a kit bug is worth naming. */
    public static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m.strip();
    }

    /** {@code " at GroupCpusChecks.java:203"}: the innermost frame of numaspread's own code. */
    public static String where(Throwable e) {
        for (StackTraceElement f : e.getStackTrace())
            if (f.getClassName().startsWith("dev.numaspread.") && f.getFileName() != null)
                return " at " + f.getFileName() + ":" + f.getLineNumber();
        return "";
    }

    /** A forAll ended on its time budget before the tries it was asked for. */
    static final class BudgetSpent extends RuntimeException {
        BudgetSpent(String message) {
            super(message);
        }
    }

    /** One call made to the implementation: the call in words and the machine it was about. */
    record Call(String text, Optional<Topology> machine) {
        static Call of(Method m, Object[] args) {
            StringBuilder sb = new StringBuilder(m.getName()).append('(');
            Topology machine = null;
            Parameter[] ps = m.getParameters();
            boolean first = true;
            for (int i = 0; args != null && i < args.length; i++) {
                Object a = args[i];
                if (a instanceof Topology t) { machine = t; continue; }
                if (a instanceof Machine mm) { machine = mm.topology(); continue; }
                if (a instanceof KernelRelease) continue;
                sb.append(first ? "" : ", ").append(ps[i].isNamePresent() ? ps[i].getName() + "=" : "")
                        .append(a instanceof CpuSet c ? c.toList() : String.valueOf(a));
                first = false;
            }
            return new Call(sb.append(')').toString(), Optional.ofNullable(machine));
        }
    }

    private static final class Context implements CheckContext {
        private final Check check;
        private final KernelRelease kernel;
        private final Settings settings;
        private final Predicate<Throwable> shrinks;
        private final Implementation counted;
        /** Who answers the calls: the implementation, or the reference model while a crash is looked into. */
        private Implementation answering;
        int tries;
        int judged;
        /** The forAlls the check ran. */
        int forAlls;
        /** Of the tries, the cases of small-scope walks; machines: the most distinct machines one walk covered. */
        int cases;
        int machines;
        long calls;
        /** Calls made outside any forAll: a check of fixed examples judges through them. */
        long callsOutside;
        boolean inForAll;
        /**
         * The last routine call, written out only when a failure names it ({@link #lastCall()}):
         * nearly every call passes, and writing each one out was a tenth of a walk's CPU.
         */
        private Method lastMethod;
        private Object[] lastArgs;

        /** The last routine call, or null when none was made. */
        Call lastCall() {
            return lastMethod == null ? null : Call.of(lastMethod, lastArgs);
        }
        String notApplicable;
        long failureSeed;
        CheckResult.Shrunk shrunk = CheckResult.Shrunk.NONE;
        /** What the tries drew from the machine pool ({@link Settings#pool()}). */
        final Machines.Uses pooled = new Machines.Uses();
        private final Map<OutcomeTable, GradedRuns> graded = new LinkedHashMap<>();

        Context(Check check, Implementation impl, KernelRelease kernel, Settings settings, Predicate<Throwable> shrinks) {
            this.check = check;
            this.shrinks = shrinks;
            this.answering = impl;
            this.kernel = kernel;
            this.settings = settings;
            this.failureSeed = settings.seed();
            this.counted = counting();
        }

        /** The implementation as checks see it: every routine call is counted and remembered. */
        private Implementation counting() {
            InvocationHandler h = (proxy, m, args) -> {
                if (m.getDeclaringClass() == Object.class) {
                    return switch (m.getName()) {
                        case "equals" -> proxy == args[0];
                        case "hashCode" -> System.identityHashCode(proxy);
                        default -> "checked " + answering;
                    };
                }
                boolean routine = !m.getName().equals("name") && !m.getName().equals("claims");
                if (routine) {
                    calls++;
                    if (!inForAll) callsOutside++;
                    lastMethod = m;
                    lastArgs = args;
                }
                try {
                    return m.invoke(answering, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            return (Implementation) Proxy.newProxyInstance(Implementation.class.getClassLoader(), new Class<?>[]{Implementation.class}, h);
        }

        @Override public Implementation implementation() { return counted; }
        @Override public KernelRelease kernel() { return kernel; }

        @Override
        public void graded(Exploration<?> x) {
            graded.merge(x.table(), GradedRuns.of(x), GradedRuns::plus);
        }

        List<GradedRuns> graded() {
            return List.copyOf(graded.values());
        }

        @Override
        public <T> void forAll(Gen<T> gen, UnaryOperator<Settings> tuning, Consumer<T> body) {
            Settings s = tuning.apply(settings);
            forAlls++;
            if (!s.isExhaustive() && s.shard().shareOf(s.tries()) == 0) {
                notApplicable = "shard " + s.shard() + " holds none of this check's " + s.tries() + " tries";
                return;
            }
            int[] judgedHere = {0};
            // A try judges when it reaches the implementation and does not say it does not apply.
            Consumer<T> judging = input -> {
                long before = calls;
                try {
                    body.accept(input);
                } catch (NotApplicable e) {
                    notApplicable = e.getMessage();
                    return;
                }
                if (calls > before) {
                    judgedHere[0]++;
                    pooled.judged();
                }
            };
            PropertyResult<T> r;
            // The machines given (--topology, a booted kernel's) stand in for every machine the generator draws.
            Gen<T> drawn = s.pool().isEmpty() ? gen : c -> {
                pooled.startTry();
                return gen.generate(new Machines.Pooled(c, s.pool().get(), pooled));
            };
            inForAll = true;
            try {
                r = s.isExhaustive()
                        ? Property.exhaust(drawn, judging, s.exhaustive(), s.shard(), config(s), CheckRunner::failureKey, shrinks)
                        : Property.check(drawn, judging, config(s), CheckRunner::failureKey, shrinks, s.shard());
            } finally {
                inForAll = false;
            }
            if (r instanceof PropertyResult.Exhausted<T> x) {
                tries += x.cases();
                cases += x.cases();
                machines = Math.max(machines, x.machines());
                judged += judgedHere[0];
                if (!x.complete())
                    throw new BudgetSpent("the " + s.budget().toSeconds() + " s budget ended the walk of the small scope "
                            + s.exhaustive() + (s.shard().isWhole() ? "" : " (shard " + s.shard() + ")") + " after " + x.cases()
                            + " cases on " + x.machines() + " machines, before the end of the space; raise it with --budget SECONDS"
                            + " or lower --exhaustive");
            } else if (r instanceof PropertyResult.Passed<T> p) {
                tries += p.tries();
                judged += judgedHere[0];
                int share = s.shard().shareOf(s.tries());
                if (p.tries() < share)
                    throw new BudgetSpent(p.tries() + " of " + share + " tries" + (s.shard().isWhole() ? "" : " (shard " + s.shard()
                            + " of " + s.tries() + ")") + " ran in the " + s.budget().toSeconds()
                            + " s budget; raise it with --budget SECONDS (or -Dnumaspread.budget.seconds)");
            } else if (r instanceof PropertyResult.GaveUp<T> g) {
                tries += g.tries();
                if (g.tries() == 0 && pooled.refused().isPresent()) {
                    // Not the check's failure to judge: the pool holds no machine its rule is about.
                    notApplicable = "no machine of the pool is within its narrowing (" + pooled.refused().get() + ")";
                    return;
                }
                throw new CannotJudge("too few drawn inputs applied: " + g.reason());
            } else if (r instanceof PropertyResult.Failed<T> f) {
                tries += f.tries();
                judged += Math.min(judgedHere[0], f.tries());   // the shrinker's runs went through the counter too
                failureSeed = f.seed();
                Throwable t = f.failure();
                shrunk = new CheckResult.Shrunk(describe(f.input(), t), f.choices().indicesText(), f.shrinkSteps(), f.shrinkCalls());
                if (t instanceof Violation || t instanceof VirtualMachineError || isImplementationFailure(t) || t instanceof CannotJudge) {
                    if (t instanceof RuntimeException e) throw e;
                    throw (Error) t;
                }
                RuntimeException r2 = crashed(drawn, body, f.choices(), t);
                if (r2 instanceof Violation v)
                    shrunk = new CheckResult.Shrunk(describe(f.input(), v), f.choices().indicesText(), f.shrinkSteps(), f.shrinkCalls());
                throw r2;
            }
        }

        /**
         * What an exception of a forAll body (other than a violation or an implementation
         * failure) stands for: the body runs again on the shrunk input with the reference model
         * answering; when that runs clean, the implementation's answer caused the exception (a
         * Violation of the check's rule); when it breaks too, the kit did (a KitFailure).
         */
        private <T> RuntimeException crashed(Gen<T> gen, Consumer<T> body, dev.numaspread.conformance.gen.ChoiceSequence choices, Throwable t) {
            Throwable withModel = null;
            Implementation was = answering;
            answering = new ReferenceModel();
            inForAll = true;
            try {
                body.accept(Property.replay(gen, choices));
            } catch (Violation | NotApplicable | CannotJudge ok) {
                // Judged: the check copes with the model's answer.
            } catch (VirtualMachineError vm) {
                throw vm;
            } catch (RuntimeException | Error other) {
                withModel = other;
            } finally {
                answering = was;
            }
            if (withModel != null) {
                inForAll = false;
                return kitFailure(check, t);
            }
            // Again with the implementation, to name the call whose answer broke the check.
            Throwable withImpl = t;
            T input = Property.replay(gen, choices);
            lastMethod = null;
            try {
                body.accept(input);
            } catch (VirtualMachineError vm) {
                throw vm;
            } catch (RuntimeException | Error again) {
                withImpl = again;
            }
            inForAll = false;
            Optional<Topology> machine = input instanceof Topology m ? Optional.of(m) : Optional.empty();
            return unreadable(check, withImpl, lastCall(), machine);
        }

        /**
         * The shrunk input as a user can reuse it: the {@code .topo} text of the machine (the input
         * itself, or the one the violation names when the input also holds a node or a count,
         * which the violation's call text shows), else the input's text.
         */
        private static String describe(Object input, Throwable failure) {
            if (input instanceof Topology t) return TopoFormat.write(t);
            if (failure instanceof Violation v && v.machine().isPresent()) return TopoFormat.write(v.machine().get());
            return String.valueOf(input);
        }
    }
}
