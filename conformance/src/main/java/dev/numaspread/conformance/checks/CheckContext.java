package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/** What a running check sees: the implementation, the claimed release, and the property runner. */
public interface CheckContext {

    Implementation implementation();

    KernelRelease kernel();

    /**
     * Runs {@code body} on inputs drawn from {@code gen} (the configured number of tries within the
     * time budget). On the first {@link Violation} the runner shrinks the input, then rethrows the
     * violation of the smallest failing input, with the seed that replays it.
     */
    default <T> void forAll(Gen<T> gen, Consumer<T> body) {
        forAll(gen, UnaryOperator.identity(), body);
    }

    /**
     * {@link #forAll(Gen, Consumer)} with this check's own settings: {@code tuning} gets the run's
     * settings and returns the ones to use ({@code s -> s.withTries(50)} for an expensive property).
     */
    <T> void forAll(Gen<T> gen, UnaryOperator<Settings> tuning, Consumer<T> body);

    /**
     * Records the interleavings of {@code x} for the certificate, which prints the outcome table
     * with counts under the check's rule. Contexts that keep no record ignore it.
     */
    default void graded(Exploration<?> x) {}

    /**
     * True in a context that only counts what the drawn tries ask ({@link Census}, RULE-6): a fixed
     * example outside {@code forAll} is no draw and is not counted there, so a check may leave its
     * costly fixed examples out. Every context that judges says false.
     */
    default boolean countsDrawsOnly() {
        return false;
    }
}
