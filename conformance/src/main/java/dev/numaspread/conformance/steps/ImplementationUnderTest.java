package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.spi.Implementation;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Which implementation the Cucumber features run against: the reference model unless the
 * certifier installed another. The one piece of process-wide state of the glue; the certifier
 * sets it before it starts Cucumber and resets it afterwards.
 */
public final class ImplementationUnderTest {
    private static volatile Supplier<Implementation> current = ImplementationUnderTest::referenceModel;

    private ImplementationUnderTest() {}

    public static Implementation get() {
        return current.get();
    }

    public static void install(Implementation impl) {
        Objects.requireNonNull(impl);
        current = () -> impl;
    }

    public static void reset() {
        current = ImplementationUnderTest::referenceModel;
    }

    private static Implementation referenceModel() {
        return new dev.numaspread.conformance.spi.ReferenceModel();
    }
}
