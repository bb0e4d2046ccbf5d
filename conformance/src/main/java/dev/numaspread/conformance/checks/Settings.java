package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.conformance.topogen.MachinePool;
import dev.numaspread.conformance.topogen.SmallMachines;
import dev.numaspread.model.topology.Topology;

import java.time.Duration;
import java.util.Optional;

/**
 * How hard a property is tried: the number of tries, the time budget, and the seed that makes a
 * run replayable. Defaults come from system properties {@code numaspread.tries},
 * {@code numaspread.seed} and {@code numaspread.budget.seconds}, so CI and the CLI set them globally.
 *
 * @param pool       when present, the machines every machine generator gives instead of drawing one
 *                   ({@link MachinePool}: {@code certify --topology cex.topo} replays a saved
 *                   counterexample on a pool of one; {@code --impl kernel:} runs on the booted
 *                   machines); the other draws of a try (a node, a count) vary as usual
 * @param exhaustive 0: random tries; n &gt; 0: instead of them, every case of the small scope n
 *                   ({@code certify --exhaustive n}: every machine of at most n CPUs and every draw
 *                   on it, {@code Property.exhaust}); {@code tries} is then not used
 * @param shard      the share of the tries (or of the cases) this run takes ({@code certify --shard K/N})
 */
public record Settings(int tries, long seed, Duration budget, Optional<MachinePool> pool, int exhaustive, Shard shard) {

    public Settings {
        if (tries < 1) throw new IllegalArgumentException("tries " + tries + " must be at least 1");
        if (exhaustive < 0 || exhaustive > SmallMachines.MAX_SCOPE)
            throw new IllegalArgumentException("exhaustive " + exhaustive + "; expected 0 (random tries) to " + SmallMachines.MAX_SCOPE);
        java.util.Objects.requireNonNull(shard, "shard");
    }

    public Settings(int tries, long seed, Duration budget) {
        this(tries, seed, budget, Optional.empty());
    }

    public Settings(int tries, long seed, Duration budget, Optional<MachinePool> pool) {
        this(tries, seed, budget, pool, 0, Shard.WHOLE);
    }

    /** The defaults when no system property says otherwise: 200 tries, seed 0x5eed, 20 s per property. */
    public static final int DEFAULT_TRIES = 200;
    public static final long DEFAULT_SEED = 0x5eedL;
    public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(20);

    public static Settings defaults() {
        int tries = Integer.getInteger("numaspread.tries", DEFAULT_TRIES);
        String seed = System.getProperty("numaspread.seed");
        long s = seed == null ? DEFAULT_SEED : parseSeed(seed);
        long budget = Long.getLong("numaspread.budget.seconds", DEFAULT_BUDGET.toSeconds());
        return new Settings(tries, s, Duration.ofSeconds(budget));
    }

    /**
     * A seed as {@code --seed} and {@code -Dnumaspread.seed} take it: {@code 0x} and 1 to 16 hex
     * digits (all 64 bits, as replay lines print every seed, a negative one as {@code 0xffff...}),
     * or a decimal long. ASCII digits only: {@code Long.decode} also reads full-width ones.
     *
     * @throws IllegalArgumentException {@code seed '１２': expected a number such as 24301 or 0x5eed (ASCII digits)}
     */
    public static long parseSeed(String text) {
        String t = text.strip();
        if (t.matches("0[xX][0-9a-fA-F]{1,16}")) return Long.parseUnsignedLong(t.substring(2), 16);
        if (t.matches("-?[0-9]{1,19}")) {
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                // past a long: below
            }
        }
        throw new IllegalArgumentException("seed " + dev.numaspread.model.input.Printable.quote(text)
                + ": expected a number such as 24301 or 0x5eed (ASCII digits; hex up to 0xffffffffffffffff)");
    }

    // Alike on purpose (duplicates, issue 26) with QemuGuest: the withers of an immutable record, one per field.
    public Settings withTries(int n) {
        return new Settings(n, seed, budget, pool, exhaustive, shard);
    }

    public Settings withSeed(long s) {
        return new Settings(tries, s, budget, pool, exhaustive, shard);
    }

    public Settings withBudget(Duration b) {
        return new Settings(tries, seed, b, pool, exhaustive, shard);
    }

    /** These settings with every drawn machine replaced by {@code m} (a pool of one). */
    public Settings withMachine(Topology m) {
        return withPool(MachinePool.of(java.util.List.of(m)));
    }

    /** These settings with every drawn machine taken from {@code p}. */
    public Settings withPool(MachinePool p) {
        return new Settings(tries, seed, budget, Optional.of(p), exhaustive, shard);
    }

    /** These settings walking every case of the small scope {@code n} instead of random tries (0: random tries again). */
    public Settings withExhaustive(int n) {
        return new Settings(tries, seed, budget, pool, n, shard);
    }

    /** These settings taking the share {@code s} of the tries or cases. */
    public Settings withShard(Shard s) {
        return new Settings(tries, seed, budget, pool, exhaustive, s);
    }

    /** True when the properties walk a small scope ({@link #exhaustive()} &gt; 0) instead of drawing at random. */
    public boolean isExhaustive() {
        return exhaustive > 0;
    }
}
