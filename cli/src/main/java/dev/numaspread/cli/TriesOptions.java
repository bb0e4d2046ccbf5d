package dev.numaspread.cli;

import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.kernel.certify.KernelRun;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.Optional;

/**
 * The options of the tries {@code certify} and {@code kernel table} share (a picocli mixin): how many
 * tries a property gets, the seed they are drawn from, and the time they may take; each checked
 * against its bounds, stated in {@code --help}, before anything runs.
 */
final class TriesOptions {

    /** Bounds of the numeric options, stated in {@code --help}. */
    static final int MAX_TRIES = 1_000_000, MAX_BUDGET_SECONDS = 86_400;

    @Option(names = "--tries", paramLabel = "N",
            description = "tries per property, 1 to " + MAX_TRIES + " (default: 200, or -Dnumaspread.tries)")
    Integer tries;

    @Option(names = "--budget", paramLabel = "SECONDS",
            description = {"time for the tries of one property, 1 to " + MAX_BUDGET_SECONDS + " (default: 20, and " + KernelRun.DEFAULT_BUDGET_SECONDS
                    + " on a booted kernel: certify --impl kernel:, kernel table; or -Dnumaspread.budget.seconds);",
                    "a property that runs out of it before its tries is NOT-VERIFIED, never PASS"})
    Integer budgetSeconds;

    @Option(names = "--seed", paramLabel = "S", description = "seed, decimal or 0x hex (default: 0x5eed, or -Dnumaspread.seed)")
    String seed;

    /** True when {@code --tries} is given. */
    boolean givesTries() {
        return tries != null;
    }

    /**
     * {@code settings} with the tries, seed and budget given (the others as they were).
     *
     * @throws IllegalArgumentException {@code --tries 0: out of range; expected 1 to 1000000}, and likewise
     */
    Settings applyTo(Settings settings) {
        if (tries != null) settings = settings.withTries(CertifyCommand.bounded("--tries", tries, 1, MAX_TRIES));
        if (seed != null) settings = settings.withSeed(CertifyCommand.parseSeed(seed));
        if (budgetSeconds != null)
            settings = settings.withBudget(Duration.ofSeconds(CertifyCommand.bounded("--budget", budgetSeconds, 1, MAX_BUDGET_SECONDS)));
        return settings;
    }

    /** {@code settings} with the budget of a booted kernel: the one given, else {@link KernelRun#budget}'s. */
    Settings onBootedKernel(Settings settings) {
        return settings.withBudget(KernelRun.budget(Optional.ofNullable(budgetSeconds)));
    }
}
