package dev.numaspread.conformance.checks;

import dev.numaspread.model.topology.Topology;

import java.util.Optional;

/**
 * A rule did not hold: what was called, what the rule expected, what came back. Thrown by a check
 * body; the property runner shrinks the input that produced it and the certifier prints it.
 * Values are printed in kernel notation (CPU lists, hex masks), never as Java {@code toString}s.
 */
public final class Violation extends RuntimeException {

    private final String rule;
    private final String call;
    private final String expected;
    private final String actual;
    private final String hint;
    private final String quote;
    private final Topology machine;

    private Violation(String rule, String call, String expected, String actual, String hint, String quote, Topology machine) {
        super(rule + ": " + call + ": expected " + expected + "; actual " + actual);
        this.rule = rule;
        this.call = call;
        this.expected = expected;
        this.actual = actual;
        this.hint = hint;
        this.quote = quote;
        this.machine = machine;
    }

    /**
     * A violation of {@code rule}.
     *
     * @param call     the call in kernel words: {@code localSpread(i=24, node=2)}
     * @param expected what the rule wants: {@code a CPU of node 2 (online 48-71)}
     * @param actual   what came back: {@code cpu 0 (node 0)}
     */
    public static Violation of(String rule, String call, String expected, String actual) {
        return new Violation(rule, call, expected, actual, "", "", null);
    }

    // Alike on purpose (duplicates, issue 26) with QemuGuest: withers of an immutable value, one per field (an exception cannot be a record).
    /** The same violation with a hint: the likely slip ("are nodes visited by id?"). */
    public Violation hint(String h) {
        return new Violation(rule, call, expected, actual, h, quote, machine);
    }

    /**
     * The same violation, naming the sentence of the rule's statement it breaks, verbatim from
     * {@code spec/} (the certificate prints it; the self-test checks it is the rule's own). Without
     * one the certificate quotes the statement's first sentence.
     */
    public Violation quoting(String sentence) {
        return new Violation(rule, call, expected, actual, hint, sentence, machine);
    }

    /** The same violation, observed on {@code m}; the report prints it as a {@code .topo}. */
    public Violation on(Topology m) {
        return new Violation(rule, call, expected, actual, hint, quote, m);
    }

    public String rule() { return rule; }
    public String call() { return call; }
    public String expected() { return expected; }
    public String actual() { return actual; }
    public String hint() { return hint; }
    /** The sentence of the rule this violation breaks, if the check named one. */
    public Optional<String> quote() { return quote.isEmpty() ? Optional.empty() : Optional.of(quote); }
    public Optional<Topology> machine() { return Optional.ofNullable(machine); }
}
