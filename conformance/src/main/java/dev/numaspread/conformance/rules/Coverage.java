package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.checks.Check;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which scenarios, checks and tests prove each rule, and what is wrong with that: a rule nothing
 * proves, a tag, check or test naming a rule that does not exist, a scenario that names no rule.
 * The rule-coverage gate fails the build on any problem; {@code numaspread rules} prints the same.
 */
public final class Coverage {

    /** The rule and everything that proves it, scenarios first, then checks, then tests. */
    public record Row(Rule rule, List<Evidence> scenarios, List<Evidence> checks, List<Evidence> tests) {
        public Row {
            scenarios = List.copyOf(scenarios);
            checks = List.copyOf(checks);
            tests = List.copyOf(tests);
        }

        public boolean isProved() {
            return !scenarios.isEmpty() || !checks.isEmpty() || !tests.isEmpty();
        }
    }

    private final List<Row> rows;
    private final List<String> problems;
    private final boolean testsScanned;

    private Coverage(List<Row> rows, List<String> problems, boolean testsScanned) {
        this.rows = List.copyOf(rows);
        this.problems = List.copyOf(problems);
        this.testsScanned = testsScanned;
    }

    /** Evidence for every check of {@code checks}: the rule it names, its name, its routine. */
    public static List<Evidence> ofChecks(List<Check> checks) {
        return checks.stream().map(c -> new Evidence(c.rule(), Evidence.Kind.CHECK, c.name(), "routine " + c.routine().id())).toList();
    }

    /**
     * The coverage of {@code rules} by {@code features}, {@code checks} and {@code tests}. When
     * {@code tests} is empty (the test sources are not at hand, as for an installed CLI), rules
     * without scenarios or checks are not reported: a test may prove them.
     */
    public static Coverage of(RuleRegistry rules, FeatureIndex features, List<Evidence> checks, Optional<List<Evidence>> tests) {
        List<String> problems = new ArrayList<>();
        TreeMap<String, List<Evidence>> scen = new TreeMap<>();
        TreeMap<String, List<Evidence>> chk = new TreeMap<>();
        TreeMap<String, List<Evidence>> tst = new TreeMap<>();

        for (FeatureIndex.Tag t : features.tags()) {
            String id = t.tag().substring(1);
            if (Rule.isId(id) && !rules.contains(id))
                problems.add(t.where() + ": found tag " + t.tag() + ", but no rule " + id + " is in spec/; expected the id of a rule heading");
            else if (Rule.looksLikeId(id))
                problems.add(t.where() + ": found tag " + t.tag() + "; expected a rule id such as @LS-3 (upper-case letters, a dash, a number from 1)");
        }
        for (FeatureIndex.Scenario s : features.scenarios()) {
            boolean named = false;
            for (String tag : s.tags()) {
                String id = tag.substring(1);
                if (!Rule.isId(id)) continue;
                named = true;
                if (rules.contains(id)) scen.computeIfAbsent(id, k -> new ArrayList<>()).add(new Evidence(id, Evidence.Kind.SCENARIO, s.name(), s.where()));
            }
            if (!named)
                problems.add(s.where() + ": found scenario \"" + s.name() + "\" with no rule tag; expected a tag such as @LS-3 on it or on its Rule:");
        }
        for (Evidence c : checks) {
            if (rules.contains(c.rule())) chk.computeIfAbsent(c.rule(), k -> new ArrayList<>()).add(c);
            else problems.add("check " + c.name() + " (" + c.where() + "): found rule " + c.rule() + ", which is not in spec/; expected the id of a rule heading");
        }
        for (Evidence t : tests.orElse(List.of())) {
            if (rules.contains(t.rule())) tst.computeIfAbsent(t.rule(), k -> new ArrayList<>()).add(t);
            else problems.add(t.where() + ": found @Proves(\"" + t.rule() + "\") on " + t.name() + ", but no rule " + t.rule()
                    + " is in spec/; expected the id of a rule heading");
        }

        List<Row> rows = new ArrayList<>();
        for (Rule r : rules.rules()) {
            Row row = new Row(r, scen.getOrDefault(r.id(), List.of()), chk.getOrDefault(r.id(), List.of()), tst.getOrDefault(r.id(), List.of()));
            rows.add(row);
            if (!row.isProved() && tests.isPresent())
                problems.add(r.location() + ": found rule " + r.id() + " " + r.title() + " with nothing that proves it; expected a scenario tagged @"
                        + r.id() + ", a check naming " + r.id() + " or a test annotated @Proves(\"" + r.id() + "\")");
        }
        return new Coverage(rows, problems, tests.isPresent());
    }

    /** One row per rule, in registry order. */
    public List<Row> rows() {
        return rows;
    }

    /** Everything the gate fails on, one message each; empty when the spec is fully covered. */
    public List<String> problems() {
        return problems;
    }

    /** False when the test sources were not at hand; the rows then show no tests. */
    public boolean testsScanned() {
        return testsScanned;
    }
}
