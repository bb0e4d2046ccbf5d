package dev.numaspread.conformance.checks;

/** What running one check against one implementation and release gave. */
public sealed interface CheckResult permits CheckResult.Passed, CheckResult.Failed, CheckResult.Errored {

    /** The rule held on every try. */
    record Passed(int tries) implements CheckResult {}

    /**
     * The rule did not hold. {@code violation} is the one of the smallest failing input;
     * {@code seed} replays the run, {@code tries} counts the tries until the first failure.
     */
    record Failed(Violation violation, long seed, int tries) implements CheckResult {}

    /**
     * The implementation crashed, hung, or did something the check could not judge (an exception
     * other than a Violation). Never a pass.
     */
    record Errored(Throwable cause, long seed) implements CheckResult {}
}
