package dev.numaspread.conformance.checks;

/** What running one check against one implementation and release gave. */
public sealed interface CheckResult permits CheckResult.Passed, CheckResult.Failed, CheckResult.Errored, CheckResult.NotVerified {

    /** The rule held on every try; {@code graded} are the interleavings a hotplug check explored. */
    record Passed(int tries, java.util.List<GradedRuns> graded) implements CheckResult {
        public Passed {
            graded = java.util.List.copyOf(graded);
        }

        public Passed(int tries) {
            this(tries, java.util.List.of());
        }
    }

    /** The check could not judge its rule for this implementation ({@link CannotJudge}): {@code reason}. Never a pass. */
    record NotVerified(String reason, int tries) implements CheckResult {}

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
     * The implementation crashed, hung, or did something the check could not judge (an exception
     * other than a Violation), or the property gave up (no try ran, too many discards). Never a pass.
     * {@code shrunk} describes the shrunk input when the exception came from a {@code forAll} body.
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
