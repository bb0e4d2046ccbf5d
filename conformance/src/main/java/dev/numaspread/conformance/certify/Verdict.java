package dev.numaspread.conformance.certify;

/**
 * What certification concluded about one rule for one claimed release. Closed: a report prints
 * exactly these labels, and only {@link Pass} and {@link Waived} keep the exit code at 0;
 * {@link InternalError} makes it 3.
 *
 * <p>When a rule's checks and scenarios showed different things, the verdict is the first of:
 * FAIL (a counterexample is proof), ERROR (the implementation crashed, hung or answered garbage),
 * INTERNAL-ERROR (the kit broke), NOT-VERIFIED (one source could not judge: a pass of the others
 * would claim more than was shown), PASS.
 */
public sealed interface Verdict permits Verdict.Pass, Verdict.Fail, Verdict.Error, Verdict.NotClaimed,
        Verdict.Waived, Verdict.UnexpectedPass, Verdict.NotVerified, Verdict.InternalError {

    /** The label reports print: {@code PASS}, {@code FAIL}, {@code NOT-CLAIMED}, ... */
    String label();

    /**
     * Every check and scenario of the rule held, each after all the tries it was asked for, and at
     * least one of them judged the rule; {@code tries} counts property tries plus scenarios.
     */
    record Pass(int tries) implements Verdict {
        public String label() { return "PASS"; }
    }

    /** The rule did not hold: the smallest counterexample found, from {@code source} (a check or a scenario). */
    record Fail(Counterexample counterexample, int tries, String source) implements Verdict {
        public String label() { return "FAIL"; }
    }

    /** The implementation crashed, hung, lied about its claims or answered nondeterministically: {@code reason}. */
    record Error(String reason, String source) implements Verdict {
        public String label() { return "ERROR"; }
    }

    /**
     * The implementation does not claim the rule's routine: {@code routine}; {@code reason} is why,
     * when it says ({@code Implementation.whyNotClaimed}: a booted kernel cannot show a NIC driver
     * without the NIC), else empty.
     */
    record NotClaimed(String routine, String reason) implements Verdict {
        public NotClaimed(String routine) {
            this(routine, "");
        }

        public String label() { return "NOT-CLAIMED"; }
    }

    /** The rule failed or errored, and a waiver accepts that; {@code underlying} is the Fail or Error. */
    record Waived(Waivers.Waiver waiver, Verdict underlying) implements Verdict {
        public String label() { return "WAIVED"; }
    }

    /** A waived rule passed: remove the waiver. Not a pass for the exit code, as in test262 runners. */
    record UnexpectedPass(Waivers.Waiver waiver, int tries) implements Verdict {
        public String label() { return "UNEXPECTED-PASS"; }
    }

    /**
     * The rule could not be judged in full for this implementation: {@code reason} (nothing judged
     * it, a time budget cut its tries short, a check cannot show what it is about). Never a pass.
     */
    record NotVerified(String reason) implements Verdict {
        public String label() { return "NOT-VERIFIED"; }
    }

    /**
     * The kit broke while judging the rule ({@code reason}, from {@code source}): a bug of
     * numaspread, not a verdict on the implementation. The certificate exits 3.
     */
    record InternalError(String reason, String source) implements Verdict {
        public String label() { return "INTERNAL-ERROR"; }
    }
}
