package dev.numaspread.conformance.checks;

/**
 * What running one check against one implementation and release gave. Only {@link Passed} is a
 * pass; it means every try the settings asked for ran, and at least one of them judged the rule.
 */
public sealed interface CheckResult permits CheckResult.Passed, CheckResult.Failed, CheckResult.Errored,
        CheckResult.NotVerified, CheckResult.NotApplicable, CheckResult.KitFailed {

    /**
     * The rule held on every try: {@code tries} ran in full, {@code judged} of them reached the
     * implementation and judged the rule (the others fell outside it; see {@link NotApplicable});
     * {@code graded} are the interleavings a hotplug check explored; {@code cases} are the tries of
     * small-scope walks that ended ({@code certify --exhaustive}) and {@code machines} the most
     * distinct machines one of them covered (0 and 0 for random tries).
     */
    record Passed(int tries, int judged, java.util.List<GradedRuns> graded, int cases, int machines) implements CheckResult {
        public Passed {
            if (judged < 1 || judged > tries)
                throw new IllegalArgumentException("Passed(tries " + tries + ", judged " + judged + "); expected 1 <= judged <= tries");
            if (cases < 0 || cases > tries || machines < 0)
                throw new IllegalArgumentException("Passed(tries " + tries + ", cases " + cases + ", machines " + machines
                        + "); expected 0 <= cases <= tries and machines >= 0");
            graded = java.util.List.copyOf(graded);
        }

        public Passed(int tries, int judged, java.util.List<GradedRuns> graded) {
            this(tries, judged, graded, 0, 0);
        }

        public Passed(int tries, int judged) {
            this(tries, judged, java.util.List.of());
        }

        public Passed(int tries) {
            this(tries, tries);
        }
    }

    /**
     * The check started judging and could not finish: the time budget ran out before the tries
     * the settings ask for, too few drawn inputs applied, or the check cannot show what the rule is
     * about ({@link CannotJudge}). {@code reason} says which; the rule is NOT-VERIFIED, never PASS.
     */
    record NotVerified(String reason, int tries) implements CheckResult {}

    /**
     * The check judged nothing for this implementation and release ({@code reason}): no try
     * reached the implementation, or the check said so ({@link NotApplicable}). Left out of the
     * certificate; a rule nothing else judged is NOT-VERIFIED.
     */
    record NotApplicable(String reason) implements CheckResult {}

    /**
     * The kit broke: {@code failure} names the check and where it threw; the implementation's
     * answer is not the cause (the reference model's answer on the same input breaks it too).
     */
    record KitFailed(KitFailure failure, long seed, Shrunk shrunk) implements CheckResult {}

    /**
     * The rule did not hold. {@code violation} is the one of the smallest failing input;
     * {@code seed} replays the run, {@code tries} counts the tries until the first failure;
     * {@code shrunk} describes the shrunk input ({@link Shrunk#NONE} for a check without
     * {@code forAll}); {@code graded} are the interleavings a hotplug check explored up to the failure.
     */
    record Failed(Violation violation, long seed, int tries, Shrunk shrunk, java.util.List<GradedRuns> graded) implements CheckResult {
        public Failed {
            graded = java.util.List.copyOf(graded);
        }

        public Failed(Violation violation, long seed, int tries, Shrunk shrunk) {
            this(violation, seed, tries, shrunk, java.util.List.of());
        }

        public Failed(Violation violation, long seed, int tries) {
            this(violation, seed, tries, Shrunk.NONE);
        }

        /**
         * The {@code .topo} text of the machine the violation was observed on (the shrunk one for a
         * property), for the report and for fixtures/topologies/; empty when the violation names none.
         */
        public java.util.Optional<String> topo() {
            return violation.machine().map(dev.numaspread.model.topology.TopoFormat::write);
        }
    }

    /**
     * The implementation crashed, hung, answered garbage or broke the SPI's shape
     * ({@code ImplementationFailure}). Never a pass. {@code shrunk} describes the input when the
     * failure came from a {@code forAll} body.
     */
    record Errored(Throwable cause, long seed, Shrunk shrunk) implements CheckResult {
        public Errored(Throwable cause, long seed) {
            this(cause, seed, Shrunk.NONE);
        }
    }

    /**
     * The shrunk input of a property failure: its text (the {@code .topo} text of its machine, see
     * {@code TopoFormat.write}),
     * the choice indices that replay it ({@code Gen.replay}), the kept shrink edits and the
     * property runs the shrinker spent.
     */
    record Shrunk(String input, String choices, int steps, int calls) {
        public static final Shrunk NONE = new Shrunk("", "", 0, 0);
    }
}
