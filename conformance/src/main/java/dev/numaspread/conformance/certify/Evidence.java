package dev.numaspread.conformance.certify;

import java.util.Optional;

/**
 * What one check or one scenario showed about one rule for one release.
 *
 * @param source         {@code check LS_3_localCpusComeFirst} or {@code scenario features/local-spread.feature:12 "..."}
 * @param outcome        passed, failed or errored
 * @param tries          property tries (1 for a scenario)
 * @param counterexample the failing case, for {@code FAILED}
 * @param reason         why it errored, for {@code ERRORED}
 */
public record Evidence(String source, Outcome outcome, int tries, Optional<Counterexample> counterexample, String reason) {

    public enum Outcome { PASSED, FAILED, ERRORED }

    public static Evidence passed(String source, int tries) {
        return new Evidence(source, Outcome.PASSED, tries, Optional.empty(), "");
    }

    public static Evidence failed(String source, int tries, Counterexample c) {
        return new Evidence(source, Outcome.FAILED, tries, Optional.of(c), "");
    }

    public static Evidence errored(String source, String reason) {
        return new Evidence(source, Outcome.ERRORED, 0, Optional.empty(), reason);
    }
}
