package dev.numaspread.cli;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.Implementations;
import dev.numaspread.conformance.certify.Waivers;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.report.ReportWriter;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.kernel.KernelRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code numaspread certify}: certifies an implementation against the rules of its claims and
 * prints the certificate; exit 0 only when every claimed rule passed, 1 otherwise, 2 for a
 * usage error.
 */
@Command(name = "certify", mixinStandardHelpOptions = true,
        description = "Certify an implementation: run the checks and scenarios of the routines it claims.")
public final class CertifyCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--impl", defaultValue = "example", paramLabel = "IMPL",
            description = "model | example | java:CLASS | process:'CMD' (default: ${DEFAULT-VALUE})")
    String impl;

    @Option(names = "--kernel", paramLabel = "X.Y", description = "only the claims of this release")
    String kernel;

    @Option(names = "--tries", paramLabel = "N", description = "tries per property (default: 200 or -Dnumaspread.tries)")
    Integer tries;

    @Option(names = "--seed", paramLabel = "S", description = "seed, decimal or 0x hex (default: 0x5eed or -Dnumaspread.seed)")
    String seed;

    @Option(names = "--rule", paramLabel = "ID", description = "only this rule (e.g. LS-3)")
    String rule;

    @Option(names = "--report", paramLabel = "DIR", defaultValue = "numaspread-report",
            description = "where report.json, report.md, report.html and junit.xml go (default: ${DEFAULT-VALUE})")
    Path report;

    @Option(names = "--waivers", paramLabel = "FILE", description = "rules allowed to fail: lines 'RULE-ID YYYY-MM-DD reason'")
    Path waivers;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "per-call (and per-request) timeout (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--once", description = "call each routine once: no nondeterminism check, about twice as fast")
    boolean once;

    private final Supplier<Certifier> certifier;

    public CertifyCommand() {
        this(Certifier::standard);
    }

    /** A command that certifies with {@code certifier} (tests give a small one). */
    CertifyCommand(Supplier<Certifier> certifier) {
        this.certifier = certifier;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        CertifyOptions options;
        Implementation implementation;
        try {
            Settings settings = Settings.defaults();
            if (tries != null) settings = settings.withTries(tries);
            if (seed != null) settings = settings.withSeed(parseSeed(seed));
            options = CertifyOptions.defaults(impl).withSettings(settings).withCallTimeout(Duration.ofSeconds(timeoutSeconds));
            if (once) options = options.withRepeatCalls(false);
            if (kernel != null) options = options.withKernel(PlanCommand.release(kernel, err, "certify"));
            if (rule != null) options = options.withRule(rule);
            if (waivers != null) options = options.withWaivers(Waivers.read(waivers));
            implementation = Implementations.resolve(impl, Duration.ofSeconds(timeoutSeconds));
        } catch (RuntimeException e) {
            err.println("numaspread certify: " + e.getMessage());
            return 2;
        }
        try {
            Certificate c = certifier.get().certify(implementation, options);
            out.print(ConsoleCertificate.render(c));
            ReportWriter.writeAll(c, report);
            out.println("report: " + report.resolve("report.html"));
            out.flush();
            return c.exitCode();
        } finally {
            if (implementation instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    err.println("numaspread certify: closing " + impl + ": " + e.getMessage());
                }
            }
        }
    }

    static long parseSeed(String s) {
        try {
            return Long.decode(s.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--seed '" + s + "': expected a number such as 24301 or 0x5eed");
        }
    }

}
