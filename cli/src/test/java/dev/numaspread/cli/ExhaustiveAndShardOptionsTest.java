package dev.numaspread.cli;

import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.FeatureSuite;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.conformance.topogen.Machines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code certify --exhaustive N} and {@code --shard K/N}: bounds, what the certificate says, the replay line. */
class ExhaustiveAndShardOptionsTest {

    /** LS-1 over every drawn machine: the first CPU local spread gives from node 0 is online. */
    static final Check ONLINE = Check.of("LS-1", Routine.LOCAL_SPREAD, "LS_1_firstCpuIsOnline", ctx -> ctx.forAll(Machines.realistic(),
            m -> {
                int node = MachineDraws.nodeWithOnlineCpus(m).sample(0);
                int cpu = ctx.implementation().localSpreadCpus(ctx.kernel(), m, node, 1)[0];
                if (!m.online().contains(cpu)) throw Violation.of("LS-1", "localSpread(i=0)", "an online CPU", "cpu " + cpu).on(m);
            }));

    static Certifier certifier() {
        return new Certifier(RuleRegistry.parse(new java.util.TreeMap<>(Map.of("spec/local-spread.md",
                "### LS-1 Offline CPUs are never returned\nlevel: MUST; kernels: all; sources: test\n"))),
                () -> List.of(ONLINE), FeatureSuite.none(), () -> LocalDate.of(2026, 6, 1));
    }

    record Run(int exit, String out, String err) {}

    static Run certify(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new CertifyCommand(ExhaustiveAndShardOptionsTest::certifier));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void exhaustive_walksEveryMachineOfTheScope_andSaysSo(@TempDir Path dir) throws Exception {
        Run r = certify("--impl", "model", "--kernel", "6.12", "--exhaustive", "1", "--report", dir.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("; exhaustive 1 (every machine of at most 1 CPU)\n"), r.out());
        // one CPU: 7 machines (SmallMachinesTest), node 0's CPU drawn on each
        assertTrue(r.out().contains("PASS LS-1 Offline CPUs are never returned (MUST; kernel 6.12) tries 7, 7 cases on 7 machines seed 0x5eed\n"),
                r.out());
        String json = Files.readString(dir.resolve("report.json"));
        assertTrue(json.contains("\"exhaustive\" : 1"), json);
        assertTrue(json.contains("\"cases\" : 7"), json);
    }

    @Test
    void shards_splitTheCases_andTheReplayLineKeepsScopeAndShard(@TempDir Path dir) {
        Run one = certify("--impl", "model", "--kernel", "6.12", "--exhaustive", "1", "--shard", "1/2", "--report", dir.resolve("1").toString());
        Run two = certify("--impl", "model", "--kernel", "6.12", "--exhaustive", "1", "--shard", "2/2", "--report", dir.resolve("2").toString());
        assertEquals(0, one.exit(), one.out() + one.err());
        assertEquals(0, two.exit(), two.out() + two.err());
        assertTrue(one.out().contains("; exhaustive 1 (every machine of at most 1 CPU); shard 1/2\n"), one.out());
        // cases 0, 2, 4, 6 and 1, 3, 5 of the 7; each shard walks all 7 machines
        assertTrue(one.out().contains("tries 4, 4 cases of a walk over 7 machines"), one.out());
        assertTrue(two.out().contains("tries 3, 3 cases of a walk over 7 machines"), two.out());
        assertEquals(List.of("--exhaustive", "1", "--shard", "2/2"), List.of(dev.numaspread.conformance.certify.Certifier.replay(
                dev.numaspread.conformance.certify.CertifyOptions.defaults("model").withSettings(
                        dev.numaspread.conformance.checks.Settings.defaults().withExhaustive(1)
                                .withShard(dev.numaspread.conformance.gen.Shard.parse("2/2"))),
                dev.numaspread.model.kernel.KernelRelease.of(6, 12), "LS-1").replaceAll(".*--once ?", "")
                .replaceAll(".* (--exhaustive 1 --shard 2/2) .*", "$1").split(" ")));
    }

    @Test
    void badScopesAndSharesAreUsageErrors(@TempDir Path dir) throws Exception {
        Path topo = Files.writeString(dir.resolve("m.topo"), "available: 1 nodes (0)\nnode 0 cpus: 0 1\nnode 0 size: 4096 MB\n");
        String report = dir.resolve("r").toString();
        assertUsage("--exhaustive 0: out of range; expected 1 to 4", "--exhaustive", "0", "--report", report);
        assertUsage("--exhaustive 5: out of range; expected 1 to 4", "--exhaustive", "5", "--report", report);
        assertUsage("--exhaustive and --topology: give one; expected either every small machine or the one saved machine",
                "--exhaustive", "2", "--topology", topo.toString(), "--report", report);
        assertUsage("--exhaustive and --tries: give one; expected either every machine of the small scope or a number of random tries",
                "--exhaustive", "2", "--tries", "50", "--report", report);
        assertUsage("--shard '3': expected K/N, such as 2/8 (shard 2 of 8)", "--shard", "3", "--report", report);
        assertUsage("--shard 5/4: found shard 5; expected 1 to 4", "--shard", "5/4", "--report", report);
        assertUsage("--shard 3/300: 300 shards of 200 tries leave some shards none; expected at most as many shards as --tries",
                "--shard", "3/300", "--report", report);
    }

    private static void assertUsage(String message, String... args) {
        Run r = certify(args);
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals("numaspread certify: " + message + "\n", r.err());
    }

    @Test
    void helpDocumentsExhaustiveAndShard() {
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(new CertifyCommand(ExhaustiveAndShardOptionsTest::certifier));
        cl.setOut(new PrintWriter(out, true));
        cl.execute("--help");
        String help = out.toString().replaceAll("\\s+", " ");
        assertTrue(help.contains("--exhaustive=N"), help);
        assertTrue(help.contains("every machine of at most N CPUs, 1 to 4"), help);
        assertTrue(help.contains("--shard=K/N"), help);
        assertTrue(help.contains("numaspread merge-reports"), help);
    }
}
