package dev.numaspread.cli;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.ShardMerge;
import dev.numaspread.conformance.report.ReportReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code numaspread merge-reports DIR...}: joins the {@code report.json} of the shards of one run
 * ({@code certify --shard K/N}) into the certificate of the whole run, printed and written in every
 * format the certifier writes; exit as {@code certify} would have for the whole run, 2 when the
 * reports are not the shards of one run.
 */
@Command(name = "merge-reports", mixinStandardHelpOptions = true,
        description = {"Join the report.json of the shards of one run (certify --shard K/N) into one certificate.",
                "A rule passes only when every shard passed its share; a FAIL in any shard fails it; a missing shard",
                "leaves every rule that would pass NOT-VERIFIED. Reports of different runs (kit version, implementation,",
                "claims, seed, shard count N, tries, exhaustive scope, budget, rule, release, machine, --once, timeout,",
                "waivers), shards that judge other rules, a shard given twice or a report that contradicts itself are refused."},
        footer = {"", "Exit codes: as certify for the whole run (0 every claimed rule PASS or WAIVED, 1 otherwise, 3 the kit broke);"
                + " 2 reports that cannot be read or joined."})
public final class MergeReportsCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "a shard's report folder (or its report.json)")
    List<Path> shards;

    @Option(names = "--report", paramLabel = "DIR", defaultValue = "numaspread-report",
            description = "the folder that receives the merged report.json, report.md, report.html and junit.xml (default: ${DEFAULT-VALUE})")
    Path report;

    @Option(names = "--list-not-claimed",
            description = "print a line for each rule of a routine not claimed (default: one line with their count, as report.html folds them)")
    boolean listNotClaimed;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        Certificate merged;
        try {
            List<ShardMerge.Part> parts = new ArrayList<>();
            for (Path s : shards) {
                Path json = Files.isDirectory(s) ? s.resolve("report.json") : s;
                if (!Files.isRegularFile(json))
                    throw new IllegalArgumentException(json + ": no such file; expected the report.json certify --shard wrote");
                if (Files.isDirectory(s) && Files.isDirectory(report) && Files.isSameFile(s, report))
                    throw new IllegalArgumentException("--report " + report + ": is the folder of shard report " + json
                            + "; expected another folder, so no shard's report is overwritten");
                parts.add(new ShardMerge.Part(json.toString(), ReportReader.read(json)));
            }
            merged = ShardMerge.merge(parts);
            CertifyCommand.reportFolder(report);
        } catch (java.io.IOException e) {
            err.println("numaspread merge-reports: " + e.getMessage());
            return Main.USAGE;
        } catch (RuntimeException e) {
            err.println("numaspread merge-reports: " + e.getMessage());
            return Main.USAGE;
        }
        return CertifyCommand.publish(merged, listNotClaimed, report, "merge-reports", out, err);
    }
}
