package dev.numaspread.conformance.rules;

/**
 * Something that proves a rule: a scenario tagged with its id, a check naming it, or a JUnit test
 * annotated {@code @Proves} with it.
 *
 * @param rule  the rule id it names (which may not exist: the coverage gate reports that)
 * @param kind  scenario, check or test
 * @param name  the scenario's name, the check's name, or {@code Class#method} of the test
 * @param where {@code features/x.feature:12}, the check's family, or {@code path/X.java:40}
 */
public record Evidence(String rule, Kind kind, String name, String where) {

    public enum Kind {
        SCENARIO("scenario"), CHECK("check"), TEST("test");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        @Override
        public String toString() {
            return word;
        }
    }
}
