package dev.numaspread.conformance.certify;

import dev.numaspread.model.kernel.KernelRelease;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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

    /** The outcomes in the order that decides a verdict: the first present wins ({@link Verdict}). */
    List<Evidence.Outcome> DECIDING = List.of(Evidence.Outcome.FAILED, Evidence.Outcome.ERRORED,
            Evidence.Outcome.KIT_FAILED, Evidence.Outcome.NOT_VERIFIED, Evidence.Outcome.PASSED);

    /** The label of the verdict {@code evidence} gives ({@link #of}), without building it: {@code FAIL}, ... {@code PASS}. */
    static String labelOf(List<Evidence> evidence) {
        if (evidence.isEmpty()) return "NOT-VERIFIED";
        for (Evidence.Outcome o : DECIDING)
            if (evidence.stream().anyMatch(e -> e.outcome() == o))
                return switch (o) {
                    case FAILED -> "FAIL";
                    case ERRORED -> "ERROR";
                    case KIT_FAILED -> "INTERNAL-ERROR";
                    case NOT_VERIFIED -> "NOT-VERIFIED";
                    case PASSED -> "PASS";
                };
        throw new IllegalStateException("kit invariant broken: an outcome outside " + DECIDING);
    }

    /**
     * The verdict {@code evidence} gives, as {@link Verdict} orders the sources' outcomes; NOT-VERIFIED
     * when there is none ({@code skipped} says why checks were left out).
     */
    static Verdict of(List<Evidence> evidence, KernelRelease kernel, Set<String> skipped) {
        if (evidence.isEmpty())
            return new Verdict.NotVerified("no check or scenario of this rule ran for kernel " + kernel
                    + (skipped.isEmpty() ? "" : " (" + String.join("; ", skipped) + ")"));
        int tries = evidence.stream().mapToInt(Evidence::tries).sum();
        // A check's counterexample (shrunk, with its machine) explains more than a scenario's assertion.
        Optional<Evidence> failed = evidence.stream().filter(e -> e.outcome() == Evidence.Outcome.FAILED)
                .min(Comparator.comparing(e -> e.counterexample().flatMap(Counterexample::machine).isEmpty()));
        if (failed.isPresent()) return new Verdict.Fail(failed.get().counterexample().orElseThrow(), tries, failed.get().source());
        Optional<Evidence> errored = evidence.stream().filter(e -> e.outcome() == Evidence.Outcome.ERRORED).findFirst();
        if (errored.isPresent()) return new Verdict.Error(errored.get().reason(), errored.get().source());
        Optional<Evidence> broke = evidence.stream().filter(e -> e.outcome() == Evidence.Outcome.KIT_FAILED).findFirst();
        if (broke.isPresent()) return new Verdict.InternalError(broke.get().reason(), broke.get().source());
        // One source that could not judge makes the rule unproven, whatever the others showed.
        Optional<Evidence> unjudged = evidence.stream().filter(e -> e.outcome() == Evidence.Outcome.NOT_VERIFIED).findFirst();
        if (unjudged.isPresent()) return new Verdict.NotVerified(unjudged.get().source() + ": " + unjudged.get().reason());
        return new Verdict.Pass(tries);
    }

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
