package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.Property;
import dev.numaspread.conformance.gen.PropertyGaveUp;
import dev.numaspread.conformance.gen.PropertyResult;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Runs one check against one implementation for one release, with the property engine of
 * {@code gen}: each {@code forAll} draws inputs at random from the settings' seed, and on the
 * first failure shrinks the input and rethrows what the shrunk input threw.
 *
 * <p>Failures shrink by rule: the shrinker keeps an edit only while the body throws a
 * {@link Violation} of the same rule id (other exceptions: of the same class), so the reported
 * counterexample shows the rule that first failed. The result's seed replays the failing try
 * ({@code -Dnumaspread.seed=...}); a property that gave up (no try ran, too many discards) is
 * {@link CheckResult.Errored}, never a pass.
 */
public final class CheckRunner {
    private CheckRunner() {}

    public static CheckResult run(Check check, Implementation impl, KernelRelease kernel, Settings settings) {
        Context ctx = new Context(impl, kernel, settings);
        try {
            check.run(ctx);
            return new CheckResult.Passed(Math.max(1, ctx.tries), ctx.graded());
        } catch (Violation v) {
            return new CheckResult.Failed(v, ctx.failureSeed, ctx.tries, ctx.shrunk, ctx.graded());
        } catch (CannotJudge c) {
            return new CheckResult.NotVerified(c.getMessage(), ctx.tries);
        } catch (PropertyGaveUp e) {
            return new CheckResult.Errored(e, e.seed(), CheckResult.Shrunk.NONE);
        } catch (RuntimeException | Error e) {
            return new CheckResult.Errored(e, ctx.failureSeed, ctx.shrunk);
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

    private static final class Context implements CheckContext {
        private final Implementation impl;
        private final KernelRelease kernel;
        private final Settings settings;
        int tries;
        long failureSeed;
        CheckResult.Shrunk shrunk = CheckResult.Shrunk.NONE;
        private final Map<OutcomeTable, GradedRuns> graded = new LinkedHashMap<>();

        Context(Implementation impl, KernelRelease kernel, Settings settings) {
            this.impl = impl;
            this.kernel = kernel;
            this.settings = settings;
            this.failureSeed = settings.seed();
        }

        @Override public Implementation implementation() { return impl; }

        @Override
        public void graded(Exploration<?> x) {
            graded.merge(x.table(), GradedRuns.of(x), GradedRuns::plus);
        }

        List<GradedRuns> graded() {
            return List.copyOf(graded.values());
        }
        @Override public KernelRelease kernel() { return kernel; }

        @Override
        public <T> void forAll(Gen<T> gen, Consumer<T> body) {
            forAll(gen, UnaryOperator.identity(), body);
        }

        @Override
        public <T> void forAll(Gen<T> gen, UnaryOperator<Settings> tuning, Consumer<T> body) {
            Settings s = tuning.apply(settings);
            PropertyResult<T> r = Property.check(gen, body, config(s), CheckRunner::failureKey);
            if (r instanceof PropertyResult.Passed<T> p) {
                tries += p.tries();
            } else if (r instanceof PropertyResult.GaveUp<T> g) {
                tries += g.tries();
                throw new PropertyGaveUp(g.reason(), g.seed());
            } else if (r instanceof PropertyResult.Failed<T> f) {
                tries += f.tries();
                failureSeed = f.seed();
                Throwable t = f.failure();
                shrunk = new CheckResult.Shrunk(describe(f.input(), t), f.choices().indicesText(), f.shrinkSteps(), f.shrinkCalls());
                if (t instanceof RuntimeException e) throw e;
                if (t instanceof Error e) throw e;
                throw new IllegalStateException("model invariant of forAll broken: body threw " + t, t);
            }
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
