package dev.numaspread.cli;

import dev.numaspread.model.input.Printable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
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

    /**
     * Runs the command line {@code args}, printing to {@code out} and {@code err}; returns the exit
     * code. Whatever goes wrong ends in one line on {@code err}: invalid input (exit 1) names the
     * file and line; an internal error (exit 3) says so, also when the Java heap or stack ran out.
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return execute(commandLine(args), args, out, err);
    }

    /** The commands, in the order help lists them. */
    static final List<Class<?>> COMMANDS = List.of(CertifyCommand.class, MergeReportsCommand.class, CheckTopologyCommand.class,
            PlanCommand.class, RacesCommand.class, RulesCommand.class, SnapshotCommand.class, AuditCommand.class, KernelCommand.class,
            CommandLine.HelpCommand.class);

    /**
     * The command line for {@code args}: when {@code args} starts with a command's name, that command
     * alone, else every command (help, a usage error that suggests names). picocli reflects over
     * every option of every command it is given, which cost a 0.4 s command 0.3 s of CPU.
     */
    static CommandLine commandLine(String[] args) {
        CommandLine cl = new CommandLine(new Main());
        String first = args.length > 0 ? args[0] : "";
        Class<?> only = null;
        for (Class<?> c : COMMANDS)
            if (!c.equals(CommandLine.HelpCommand.class) && c.getAnnotation(Command.class).name().equals(first)) only = c;
        if (only != null) cl.addSubcommand(only);
        else for (Class<?> c : COMMANDS) cl.addSubcommand(c);
        // After the subcommands: a converter registered on the parent reaches those it already has.
        cl.registerConverter(Integer.class, Main::wholeNumber);
        cl.registerConverter(Integer.TYPE, Main::wholeNumber);
        return cl;
    }

    /**
     * An integer option in ASCII digits, as every reader takes numbers (spec/formats.md FMT-16):
     * picocli's own converter, {@code Integer.valueOf}, takes full-width and Arabic-Indic digits.
     */
    static Integer wholeNumber(String text) {
        if (!text.matches("-?[0-9]{1,10}") || Long.parseLong(text) != (int) Long.parseLong(text))
            throw new CommandLine.TypeConversionException(Printable.quote(text) + " is not an int (ASCII digits, -2147483648 to 2147483647)");
        return Integer.valueOf(text);
    }

    /** Runs {@code args} on {@code cl} as {@link #run} does (tests give a command of their own). */
    static int execute(CommandLine cl, String[] args, PrintWriter out, PrintWriter err) {
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((e, given) -> {
            // The reason and where to read more: the whole help after every slip buries the reason.
            CommandLine where = e.getCommandLine();
            PrintWriter w = where.getErr();
            w.println(where.getCommandSpec().qualifiedName() + ": " + Printable.of(String.valueOf(e.getMessage())));
            CommandLine.UnmatchedArgumentException.printSuggestions(e, w);
            w.println("Try '" + where.getCommandSpec().qualifiedName() + " --help' for the options, their defaults and bounds.");
            return where.getCommandSpec().exitCodeOnInvalidInput();
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            // A NumberFormatException is a reader that parsed a number it had not checked: our bug, and its
            // message ("For input string: ...") is Java's, not a position in the input.
            if ((e instanceof IllegalArgumentException && !(e instanceof NumberFormatException)) || e instanceof UncheckedIOException) {
                // Invalid input: the message already says where, what was found and what was expected.
                commandLine.getErr().println("numaspread: " + Printable.of(String.valueOf(e.getMessage())));
                return CHECK_FAILED;
            }
            commandLine.getErr().println(internalError(e));
            if (tracing()) e.printStackTrace(commandLine.getErr());
            return INTERNAL;
        });
        int code;
        try {
            code = cl.execute(args);
        } catch (VirtualMachineError e) {
            // picocli hands only Exceptions to the handler; the heap or the stack running out reaches here.
            err.println(internalError(e));
            if (tracing()) e.printStackTrace(err);
            code = INTERNAL;
        }
        out.flush();
        err.flush();
        return code;
    }

    /** Set {@code NUMASPREAD_TRACE=1} to get the stack trace of an internal error after its line. */
    static boolean tracing() {
        String v = System.getenv("NUMASPREAD_TRACE");
        return v != null && !v.isEmpty() && !v.equals("0");
    }

    /**
     * The one line an internal error prints: what ran out or broke, and where in numaspread. A
     * full heap may also come from an input too large for the heap, so that message says both.
     */
    static String internalError(Throwable e) {
        String trace = tracing() ? "" : " (NUMASPREAD_TRACE=1 prints the trace)";
        if (e instanceof OutOfMemoryError)
            return "numaspread: internal error: out of memory (Java heap of " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB" + where(e) + "); the input is too large for this heap, or numaspread has a bug: please report it" + trace;
        if (e instanceof StackOverflowError)
            return "numaspread: internal error (a bug of numaspread, please report it): the stack overflowed" + where(e) + trace;
        String what = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage().strip();
        int eol = what.indexOf('\n');
        if (eol >= 0) what = what.substring(0, eol);
        return "numaspread: internal error (a bug of numaspread, please report it): " + what + where(e) + trace;
    }

    /** {@code " at GroupCpusChecks.java:203"}: the innermost frame of numaspread's own code, if any. */
    private static String where(Throwable e) {
        for (StackTraceElement f : e.getStackTrace())
            if (f.getClassName().startsWith("dev.numaspread.") && f.getFileName() != null)
                return " at " + f.getFileName() + ":" + f.getLineNumber();
        return "";
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
