package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.spi.Routine;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gate's logic on small made-up inputs, so that each way of failing is seen to fail. */
class CoverageTest {

    private static final String SPEC = """
            ### LS-1 One
            level: MUST; kernels: all; sources: s
            ### LS-2 Two
            level: EXACT; kernels: 6.3+; sources: s
            ### LS-3 Three
            level: MUST; kernels: all; sources: s
            ### LS-4 Four
            level: MUST; kernels: all; sources: s
            """;

    private static RuleRegistry registry() {
        TreeMap<String, String> m = new TreeMap<>();
        m.put("spec/ls.md", SPEC);
        return RuleRegistry.parse(m);
    }

    private static FeatureIndex features(String text) {
        TreeMap<String, String> m = new TreeMap<>();
        m.put("features/ls.feature", text);
        return FeatureIndex.parse(m);
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_tagsOnFeatureRuleScenarioAndExamplesApply() {
        FeatureIndex f = features("""
                @LS-1 @slow
                Feature: Local spread
                  Description with a colon: not a keyword.

                  Background:
                    Given the machine "two-nodes"

                  @LS-2
                  Rule: LS-2 Two

                    Example: first
                      Given the machine:
                        \"\"\"topo
                        @LS-99 inside a doc string is not a tag
                        Scenario: nor is this
                        \"\"\"

                    @LS-3 # a comment after the tag
                    Scenario Outline: outline <n>
                      Given Linux <n>

                      @LS-4
                      Examples: named
                        | n    |
                        | 6.12 |

                  Rule: no tag here
                    Scenario: untagged rule
                      Given Linux 6.1
                """);
        assertEquals(List.of("first", "outline <n>", "untagged rule"), f.scenarios().stream().map(FeatureIndex.Scenario::name).toList());
        assertEquals(Set.of("@LS-1", "@slow", "@LS-2"), f.scenarios().get(0).tags());
        assertEquals(Set.of("@LS-1", "@slow", "@LS-2", "@LS-3", "@LS-4"), f.scenarios().get(1).tags());
        assertEquals(Set.of("@LS-1", "@slow"), f.scenarios().get(2).tags());
        assertEquals("features/ls.feature:11", f.scenarios().get(0).where());
        assertEquals(List.of("@LS-1", "@slow", "@LS-2", "@LS-3", "@LS-4"), f.tags().stream().map(FeatureIndex.Tag::tag).toList());
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_aFileGherkinCannotReadIsAnErrorWithItsLine() {
        InvalidSpecException e = assertThrows(InvalidSpecException.class, () -> features("""
                Feature: Local spread

                  @LS-1
                  Scenario: proves one
                    Given Linux 6.12
                  Sceanrio: a misspelt keyword
                """));
        assertEquals(List.of("features/ls.feature:6: found \"Sceanrio: a misspelt keyword\"; expected one of EOF, TableRow, DocStringSeparator,"
                + " StepLine, TagLine, ExamplesLine, ScenarioLine, RuleLine, Comment, Empty"), e.problems());
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_otherDialectsAreReadAsCucumberReadsThem() {
        FeatureIndex f = features("""
                # language: fr
                Fonctionnalité: Répartition locale

                  @LS-1
                  Règle: LS-1 Un

                    Exemple: premier
                      Soit Linux 6.12
                """);
        assertEquals(List.of("premier"), f.scenarios().stream().map(FeatureIndex.Scenario::name).toList());
        assertEquals(Set.of("@LS-1"), f.scenarios().get(0).tags());
        assertEquals("features/ls.feature:7", f.scenarios().get(0).where());
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_everyWayOfFailingIsReported() {
        FeatureIndex f = features("""
                Feature: Local spread

                  @LS-1
                  Scenario: proves one
                    Given Linux 6.12

                  @LS-9 @ls-1 @wip
                  Scenario: names a rule that does not exist
                    Given Linux 6.12

                  Scenario: names no rule
                    Given Linux 6.12
                """);
        List<Evidence> checks = Coverage.ofChecks(List.of(
                Check.of("LS-2", Routine.LOCAL_SPREAD, "LS_2_exact", ctx -> {}),
                Check.of("LS-8", Routine.LOCAL_SPREAD, "LS_8_gone", ctx -> {})));
        List<Evidence> tests = List.of(
                new Evidence("LS-3", Evidence.Kind.TEST, "LocalSpreadTest#LS_3_three", "conformance/src/test/java/X.java:10"),
                new Evidence("LS-7", Evidence.Kind.TEST, "LocalSpreadTest#LS_7_gone", "conformance/src/test/java/X.java:20"));
        Coverage c = Coverage.of(registry(), f, checks, Optional.of(tests));
        assertEquals(List.of(
                "features/ls.feature:7: found tag @LS-9, but no rule LS-9 is in spec/; expected the id of a rule heading",
                "features/ls.feature:7: found tag @ls-1; expected a rule id such as @LS-3 (upper-case letters, a dash, a number from 1)",
                "features/ls.feature:11: found scenario \"names no rule\" with no rule tag; expected a tag such as @LS-3 on it or on its Rule:",
                "check LS_8_gone (routine local-spread): found rule LS-8, which is not in spec/; expected the id of a rule heading",
                "conformance/src/test/java/X.java:20: found @Proves(\"LS-7\") on LocalSpreadTest#LS_7_gone, but no rule LS-7 is in spec/;"
                        + " expected the id of a rule heading",
                "spec/ls.md:7: found rule LS-4 Four with nothing that proves it; expected a scenario tagged @LS-4, a check naming LS-4"
                        + " or a test annotated @Proves(\"LS-4\")"),
                c.problems());
        assertEquals(List.of(1, 0, 0, 0), c.rows().stream().map(r -> r.scenarios().size()).toList());
        assertEquals(List.of(0, 1, 0, 0), c.rows().stream().map(r -> r.checks().size()).toList());
        assertEquals(List.of(0, 0, 1, 0), c.rows().stream().map(r -> r.tests().size()).toList());
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_withoutTestSourcesUnprovedRulesAreNotBlamed() {
        Coverage c = Coverage.of(registry(), features("Feature: F\n  @LS-1\n  Scenario: s\n    Given Linux 6.1\n"), List.of(), Optional.empty());
        assertEquals(List.of(), c.problems());
        String table = TraceabilityTable.text(c);
        assertTrue(table.contains("4 rules, 1 proved by a scenario, check or test (test sources not found: tests not counted)"), table);
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_provesAnnotationsAreReadFromSource() {
        String at = "@";   // keeps the scanner of this very file from reading the samples below as annotations
        String source = String.join("\n",
                "package x;",
                at + "Proves(\"GRP-1\")",
                "class GroupTest {",
                "    " + at + "Proves({\"GRP-2\",",
                "            \"GRP-3\"})",
                "    " + at + "ParameterizedTest(name = \"{0}\")",
                "    void GRP_2_and_3(int n) {}",
                "    " + at + "dev.numaspread.conformance.rules.Proves(value = \"GRP-4\") " + at + "Test void GRP_4_inline() {}",
                "    String s = \"" + at + "Proves(\\\"GRP-9\\\") in a string does not count\";",
                "}");
        List<Evidence> e = ProvesIndex.parse("model/src/test/java/x/GroupTest.java", source);
        assertEquals(List.of("GRP-1", "GRP-2", "GRP-3", "GRP-4"), e.stream().map(Evidence::rule).toList());
        assertEquals(List.of("GroupTest", "GroupTest#GRP_2_and_3", "GroupTest#GRP_2_and_3", "GroupTest#GRP_4_inline"),
                e.stream().map(Evidence::name).toList());
        assertEquals("model/src/test/java/x/GroupTest.java:4", e.get(1).where());
    }

    @Test
    void tableListsEveryRuleWithItsCounts() {
        Coverage c = Coverage.of(registry(), features("Feature: F\n  @LS-1\n  Scenario: s\n    Given Linux 6.1\n"), List.of(), Optional.of(List.of()));
        String[] lines = TraceabilityTable.text(c).split("\n");
        assertEquals("rule  level  kernels  spec          scenarios  checks  tests  title", lines[0]);
        assertEquals("LS-1  MUST   all      spec/ls.md:1          1       0      0  One", lines[1]);
        assertEquals("LS-2  EXACT  6.3+     spec/ls.md:3          0       0      0  Two", lines[2]);
        assertTrue(TraceabilityTable.json(c).contains("\"spec\" : \"spec/ls.md:3\""));
        assertTrue(TraceabilityTable.markdown(c).contains("| LS-1 One | MUST | all | spec/ls.md:1 | s (features/ls.feature:3) |  |"));
    }
}
