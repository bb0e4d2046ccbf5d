package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.bundle.Bundle;
import dev.numaspread.conformance.checks.AllChecks;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The rule-coverage gate (RULE-4): fails the build when a rule of {@code spec/} is proved by no
 * scenario, check or test, or when a tag, check or {@code @Proves} names a rule that does not
 * exist. It reads the checkout (the source of truth), prints the traceability table and leaves it
 * in {@code target/rule-coverage.txt}. The build also fails when this class did not run: it is a
 * required test class of {@code .ci/expected-tests}.
 */
class RuleCoverageTest {

    private static Path checkout() {
        return Bundle.findCheckout(Path.of("").toAbsolutePath())
                .orElseThrow(() -> new AssertionError("no checkout (a folder with spec/ and pom.xml) above " + Path.of("").toAbsolutePath()));
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_everyRuleIsProvedAndEveryProofNamesARule() throws IOException {
        Path root = checkout();
        Bundle bundle = Bundle.directory(root);
        Coverage c = Coverage.of(RuleRegistry.load(bundle), FeatureIndex.scan(bundle), Coverage.ofChecks(AllChecks.all()),
                Optional.of(ProvesIndex.scan(root)));
        String table = TraceabilityTable.text(c);
        System.out.print(table);
        Path target = Path.of("target");
        if (Files.isDirectory(target)) Files.writeString(target.resolve("rule-coverage.txt"), table);
        if (!c.problems().isEmpty()) fail("rule coverage:\n  " + String.join("\n  ", c.problems()));
    }

    @Test
    void packagedSpecIsTheCheckoutsSpec() {
        Bundle checkout = Bundle.directory(checkout());
        Bundle packaged = Bundle.classpath();
        assertEquals(checkout.list("spec"), packaged.list("spec"));
        assertEquals(checkout.list("features"), packaged.list("features"));
        for (String f : checkout.list("spec")) assertEquals(checkout.read("spec/" + f), packaged.read("spec/" + f), "spec/" + f);
    }
}
