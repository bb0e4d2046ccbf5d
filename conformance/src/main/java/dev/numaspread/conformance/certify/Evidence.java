package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.GradedRuns;

import java.util.List;
import java.util.Optional;

/**
 * What one check or one scenario showed about one rule for one release.
 *
 * @param source         {@code check LS_3_localCpusComeFirst} or {@code scenario features/local-spread.feature:12 "..."}
 * @param outcome        passed, failed, errored, not verified, or the kit broke
 * @param tries          property tries that ran (1 for a scenario or a check of fixed examples)
 * @param judged         of those, the tries that reached the implementation and judged the rule
 * @param counterexample the failing case, for {@code FAILED}
 * @param reason         why it errored, could not judge ({@code NOT_VERIFIED}), or broke
 * @param graded         the interleavings a hotplug check explored, per outcome table
 * @param cases          of the tries, the cases of a small scope walked to its end ({@code certify --exhaustive})
 * @param machines       the most distinct machines one walk of the source covered
 */
public record Evidence(String source, Outcome outcome, int tries, int judged, Optional<Counterexample> counterexample, String reason,
                       List<GradedRuns> graded, int cases, int machines) {

    /**
     * {@code ERRORED}: the implementation crashed, hung or answered garbage; {@code NOT_VERIFIED}:
     * the source could not judge (budget spent, too few inputs applied, nothing to show);
     * {@code KIT_FAILED}: the kit itself broke, an internal error.
     */
    public enum Outcome { PASSED, FAILED, ERRORED, NOT_VERIFIED, KIT_FAILED }

    public Evidence {
        graded = List.copyOf(graded);
    }

    public Evidence(String source, Outcome outcome, int tries, int judged, Optional<Counterexample> counterexample, String reason,
                    List<GradedRuns> graded) {
        this(source, outcome, tries, judged, counterexample, reason, graded, 0, 0);
    }

    public static Evidence passed(String source, int tries) {
        return passed(source, tries, tries, List.of());
    }

    public static Evidence passed(String source, int tries, int judged, List<GradedRuns> graded) {
        return new Evidence(source, Outcome.PASSED, tries, judged, Optional.empty(), "", graded);
    }

    /** A source that passed after walking {@code cases} cases of a small scope on {@code machines} machines. */
    public static Evidence passed(String source, int tries, int judged, List<GradedRuns> graded, int cases, int machines) {
        return new Evidence(source, Outcome.PASSED, tries, judged, Optional.empty(), "", graded, cases, machines);
    }

    public static Evidence failed(String source, int tries, Counterexample c) {
        return failed(source, tries, c, List.of());
    }

    public static Evidence failed(String source, int tries, Counterexample c, List<GradedRuns> graded) {
        return new Evidence(source, Outcome.FAILED, tries, tries, Optional.of(c), "", graded);
    }

    public static Evidence errored(String source, String reason) {
        return new Evidence(source, Outcome.ERRORED, 0, 0, Optional.empty(), reason, List.of());
    }

    /** The source could not judge the rule for this implementation: {@code reason}. Never a pass. */
    public static Evidence notVerified(String source, int tries, String reason) {
        return new Evidence(source, Outcome.NOT_VERIFIED, tries, 0, Optional.empty(), reason, List.of());
    }

    /** The kit broke while judging: {@code reason} names where. An internal error, never a verdict on the implementation. */
    public static Evidence kitFailed(String source, String reason) {
        return new Evidence(source, Outcome.KIT_FAILED, 0, 0, Optional.empty(), reason, List.of());
    }
}
