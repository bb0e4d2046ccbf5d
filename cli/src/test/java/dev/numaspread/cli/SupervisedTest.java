package dev.numaspread.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Java implementation that ends the JVM must not end certify with a success status (issue 25,
 * found by the second campaign: {@code System.exit(0)} in a routine made certify exit 0 without a
 * certificate). certify runs it in a JVM of its own and reports the exit as the implementation's ERROR.
 */
class SupervisedTest {

    /** Answers as the model, then ends the JVM with status 0 in its third call. */
    public static class ExitsInARoutine implements Implementation {
        final ReferenceModel model = new ReferenceModel();
        int calls;
        @Override public String name() { return "exits"; }
        @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.12")); }
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            if (++calls == 3) System.exit(0);
            return model.localSpreadCpus(k, m, node, count);
        }
    }

    /** Halts the JVM with status 0 in its constructor: no shutdown hook runs. */
    public static class HaltsInItsConstructor extends ExitsInARoutine {
        public HaltsInItsConstructor() {
            Runtime.getRuntime().halt(0);
        }
    }

    /** Answers as the model: the supervised run ends as an ordinary one. */
    public static class Answers extends ExitsInARoutine {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            return model.localSpreadCpus(k, m, node, count);
        }
    }

    record Run(int exit, String out, String err) {}

    static Run certify(Class<?> impl, Path report) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int exit = Main.run(new String[]{"certify", "--impl", "java:" + impl.getName(), "--kernel", "6.12", "--rule", "LS-3", "--tries", "5",
                "--once", "--report", report.toString()}, new PrintWriter(out), new PrintWriter(err));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void anImplementationThatExitsWithZeroIsAnError(@TempDir Path dir) throws Exception {
        for (Class<?> impl : List.of(ExitsInARoutine.class, HaltsInItsConstructor.class)) {
            Path report = dir.resolve(impl.getSimpleName());
            // A green report of an earlier run in the folder must not stand.
            Files.createDirectories(report);
            Files.writeString(report.resolve("report.json"), "{\"exitCode\": 0}");
            Run r = certify(impl, report);
            assertEquals(1, r.exit(), impl.getSimpleName() + ": " + r.out() + r.err());
            assertTrue(r.err().contains("numaspread certify: ERROR: the JVM of the certification ended with status 0 before the certification"
                    + " finished: the implementation ended it (System.exit or Runtime.halt"), r.err());
            JsonNode json = new ObjectMapper().readTree(report.resolve("report.json").toFile());
            assertEquals(1, json.get("exitCode").asInt(), json.toString());
            assertTrue(json.get("notes").get(0).asText().startsWith("ERROR: the JVM of the certification ended with status 0"), json.toString());
        }
    }

    @Test
    void theCertificationsJvmRunsAsTheLauncherRunsItUnlessThisJvmSaysOtherwise() {
        assertEquals(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), Supervised.launcherOptions(List.of("-Xmx1g")));
        assertEquals(List.of("-XX:TieredStopAtLevel=1"), Supervised.launcherOptions(List.of("-XX:+UseG1GC")));
        assertEquals(List.of("-XX:+UseSerialGC"), Supervised.launcherOptions(List.of("-XX:-TieredCompilation")));
        assertEquals(List.of(), Supervised.launcherOptions(List.of("-XX:TieredStopAtLevel=4", "-XX:+UseParallelGC")));
    }

    @Test
    void anImplementationThatAnswersIsCertifiedAsInOneJvm(@TempDir Path dir) {
        Run r = certify(Answers.class, dir);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PASS LS-3 "), r.out());
    }
}
