package dev.numaspread.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
            assertTrue(r.out().startsWith("Usage: numaspread " + command), r.out());
        }
    }

    @Test
    void versionNamesTheBuild() {
        Run r = run("--version");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("numaspread 0.1.0-SNAPSHOT\n"), r.out());
    }

    @Test
    void usageErrorsExitWith2() {
        assertEquals(2, run("--bogus").code());
        assertEquals(2, run("rules", "--format", "yaml").code());
        assertTrue(run("rules", "--format", "yaml").err().contains("Invalid value for option '--format'"));
    }

    @Test
    void rulesPrintsTheTraceabilityTableOfTheCheckout() {
        Run r = run("rules");
        assertTrue(r.out().startsWith("rule    level  kernels  spec              scenarios  checks  tests  title\n"), r.out());
        assertTrue(r.out().contains("\nRULE-3  MUST   all      spec/rules.md:"), r.out());
        Run json = run("rules", "--format", "json");
        assertTrue(json.out().contains("\"id\" : \"RULE-5\""), json.out());
        Run md = run("rules", "--format", "md");
        assertTrue(md.out().startsWith("| rule | level | kernels | spec | scenarios | checks and tests |\n"), md.out());
    }
}
