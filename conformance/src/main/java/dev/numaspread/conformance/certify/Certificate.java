package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.spi.Claim;

import java.time.Instant;
import java.util.List;

/**
 * The outcome of certifying one implementation: one result per rule and claimed release, and
 * one NOT-CLAIMED result per rule of an unclaimed routine.
 *
 * @param notes    what the reader must know besides the rules: expired waivers, a claim no rule
 *                 covers, a feature run that could not start
 * @param workload what the run cost: calls, requests, batches, and the time inside the
 *                 implementation and in the kit
 * @param run      the options besides {@code settings} that define the run (rule, release, machine,
 *                 calls repeated, timeout, waivers)
 */
public record Certificate(String implementation, String implSpec, List<Claim> claims, String suiteVersion,
                          Settings settings, Instant started, Instant finished, List<RuleResult> results,
                          List<String> notes, Workload workload, RunOptions run) {

    public Certificate {
        claims = List.copyOf(claims);
        results = List.copyOf(results);
        notes = List.copyOf(notes);
    }

    /** A certificate of a run with {@link RunOptions#DEFAULT} options. */
    public Certificate(String implementation, String implSpec, List<Claim> claims, String suiteVersion, Settings settings,
                       Instant started, Instant finished, List<RuleResult> results, List<String> notes, Workload workload) {
        this(implementation, implSpec, claims, suiteVersion, settings, started, finished, results, notes, workload, RunOptions.DEFAULT);
    }

    /** A certificate that does not say what it cost. */
    public Certificate(String implementation, String implSpec, List<Claim> claims, String suiteVersion, Settings settings,
                       Instant started, Instant finished, List<RuleResult> results, List<String> notes) {
        this(implementation, implSpec, claims, suiteVersion, settings, started, finished, results, notes, Workload.NONE);
    }

    /** The version of the kit that judged ({@code 1.0.0}), from the resource the build fills in; stamped in every report. */
    public static String kitVersion() {
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = Certificate.class.getResourceAsStream("kit.properties")) {
            if (in != null) p.load(in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("kit.properties: cannot read", e);
        }
        return p.getProperty("version", "(unknown version)");
    }

    /** The results for claimed releases (everything but NOT-CLAIMED). */
    public List<RuleResult> claimed() {
        return results.stream().filter(r -> !(r.verdict() instanceof Verdict.NotClaimed)).toList();
    }

    /**
     * 3 when the kit broke anywhere (an INTERNAL-ERROR, or a check or scenario that broke under a
     * rule another source failed); else 0 when the implementation claims something, at least one
     * claimed rule was judged, and every claimed rule is PASS or WAIVED; 1 otherwise (a FAIL,
     * ERROR, UNEXPECTED-PASS or NOT-VERIFIED).
     */
    public int exitCode() {
        if (kitBroke()) return 3;
        List<RuleResult> c = claimed();
        if (claims.isEmpty() || c.isEmpty()) return 1;
        return c.stream().allMatch(RuleResult::isAccepted) ? 0 : 1;
    }

    /**
     * {@code exact} when every claimed MUST and EXACT rule passed, {@code contract} when every MUST
     * rule passed, {@code none} otherwise (also when nothing was judged).
     */
    public String levelReached() {
        List<RuleResult> c = claimed();
        if (c.isEmpty()) return "none";
        boolean must = c.stream().filter(r -> r.level().equals("MUST")).allMatch(r -> r.verdict() instanceof Verdict.Pass);
        boolean exact = c.stream().filter(r -> r.level().equals("EXACT")).allMatch(r -> r.verdict() instanceof Verdict.Pass);
        return must && exact ? "exact" : must ? "contract" : "none";
    }

    /** True when a check or scenario of the kit broke while judging: an internal error, whatever the verdicts. */
    public boolean kitBroke() {
        return results.stream().anyMatch(r -> r.verdict() instanceof Verdict.InternalError
                || r.evidence().stream().anyMatch(e -> e.outcome() == Evidence.Outcome.KIT_FAILED));
    }

    /** How many results carry each label, in the order of {@link Verdict}'s permits. */
    public java.util.Map<String, Integer> counts() {
        java.util.Map<String, Integer> m = new java.util.LinkedHashMap<>();
        for (String l : List.of("PASS", "FAIL", "ERROR", "NOT-CLAIMED", "WAIVED", "UNEXPECTED-PASS", "NOT-VERIFIED", "INTERNAL-ERROR")) m.put(l, 0);
        for (RuleResult r : results) m.merge(r.verdict().label(), 1, Integer::sum);
        return m;
    }
}
