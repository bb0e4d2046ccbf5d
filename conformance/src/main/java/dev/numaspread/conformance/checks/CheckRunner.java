package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Runs one check against one implementation for one release. This first version draws random
 * choices and reports the first failure without shrinking; the property engine in {@code gen}
 * takes over drawing and shrinking.
 */
public final class CheckRunner {
    private CheckRunner() {}

    public static CheckResult run(Check check, Implementation impl, KernelRelease kernel, Settings settings) {
        Context ctx = new Context(impl, kernel, settings);
        try {
            check.run(ctx);
            return new CheckResult.Passed(Math.max(1, ctx.tries));
        } catch (Violation v) {
            return new CheckResult.Failed(v, settings.seed(), ctx.tries);
        } catch (RuntimeException | Error e) {
            return new CheckResult.Errored(e, settings.seed());
        }
    }

    private static final class Context implements CheckContext {
        private final Implementation impl;
        private final KernelRelease kernel;
        private final Settings settings;
        int tries;

        Context(Implementation impl, KernelRelease kernel, Settings settings) {
            this.impl = impl;
            this.kernel = kernel;
            this.settings = settings;
        }

        @Override public Implementation implementation() { return impl; }
        @Override public KernelRelease kernel() { return kernel; }

        @Override
        public <T> void forAll(Gen<T> gen, Consumer<T> body) {
            SplittableRandom random = new SplittableRandom(settings.seed());
            for (int t = 0; t < settings.tries(); t++) {
                SplittableRandom r = random.split();
                Choices choices = new Choices() {
                    @Override public int choose(int lo, int hi) { return lo == hi ? lo : r.nextInt(lo, hi + 1); }
                    @Override public void startSpan(String label) {}
                    @Override public void endSpan() {}
                };
                T input;
                try {
                    input = gen.generate(choices);
                } catch (Gen.Unsatisfiable e) {
                    continue;
                }
                tries++;
                body.accept(input);
            }
        }
    }
}
