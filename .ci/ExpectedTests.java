import org.w3c.dom.Element;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The zero-test guard: fails the build when a module ran fewer tests than {@code .ci/expected-tests}
 * asks, per engine, or when a required test class (the rule-coverage gate) did not run. Run by the
 * parent pom in the verify phase of every module, as a single-file program:
 * {@code java .ci/ExpectedTests.java MANIFEST MODULE REPORTS_DIR SKIP_TESTS MAVEN_TEST_SKIP} (the build runs it
 * compiled, through {@code .ci/expected-tests-guard}).
 * It reads the Surefire reports {@code TEST-<class>.xml}; a test counts when it ran (tests minus skipped).
 * The engine {@code invoker} counts the builds of the maven-invoker-plugin that succeeded, from
 * {@code invoker-reports/BUILD-*.xml} beside the Surefire reports (tests of: {@code *}).
 */
public final class ExpectedTests {

    /** One line of the manifest: {@code module engine testsOf atLeast}. */
    record Expectation(String module, String engine, String testsOf, int atLeast, int line) {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: java ExpectedTests.java MANIFEST MODULE REPORTS_DIR SKIP_TESTS MAVEN_TEST_SKIP");
            System.exit(2);
        }
        if (args[3].equals("true") || args[4].equals("true")) {
            System.out.println("[expected-tests] " + args[1] + ": tests skipped on request; nothing to check");
            return;
        }
        List<String> report = new ArrayList<>();
        List<String> problems = check(Path.of(args[0]), args[1], Path.of(args[2]), report);
        report.forEach(r -> System.out.println("[expected-tests] " + r));
        problems.forEach(p -> System.err.println("[expected-tests] " + p));
        if (!problems.isEmpty()) System.exit(1);
    }

    /**
     * The problems of {@code module}: one message per expectation it missed. {@code report} gets
     * one line per expectation that held.
     */
    public static List<String> check(Path manifest, String module, Path reports, List<String> report) throws IOException {
        List<Expectation> expected = read(manifest).stream().filter(e -> e.module().equals(module)).toList();
        List<String> problems = new ArrayList<>();
        if (expected.isEmpty()) {
            report.add(module + ": no tests expected (" + manifest.getFileName() + " names none)");
            return problems;
        }
        Map<String, Integer> ran = ranPerClass(reports, problems);
        for (Expectation e : expected) {
            int n = 0;
            String where;
            if (e.engine().equals("invoker")) {
                n = invokerBuildsPassed(reports.resolveSibling("invoker-reports"), problems);
                where = "its invoker builds";
            } else if (e.testsOf().equals("*")) {
                List<String> named = expected.stream().filter(x -> !x.engine().equals("invoker")).map(Expectation::testsOf)
                        .filter(t -> !t.equals("*")).toList();
                for (var r : ran.entrySet()) if (!named.contains(r.getKey())) n += r.getValue();
                where = named.isEmpty() ? "its test classes" : "its test classes other than " + String.join(", ", named);
            } else {
                n = ran.getOrDefault(e.testsOf(), 0);
                where = e.testsOf();
            }
            String unit = e.engine().equals("invoker") ? " build" : " test";
            String line = module + ": " + e.engine() + " ran " + n + unit + (n == 1 ? "" : "s") + " in " + where
                    + (e.engine().equals("invoker") ? " that succeeded" : "");
            if (n >= e.atLeast()) report.add(line + " (at least " + e.atLeast() + ")");
            else problems.add(manifest + ":" + e.line() + ": " + line + "; expected at least " + e.atLeast()
                    + (n == 0 ? " (was the engine or the class filtered out, or did discovery find nothing?)" : ""));
        }
        return problems;
    }

    static List<Expectation> read(Path manifest) throws IOException {
        List<Expectation> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(manifest);
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).replaceFirst("#.*", "").strip();
            if (s.isEmpty()) continue;
            String[] w = s.split("\\s+");
            if (w.length != 4 || !w[3].matches("\\d+"))
                throw new IllegalArgumentException(manifest + ":" + (i + 1) + ": found \"" + s
                        + "\"; expected \"MODULE ENGINE CLASS|* AT-LEAST\"");
            out.add(new Expectation(w[0], w[1], w[2], Integer.parseInt(w[3]), i + 1));
        }
        return out;
    }

    /** The builds of the maven-invoker-plugin that succeeded, from its {@code BUILD-*.xml} reports. */
    static int invokerBuildsPassed(Path reports, List<String> problems) throws IOException {
        if (!Files.isDirectory(reports)) return 0;
        List<Path> files;
        try (Stream<Path> s = Files.list(reports)) {
            files = s.filter(p -> p.getFileName().toString().matches("BUILD-.*\\.xml")).sorted().toList();
        }
        int passed = 0;
        for (Path f : files) {
            try {
                var factory = DocumentBuilderFactory.newInstance();
                factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                Element job = factory.newDocumentBuilder().parse(f.toFile()).getDocumentElement();
                if (job.getAttribute("result").equals("success")) passed++;
            } catch (Exception e) {
                problems.add(f + ": found a report that cannot be read (" + e.getMessage() + "); expected an invoker build report");
            }
        }
        return passed;
    }

    /** Tests that ran (not skipped) per test class, from {@code TEST-*.xml}. */
    static Map<String, Integer> ranPerClass(Path reports, List<String> problems) throws IOException {
        Map<String, Integer> ran = new TreeMap<>();
        if (!Files.isDirectory(reports)) return ran;
        List<Path> files;
        try (Stream<Path> s = Files.list(reports)) {
            files = s.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList();
        }
        for (Path f : files) {
            try {
                var factory = DocumentBuilderFactory.newInstance();
                factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                Element suite = factory.newDocumentBuilder().parse(f.toFile()).getDocumentElement();
                String name = suite.getAttribute("name");
                int tests = Integer.parseInt(suite.getAttribute("tests"));
                int skipped = suite.getAttribute("skipped").isEmpty() ? 0 : Integer.parseInt(suite.getAttribute("skipped"));
                ran.merge(name, tests - skipped, Integer::sum);
            } catch (Exception e) {
                problems.add(f + ": found a report that cannot be read (" + e.getMessage() + "); expected Surefire XML");
            }
        }
        return ran;
    }
}
