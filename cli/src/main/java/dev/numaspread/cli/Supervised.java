package dev.numaspread.cli;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.RunOptions;
import dev.numaspread.conformance.certify.Workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code java:} implementation certified in a JVM of its own, which this JVM watches: an
 * implementation runs in the kit's JVM and can end it ({@code System.exit(0)} or
 * {@code Runtime.halt(0)} in a routine or its constructor), and a JVM that ended with status 0
 * before the certification finished would be a green CI job without a certificate (issue 25).
 *
 * <p>The second JVM runs the same command line with {@value CertifyCommand#SUPERVISED} naming a
 * file, where it writes its exit code when the certification has run to its end. An exit without
 * that file, or with another code, is the implementation ending the JVM: this JVM prints why,
 * writes a certificate that says so, and exits 1. The second JVM's output is passed through as
 * it comes; a JVM killed along with this one is stopped too.
 */
final class Supervised {
    private Supervised() {}

    /**
     * The exit code of {@code certify args} run in a second JVM.
     *
     * @throws IllegalArgumentException when the second JVM cannot be started
     */
    static int certify(List<String> args, CertifyOptions options, Path report, PrintWriter out, PrintWriter err) {
        Path status;
        Process p;
        try {
            status = Files.createTempFile("numaspread-certify-", ".status");
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            List<String> inherited = new ArrayList<>();
            for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments())
                // A class list being recorded (the launcher's first run) and a debugger's port belong to this JVM alone.
                if (!a.startsWith("-XX:DumpLoadedClassList=") && !a.startsWith("-agentlib:jdwp")) inherited.add(a);
            command.addAll(launcherOptions(inherited));
            command.addAll(inherited);
            command.add("-D" + CertifyCommand.SUPERVISED + "=" + status);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(Main.class.getName());
            command.addAll(args.isEmpty() || !args.get(0).equals("certify") ? withCommand(args) : args);
            p = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new IllegalArgumentException("--impl " + options.implSpec() + ": cannot start the JVM that certifies it ("
                    + e.getMessage() + "); expected java of this JVM's java.home to run");
        }
        Thread stop = new Thread(() -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }, "numaspread-stop-certification");
        Runtime.getRuntime().addShutdownHook(stop);
        Instant started = Instant.now();
        try {
            p.getOutputStream().close();   // nothing to read: the implementation is no program
            Thread o = pass(p.getInputStream(), out), e = pass(p.getErrorStream(), err);
            int exit = p.waitFor();
            o.join();
            e.join();
            String written = Files.exists(status) ? Files.readString(status).strip() : "";
            if (written.equals(Integer.toString(exit))) return exit;
            return ended(exit, written, options, report, started, out, err);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return Main.INTERNAL;
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException x) {
                // shutting down: the hook runs anyway
            }
            try {
                Files.deleteIfExists(status);
            } catch (IOException x) {
                // a temporary file: the system cleans it
            }
        }
    }

    /**
     * The options of {@code ./numaspread} (C1 only, the serial collector) that {@code inherited},
     * this JVM's own options, leave unsaid: the JVM of a certification runs as the launcher runs
     * one however this JVM was started ({@code java -cp}, a test). A certification is a command of
     * seconds, where C2's compilations cost more CPU than they give back: one of LS-3 with 5 tries
     * took 4.3 s of CPU with C2 and 2.6 s without (both JVMs; benchmarks/README.md, "The command
     * line's JVM"). Each is added only where {@code inherited} says nothing of it: a choice made for
     * this JVM holds for the certification's too, and the JVM refuses two collectors.
     */
    static List<String> launcherOptions(List<String> inherited) {
        List<String> out = new ArrayList<>();
        if (inherited.stream().noneMatch(a -> a.startsWith("-XX:TieredStopAtLevel=") || a.matches("-XX:[+-]TieredCompilation")))
            out.add("-XX:TieredStopAtLevel=1");
        if (inherited.stream().noneMatch(a -> a.matches("-XX:[+-]Use\\w*GC")))
            out.add("-XX:+UseSerialGC");
        return out;
    }

    /** {@code args} as given to {@code certify}, the command's name first. */
    private static List<String> withCommand(List<String> args) {
        List<String> out = new ArrayList<>(List.of("certify"));
        out.addAll(args);
        return out;
    }

    /** The certification's JVM ended before the certification did: an ERROR of the implementation, exit 1, reports that say so. */
    private static int ended(int exit, String written, CertifyOptions options, Path report, Instant started, PrintWriter out, PrintWriter err) {
        String why = "the JVM of the certification ended with status " + exit + (exit > 128 ? " (signal " + (exit - 128) + ")" : "")
                + (written.isEmpty() ? " before the certification finished" : " after the certification finished with exit code " + written)
                + ": the implementation ended it (System.exit or Runtime.halt in a routine, a constructor or a thread of its own),"
                + " or it was killed; expected the implementation to return from every call";
        err.println("numaspread certify: ERROR: " + why);
        Certificate c = new Certificate("?", options.implSpec(), List.of(), Certificate.kitVersion(), options.settings(), started,
                Instant.now(), List.of(), List.of("ERROR: " + why), Workload.NONE, RunOptions.of(options));
        // The implementation's ERROR decides the exit, whether or not the reports could be written.
        CertifyCommand.publish(c, false, report, "certify", out, err);
        err.flush();
        return Main.CHECK_FAILED;
    }

    /** Copies the text of {@code from} to {@code to} as it comes, on a thread of its own. */
    private static Thread pass(InputStream from, PrintWriter to) {
        Thread t = new Thread(() -> {
            try (Reader r = new InputStreamReader(from, StandardCharsets.UTF_8)) {
                char[] buf = new char[8192];
                for (int n; (n = r.read(buf)) > 0; ) {
                    to.write(buf, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                // the JVM went away: what it wrote has been passed
            }
        }, "numaspread-pass-output");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
