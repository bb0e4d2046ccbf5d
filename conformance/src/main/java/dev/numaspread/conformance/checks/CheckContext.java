package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.function.Consumer;

/** What a running check sees: the implementation, the claimed release, and the property runner. */
public interface CheckContext {

    Implementation implementation();

    KernelRelease kernel();

    /**
     * Runs {@code body} on inputs drawn from {@code gen} (the configured number of tries within the
     * time budget). On the first {@link Violation} the runner shrinks the input, then rethrows the
     * violation of the smallest failing input, with the seed that replays it.
     */
    <T> void forAll(Gen<T> gen, Consumer<T> body);
}
