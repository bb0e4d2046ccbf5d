package dev.numaspread.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MainTest {

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpListsEveryCommandWithADescription() {
        Run r = run("--help");
        assertEquals(0, r.code());
        for (String command : List.of("certify", "check-topology", "plan", "races", "rules", "help"))
            assertTrue(r.out().matches("(?s).*\\n  " + command + " +\\S.*"), command + " missing in:\n" + r.out());
        assertTrue(r.out().contains("Exit codes: 0 ok; 1 a check failed or the input is invalid; 2 usage error"), r.out());
    }

    @Test
    void everySubcommandHasHelp() {
        for (String command : List.of("certify", "check-topology", "plan", "races", "rules")) {
            Run r = run(command, "--help");
            assertEquals(0, r.code(), command);
            assertTrue(r.out().contains("Usage: numaspread " + command), r.out());
        }
    }

    @Test
    void versionNamesTheBuild() {
        Run r = run("--version");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("numaspread 1.0.0\n"), r.out());
    }

    @Test
    void usageErrorsExitWith2() {
        assertEquals(2, run("--bogus").code());
        assertEquals(2, run("rules", "--format", "yaml").code());
        assertTrue(run("rules", "--format", "yaml").err().contains("Invalid value for option '--format'"));
    }

    /**
     * FMT-16 for the command line: integer options are ASCII digits. Issue 16's campaign rerun:
     * {@code --count ３} (a full-width digit) was read as 3, and {@code --kernel ,,} named no release
     * and broke the kit (exit 3).
     */
    @Test
    void FMT_16_integerOptionsAreAsciiDigitsAndAKernelListNamesReleases() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("main-test");
        String topo = PlanKernelExamplesTest.small(dir);
        for (String v : List.of("\uff13", "\u0663", "99999999999", "+3", "3x")) {
            Run r = run("plan", "--routine", "group-cpus", "--kernel", "6.12", "--topology", topo, "--count", v);
            assertEquals(2, r.code(), v + ": " + r.out() + r.err());
            assertTrue(r.err().startsWith("numaspread plan: Invalid value for option '--count': '" + v + "' is not an int (ASCII digits, -2147483648 to 2147483647)\n"), r.err());
            // the reason and where to read more, not the whole help after it
            assertTrue(r.err().endsWith("Try 'numaspread plan --help' for the options, their defaults and bounds.\n"), r.err());
            assertFalse(r.err().contains("Usage:"), r.err());
        }
        assertEquals(0, run("plan", "--routine", "group-cpus", "--kernel", "6.12", "--topology", topo, "--count", "3").code());
        Run r = run("plan", "--routine", "group-cpus", "--kernel", ",,", "--topology", topo, "--count", "3");
        assertEquals(2, r.code(), r.err());
        assertEquals("numaspread plan: --kernel: kernel release '': expected MAJOR.MINOR such as 6.12\n", r.err());
    }

    @picocli.CommandLine.Command(name = "parses")
    static final class ParsesUncheckedNumber implements java.util.concurrent.Callable<Integer> {
        @Override
        public Integer call() {
            return Integer.parseInt("99999999999");
        }
    }

    /** Issue 16's rerun: audit printed "numaspread: For input string: ..." (Java's words) as if it were a finding about the input. */
    @Test
    void anUncheckedNumberIsAnInternalErrorNotAMessageAboutTheInput() {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(new picocli.CommandLine(new ParsesUncheckedNumber()), new String[0], new PrintWriter(out), new PrintWriter(err));
        assertEquals(3, code);
        assertTrue(err.toString().startsWith("numaspread: internal error (a bug of numaspread, please report it): For input string: "), err.toString());
        assertTrue(err.toString().contains(" at MainTest.java:"), err.toString());
    }

    @Test
    void rulesPrintsTheTraceabilityTableOfTheCheckout() {
        Run r = run("rules");
        // Column widths follow the longest cell, so the checks read words, not spacing.
        assertTrue(r.out().matches("(?s)rule +level +kernels +spec +scenarios +checks +tests +title\n.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\nRULE-3 +MUST +all +spec/rules\\.md:\\d+ .*"), r.out());
        Run json = run("rules", "--format", "json");
        assertTrue(json.out().contains("\"id\" : \"RULE-5\""), json.out());
        Run md = run("rules", "--format", "md");
        assertTrue(md.out().startsWith("| rule | level | kernels | spec | scenarios | checks and tests |\n"), md.out());
    }

    /** A command that breaks the way {@code how} says. */
    @picocli.CommandLine.Command(name = "broken")
    static final class Broken implements java.util.concurrent.Callable<Integer> {
        final String how;

        Broken(String how) {
            this.how = how;
        }

        @Override
        public Integer call() {
            return switch (how) {
                // 16 GiB in one array: past any test heap, refused before a byte is touched.
                case "heap" -> new long[Integer.MAX_VALUE - 16].length;
                case "stack" -> recurse(0);
                default -> throw new IllegalStateException("model invariant broken: " + how);
            };
        }

        private static int recurse(int depth) {
            return recurse(depth + 1) + 1;
        }
    }

    static Run broken(String how) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(new picocli.CommandLine(new Broken(how)), new String[0], new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void outOfMemoryIsOneLineAndExit3() {
        Run r = broken("heap");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().matches("numaspread: internal error: out of memory \\(Java heap of \\d+ MiB at MainTest\\.java:\\d+\\); the input is"
                + " too large for this heap, or numaspread has a bug: please report it \\(NUMASPREAD_TRACE=1 prints the trace\\)\n"), r.err());
    }

    @Test
    void stackOverflowIsOneLineAndExit3() {
        Run r = broken("stack");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().matches("numaspread: internal error \\(a bug of numaspread, please report it\\): the stack overflowed"
                + " at MainTest\\.java:\\d+ \\(NUMASPREAD_TRACE=1 prints the trace\\)\n"), r.err());
    }

    @Test
    void anInternalExceptionIsOneLineNamingWhereAndExit3() {
        Run r = broken("invariant");
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().matches("numaspread: internal error \\(a bug of numaspread, please report it\\): model invariant broken:"
                + " invariant at MainTest\\.java:\\d+ \\(NUMASPREAD_TRACE=1 prints the trace\\)\n"), r.err());
    }
}
