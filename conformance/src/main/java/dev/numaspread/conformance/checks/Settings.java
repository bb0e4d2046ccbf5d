package dev.numaspread.conformance.checks;

import dev.numaspread.model.topology.Topology;

import java.time.Duration;
import java.util.Optional;

/**
 * How hard a property is tried: the number of tries, the time budget, and the seed that makes a
 * run replayable. Defaults come from system properties {@code numaspread.tries},
 * {@code numaspread.seed} and {@code numaspread.budget.seconds}, so CI and the CLI set them globally.
 *
 * @param machine when present, the machine every machine generator gives instead of drawing one
 *                ({@code certify --topology cex.topo}: a saved counterexample replayed); the other
 *                draws of a try (a node, a count) vary as usual
 */
public record Settings(int tries, long seed, Duration budget, Optional<Topology> machine) {

    public Settings {
        if (tries < 1) throw new IllegalArgumentException("tries " + tries + " must be at least 1");
    }

    public Settings(int tries, long seed, Duration budget) {
        this(tries, seed, budget, Optional.empty());
    }

    /** The defaults when no system property says otherwise: 200 tries, seed 0x5eed, 20 s per property. */
    public static final int DEFAULT_TRIES = 200;
    public static final long DEFAULT_SEED = 0x5eedL;
    public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(20);

    public static Settings defaults() {
        int tries = Integer.getInteger("numaspread.tries", DEFAULT_TRIES);
        String seed = System.getProperty("numaspread.seed");
        long s = seed == null ? DEFAULT_SEED : Long.decode(seed);
        long budget = Long.getLong("numaspread.budget.seconds", DEFAULT_BUDGET.toSeconds());
        return new Settings(tries, s, Duration.ofSeconds(budget));
    }

    public Settings withTries(int n) {
        return new Settings(n, seed, budget, machine);
    }

    public Settings withSeed(long s) {
        return new Settings(tries, s, budget, machine);
    }

    public Settings withBudget(Duration b) {
        return new Settings(tries, seed, b, machine);
    }

    /** These settings with every drawn machine replaced by {@code m}. */
    public Settings withMachine(Topology m) {
        return new Settings(tries, seed, budget, Optional.of(m));
    }
}
