package dev.numaspread.examples;

import dev.numaspread.conformance.bundle.Bundle;
import dev.numaspread.conformance.certify.Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's section "Certify inside your own build (JUnit 5)" cannot rot: its Java blocks
 * compile against the kit, and are, character for character, the files of examples/junit-tck that
 * the invoker certifies in mvn verify (examples-it/pom.xml); its dependency snippet is the example
 * project's, at the version this build installs.
 */
class ReadmeExampleTest {

    static final Path ROOT = Bundle.findCheckout(Path.of("").toAbsolutePath()).orElseThrow();
    static final Path PROJECT = ROOT.resolve("examples/junit-tck");
    static final Path SOURCES = PROJECT.resolve("src/test/java/com/acme/spread");

    /** The text of the README's section {@code heading}, up to the next second-level heading. */
    static String section(String heading) throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("\n## " + heading + "\n");
        assertTrue(start >= 0, "README.md: found no section '## " + heading + "'");
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    static List<String> blocks(String text, String language) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\n```" + language + "\n(.*?)\n```\n", Pattern.DOTALL).matcher(text);
        while (m.find()) out.add(m.group(1) + "\n");
        return out;
    }

    @Test
    void theJavaOfTheReadmeIsTheExampleProjectsAndCompiles(@TempDir Path out) throws IOException {
        List<String> java = blocks(section("Certify inside your own build (JUnit 5)"), "java");
        assertEquals(2, java.size(), "README.md: expected the implementation and its test as two java blocks");
        assertEquals(Files.readString(SOURCES.resolve("AcmeSpread.java")), java.get(0),
                "README.md's implementation differs from examples/junit-tck/.../AcmeSpread.java");
        assertEquals(Files.readString(SOURCES.resolve("AcmeSpreadTest.java")), java.get(1),
                "README.md's test differs from examples/junit-tck/.../AcmeSpreadTest.java");
        long lines = java.get(0).lines().filter(l -> !l.isBlank() && !l.startsWith("import ")).count();
        assertTrue(lines <= 24, "README.md: the implementation has " + lines + " lines of code; expected about 20");

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<JavaFileObject> units = List.of(source("com/acme/spread/AcmeSpread", java.get(0)),
                source("com/acme/spread/AcmeSpreadTest", java.get(1)));
        boolean ok = javac.getTask(null, null, diagnostics, List.of("-d", out.toString(), "-Xlint:all", "-Werror",
                "-cp", System.getProperty("java.class.path")), null, units).call();
        assertTrue(ok && diagnostics.getDiagnostics().isEmpty(), "README.md's Java does not compile: " + diagnostics.getDiagnostics());
        assertTrue(Files.isRegularFile(out.resolve("com/acme/spread/AcmeSpread.class")));
    }

    private static JavaFileObject source(String name, String text) {
        return new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return text;
            }
        };
    }

    @Test
    void theDependencyOfTheReadmeIsTheExampleProjectsAtThisBuildsVersion() throws IOException {
        List<String> xml = blocks(section("Certify inside your own build (JUnit 5)"), "xml");
        assertEquals(1, xml.size(), "README.md: expected one dependency snippet");
        String pom = Files.readString(PROJECT.resolve("pom.xml"));
        String indented = xml.get(0).lines().map(l -> "    " + l).reduce("", (a, l) -> a + l + "\n");
        assertTrue(pom.contains(indented), "examples/junit-tck/pom.xml: found no dependency as README.md gives it:\n" + xml.get(0));
        assertTrue(xml.get(0).contains("<version>" + Certificate.kitVersion() + "</version>"),
                "README.md: the dependency names another version than this build's " + Certificate.kitVersion());
        assertTrue(!Certificate.kitVersion().endsWith("-SNAPSHOT"), "third parties depend on a release, not " + Certificate.kitVersion());
    }
}
