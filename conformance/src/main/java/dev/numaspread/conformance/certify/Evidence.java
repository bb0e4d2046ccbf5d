package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.GradedRuns;

import java.util.List;
import java.util.Optional;

/**
 * What one check or one scenario showed about one rule for one release.
 *
 * @param source         {@code check LS_3_localCpusComeFirst} or {@code scenario features/local-spread.feature:12 "..."}
 * @param outcome        passed, failed or errored
 * @param tries          property tries (1 for a scenario)
 * @param counterexample the failing case, for {@code FAILED}
 * @param reason         why it errored, for {@code ERRORED}; why it could not judge, for {@code NOT_VERIFIED}
 * @param graded         the interleavings a hotplug check explored, per outcome table
 */
public record Evidence(String source, Outcome outcome, int tries, Optional<Counterexample> counterexample, String reason,
                       List<GradedRuns> graded) {

    public enum Outcome { PASSED, FAILED, ERRORED, NOT_VERIFIED }

    public Evidence {
        graded = List.copyOf(graded);
    }

    public static Evidence passed(String source, int tries) {
        return passed(source, tries, List.of());
    }

    public static Evidence passed(String source, int tries, List<GradedRuns> graded) {
        return new Evidence(source, Outcome.PASSED, tries, Optional.empty(), "", graded);
    }

    public static Evidence failed(String source, int tries, Counterexample c) {
        return failed(source, tries, c, List.of());
    }

    public static Evidence failed(String source, int tries, Counterexample c, List<GradedRuns> graded) {
        return new Evidence(source, Outcome.FAILED, tries, Optional.of(c), "", graded);
    }

    public static Evidence errored(String source, String reason) {
        return new Evidence(source, Outcome.ERRORED, 0, Optional.empty(), reason, List.of());
    }

    /** The source could not judge the rule for this implementation: {@code reason}. Never a pass. */
    public static Evidence notVerified(String source, int tries, String reason) {
        return new Evidence(source, Outcome.NOT_VERIFIED, tries, Optional.empty(), reason, List.of());
    }
}
