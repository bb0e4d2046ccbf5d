package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.rules.Coverage;
import dev.numaspread.conformance.rules.Evidence;
import dev.numaspread.conformance.rules.FeatureIndex;
import dev.numaspread.conformance.rules.InvalidSpecException;
import dev.numaspread.conformance.rules.KernelRange;
import dev.numaspread.conformance.rules.Rule;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.model.kernel.KernelRelease;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Glue of {@code features/rules.feature}: the rules about the specification itself (RULE-n). These
 * read small spec and feature files given inline; they do not call the implementation under test.
 */
public final class RuleSteps {

    private final TreeMap<String, String> specFiles = new TreeMap<>();
    private final TreeMap<String, String> featureFiles = new TreeMap<>();
    private final List<Evidence> tests = new ArrayList<>();
    private RuleRegistry registry;
    private InvalidSpecException failure;
    private KernelRange range;
    private Coverage coverage;

    @Given("the spec file {string}:")
    public void theSpecFile(String path, String text) {
        specFiles.put(path, text);
    }

    @Given("the feature file {string}:")
    public void theFeatureFile(String path, String text) {
        featureFiles.put(path, text);
    }

    @Given("a test {string} proving {string}")
    public void aTestProving(String name, String rule) {
        tests.add(new Evidence(rule, Evidence.Kind.TEST, name, "test"));
    }

    @When("the rules are read")
    public void theRulesAreRead() {
        try {
            registry = RuleRegistry.parse(specFiles);
        } catch (InvalidSpecException e) {
            failure = e;
        }
    }

    @When("the coverage is computed")
    public void theCoverageIsComputed() {
        registry = RuleRegistry.parse(specFiles);
        coverage = Coverage.of(registry, FeatureIndex.parse(featureFiles), List.of(), Optional.of(tests));
    }

    @When("a rule holds in kernels {string}")
    public void aRuleHoldsInKernels(String text) {
        range = KernelRange.parse(text);
    }

    @Then("rule {word} is {string}, a {word} rule of {word}")
    public void ruleIs(String id, String title, String level, String location) {
        Rule r = rules().byId(id).orElseThrow(() -> new AssertionError("no rule " + id + "; the spec has " + rules().rules()));
        expect(title, r.title(), "title of " + id);
        expect(level, r.level().name(), "level of " + id);
        expect(location, r.location(), "place of " + id);
    }

    @Then("rule {word} declares the classes {string}")
    public void ruleDeclaresTheClasses(String id, String classes) {
        Rule r = rules().byId(id).orElseThrow(() -> new AssertionError("no rule " + id + "; the spec has " + rules().rules()));
        expect(List.of(classes.split(",\\s*")), r.classes(), "classes of " + id);
        expect(false, r.statement().contains("classes:"), "statement of " + id + " without its classes line");
    }

    @Then("reading fails with {string}")
    public void readingFailsWith(String message) {
        if (failure == null) throw new AssertionError("the rules were read without error; expected: " + message);
        expect(List.of(message), failure.problems(), "problems");
    }

    @Then("it holds in these releases:")
    public void itHoldsIn(DataTable table) {
        for (Map<String, String> row : table.asMaps()) {
            boolean want = row.get("holds").equals("yes");
            boolean got = range.includes(KernelRelease.parse(row.get("release")));
            if (want != got)
                throw new AssertionError("kernels \"" + range + "\" in " + row.get("release") + ": holds " + (got ? "yes" : "no")
                        + "; expected " + row.get("holds"));
        }
    }

    @Then("the coverage problems are:")
    public void theCoverageProblemsAre(String expected) {
        expect(expected.strip().lines().toList(), coverage.problems(), "coverage problems");
    }

    @Then("the coverage has no problems")
    public void theCoverageHasNoProblems() {
        expect(List.of(), coverage.problems(), "coverage problems");
    }

    private RuleRegistry rules() {
        if (failure != null) throw new AssertionError("reading the rules failed: " + failure.getMessage());
        return registry;
    }

    private static void expect(Object want, Object got, String what) {
        if (!want.equals(got)) throw new AssertionError(what + ":\nResult: " + got + "\nExpect: " + want);
    }
}
