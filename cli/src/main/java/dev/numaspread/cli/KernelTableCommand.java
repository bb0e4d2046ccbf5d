package dev.numaspread.cli;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.report.ReportWriter;
import dev.numaspread.kernel.certify.KernelRun;
import dev.numaspread.kernel.certify.KernelSources;
import dev.numaspread.kernel.certify.KernelTable;
import dev.numaspread.kernel.guest.BootableKernel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@code numaspread kernel table SOURCE...}: certifies each kernel on the same drawn machines and
 * prints the table "The real kernel, release by release" (a row per routine, a column per kernel),
 * or writes it into README.md between its markers ({@link KernelTable}); each kernel's certificate
 * goes to {@code --report DIR/SOURCE/}.
 */
@Command(name = "table", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Certify kernels and print the README's table of the real kernel, release by release.",
        description = {"Certifies each SOURCE as certify --impl kernel:SOURCE does, on --machines machines drawn from --seed (the"
                + " same machines for every kernel), and prints one row per routine and one column per kernel: PASS with how many"
                + " rules and machines, the rules a booted machine cannot show, FAIL or ERROR with the rules, or not claimed with why."},
        footerHeading = "%nExample (the README's table):%n",
        footer = {"  numaspread kernel table debian-6.1 debian-6.12 debian-7.2 debian-7.3 --machines 20 --write README.md"})
public final class KernelTableCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "SOURCE", description = "the kernels: debian-X.Y, a Debian release, a build folder, or model-X.Y")
    List<String> sources;

    // Alike on purpose (duplicates, issue 26) with PlanCommand: picocli options, a field each with its description.
    @Option(names = "--machines", paramLabel = "N", defaultValue = "20",
            description = "machines each kernel boots, 1 to " + KernelRun.MAX_MACHINES + " (default: ${DEFAULT-VALUE})")
    int machines;

    @Mixin
    TriesOptions tries = new TriesOptions();

    @Option(names = "--write", paramLabel = "FILE",
            description = "write the table into FILE (README.md) between its kernel-table lines instead of printing it")
    Path write;

    @Option(names = "--report", paramLabel = "DIR", defaultValue = "numaspread-kernels",
            description = "each kernel's certificate goes to DIR/SOURCE/ (default: ${DEFAULT-VALUE})")
    Path report;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        Consumer<String> progress = line -> {
            err.println("numaspread kernel table: " + line);
            err.flush();
        };
        Settings settings = Settings.defaults();
        try {
            CertifyCommand.bounded("--machines", machines, 1, KernelRun.MAX_MACHINES);
            settings = tries.onBootedKernel(tries.applyTo(settings));
            if (write != null && !Files.isRegularFile(write))
                throw new IllegalArgumentException("--write " + write + ": no such file; expected the README.md that holds the table");
            CertifyCommand.reportFolder(report);
        } catch (IllegalArgumentException e) {
            err.println("numaspread kernel table: " + e.getMessage());
            return Main.USAGE;
        }
        List<KernelTable.Column> columns = new ArrayList<>();
        for (String source : sources) {
            long start = System.nanoTime();
            try {
                BootableKernel k = KernelSources.resolve(KernelSources.PREFIX + source, progress);
                try (KernelRun run = KernelRun.boot(k, Optional.empty(), settings, machines, Optional.empty(),
                        Runtime.getRuntime().availableProcessors(), KernelRun.DEFAULT_BOOT_BUDGET, progress)) {
                    CertifyOptions o = CertifyOptions.defaults(KernelSources.PREFIX + source).withSettings(run.settings());
                    Certificate c = run.annotate(Certifier.standard().certify(run.implementation(), o));
                    ReportWriter.writeAll(c, report.resolve(source.replaceAll("[^A-Za-z0-9._+-]", "_")));
                    progress.accept(source + ": " + ConsoleCertificate.summary(c) + " in "
                            + Duration.ofNanos(System.nanoTime() - start).toSeconds() + " s");
                    columns.add(new KernelTable.Column("`" + source + "` (" + k.release() + ")", c));
                }
            } catch (RuntimeException e) {
                err.println("numaspread kernel table: " + source + ": " + e.getMessage());
                return Main.CHECK_FAILED;
            }
        }
        String table = KernelTable.markdown(columns);
        if (write == null) {
            out.print(table);
            out.flush();
            return Main.OK;
        }
        try {
            String readme = Files.readString(write, StandardCharsets.UTF_8);
            Files.writeString(write, KernelTable.replaceIn(readme, table), StandardCharsets.UTF_8);
        } catch (IOException | IllegalArgumentException e) {
            err.println("numaspread kernel table: " + write + ": " + e.getMessage());
            return Main.CHECK_FAILED;
        }
        progress.accept("wrote the table into " + write);
        return Main.OK;
    }
}
