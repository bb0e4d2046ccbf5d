package dev.numaspread.cli;

import dev.numaspread.kernel.debian.FetchFailure;
import dev.numaspread.kernel.debian.KernelSource;
import dev.numaspread.model.input.Printable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;

import java.util.Optional;

/** The kernel {@code kernel fetch} and {@code kernel run} work on (a picocli mixin): SOURCE, checked before anything runs. */
final class KernelSourceParameter {

    @Parameters(index = "0", paramLabel = "SOURCE", description = "debian-X.Y, a Debian release, or a kernel build folder")
    String name;

    /** Empty when SOURCE names a kernel; else a usage error (exit 2), said in one line on {@code spec}'s error stream. */
    Optional<Integer> usageError(CommandSpec spec) {
        try {
            KernelSource.parse(name);
            return Optional.empty();
        } catch (FetchFailure e) {
            spec.commandLine().getErr().println(spec.qualifiedName() + ": " + Printable.of(e.getMessage()));
            spec.commandLine().getErr().flush();
            return Optional.of(Main.USAGE);
        }
    }
}
