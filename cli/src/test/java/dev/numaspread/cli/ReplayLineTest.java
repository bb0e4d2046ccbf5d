package dev.numaspread.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The replay line a failure prints runs as printed: pasted into a fresh shell, in another folder,
 * with nothing exported, it reproduces the failure (issue 12). The implementation is a third
 * party's class, compiled here into a folder of its own, as a user compiles theirs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplayLineTest {

    static final String SPREAD = """
            package com.acme;

            import dev.numaspread.conformance.spi.Claim;
            import dev.numaspread.conformance.spi.Implementation;
            import dev.numaspread.model.kernel.KernelRelease;
            import dev.numaspread.model.topology.Topology;
            import java.util.List;

            /** Hands out the online CPUs in id order, whatever the node: local CPUs do not come first. */
            public class Spread implements Implementation {
                @Override public String name() { return "acme"; }
                @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.12")); }
                @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
                    int[] online = machine.online().toArray();
                    int[] out = new int[count];
                    for (int i = 0; i < count; i++) out[i] = online[i % online.length];
                    return out;
                }
            }
            """;

    /** The third party's class, compiled as its author would, into {@code tmp/acme/classes}. */
    static Path compiled(Path tmp) throws Exception {
        Path src = Files.createDirectories(tmp.resolve("acme/src/com/acme"));
        Files.writeString(src.resolve("Spread.java"), SPREAD);
        Path classes = Files.createDirectories(tmp.resolve("acme/classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int compiled = javac.run(null, diagnostics, diagnostics, "-cp", System.getProperty("java.class.path"),
                "-d", classes.toString(), src.resolve("Spread.java").toString());
        assertEquals(0, compiled, diagnostics.toString(StandardCharsets.UTF_8));
        return classes;
    }

    record Run(int exit, String out, String err) {}

    static Run main(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    /** The shrunk machine a failure block prints, as the .topo text a user pastes into a file. */
    static String shrunkMachine(String certificate) {
        StringBuilder sb = new StringBuilder();
        boolean in = false;
        for (String l : certificate.split("\n")) {
            if (l.contains("shrunk machine (paste into fixtures/topologies/):")) { in = true; continue; }
            if (in && !l.startsWith("            ")) break;
            if (in) sb.append(l.substring(12)).append('\n');
        }
        assertTrue(sb.length() > 0, certificate);
        return sb.toString();
    }

    /** The third party's folder: its classes and the first certification's reports. */
    Path acme;
    Path classes;
    /** The first certification of the third party's class, failed: both tests start from it (one JVM certifying it, not two). */
    Run first;

    @BeforeAll
    void compileAndCertifyOnce(@TempDir Path tmp) throws Exception {
        acme = tmp;
        classes = compiled(tmp);
        first = main("certify", "--impl", "java:com.acme.Spread", "--class-path", classes.toString(), "--tries", "20",
                "--rule", "LS-3", "--report", tmp.resolve("report").toString());
        assertEquals(1, first.exit(), first.out() + "\n" + first.err());
    }

    @Test
    void aSavedCounterexampleReplaysDirectlyWithTopology(@TempDir Path tmp) throws Exception {
        Path cex = Files.writeString(tmp.resolve("cex.topo"), shrunkMachine(first.out()));

        Run replay = main("certify", "--impl", "java:com.acme.Spread", "--class-path", classes.toString(), "--tries", "20",
                "--rule", "LS-3", "--topology", cex.toString(), "--report", tmp.resolve("replay").toString());
        assertEquals(1, replay.exit(), replay.out() + replay.err());
        assertTrue(replay.out().contains("FAIL LS-3 Local CPUs come first (MUST; kernel 6.12; implementation \"acme\")"), replay.out());
        assertEquals(shrunkMachine(first.out()), shrunkMachine(replay.out()), "the failure is shown on the saved machine itself");
        assertTrue(replay.out().contains(" --topology " + cex.toAbsolutePath()), "its own replay line keeps the machine:\n" + replay.out());
        assertTrue(replay.out().contains("note: a machine was given (--topology): the checks that draw machines ran on it;"
                + " scenarios were not run"), replay.out());

        // The reference model on the same machine: the rule holds.
        Run model = main("certify", "--impl", "model", "--kernel", "6.12", "--tries", "20", "--rule", "LS-3", "--topology", cex.toString(),
                "--report", tmp.resolve("model").toString());
        assertTrue(model.out().contains("PASS LS-3 Local CPUs come first (MUST; kernel 6.12)"), model.out());
    }

    @Test
    void aThirdPartyFailureReplaysAsPrintedFromAFreshShellElsewhere(@TempDir Path elsewhere) throws Exception {
        Matcher replay = Pattern.compile("\n  replay    (.*)\n").matcher(first.out());
        assertTrue(replay.find(), first.out());
        String line = replay.group(1);
        assertTrue(line.contains(" --class-path " + classes), line);
        assertTrue(line.contains(" --report " + acme.resolve("report").resolve("replay")), line);

        // A fresh shell elsewhere: another folder, no NUMASPREAD_CLASSPATH, only a PATH.
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", line).directory(elsewhere.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        Process p = pb.start();
        String second = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), second);
        assertEquals(1, p.exitValue(), second);
        assertEquals(block(first.out(), "FAIL LS-3"), block(second, "FAIL LS-3"));
        assertTrue(Files.exists(acme.resolve("report/replay/report.json")), "the replay writes its report next to the first one");
    }

    /** The block of the certificate that starts with {@code head}: its lines up to the next unindented one. */
    static String block(String certificate, String head) {
        int at = certificate.indexOf(head);
        assertTrue(at >= 0, head + " in:\n" + certificate);
        StringBuilder sb = new StringBuilder();
        for (String l : certificate.substring(at).split("\n", -1)) {
            if (sb.length() > 0 && !l.startsWith(" ")) break;
            // The replay line names the folder the run was started from; both runs print the same one.
            sb.append(l).append('\n');
        }
        return sb.toString();
    }
}
