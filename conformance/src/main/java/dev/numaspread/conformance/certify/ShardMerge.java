package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.GradedRuns;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.model.input.Printable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Joins the certificates of the shards of one run ({@code certify --shard K/N}, one per CI job)
 * into the certificate of the whole run ({@code numaspread merge-reports}).
 *
 * <p>Each shard ran every check on its share of the tries (or cases) and every scenario whole. So,
 * per rule and release, the evidence of a check adds up over the shards (tries, judged tries,
 * cases; machines: the most one walk covered, or for a booted kernel, whose shards split its
 * machines, their sum), its outcome being the worst any shard saw, while a
 * scenario counts once. The verdict then follows from the joined evidence as in one run
 * ({@link Verdict#of}): a FAIL in one shard fails the run, a shard whose budget ended its
 * share leaves the rule NOT-VERIFIED, and PASS needs every shard to have passed its share. A
 * missing shard leaves every rule that would pass NOT-VERIFIED. Waivers come back from the
 * shards' verdicts (WAIVED, UNEXPECTED-PASS).
 */
public final class ShardMerge {
    private ShardMerge() {}

    /** One shard's certificate and where it was read ({@code ci/shard-2/report.json}). */
    public record Part(String where, Certificate certificate) {}

    /** The certificates are not the shards of one run, or a shard is given twice: a usage error. */
    public static final class NotOneRun extends IllegalArgumentException {
        NotOneRun(String message) {
            super(message);
        }
    }

    /**
     * The certificate of the run whose shards {@code parts} are.
     *
     * @throws NotOneRun when they differ in what defines a run (kit version, implementation, claims,
     *                   seed, shard count, tries, exhaustive scope, budget, and the {@link RunOptions}:
     *                   rule, release, machine, calls, timeout, waivers) or in the rules they judge,
     *                   when two are the same shard, or when their tries add up past an int
     */
    public static Certificate merge(List<Part> parts) {
        if (parts.isEmpty()) throw new NotOneRun("no report to merge; expected the report.json of each shard");
        Part first = parts.get(0);
        Certificate a = first.certificate();
        Map<Integer, Part> byIndex = new TreeMap<>();
        Set<String> keys = keys(a);
        for (Part p : parts) {
            Certificate c = p.certificate();
            same(first, p, "kit version", a.suiteVersion(), c.suiteVersion());
            same(first, p, "implementation", a.implSpec(), c.implSpec());
            same(first, p, "seed", hex(a.settings().seed()), hex(c.settings().seed()));
            same(first, p, "shard count N", String.valueOf(a.settings().shard().count()), String.valueOf(c.settings().shard().count()));
            same(first, p, "tries", String.valueOf(a.settings().tries()), String.valueOf(c.settings().tries()));
            same(first, p, "exhaustive scope", String.valueOf(a.settings().exhaustive()), String.valueOf(c.settings().exhaustive()));
            same(first, p, "budget", a.settings().budget().toSeconds() + " s", c.settings().budget().toSeconds() + " s");
            RunOptions x = a.run(), y = c.run();
            same(first, p, "rule (--rule)", x.rule().orElse("every rule"), y.rule().orElse("every rule"));
            same(first, p, "release (--kernel)", x.kernel().map(Object::toString).orElse("every claimed release"),
                    y.kernel().map(Object::toString).orElse("every claimed release"));
            same(first, p, "machine (--topology)", x.machine().orElse("drawn machines"), y.machine().orElse("drawn machines"));
            same(first, p, "calls", x.repeatCalls() ? "made twice" : "made once (--once)", y.repeatCalls() ? "made twice" : "made once (--once)");
            same(first, p, "per-call timeout", x.callTimeout().toMillis() + " ms", y.callTimeout().toMillis() + " ms");
            same(first, p, "waivers", String.valueOf(x.waivers()), String.valueOf(y.waivers()));
            same(first, p, "claims", new HashSet<>(a.claims()).equals(new HashSet<>(c.claims())) ? "" : a.claims().toString(),
                    new HashSet<>(a.claims()).equals(new HashSet<>(c.claims())) ? "" : c.claims().toString());
            Set<String> theirs = keys(c);
            if (!theirs.equals(keys)) {
                Set<String> onlyFirst = new java.util.TreeSet<>(keys), onlyThis = new java.util.TreeSet<>(theirs);
                onlyFirst.removeAll(theirs);
                onlyThis.removeAll(keys);
                throw new NotOneRun(p.where() + ": judges other rules than " + first.where() + (onlyThis.isEmpty() ? "" : " (only here: "
                        + cut(onlyThis) + ")") + (onlyFirst.isEmpty() ? "" : " (not here: " + cut(onlyFirst) + ")")
                        + "; expected the shards of one run, which judge the same rules");
            }
            Part twice = byIndex.put(c.settings().shard().index(), p);
            if (twice != null)
                throw new NotOneRun(p.where() + ": shard " + c.settings().shard() + " again (also " + twice.where()
                        + "); expected each shard of the run once");
        }
        int n = a.settings().shard().count();
        List<String> missing = new ArrayList<>();
        for (int k = 1; k <= n; k++) if (!byIndex.containsKey(k)) missing.add(k + "/" + n);

        // (rule, release) -> the shards' results, in the first shard's order
        Map<String, List<RuleResult>> byRule = new LinkedHashMap<>();
        for (Part p : byIndex.values())
            for (RuleResult r : p.certificate().results()) byRule.computeIfAbsent(key(r), k -> new ArrayList<>()).add(r);
        List<RuleResult> results = new ArrayList<>();
        for (List<RuleResult> shards : byRule.values()) {
            try {
                results.add(merged(shards, missing));
            } catch (ArithmeticException e) {
                throw new NotOneRun(parts.get(parts.size() - 1).where() + ": the tries of " + key(shards.get(0)) + " in the shards add up past "
                        + Integer.MAX_VALUE + "; expected the shards of one run, whose tries together are the run's");
            }
        }
        List<RuleResult> ordered = new ArrayList<>();
        for (RuleResult r : a.results()) results.stream().filter(m -> key(m).equals(key(r))).findFirst().ifPresent(ordered::add);
        for (RuleResult r : results) if (!ordered.contains(r)) ordered.add(r);

        Set<String> notes = new LinkedHashSet<>();
        notes.add("merged from " + byIndex.size() + " of " + n + " shards: "
                + String.join(", ", byIndex.values().stream().map(p -> p.certificate().settings().shard() + " " + p.where()).toList()));
        if (!missing.isEmpty())
            notes.add("shard" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing) + " not merged: their share of the tries"
                    + " is not covered, so no rule passes");
        for (Part p : byIndex.values()) notes.addAll(p.certificate().notes());
        Instant started = byIndex.values().stream().map(p -> p.certificate().started()).min(Comparator.naturalOrder()).orElseThrow();
        Instant finished = byIndex.values().stream().map(p -> p.certificate().finished()).max(Comparator.naturalOrder()).orElseThrow();
        Workload w = Workload.NONE;
        for (Part p : byIndex.values()) {
            Workload x = p.certificate().workload();
            w = new Workload(w.calls() + x.calls(), w.requests() + x.requests(), w.batches() + x.batches(), w.total().plus(x.total()),
                    w.insideImplementation().plus(x.insideImplementation()), w.kitCpu().plus(x.kitCpu()));
        }
        return new Certificate(a.implementation(), a.implSpec(), a.claims(), a.suiteVersion(), a.settings().withShard(Shard.WHOLE),
                started, finished, ordered, List.copyOf(notes), w, a.run());
    }

    private static void same(Part first, Part p, String what, String want, String found) {
        if (!want.equals(found))
            throw new NotOneRun(p.where() + ": " + what + " " + Printable.cut(found) + " differs from " + first.where() + "'s "
                    + Printable.cut(want) + "; expected the shards of one run (the same kit version, implementation, claims, seed,"
                    + " shard count N, tries, exhaustive scope, budget, rule, release, machine, calls, timeout and waivers)");
    }

    /** Each result's rule and release: the shards of one run judge the same. */
    private static Set<String> keys(Certificate c) {
        Set<String> out = new java.util.TreeSet<>();
        for (RuleResult r : c.results()) out.add(key(r));
        return out;
    }

    private static String cut(Set<String> keys) {
        List<String> l = new ArrayList<>(keys);
        return String.join(", ", l.subList(0, Math.min(3, l.size()))) + (l.size() > 3 ? " and " + (l.size() - 3) + " more" : "");
    }

    private static String key(RuleResult r) {
        return r.rule() + r.kernel().map(k -> " (kernel " + k + ")").orElse("");
    }

    private static RuleResult merged(List<RuleResult> shards, List<String> missing) {
        RuleResult first = shards.get(0);
        if (first.verdict() instanceof Verdict.NotClaimed) return first;
        // source -> joined evidence, in the order sources are first met
        Map<String, Evidence> joined = new LinkedHashMap<>();
        for (RuleResult r : shards)
            for (Evidence e : r.evidence()) joined.merge(e.source(), withCounterexample(e, r), ShardMerge::join);
        List<Evidence> evidence = List.copyOf(joined.values());
        Verdict v;
        if (evidence.isEmpty()) {
            // Nothing ran in any shard: the shards say why alike, and it can only be NOT-VERIFIED.
            v = first.verdict() instanceof Verdict.NotVerified ? first.verdict()
                    : new Verdict.NotVerified("no check or scenario of this rule ran in any shard");
        } else {
            v = Verdict.of(evidence, first.kernel().orElseThrow(), Set.of());
            if (v instanceof Verdict.Fail f && f.counterexample().says().isEmpty())
                for (RuleResult r : shards) if (r.verdict() instanceof Verdict.Fail g && g.source().equals(f.source())) v = g;
            if (v instanceof Verdict.Pass && !missing.isEmpty())
                v = new Verdict.NotVerified("shard" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
                        + " not merged: their share of the tries is not covered");
            Optional<Waivers.Waiver> waiver = shards.stream().map(RuleResult::verdict).map(ShardMerge::waiverOf)
                    .flatMap(Optional::stream).findFirst();
            if (waiver.isPresent()) {
                if (v instanceof Verdict.Pass p) v = new Verdict.UnexpectedPass(waiver.get(), p.tries());
                else if (v instanceof Verdict.Fail || v instanceof Verdict.Error) v = new Verdict.Waived(waiver.get(), v);
            }
        }
        return new RuleResult(first.rule(), first.title(), first.level(), first.location(), first.kernel(), v, evidence,
                first.replay().replaceAll(" --shard [0-9]+/[0-9]+", ""));
    }

    private static Optional<Waivers.Waiver> waiverOf(Verdict v) {
        if (v instanceof Verdict.Waived w) return Optional.of(w.waiver());
        if (v instanceof Verdict.UnexpectedPass u) return Optional.of(u.waiver());
        return Optional.empty();
    }

    /** {@code e}, with the counterexample of its rule's verdict when that verdict names it and it has none. */
    private static Evidence withCounterexample(Evidence e, RuleResult r) {
        if (e.outcome() != Evidence.Outcome.FAILED || e.counterexample().isPresent()) return e;
        Verdict v = r.verdict() instanceof Verdict.Waived w ? w.underlying() : r.verdict();
        Counterexample c = v instanceof Verdict.Fail f && f.source().equals(e.source()) ? f.counterexample()
                : new Counterexample(e.source(), "what the rule states", "a failure; its counterexample is in the shard's own report", "",
                        Optional.empty());
        return new Evidence(e.source(), e.outcome(), e.tries(), e.judged(), Optional.of(c), e.reason(), e.graded(), e.cases(), e.machines());
    }

    /**
     * One source's evidence over two shards: a check's tries, judged tries and cases add up (each
     * shard ran its share), a scenario's do not (each shard ran it whole); the worse outcome wins,
     * with its counterexample or reason; interleavings add up per table.
     */
    private static Evidence join(Evidence x, Evidence y) {
        boolean scenario = x.source().startsWith("scenario ");
        Evidence worse = rank(y.outcome()) < rank(x.outcome()) ? y : x;
        int tries = scenario ? Math.max(x.tries(), y.tries()) : Math.addExact(x.tries(), y.tries());
        int judged = scenario ? Math.max(x.judged(), y.judged()) : Math.addExact(x.judged(), y.judged());
        Map<Object, GradedRuns> graded = new LinkedHashMap<>();
        for (GradedRuns g : x.graded()) graded.merge(g.table(), g, GradedRuns::plus);
        for (GradedRuns g : y.graded()) graded.merge(g.table(), g, GradedRuns::plus);
        return new Evidence(x.source(), worse.outcome(), tries, judged, worse.counterexample(), worse.reason(), List.copyOf(graded.values()),
                scenario ? x.cases() : Math.addExact(x.cases(), y.cases()), machines(x, y, scenario));
    }

    /**
     * The machines behind one source over two shards: a small-scope walk covers the same machines in
     * every shard (the most one covered); a booted kernel's shards ran on machines of their own
     * (random tries, no cases: certify --impl kernel: --shard K/N), which add up.
     */
    private static int machines(Evidence x, Evidence y, boolean scenario) {
        boolean ownMachines = !scenario && x.cases() + y.cases() == 0;
        return ownMachines ? x.machines() + y.machines() : Math.max(x.machines(), y.machines());
    }

    /** FAILED first, then ERRORED, KIT_FAILED, NOT_VERIFIED, PASSED: the order of {@link Verdict}. */
    private static int rank(Evidence.Outcome o) {
        return switch (o) {
            case FAILED -> 0;
            case ERRORED -> 1;
            case KIT_FAILED -> 2;
            case NOT_VERIFIED -> 3;
            case PASSED -> 4;
        };
    }

    private static String hex(long seed) {
        return "0x" + Long.toHexString(seed);
    }
}
