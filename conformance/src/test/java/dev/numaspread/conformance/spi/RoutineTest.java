package dev.numaspread.conformance.spi;

import dev.numaspread.conformance.bundle.Bundle;
import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.rules.Rule;
import dev.numaspread.conformance.rules.RuleRegistry;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Routine} and {@link Family} are the one place that says where a routine's rules are: every
 * file they name exists in the checkout, every file of {@code spec/} and {@code features/} is
 * named by them, and the checks agree with them. If a test here fails after adding a spec file or
 * a feature, declare its family in {@link Family} (with the reason when it specifies no routine).
 */
class RoutineTest {

    private static final Bundle CHECKOUT = Bundle.directory(Bundle.findCheckout(Path.of("").toAbsolutePath())
            .orElseThrow(() -> new AssertionError("no checkout (a folder with spec/ and pom.xml) above " + Path.of("").toAbsolutePath())));

    @Test
    void everyFamilysSpecFileExistsAndARoutineFamilysFeature() {
        List<String> missing = new ArrayList<>();
        for (Family f : Family.values()) {
            if (!CHECKOUT.exists(f.specFile())) missing.add(f.specFile() + " (family " + f.id() + ")");
            if (!f.routines().isEmpty() && !CHECKOUT.exists(f.featureFile())) missing.add(f.featureFile() + " (family " + f.id() + ")");
        }
        assertEquals(List.of(), missing, "files that Family names and the checkout does not have");
    }

    @Test
    void everyRoutinesSpecFileAndFeatureExist() {
        List<String> missing = new ArrayList<>();
        for (Routine r : Routine.values())
            for (String file : List.of(r.specFile(), r.featureFile()))
                if (!CHECKOUT.exists(file)) missing.add(file + " (routine " + r.id() + ")");
        assertEquals(List.of(), missing, "files that Routine names and the checkout does not have");
    }

    @Test
    void everySpecFileIsAFamilysOrADocument() {
        List<String> named = new ArrayList<>(Family.SPEC_DOCUMENTS);
        for (Family f : Family.values()) named.add(f.specFile());
        List<String> stray = new ArrayList<>();
        for (String file : CHECKOUT.list("spec", ".md")) if (!named.contains("spec/" + file)) stray.add("spec/" + file);
        assertEquals(List.of(), stray, "spec files of no family: declare each in Family");
        for (String doc : Family.SPEC_DOCUMENTS) assertTrue(CHECKOUT.exists(doc), doc + " is declared a spec document but does not exist");
    }

    @Test
    void everyFeatureIsAFamilys() {
        List<String> named = new ArrayList<>();
        for (Family f : Family.values()) named.add(f.featureFile());
        List<String> stray = new ArrayList<>();
        for (String file : CHECKOUT.list("features", ".feature"))
            if (!named.contains("features/" + file)) stray.add("features/" + file);
        assertEquals(List.of(), stray, "features of no family: declare each in Family");
    }

    @Test
    void aFamilySpecifiesRoutinesUnlessDeclaredOtherwise() {
        Map<String, String> wrong = new TreeMap<>();
        for (Family f : Family.values()) {
            if (f.routines().isEmpty() && f.noRoutineBecause().isEmpty())
                wrong.put(f.id(), "specifies no routine; expected a routine of Routine, or the reason it has none");
            if (!f.routines().isEmpty() && f.noRoutineBecause().isPresent())
                wrong.put(f.id(), "is declared as a family of no routine but Routine gives it " + f.routines());
        }
        assertEquals(Map.of(), wrong);
    }

    @Test
    void everyFamilyWithRoutinesDefinesRulesAndNamesItsRoutines() {
        RuleRegistry registry = RuleRegistry.load(CHECKOUT);
        Map<String, Long> rulesPerFile = registry.rules().stream().collect(Collectors.groupingBy(Rule::file, Collectors.counting()));
        List<String> wrong = new ArrayList<>();
        for (Family f : Family.values()) {
            if (rulesPerFile.getOrDefault(f.specFile(), 0L) == 0) wrong.add(f.specFile() + " defines no rule");
            String text = CHECKOUT.read(f.specFile());
            for (Routine r : f.routines())
                if (!text.contains("`" + r.id() + "`")) wrong.add(f.specFile() + " never names its routine `" + r.id() + "`");
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyCheckProvesARuleOfItsRoutinesFamily() {
        RuleRegistry registry = RuleRegistry.load(CHECKOUT);
        List<String> wrong = new ArrayList<>();
        for (Check c : AllChecks.all()) {
            String file = registry.byId(c.rule()).map(Rule::file).orElse("no spec file");
            boolean own = file.equals(c.routine().specFile());
            boolean shared = Arrays.stream(Family.values())
                    .anyMatch(f -> f.noRoutineBecause().isPresent() && f.specFile().equals(file));
            if (!own && !shared)
                wrong.add(c.name() + " of routine " + c.routine().id() + " proves " + c.rule() + " of " + file
                        + "; expected a rule of " + c.routine().specFile() + " or of a family of no routine");
        }
        assertEquals(List.of(), wrong);
    }
}
