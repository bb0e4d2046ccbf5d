package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.Optional;

/**
 * The state of one scenario, shared by the glue classes of every family: the machine, the kernel
 * release, the implementation under test, and what the last call returned or threw. Cucumber
 * (with picocontainer) creates one per scenario and hands it to each glue class's constructor.
 */
public final class World {

    private Topology machine;
    private KernelRelease kernel;
    private Implementation implementation;
    private Object result;
    private RuntimeException error;

    /**
     * The scenario's machine.
     *
     * @throws IllegalStateException when no step gave one
     */
    public Topology machine() {
        if (machine == null)
            throw new IllegalStateException("the scenario has no machine; expected a step 'Given the machine \"NAME\"' or 'Given the machine:' before it");
        return machine;
    }

    public void machine(Topology t) {
        machine = t;
    }

    /** The release of {@code Given Linux X.Y}, or {@link KernelRelease#NEWEST} when the scenario names none. */
    public KernelRelease kernel() {
        return kernel != null ? kernel : KernelRelease.NEWEST;
    }

    public void kernel(KernelRelease k) {
        kernel = k;
    }

    /** The implementation under test, fixed for the whole scenario at its first use. */
    public Implementation implementation() {
        if (implementation == null) implementation = ImplementationUnderTest.get();
        return implementation;
    }

    /** Records what the last call returned, clearing any error. */
    public void result(Object r) {
        result = r;
        error = null;
    }

    /**
     * What the last call returned, as a {@code type}.
     *
     * @throws IllegalStateException when there is none, the call threw, or it is of another type
     */
    public <T> T result(Class<T> type) {
        if (error != null)
            throw new IllegalStateException("the last call threw instead of returning: " + error.getMessage(), error);
        if (result == null) throw new IllegalStateException("the scenario has no result yet; expected a When step before it");
        if (!type.isInstance(result))
            throw new IllegalStateException("the last result is a " + result.getClass().getSimpleName() + "; expected a " + type.getSimpleName());
        return type.cast(result);
    }

    /** Records what the last call threw, clearing any result. */
    public void error(RuntimeException e) {
        error = e;
        result = null;
    }

    /** What the last call threw, if it threw. */
    public Optional<RuntimeException> error() {
        return Optional.ofNullable(error);
    }
}
