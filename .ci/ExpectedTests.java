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
 *
 * <p>A line may end in {@value #MAY_SKIP}: the class needs tools that README.md lets a machine go
 * without (QEMU, busybox-static, gcc, Debian's kernel packages), and its tests skip there, saying
 * why. Under {@code CI=true} (.ci/run installs the tools, and the tests fail without them) such a
 * line counts only tests that ran, like any other; elsewhere a skipped test of it counts too, so
 * README's {@code mvn verify} passes on a machine with only Java and Maven, while a class that
 * discovery lost, or that reported fewer tests, still fails.
 */
public final class ExpectedTests {

    /** The last word of a line whose class skips, outside CI, on a machine without its tools. */
    static final String MAY_SKIP = "may-skip-outside-CI";

    /** One line of the manifest: {@code module engine testsOf atLeast [may-skip-outside-CI]}. */
    record Expectation(String module, String engine, String testsOf, int atLeast, boolean maySkip, int line) {}

    /** A test class's tests, and how many of them were skipped, from its Surefire report. */
    record Tests(int reported, int skipped) {
        int ran() {
            return reported - skipped;
        }

        Tests plus(Tests o) {
            return new Tests(reported + o.reported, skipped + o.skipped);
        }
    }

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
        List<String> problems = check(Path.of(args[0]), args[1], Path.of(args[2]), "true".equals(System.getenv("CI")), report);
        report.forEach(r -> System.out.println("[expected-tests] " + r));
        problems.forEach(p -> System.err.println("[expected-tests] " + p));
        if (!problems.isEmpty()) System.exit(1);
    }

    /**
     * The problems of {@code module}: one message per expectation it missed. {@code report} gets
     * one line per expectation that held. {@code ci}: the build runs under {@code CI=true}, where no
     * line lets a skipped test count.
     */
    public static List<String> check(Path manifest, String module, Path reports, boolean ci, List<String> report) throws IOException {
        List<Expectation> expected = read(manifest).stream().filter(e -> e.module().equals(module)).toList();
        List<String> problems = new ArrayList<>();
        if (expected.isEmpty()) {
            report.add(module + ": no tests expected (" + manifest.getFileName() + " names none)");
            return problems;
        }
        Map<String, Tests> ran = testsPerClass(reports, problems);
        for (Expectation e : expected) {
            int n = 0;
            int skipped = 0;
            String where;
            if (e.engine().equals("invoker")) {
                n = invokerBuildsPassed(reports.resolveSibling("invoker-reports"), problems);
                where = "its invoker builds";
            } else if (e.testsOf().equals("*")) {
                List<String> named = expected.stream().filter(x -> !x.engine().equals("invoker")).map(Expectation::testsOf)
                        .filter(t -> !t.equals("*")).toList();
                for (var r : ran.entrySet()) if (!named.contains(r.getKey())) n += r.getValue().ran();
                where = named.isEmpty() ? "its test classes" : "its test classes other than " + String.join(", ", named);
            } else {
                Tests t = ran.getOrDefault(e.testsOf(), new Tests(0, 0));
                n = t.ran();
                if (e.maySkip() && !ci) skipped = t.skipped();
                where = e.testsOf();
            }
            String unit = e.engine().equals("invoker") ? " build" : " test";
            String line = module + ": " + e.engine() + " ran " + n + unit + (n == 1 ? "" : "s") + " in " + where
                    + (e.engine().equals("invoker") ? " that succeeded" : "");
            if (skipped > 0 && n + skipped >= e.atLeast())
                report.add(line + " and skipped " + skipped + " (at least " + e.atLeast() + " between them: outside CI the class may"
                        + " skip on a machine without its tools, README.md; the reasons are in its report)");
            else if (n >= e.atLeast()) report.add(line + " (at least " + e.atLeast() + ")");
            else problems.add(manifest + ":" + e.line() + ": " + line + (skipped > 0 ? " and skipped " + skipped : "")
                    + "; expected at least " + e.atLeast() + (skipped > 0 ? " between them" : "")
                    + (n + skipped == 0 ? " (was the engine or the class filtered out, or did discovery find nothing?)" : ""));
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
            boolean maySkip = w.length == 5 && w[4].equals(MAY_SKIP) && !w[2].equals("*");
            if (!(w.length == 4 || maySkip) || !w[3].matches("\\d+"))
                throw new IllegalArgumentException(manifest + ":" + (i + 1) + ": found \"" + s
                        + "\"; expected \"MODULE ENGINE CLASS|* AT-LEAST\", or \"MODULE ENGINE CLASS AT-LEAST " + MAY_SKIP + "\"");
            out.add(new Expectation(w[0], w[1], w[2], Integer.parseInt(w[3]), maySkip, i + 1));
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

    /** Tests per test class, from {@code TEST-*.xml}. */
    static Map<String, Tests> testsPerClass(Path reports, List<String> problems) throws IOException {
        Map<String, Tests> ran = new TreeMap<>();
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
                ran.merge(name, new Tests(tests, skipped), Tests::plus);
            } catch (Exception e) {
                problems.add(f + ": found a report that cannot be read (" + e.getMessage() + "); expected Surefire XML");
            }
        }
        return ran;
    }
}
