package dev.numaspread.cli;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.Implementations;
import dev.numaspread.conformance.certify.Launch;
import dev.numaspread.conformance.certify.Waivers;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.conformance.process.ProcessImplementation;
import dev.numaspread.conformance.topogen.SmallMachines;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.report.ReportWriter;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.kernel.certify.KernelRun;
import dev.numaspread.kernel.certify.KernelSources;
import dev.numaspread.kernel.guest.BootableKernel;
import dev.numaspread.kernel.source.KernelSrc;
import dev.numaspread.model.kernel.KernelRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import dev.numaspread.conformance.certify.Launch;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code numaspread certify}: certifies an implementation against the rules of its claims and
 * prints the certificate; exit 0 only when every claimed rule passed, 1 otherwise, 2 for a
 * usage error (every option is checked, with its bounds, before anything runs, and a
 * {@code process:} program that cannot be started is refused), 3 when the kit itself broke.
 */
@Command(name = "certify", mixinStandardHelpOptions = true,
        description = "Certify an implementation: run the checks and scenarios of the routines it claims.",
        footer = {"", "Exit codes: 0 every claimed rule PASS or WAIVED; 1 a rule FAIL, ERROR, NOT-VERIFIED (a budget cut"
                + " its tries short, nothing could judge it) or UNEXPECTED-PASS; 2 usage error (an option, or an --impl program"
                + " that cannot be started); 3 internal error (the kit broke)."})
public final class CertifyCommand implements Callable<Integer> {

    /** Bounds of the numeric options, stated in {@code --help}. */
    static final int MAX_TIMEOUT_SECONDS = 3600;

    @Spec CommandSpec spec;

    @Option(names = "--impl", defaultValue = "example", paramLabel = "IMPL",
            description = {"model | example | java:CLASS | process:'CMD' (default: ${DEFAULT-VALUE})",
                    "| kernel:SOURCE: boots a Linux kernel under QEMU and certifies it on the machines it booted:",
                    "debian-6.1, debian-6.12, debian-7.2, debian-7.3 (newest build), an exact Debian release",
                    "(7.3.4+deb13-amd64), a folder with a kernel you built, or model-X.Y (the reference model standing in)",
                    "| kernel-src:TREE: the grouping family of a kernel source tree, compiled against kernel-shim/ (README)"})
    String impl;

    @Option(names = "--machines", paramLabel = "N",
            description = {"kernel: only: how many machines QEMU boots, 1 to " + KernelRun.MAX_MACHINES + " (default: "
                    + KernelRun.DEFAULT_MACHINES + "); drawn from --seed,", "shared out by --shard; every rule's tries run on them"})
    Integer machines;

    @Option(names = "--class-path", paramLabel = "PATH",
            description = "jars and class folders, ':'-separated, where java:CLASS is found (default: $NUMASPREAD_CLASSPATH)")
    String classPath;

    @Option(names = "--kernel", paramLabel = "X.Y", description = {"only the claims of this release (default: every claimed release);",
            "with kernel:, the release the booted kernel is judged as (default: its own series)"})
    String kernel;

    @Mixin
    TriesOptions tries = new TriesOptions();

    @Option(names = "--exhaustive", paramLabel = "N",
            description = {"instead of random tries, every machine of at most N CPUs, 1 to " + SmallMachines.MAX_SCOPE
                    + " (node partitions, distance orders, SMT and cluster layouts, online and present CPUs)",
                    "and every count, node and index the checks draw on it; PASS means the whole space was covered,",
                    "a --budget cut is NOT-VERIFIED (default: random tries)"})
    Integer exhaustive;

    @Option(names = "--shard", paramLabel = "K/N",
            description = {"run share K of N of the tries (or of the --exhaustive cases): every try in exactly one shard;",
                    "join the shards' reports with 'numaspread merge-reports' (default: 1/1, the whole run)"})
    String shard;

    @Option(names = "--rule", paramLabel = "ID", description = "only this rule, e.g. LS-3 (default: every rule of the claims)")
    String rule;

    @Option(names = "--topology", paramLabel = "FILE",
            description = {"replay on this machine (a saved counterexample, a .topo, .json or snapshot): every machine the checks",
                    "draw is this one, the other draws vary; scenarios are not run (default: generated machines and scenarios)"})
    Path topology;

    @Option(names = "--report", paramLabel = "DIR", defaultValue = "numaspread-report",
            description = "the folder that receives report.json, report.md, report.html and junit.xml (default: ${DEFAULT-VALUE})")
    Path report;

    @Option(names = "--waivers", paramLabel = "FILE",
            description = "rules allowed to fail, lines 'RULE-ID YYYY-MM-DD reason' (default: none)")
    Path waivers;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "per-call (and per-request) timeout, 1 to " + MAX_TIMEOUT_SECONDS + " (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--list-not-claimed",
            description = "print a line for each rule of a routine not claimed (default: one line with their count, as report.html folds them)")
    boolean listNotClaimed;

    @Option(names = "--once", description = "call each routine once: no nondeterminism check, about twice as fast (default: twice)")
    boolean once;

    private final Supplier<Certifier> certifier;
    private final Function<String, String> env;
    /** Whether a {@code java:} implementation is certified in a JVM of its own, watched by this one. */
    private final boolean supervise;

    public CertifyCommand() {
        this(Certifier::standard, System::getenv, true);
    }

    /** A command that certifies with {@code certifier} (tests give a small one), in this JVM. */
    CertifyCommand(Supplier<Certifier> certifier) {
        this(certifier, System::getenv);
    }

    /** ... and reads environment variables through {@code env}. */
    CertifyCommand(Supplier<Certifier> certifier, Function<String, String> env) {
        this(certifier, env, false);
    }

    private CertifyCommand(Supplier<Certifier> certifier, Function<String, String> env, boolean supervise) {
        this.certifier = certifier;
        this.env = env;
        this.supervise = supervise;
    }

    /**
     * The system property that marks the JVM a supervising {@code certify} started: its value is
     * the file in which the certification writes its exit code once it has finished.
     */
    static final String SUPERVISED = "numaspread.certify.status";

    @Override
    public Integer call() {
        String status = System.getProperty(SUPERVISED);
        if (status == null) return certify();
        // The JVM of a supervised certification: the code is written only when the certification ran to its end.
        int code = certify();
        try {
            Files.writeString(Path.of(status), Integer.toString(code));
        } catch (IOException e) {
            throw new UncheckedIOException(status + ": cannot write the certification's status", e);
        }
        return code;
    }

    private int certify() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        CertifyOptions options;
        Implementation implementation;
        Certifier kit;
        KernelRun kernelRun = null;
        try {
            kit = certifier.get();
            Settings settings = tries.applyTo(Settings.defaults());
            if (exhaustive != null) {
                if (topology != null) throw new IllegalArgumentException("--exhaustive and --topology: give one; expected"
                        + " either every small machine or the one saved machine");
                if (tries.givesTries()) throw new IllegalArgumentException("--exhaustive and --tries: give one; expected"
                        + " either every machine of the small scope or a number of random tries");
                settings = settings.withExhaustive(bounded("--exhaustive", exhaustive, 1, SmallMachines.MAX_SCOPE));
            }
            if (shard != null) {
                Shard share;
                try {
                    share = Shard.parse(shard);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--" + e.getMessage());
                }
                if (!settings.isExhaustive() && share.count() > settings.tries())
                    throw new IllegalArgumentException("--shard " + share + ": " + share.count() + " shards of " + settings.tries()
                            + " tries leave some shards none; expected at most as many shards as --tries");
                settings = settings.withShard(share);
            }
            boolean booting = KernelSources.names(impl);
            if (booting) settings = tries.onBootedKernel(settings);
            if (machines != null && !booting)
                throw new IllegalArgumentException("--machines " + machines + ": only with --impl kernel:SOURCE; expected no --machines"
                        + " for an implementation that answers for any machine");
            Optional<dev.numaspread.model.topology.Topology> given = topology == null ? Optional.empty()
                    : Optional.of(TopologyFiles.read(topology).topology());
            if (given.isPresent() && machines != null)
                throw new IllegalArgumentException("--topology and --machines: give one; expected either the one machine to boot or how many to draw");
            if (given.isPresent() && !booting) settings = settings.withMachine(given.get());
            bounded("--timeout", timeoutSeconds, 1, MAX_TIMEOUT_SECONDS);
            options = CertifyOptions.defaults(impl).withSettings(settings).withCallTimeout(Duration.ofSeconds(timeoutSeconds));
            if (once) options = options.withRepeatCalls(false);
            Optional<KernelRelease> release = Optional.empty();
            if (kernel != null) {
                release = Optional.of(KernelOption.release(kernel, err, "certify"));
                options = options.withKernel(release.get());
            }
            if (rule != null) options = options.withRule(requireRule(kit, rule));
            if (waivers != null) options = options.withWaivers(Waivers.read(waivers));
            reportFolder(report);
            List<Path> cp = Implementations.classPath(classPath != null ? classPath : Optional.ofNullable(env.apply("NUMASPREAD_CLASSPATH")).orElse(""));
            options = options.withLaunch(topology == null ? launch(cp, report) : launch(cp, report).withTopology(topology));
            if (supervise && impl.strip().startsWith("java:") && System.getProperty(SUPERVISED) == null)
                return Supervised.certify(spec.commandLine().getParseResult().originalArgs(), options, report, out, err);
            if (booting) {
                if (settings.isExhaustive())
                    throw new IllegalArgumentException("--exhaustive with kernel:: a booted kernel answers for the machines it booted;"
                            + " expected --machines N (or --topology FILE) instead");
                if (machines != null) bounded("--machines", machines, 1, KernelRun.MAX_MACHINES);
                PrintWriter progress = err;
                BootableKernel k = KernelSources.resolve(impl, line -> progress.println("numaspread certify: " + line));
                kernelRun = KernelRun.boot(k, options.kernel(), settings, machines == null ? KernelRun.DEFAULT_MACHINES : machines, given,
                        Runtime.getRuntime().availableProcessors(), KernelRun.DEFAULT_BOOT_BUDGET,
                        line -> { progress.println("numaspread certify: " + line); progress.flush(); });
                options = options.withSettings(kernelRun.settings());
                if (machines != null) options = options.withLaunch(options.launch().withMore(List.of("--machines", String.valueOf(machines))));
                implementation = kernelRun.implementation();
            } else {
                implementation = KernelSrc.names(impl)
                        ? KernelSrc.open(impl, release, Duration.ofSeconds(timeoutSeconds), KernelSrc.cacheRoot(env), err::println)
                        : Implementations.resolve(impl, Duration.ofSeconds(timeoutSeconds), cp);
                requireStartable(impl, implementation);
            }
        } catch (RuntimeException e) {
            if (kernelRun != null) kernelRun.close();
            err.println("numaspread certify: " + e.getMessage());
            return 2;
        }
        try {
            Certificate c = kit.certify(implementation, options);
            if (kernelRun != null) c = kernelRun.annotate(c);
            return publish(c, listNotClaimed, report, "certify", out, err);
        } finally {
            close(implementation, impl, "certify", err);
        }
    }

    /**
     * Prints {@code c} and writes its reports into {@code report}: the certificate's exit code, or
     * {@link Main#INTERNAL} when the reports cannot be written (the folder was writable when the run
     * started; the certificate printed stands, the files do not). {@code command} starts the messages.
     */
    static int publish(Certificate c, boolean listNotClaimed, Path report, String command, PrintWriter out, PrintWriter err) {
        out.print(ConsoleCertificate.render(c, listNotClaimed));
        try {
            ReportWriter.writeAll(c, report);
        } catch (UncheckedIOException e) {
            err.println("numaspread " + command + ": " + report + ": cannot write the reports (" + e.getMessage() + ")");
            out.flush();
            return Main.INTERNAL;
        }
        out.println("report: " + report.resolve("report.html"));
        out.flush();
        return c.exitCode();
    }

    /**
     * How this run was started, for replay lines that run as printed from any folder and shell:
     * the launcher's absolute path when the {@code numaspread} script started us (it passes
     * {@code -Dnumaspread.root}), else this JVM's {@code java} with its absolute class path.
     */
    static Launch launch(List<Path> classPath, Path report) {
        String root = System.getProperty("numaspread.root");
        String command;
        if (root != null && !root.isBlank()) {
            command = Launch.shellWord(Path.of(root, "numaspread").toAbsolutePath().normalize().toString());
        } else {
            List<String> jvmClassPath = new ArrayList<>();
            for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator))
                if (!e.isBlank()) jvmClassPath.add(Path.of(e).toAbsolutePath().normalize().toString());
            command = Launch.shellWord(Path.of(System.getProperty("java.home"), "bin", "java").toString()) + " -cp "
                    + Launch.shellWord(String.join(File.pathSeparator, jvmClassPath)) + " " + Main.class.getName();
        }
        Path here = Path.of("").toAbsolutePath();
        // A replay writes next to the certificate it replays, never over it; a replay of a replay writes in the same place.
        Path reports = report.toAbsolutePath().normalize();
        if (reports.getFileName() == null || !reports.getFileName().toString().equals("replay")) reports = reports.resolve("replay");
        return new Launch(command, Optional.of(here), classPath, Optional.of(reports));
    }

    /**
     * Refuses, as a usage error, a {@code process:} implementation whose program cannot be started
     * (no such command, not executable): that is the command line's fault, and a certificate would
     * blame the implementation for it. (It closes the implementation first.)
     *
     * @throws IllegalArgumentException {@code --impl process:/x: cannot start the program: ...; expected ...}
     */
    static void requireStartable(String spec, Implementation implementation) {
        if (!(implementation instanceof ProcessImplementation p)) return;
        Optional<String> why = p.cannotStart();
        if (why.isEmpty()) return;
        p.close();
        throw new IllegalArgumentException("--impl " + spec.strip() + ": cannot start the program: " + why.get()
                + "; expected a command that starts a program speaking spec/protocol.md");
    }

    /** Closes {@code implementation} ({@code --impl spec}) if it holds anything (a process, a booted kernel); a failure to close is said, not fatal. */
    static void close(Implementation implementation, String spec, String command, PrintWriter err) {
        if (!(implementation instanceof AutoCloseable closeable)) return;
        try {
            closeable.close();
        } catch (Exception e) {
            err.println("numaspread " + command + ": closing " + spec + ": " + e.getMessage());
        }
    }

    /** {@code value} when it lies in {@code lo..hi}; a usage error naming the option otherwise. */
    static int bounded(String option, int value, int lo, int hi) {
        if (value < lo || value > hi)
            throw new IllegalArgumentException(option + " " + value + ": out of range; expected " + lo + " to " + hi);
        return value;
    }

    /** {@code id} when the kit knows the rule; a usage error naming the closest ids otherwise. */
    static String requireRule(Certifier kit, String id) {
        try {
            return kit.requireRule(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--rule: " + e.getMessage());
        }
    }

    /**
     * Makes sure {@code dir} is a folder the reports can be written to before anything runs, so a
     * long certification never ends in a report that cannot be written.
     */
    static void reportFolder(Path dir) {
        // '' is no folder: the four reports would land among the user's files in the working folder.
        if (dir.toString().isBlank())
            throw new IllegalArgumentException("--report '" + dir + "': no folder named; expected a folder (new or existing)"
                    + " for report.json, report.md, report.html and junit.xml");
        if (Files.exists(dir) && !Files.isDirectory(dir))
            throw new IllegalArgumentException("--report " + dir + ": is not a folder; expected a folder (new or existing)"
                    + " for report.json, report.md, report.html and junit.xml");
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, ".numaspread-", ".probe"));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("--report " + dir + ": cannot write there (" + e.getMessage()
                    + "); expected a folder numaspread may write to");
        }
    }

    static long parseSeed(String s) {
        try {
            return Settings.parseSeed(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + e.getMessage());
        }
    }

}
