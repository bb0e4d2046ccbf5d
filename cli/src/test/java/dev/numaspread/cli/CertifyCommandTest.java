package dev.numaspread.cli;

import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.FeatureSuite;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
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

import static org.junit.jupiter.api.Assertions.*;

class CertifyCommandTest {

    static final Topology TWO_NODES = TopologyBuilder.machine("two-nodes").node(0, "0-1").node(1, "2-3")
            .distances(new int[]{10, 20}, new int[]{20, 10}).build();

    /** Claims local-spread 6.1; answers node 1 with 2,3,0,1. */
    public static class Good implements Implementation {
        @Override public String name() { return "good"; }
        @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.1")); }
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            int[] order = node == 1 ? new int[]{2, 3, 0, 1} : new int[]{0, 1, 2, 3};
            int[] out = new int[count];
            for (int i = 0; i < count; i++) out[i] = order[i % 4];
            return out;
        }
    }

    /** Visits nodes by id. */
    public static class ById extends Good {
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            return super.localSpreadCpus(kernel, machine, 0, count);
        }
    }

    static final Check LOCAL_FIRST = Check.of("LS-1", Routine.LOCAL_SPREAD, "LS_1_localCpusComeFirst", ctx -> {
        int cpu = ctx.implementation().localSpreadCpus(ctx.kernel(), TWO_NODES, 1, 1)[0];
        if (TWO_NODES.nodeOf(cpu) != 1)
            throw Violation.of("LS-1", "localSpread(i=0, node=1)", "a CPU of node 1", "cpu " + cpu).on(TWO_NODES);
    });

    static Certifier certifier() {
        return new Certifier(RuleRegistry.parse(new java.util.TreeMap<>(Map.of("spec/local-spread.md",
                "### LS-1 Local CPUs come first\nlevel: MUST; kernels: all; sources: test\n"))),
                () -> List.of(LOCAL_FIRST), FeatureSuite.none(), () -> LocalDate.of(2026, 6, 1));
    }

    record Run(int exit, String out, String err) {}

    static Run certify(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new CertifyCommand(CertifyCommandTest::certifier));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void passingImplementationExitsZeroAndWritesTheReport(@TempDir Path dir) {
        Run r = certify("--impl", "java:" + Good.class.getName(), "--report", dir.toString(), "--tries", "3", "--seed", "0x1f");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("PASS LS-1 Local CPUs come first (MUST; kernel 6.1) tries 1 seed 0x1f\n"), r.out());
        for (String f : List.of("report.json", "report.md", "report.html", "junit.xml")) assertTrue(Files.exists(dir.resolve(f)), f);
    }

    @Test
    void failingImplementationExitsOneAndPrintsTheReplay(@TempDir Path dir) {
        Run r = certify("--impl", "java:" + ById.class.getName(), "--report", dir.toString(), "--tries", "3", "--seed", "31", "--budget", "20");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("  replay    cd " + Path.of("").toAbsolutePath() + " && "), r.out());
        assertTrue(r.out().contains(" dev.numaspread.cli.Main certify --impl 'java:dev.numaspread.cli.CertifyCommandTest$ById'"
                + " --kernel 6.1 --tries 3 --seed 0x1f --rule LS-1 --report " + dir.resolve("replay") + "\n"), r.out());
        for (String line : dev.numaspread.model.topology.TopoFormat.write(TWO_NODES).strip().split("\n"))
            assertTrue(r.out().contains("\n            " + line + "\n"), "shrunk machine line '" + line + "' in\n" + r.out());
    }

    @Test
    void withoutImplCertifiesTheBundledExample(@TempDir Path dir) {
        Run r = certify("--tries", "20", "--report", dir.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("kernel-style example"), r.out());
        assertTrue(r.out().contains("PASS LS-"), r.out());
        assertFalse(r.out().contains("FAIL "), r.out());
    }

    @Test
    void unknownImplIsAUsageError() {
        Run r = certify("--impl", "acme");
        assertEquals(2, r.exit());
        assertEquals("numaspread certify: --impl 'acme': unknown implementation; expected model, example, java:CLASS or process:'CMD'\n", r.err());
    }

    /** A program that cannot be started is the command line's fault: exit 2 naming it, no certificate that blames an implementation. */
    @Test
    void aProcessThatCannotBeStartedIsAUsageErrorNamingThePath(@TempDir Path dir) {
        Run r = certify("--impl", "process:/nonexistent/spread", "--report", dir.toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals("", r.out());
        // The shell's own words follow when its stderr was read in time (dash: "/bin/sh: 1: /nonexistent/spread: not found").
        assertTrue(r.err().startsWith("numaspread certify: --impl process:/nonexistent/spread: cannot start the program: the shell found"
                + " no such command (exit status 127)"), r.err());
        assertTrue(r.err().endsWith("; expected a command that starts a program speaking spec/protocol.md\n"), r.err());
        assertFalse(Files.exists(dir.resolve("report.json")), "no certificate is written");
    }

    @Test
    void unknownKernelIsAUsageError() {
        Run r = certify("--impl", "model", "--kernel", "9.9");
        assertEquals(2, r.exit());
        assertEquals("numaspread certify: --kernel: kernel release '9.9' is not modelled yet; expected 4.1 to 7.3"
                + " (the newest modelled release is 7.3)\n", r.err());
    }

    static Run main(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void misspeltRuleIsAUsageErrorNamingTheClosestIds() {
        Run r = main("certify", "--impl", "model", "--rule", "LS_3");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals("numaspread certify: --rule: found no rule 'LS_3'; did you mean LS-3? (the LS rules are LS-1 to LS-12)\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void unknownRuleNumberIsAUsageErrorNamingItsFamily() {
        Run r = main("certify", "--impl", "model", "--rule", "LS-99");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("numaspread certify: --rule: found no rule 'LS-99'; did you mean LS-9, "), r.err());
        assertTrue(r.err().endsWith("(the LS rules are LS-1 to LS-12)\n"), r.err());
    }

    @Test
    void ruleOfNoFamilyIsAUsageError() {
        Run r = main("certify", "--impl", "model", "--rule", "bogus");
        assertEquals(2, r.exit());
        assertEquals("numaspread certify: --rule: found no rule 'bogus'; expected a rule id such as LS-1 (numaspread rules lists them)\n",
                r.err().replaceAll("such as [A-Z0-9]+-\\d+", "such as LS-1"));
    }

    @Test
    void timeoutsBelowOneSecondAreUsageErrors() {
        for (String t : List.of("0", "-1")) {
            Run r = certify("--impl", "model", "--timeout", t);
            assertEquals(2, r.exit(), t);
            assertEquals("numaspread certify: --timeout " + t + ": out of range; expected 1 to 3600\n", r.err());
        }
    }

    @Test
    void triesAndBudgetOutOfRangeAreUsageErrors() {
        assertEquals("numaspread certify: --tries 0: out of range; expected 1 to 1000000\n", certify("--tries", "0").err());
        assertEquals("numaspread certify: --tries 2000000: out of range; expected 1 to 1000000\n", certify("--tries", "2000000").err());
        assertEquals("numaspread certify: --budget 0: out of range; expected 1 to 86400\n", certify("--budget", "0").err());
        assertEquals(2, certify("--budget", "-3").exit());
    }

    @Test
    void reportThatIsNotAFolderIsAUsageErrorBeforeAnythingRuns(@TempDir Path dir) throws Exception {
        Run r = certify("--impl", "java:" + Good.class.getName(), "--report", "/dev/null");
        assertEquals(2, r.exit());
        assertEquals("numaspread certify: --report /dev/null: is not a folder; expected a folder (new or existing)"
                + " for report.json, report.md, report.html and junit.xml\n", r.err());
        assertEquals("", r.out());
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        assertEquals(2, certify("--impl", "model", "--report", file.toString()).exit());
    }

    @Test
    void waiversThatAreNotAFileAreRefusedUnread() {
        Run r = certify("--impl", "model", "--waivers", "/dev/zero");
        assertEquals(2, r.exit());
        assertEquals("numaspread certify: /dev/zero: not a regular file (a FIFO, a device or a socket); expected a waivers file\n", r.err());
    }

    /** kernel-src: a folder that is no kernel tree is a usage error naming what is missing, never a stack trace. */
    @Test
    void kernelSrcOfAFolderThatIsNoKernelTreeIsAUsageError(@TempDir Path dir) {
        Run r = certify("--impl", "kernel-src:" + dir, "--report", dir.resolve("report").toString());
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals("numaspread certify: " + dir.resolve("Makefile") + ": not found; expected the top Makefile of a kernel"
                + " source tree (VERSION = 7, PATCHLEVEL = 3, ...)\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void helpStatesEveryDefaultAndBound() {
        Run r = main("certify", "--help");
        assertEquals(0, r.exit());
        String help = r.out().replaceAll("\\s+", " ");
        for (String s : List.of("--tries=N tries per property, 1 to 1000000 (default: 200",
                "--budget=SECONDS time for the tries of one property, 1 to 86400 (default: 20",
                "--timeout=SECONDS per-call (and per-request) timeout, 1 to 3600 (default: 10)",
                "--report=DIR the folder that receives", "(default: numaspread-report)",
                "--impl=IMPL model | example | java:CLASS | process:'CMD' (default: example) | kernel:SOURCE: boots a Linux kernel",
                "kernel-src:TREE: the grouping family of a kernel source tree, compiled against kernel-shim/ (README)",
                "--machines=N kernel: only: how many machines QEMU boots, 1 to 1000 (default: 4)",
                "--kernel=X.Y only the claims of this release (default: every claimed release); with kernel:, the release the booted"
                        + " kernel is judged as (default: its own series)",
                "--rule=ID only this rule, e.g. LS-3 (default: every rule of the claims)",
                "--seed=S seed, decimal or 0x hex (default: 0x5eed", "3 internal error"))
            assertTrue(help.contains(s), s + " in:\n" + r.out());
    }

    /**
     * Found by the second campaign (issue 25): a negative seed printed a replay line with
     * 0xffffffffffffffff that certify refused, and --seed took full-width digits.
     */
    @Test
    void everySeedAReplayLinePrintsIsTakenBackAndOnlyAsciiDigitsAre() {
        for (long seed : new long[]{-1, Long.MIN_VALUE, Long.MAX_VALUE, 0})
            assertEquals(seed, CertifyCommand.parseSeed("0x" + Long.toHexString(seed)));
        assertEquals(-1, CertifyCommand.parseSeed("-1"));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> CertifyCommand.parseSeed("１２"));
        assertEquals("--seed '１２': expected a number such as 24301 or 0x5eed (ASCII digits; hex up to 0xffffffffffffffff)", e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> CertifyCommand.parseSeed("0x1ffffffffffffffff"));
    }

    /** Found by the second campaign: --report '' wrote the four reports into the working folder. */
    @Test
    void anEmptyReportFolderIsAUsageError() {
        Run r = certify("--impl", "model", "--report", "");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("numaspread certify: --report '': no folder named; expected a folder"), r.err());
    }
}
