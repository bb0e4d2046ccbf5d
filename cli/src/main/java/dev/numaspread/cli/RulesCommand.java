package dev.numaspread.cli;

import dev.numaspread.conformance.bundle.Bundle;
import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.rules.Coverage;
import dev.numaspread.conformance.rules.Evidence;
import dev.numaspread.conformance.rules.FeatureIndex;
import dev.numaspread.conformance.rules.ProvesIndex;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.rules.TraceabilityTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code numaspread rules}: the traceability table of every rule. */
@Command(name = "rules",
        mixinStandardHelpOptions = true,
        description = {"Prints every rule of spec/ with its level, kernels and spec line, and the scenarios, checks and tests that prove it.",
                "Inside a checkout it reads spec/, features/ and the test sources there; elsewhere the copy packaged in the jar (without tests).",
                "Exits 1 when a rule is unproved or a tag, check or test names a rule that does not exist."})
public final class RulesCommand implements Callable<Integer> {

    enum Format { text, json, md }

    @Option(names = "--format", paramLabel = "FORMAT", description = "text (default), json or md")
    Format format = Format.text;

    @Option(names = "--root", paramLabel = "DIR",
            description = "The checkout to read (default: the launcher's checkout, or the one around the working directory)")
    Path root;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        Optional<Path> checkout = root != null ? Optional.of(root) : defaultCheckout();
        Bundle bundle = checkout.map(Bundle::directory).orElseGet(Bundle::classpath);
        Optional<List<Evidence>> tests = checkout.map(ProvesIndex::scan);
        Coverage c = Coverage.of(RuleRegistry.load(bundle), FeatureIndex.scan(bundle), Coverage.ofChecks(AllChecks.all()), tests);
        String table = switch (format) {
            case text -> TraceabilityTable.text(c);
            case json -> TraceabilityTable.json(c);
            case md -> TraceabilityTable.markdown(c);
        };
        spec.commandLine().getOut().print(table);
        spec.commandLine().getOut().flush();
        spec.commandLine().getErr().println("(read from " + bundle.description() + ")");
        return c.problems().isEmpty() ? Main.OK : Main.CHECK_FAILED;
    }

    /** The checkout the launcher names ({@code -Dnumaspread.root}), else the one around the working directory. */
    static Optional<Path> defaultCheckout() {
        String r = System.getProperty("numaspread.root");
        if (r != null && !r.isBlank()) return Bundle.findCheckout(Path.of(r));
        return Bundle.findCheckout(Path.of("").toAbsolutePath());
    }
}
