package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.model.topology.TopoFormat;

import java.util.Optional;

/**
 * A failing case as the certificate prints it: the call, what the rule expected, what came back,
 * the likely slip, the machine as {@code .topo} text ready to paste into a fixture, and the
 * sentence of the rule that was broken, quoted from {@code spec/}.
 */
public record Counterexample(String call, String expected, String actual, String hint, Optional<String> machine, String says) {

    public Counterexample {
        hint = hint == null ? "" : hint;
        says = says == null ? "" : says;
    }

    /** A counterexample that quotes no sentence yet (the certifier adds the rule's). */
    public Counterexample(String call, String expected, String actual, String hint, Optional<String> machine) {
        this(call, expected, actual, hint, machine, "");
    }

    /** The counterexample a check's {@link Violation} describes, with the sentence it names, if any. */
    public static Counterexample of(Violation v) {
        return new Counterexample(v.call(), v.expected(), v.actual(), v.hint(), v.machine().map(TopoFormat::write), v.quote().orElse(""));
    }

    /** The same counterexample quoting {@code sentence}, unless it already quotes one. */
    public Counterexample quotingIfNone(String sentence) {
        return says.isEmpty() ? new Counterexample(call, expected, actual, hint, machine, sentence) : this;
    }
}
