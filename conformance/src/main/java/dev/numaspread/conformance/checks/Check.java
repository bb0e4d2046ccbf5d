package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.spi.Routine;

/**
 * One check of one rule against an implementation: an exact example (a fixture, a worked
 * example of a source) or a property over generated machines. A check returns normally when the
 * rule held and throws {@link Violation} when it did not.
 */
public interface Check {

    /** The rule it proves: {@code LS-3}. */
    String rule();

    /** The routine the implementation must claim for this check to run. */
    Routine routine();

    /** A short name for reports: {@code LS_3_localCpusComeFirst}. */
    String name();

    /** Runs the check against {@code ctx.implementation()} for the release {@code ctx.kernel()}. */
    void run(CheckContext ctx);

    @FunctionalInterface
    interface Body {
        void run(CheckContext ctx);
    }

    /** A check named {@code name} proving {@code rule} through {@code body}. */
    static Check of(String rule, Routine routine, String name, Body body) {
        return new Check() {
            @Override public String rule() { return rule; }
            @Override public Routine routine() { return routine; }
            @Override public String name() { return name; }
            @Override public void run(CheckContext ctx) { body.run(ctx); }
            @Override public String toString() { return name; }
        };
    }
}
