package dev.numaspread.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Entry point of the {@code numaspread} command. Exit codes: 0 ok, 1 a check failed or the input
 * was invalid (the message names file and line), 2 usage error, 3 internal error (a bug of ours).
 */
@Command(name = "numaspread",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        sortOptions = false,
        header = "The executable specification of how Linux spreads device interrupts and queues over NUMA machines.",
        description = {"",
                "Rules live in spec/, scenarios in features/, machines in fixtures/; the reference model is the oracle.",
                "Run a command with --help for its options."},
        subcommands = {
                CertifyCommand.class,
                CheckTopologyCommand.class,
                PlanCommand.class,
                RacesCommand.class,
                RulesCommand.class,
                SnapshotCommand.class,
                AuditCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"",
                "Exit codes: 0 ok; 1 a check failed or the input is invalid; 2 usage error; 3 internal error."})
public final class Main implements Runnable {

    public static final int OK = 0;
    public static final int CHECK_FAILED = 1;
    public static final int USAGE = 2;
    public static final int INTERNAL = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line {@code args}, printing to {@code out} and {@code err}; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException || e instanceof UncheckedIOException) {
                // Invalid input: the message already says where, what was found and what was expected.
                commandLine.getErr().println("numaspread: " + e.getMessage());
                return CHECK_FAILED;
            }
            commandLine.getErr().println("numaspread: internal error (a bug of numaspread, please report it):");
            e.printStackTrace(commandLine.getErr());
            return INTERNAL;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    @Override
    public void run() {
        // No subcommand: show what there is to do.
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version of the build, from the resource the build fills in. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in != null) p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("version.properties: cannot read", e);
            }
            return new String[] {"numaspread " + p.getProperty("version", "(unknown version)"),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
