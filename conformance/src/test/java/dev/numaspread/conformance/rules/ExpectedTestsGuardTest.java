package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.bundle.Bundle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The zero-test guard {@code .ci/ExpectedTests.java} (run by the parent pom in the verify phase),
 * compiled here and fed made-up Surefire reports, so each way of failing is seen to fail (RULE-4:
 * "the build fails when the gate did not run").
 */
class ExpectedTestsGuardTest {

    @TempDir
    static Path classes;
    private static Method check;

    @BeforeAll
    static void compileTheGuard() throws Exception {
        Path root = Bundle.findCheckout(Path.of("").toAbsolutePath()).orElseThrow();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "-d", classes.toString(), root.resolve(".ci/ExpectedTests.java").toString());
        assertEquals(0, rc, "javac .ci/ExpectedTests.java");
        ClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, ExpectedTestsGuardTest.class.getClassLoader());
        check = loader.loadClass("ExpectedTests").getMethod("check", Path.class, String.class, Path.class, boolean.class, List.class);
    }

    private static final String MANIFEST = """
            # module    engine         tests of           at least
            kit         junit-jupiter  *                  2
            kit         cucumber       x.RunCucumberTest  3   # every scenario
            kit         coverage-gate  x.GateTest         1
            """;

    private static void report(Path dir, String suite, int tests, int skipped) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("TEST-" + suite + ".xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuite name=\"" + suite + "\" tests=\"" + tests + "\" errors=\"0\" skipped=\"" + skipped + "\" failures=\"0\"></testsuite>\n");
    }

    /** The guard's problems as under {@code CI=true}. */
    private static List<String> problems(Path manifest, String module, Path reports, List<String> log) throws Exception {
        return problems(manifest, module, reports, true, log);
    }

    /** The guard's problems; what the guard throws comes out as itself, not wrapped by the reflective call. */
    @SuppressWarnings("unchecked")
    private static List<String> problems(Path manifest, String module, Path reports, boolean ci, List<String> log) throws Exception {
        try {
            return (List<String>) check.invoke(null, manifest, module, reports, ci, log);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception thrown) throw thrown;
            throw e;
        }
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_passesWhenEveryEngineRanEnough(@TempDir Path dir) throws Exception {
        Path manifest = Files.writeString(dir.resolve("expected-tests"), MANIFEST);
        Path reports = dir.resolve("reports");
        report(reports, "x.AlphaTest", 1, 0);
        report(reports, "x.BetaTest", 1, 0);
        report(reports, "x.RunCucumberTest", 3, 0);
        report(reports, "x.GateTest", 1, 0);
        List<String> log = new ArrayList<>();
        assertEquals(List.of(), problems(manifest, "kit", reports, log));
        assertEquals(List.of(
                "kit: junit-jupiter ran 2 tests in its test classes other than x.RunCucumberTest, x.GateTest (at least 2)",
                "kit: cucumber ran 3 tests in x.RunCucumberTest (at least 3)",
                "kit: coverage-gate ran 1 test in x.GateTest (at least 1)"), log);
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_failsWhenTheGateOrAnEngineDidNotRun(@TempDir Path dir) throws Exception {
        Path manifest = Files.writeString(dir.resolve("expected-tests"), MANIFEST);
        Path reports = dir.resolve("reports");
        report(reports, "x.AlphaTest", 5, 0);
        report(reports, "x.RunCucumberTest", 3, 1);     // a skipped scenario did not run
        assertEquals(List.of(
                manifest + ":3: kit: cucumber ran 2 tests in x.RunCucumberTest; expected at least 3",
                manifest + ":4: kit: coverage-gate ran 0 tests in x.GateTest; expected at least 1"
                        + " (was the engine or the class filtered out, or did discovery find nothing?)"),
                problems(manifest, "kit", reports, new ArrayList<>()));
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_failsWhenNoTestRanAtAll(@TempDir Path dir) throws Exception {
        Path manifest = Files.writeString(dir.resolve("expected-tests"), MANIFEST);
        List<String> p = problems(manifest, "kit", dir.resolve("no-reports"), new ArrayList<>());
        assertEquals(3, p.size());
        assertEquals(manifest + ":2: kit: junit-jupiter ran 0 tests in its test classes other than x.RunCucumberTest, x.GateTest;"
                + " expected at least 2 (was the engine or the class filtered out, or did discovery find nothing?)", p.get(0));
        assertEquals(List.of(), problems(manifest, "other-module", dir.resolve("no-reports"), new ArrayList<>()));
    }

    private static void invokerBuild(Path reports, String name, String result) throws Exception {
        Path dir = reports.resolveSibling("invoker-reports");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("BUILD-" + name + ".xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<build-job project=\"" + name + "\" result=\"" + result + "\" time=\"1.0\"></build-job>\n");
    }

    @Proves("RULE-4")
    @Test
    void RULE_4_countsTheInvokerBuildsThatSucceeded(@TempDir Path dir) throws Exception {
        Path manifest = Files.writeString(dir.resolve("expected-tests"), """
                ex  junit-jupiter  *  1
                ex  invoker        *  1
                """);
        Path reports = dir.resolve("surefire-reports");
        report(reports, "x.AlphaTest", 1, 0);
        assertEquals(List.of(manifest + ":2: ex: invoker ran 0 builds in its invoker builds that succeeded; expected at least 1"
                + " (was the engine or the class filtered out, or did discovery find nothing?)"),
                problems(manifest, "ex", reports, new ArrayList<>()));
        invokerBuild(reports, "pom.xml", "failure-post-hook");
        assertEquals(1, problems(manifest, "ex", reports, new ArrayList<>()).size());
        invokerBuild(reports, "other", "success");
        List<String> log = new ArrayList<>();
        assertEquals(List.of(), problems(manifest, "ex", reports, log));
        assertEquals(List.of("ex: junit-jupiter ran 1 test in its test classes (at least 1)",
                "ex: invoker ran 1 build in its invoker builds that succeeded (at least 1)"), log);
    }

    /**
     * README.md: the tests that boot or compile a kernel skip without their tools, and `mvn verify`
     * needs only Java and Maven. Outside CI a may-skip line counts its skipped tests; under CI, and
     * for a class that reported no test or too few, it fails as any line does.
     */
    @Proves("RULE-4")
    @Test
    void RULE_4_letsAClassThatNeedsMissingToolsSkipOutsideCiOnly(@TempDir Path dir) throws Exception {
        Path manifest = Files.writeString(dir.resolve("expected-tests"), """
                k  junit-jupiter  *              1
                k  junit-jupiter  x.BootedTest   2   may-skip-outside-CI
                """);
        Path reports = dir.resolve("reports");
        report(reports, "x.AlphaTest", 1, 0);
        report(reports, "x.BootedTest", 2, 2);
        List<String> log = new ArrayList<>();
        assertEquals(List.of(), problems(manifest, "k", reports, false, log));
        assertEquals("k: junit-jupiter ran 0 tests in x.BootedTest and skipped 2 (at least 2 between them: outside CI the class may"
                + " skip on a machine without its tools, README.md; the reasons are in its report)", log.get(1));
        assertEquals(List.of(manifest + ":2: k: junit-jupiter ran 0 tests in x.BootedTest; expected at least 2"
                + " (was the engine or the class filtered out, or did discovery find nothing?)"),
                problems(manifest, "k", reports, true, new ArrayList<>()), "under CI=true a skipped test does not count");

        report(reports, "x.BootedTest", 1, 1);
        assertEquals(List.of(manifest + ":2: k: junit-jupiter ran 0 tests in x.BootedTest and skipped 1; expected at least 2 between them"),
                problems(manifest, "k", reports, false, new ArrayList<>()), "a class that lost a test fails outside CI too");
        Files.delete(reports.resolve("TEST-x.BootedTest.xml"));
        assertEquals(1, problems(manifest, "k", reports, false, new ArrayList<>()).size(), "a class discovery lost fails outside CI too");

        Files.writeString(manifest, "k  junit-jupiter  *  1  may-skip-outside-CI\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> problems(manifest, "k", reports, false, new ArrayList<>()));
        assertEquals(manifest + ":1: found \"k  junit-jupiter  *  1  may-skip-outside-CI\"; expected \"MODULE ENGINE CLASS|* AT-LEAST\","
                + " or \"MODULE ENGINE CLASS AT-LEAST may-skip-outside-CI\"", e.getMessage(), "a whole module may not skip");
    }
}
