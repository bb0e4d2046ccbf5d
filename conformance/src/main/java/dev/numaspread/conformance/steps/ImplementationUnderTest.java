package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.spi.Implementation;

import java.util.Objects;

/**
 * Which implementation the Cucumber features run against: the reference model unless the
 * certifier installed another on the thread that runs Cucumber (Cucumber runs the scenarios on
 * the thread that runs it). The one piece of state of the glue outside a scenario; it is the
 * thread's, so two certifications in one JVM (the exhaustive walk's shards, side by side) each
 * run their scenarios against their own implementation. The certifier installs it before it
 * starts Cucumber and resets it afterwards.
 */
public final class ImplementationUnderTest {
    private static final ThreadLocal<Implementation> CURRENT = new ThreadLocal<>();

    private ImplementationUnderTest() {}

    /** The implementation installed on this thread, else a fresh reference model. */
    public static Implementation get() {
        Implementation impl = CURRENT.get();
        return impl != null ? impl : new dev.numaspread.conformance.spi.ReferenceModel();
    }

    public static void install(Implementation impl) {
        CURRENT.set(Objects.requireNonNull(impl));
    }

    public static void reset() {
        CURRENT.remove();
    }
}
