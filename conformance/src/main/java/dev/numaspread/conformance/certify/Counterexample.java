package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.model.topology.TopoFormat;

import java.util.Optional;

/**
 * A failing case as the certificate prints it: the call, what the rule expected, what came back,
 * the likely slip, and the machine as {@code .topo} text ready to paste into a fixture.
 */
public record Counterexample(String call, String expected, String actual, String hint, Optional<String> machine) {

    public Counterexample {
        hint = hint == null ? "" : hint;
    }

    /** The counterexample a check's {@link Violation} describes. */
    public static Counterexample of(Violation v) {
        return new Counterexample(v.call(), v.expected(), v.actual(), v.hint(), v.machine().map(TopoFormat::write));
    }
}
