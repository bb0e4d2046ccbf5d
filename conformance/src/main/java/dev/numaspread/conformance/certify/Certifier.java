package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.process.ProcessImplementation;
import dev.numaspread.conformance.rules.Rule;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.RemoteImplementation;
import dev.numaspread.conformance.spi.Traffic;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.kernel.KernelRelease;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Certifies an implementation: for every claim (routine + release) it runs every check of that
 * routine and every scenario tagged with one of its rules, against the implementation wrapped in
 * a {@link GuardedImplementation}, and turns what they showed into one {@link Verdict} per rule
 * and release. Rules of routines the implementation does not claim are listed as NOT-CLAIMED.
 *
 * <p>Which rules belong to a routine: the rules its checks name, the rules of its spec file and
 * the rules tagged in its feature file ({@link Routine#specFile()}, {@link Routine#featureFile()}).
 * A rule whose kernel range (from the spec) excludes the claimed release is not judged for it.
 */
public final class Certifier {

    private final RuleRegistry registry;
    private final Supplier<List<Check>> checks;
    private final FeatureSuite features;
    private final Supplier<LocalDate> today;

    public Certifier(RuleRegistry registry, Supplier<List<Check>> checks, FeatureSuite features, Supplier<LocalDate> today) {
        this.registry = registry;
        this.checks = checks;
        this.features = features;
        this.today = today;
    }

    /** The certifier of the kit: the spec on the class path, {@link AllChecks#all()}, the packaged features. */
    public static Certifier standard() {
        return new Certifier(RuleRegistry.load(), AllChecks::all, FeatureSuite.standard(), LocalDate::now);
    }

    /**
     * {@code id} when the spec or a check names that rule.
     *
     * @throws IllegalArgumentException {@code found no rule 'LS_3'; did you mean LS-3?}
     */
    public String requireRule(String id) {
        for (Check c : checks.get()) if (c.rule().equals(id)) return id;
        return registry.requireId(id);
    }

    /** The certificate of {@code impl} under {@code options}. */
    public Certificate certify(Implementation impl, CertifyOptions options) {
        Instant started = Instant.now();
        Duration cpuAtStart = Workload.processCpu();
        // A program may have been started (and said hello) before the certification: its wait then is not in it.
        Duration busyAtStart = impl instanceof RemoteImplementation r ? r.traffic().busy() : Duration.ZERO;
        List<String> notes = new ArrayList<>();
        String name;
        List<Claim> allClaims;
        try {
            name = impl.name();
            allClaims = statedClaims(impl.claims());
            if (name == null) throw new ImplementationFailure("name() returned null; expected the implementation's name");
        } catch (RuntimeException e) {
            // A program that cannot be started is the setup's fault: the note must not blame the implementation.
            Optional<String> notStarted = impl instanceof ProcessImplementation p ? p.cannotStart() : Optional.empty();
            notes.add(notStarted.map(why -> "the program could not be started, so nothing was certified (a setup error, not the"
                    + " implementation's): " + why).orElse("the implementation could not state its name and claims: " + stated(e)));
            return new Certificate("?", options.implSpec(), List.of(), Certificate.kitVersion(), options.settings(),
                    started, Instant.now(), List.of(), notes, Workload.NONE, RunOptions.of(options));
        }
        List<Claim> asked = allClaims.stream()
                .filter(c -> options.kernel().map(k -> k.equals(c.kernel())).orElse(true)).distinct().toList();
        if (allClaims.isEmpty()) notes.add("the implementation claims no routine");
        else if (asked.isEmpty())
            notes.add("the implementation claims no routine for kernel " + options.kernel().map(Object::toString).orElse("?")
                    + "; it claims " + allClaims.stream().map(Claim::toString).toList());

        List<Check> allChecks = checks.get();
        // (rule, kernel) -> evidence, in the order rules are first met; sorted at the end.
        Map<String, Map<KernelRelease, List<Evidence>>> scope = new LinkedHashMap<>();
        Map<String, Set<String>> skippedBecause = new TreeMap<>();
        List<Claim> claims = new ArrayList<>(), unjudged = new ArrayList<>();
        for (Claim c : asked) {
            boolean judged = false;
            for (String rule : rulesOf(c.routine(), allChecks))
                if (inScope(rule, c.kernel(), options)) {
                    scope.computeIfAbsent(rule, r -> new TreeMap<>()).computeIfAbsent(c.kernel(), k -> new ArrayList<>());
                    judged = true;
                }
            (judged || options.rule().isPresent() ? claims : unjudged).add(c);
        }
        // A certificate lists only claims something checks (hop masks as 5.4 had them: they came in 6.3).
        if (!unjudged.isEmpty())
            notes.add("not certified: " + unjudged.stream().map(Claim::toString).collect(java.util.stream.Collectors.joining(", "))
                    + ", claimed for " + (unjudged.size() == 1 ? "a release" : "releases") + " in which no rule of "
                    + (unjudged.size() == 1 ? "the routine applies" : "their routines applies") + " (numaspread rules lists each rule's releases)");

        GuardedImplementation guard = new GuardedImplementation(impl, claims, options.callTimeout(), options.repeatCalls(),
                options.settings().pool());
        try {
            runChecks(guard, claims, allChecks, options, scope, skippedBecause, sideBySide(impl));
            new FeatureRun(registry, features).run(guard, claims, scope, options, notes);
        } finally {
            guard.close();
        }
        Instant finished = Instant.now();
        Workload workload = workload(impl, guard, started, finished, Workload.processCpu().minus(cpuAtStart), busyAtStart);

        List<RuleResult> results = new ArrayList<>();
        LocalDate now = today.get();
        for (Map.Entry<String, Map<KernelRelease, List<Evidence>>> r : scope.entrySet())
            for (Map.Entry<KernelRelease, List<Evidence>> k : r.getValue().entrySet())
                results.add(result(r.getKey(), k.getKey(), k.getValue(), skippedBecause.getOrDefault(r.getKey(), Set.of()),
                        options, now, notes));

        Set<Routine> claimedRoutines = new LinkedHashSet<>();
        for (Claim c : allClaims) claimedRoutines.add(c.routine());
        Set<String> listed = new LinkedHashSet<>(scope.keySet());
        for (Routine routine : Routine.values()) {
            if (claimedRoutines.contains(routine) && options.kernel().isEmpty()) continue;
            if (claims.stream().anyMatch(c -> c.routine() == routine)) continue;
            for (String rule : rulesOf(routine, allChecks)) {
                if (options.rule().isPresent() && !options.rule().get().equals(rule)) continue;
                if (!listed.add(rule)) continue;
                Optional<Rule> meta = registry.byId(rule);
                results.add(new RuleResult(rule, meta.map(Rule::title).orElse(""), meta.map(m -> m.level().name()).orElse("MUST"),
                        meta.map(Rule::location).orElse(""), Optional.empty(), new Verdict.NotClaimed(routine.id(),
                        whyNotClaimed(impl, routine)), List.of(), ""));
            }
        }
        for (Waivers.Waiver w : options.waivers().all())
            if (!listed.contains(w.rule()) && registry.byId(w.rule()).isEmpty())
                notes.add(w.location() + ": waiver of " + w.rule() + ", a rule neither the spec nor a check names");
        results.sort(Comparator.comparing((RuleResult r) -> r.verdict() instanceof Verdict.NotClaimed)
                .thenComparing(r -> r.rule(), this::compareRules)
                .thenComparing(r -> r.kernel().orElse(KernelRelease.OLDEST)));
        return new Certificate(name, options.implSpec(), claims, Certificate.kitVersion(), options.settings(), started,
                finished, results, notes, workload, RunOptions.of(options));
    }

    /**
     * {@code claims} as an implementation stated them, when each is a routine and a modelled release.
     *
     * @throws ImplementationFailure for null, a null claim, or a release the model does not have:
     *         no check could judge it, and a certificate must not list a claim nothing checked
     */
    static List<Claim> statedClaims(List<Claim> claims) {
        if (claims == null) throw new ImplementationFailure("claims() returned null; expected a list of claims (empty for none)");
        List<Claim> out = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            Claim c = claims.get(i);
            if (c == null || c.routine() == null || c.kernel() == null)
                throw new ImplementationFailure("claims() holds " + (c == null ? "null" : "a claim without a "
                        + (c.routine() == null ? "routine" : "kernel release")) + " at index " + i + "; expected a routine and a release each");
            try {
                KernelRelease.modelled(c.kernel().toString());
            } catch (IllegalArgumentException e) {
                throw new ImplementationFailure("claims() holds " + c + ": " + e.getMessage());
            }
            out.add(c);
        }
        return List.copyOf(out);
    }

    /** What an implementation's failure to state itself says: its own message, or what it threw when it says nothing. */
    private static String stated(RuntimeException e) {
        if (e instanceof ImplementationFailure || (e.getMessage() != null && !e.getMessage().isBlank() && !(e instanceof NullPointerException)))
            return String.valueOf(e.getMessage());
        return "it threw " + e;
    }

    /** The implementation's reason for not claiming {@code routine}, or empty (it gives none, or cannot say). */
    private static String whyNotClaimed(Implementation impl, Routine routine) {
        try {
            return impl.whyNotClaimed(routine).orElse("");
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** Checks run side by side at most: enough to keep a pipelined program busy on a machine of a few cores. */
    static final int MAX_CHECKS_SIDE_BY_SIDE = 4;

    /** How many checks may run at once against {@code impl}: 1 unless it takes concurrent calls. */
    private static int sideBySide(Implementation impl) {
        if (!(impl instanceof RemoteImplementation remote)) return 1;
        try {
            return Math.max(1, Math.min(MAX_CHECKS_SIDE_BY_SIDE, remote.maxConcurrentCalls()));
        } catch (RuntimeException e) {
            return 1;   // it cannot even say: every call will tell why
        }
    }

    private static Workload workload(Implementation impl, GuardedImplementation guard, Instant started, Instant finished, Duration cpu,
                                     Duration busyAtStart) {
        Workload.Calls calls = guard.callsSoFar();
        Duration total = Duration.between(started, finished);
        if (impl instanceof RemoteImplementation remote) {
            Traffic t = remote.traffic();
            return new Workload(calls.calls(), t.requests(), t.batches(), total, t.busy().minus(busyAtStart), cpu);
        }
        return new Workload(calls.calls(), 0, 0, total, calls.inside(), cpu);
    }

    // ------------------------------------------------------------ scope

    /**
     * The rules of {@code routine}: those its checks name, then those of its spec file and its
     * feature file that no check gives to another routine (a family's files hold the rules of all
     * its routines, as local-spread.md holds the 2020 proposal's).
     */
    private Set<String> rulesOf(Routine routine, List<Check> allChecks) {
        Set<String> out = new LinkedHashSet<>();
        Set<String> elsewhere = new LinkedHashSet<>();
        for (Check c : allChecks) (c.routine() == routine ? out : elsewhere).add(c.rule());
        elsewhere.removeAll(out);
        for (Rule r : registry.rules())
            if (r.file().equals(routine.specFile()) && !elsewhere.contains(r.id())) out.add(r.id());
        for (String tag : features.ruleTagsOf(routine)) if (!elsewhere.contains(tag)) out.add(tag);
        return out;
    }

    private boolean inScope(String rule, KernelRelease kernel, CertifyOptions options) {
        return inScope(registry, rule, kernel, options);
    }

    /** Whether {@code rule} is judged for {@code kernel}: its range holds the release, and {@code --rule} names it when given. */
    static boolean inScope(RuleRegistry registry, String rule, KernelRelease kernel, CertifyOptions options) {
        if (options.rule().isPresent() && !options.rule().get().equals(rule)) return false;
        return registry.byId(rule).map(r -> r.appliesTo(kernel)).orElse(true);
    }

    /** Registry order (spec file, line) first; rules the spec does not list after, by prefix then number. */
    private int compareRules(String a, String b) {
        int ia = index(a), ib = index(b);
        if (ia != ib) return Integer.compare(ia, ib);
        String pa = a.replaceAll("-.*", ""), pb = b.replaceAll("-.*", "");
        if (!pa.equals(pb)) return pa.compareTo(pb);
        return Integer.compare(number(a), number(b));
    }

    private int index(String rule) {
        List<Rule> all = registry.rules();
        for (int i = 0; i < all.size(); i++) if (all.get(i).id().equals(rule)) return i;
        return Integer.MAX_VALUE;
    }

    private static int number(String rule) {
        String n = rule.replaceAll("^[A-Z0-9]*-", "").replaceAll("[^0-9].*", "");
        return n.isEmpty() ? 0 : Integer.parseInt(n);
    }

    // ------------------------------------------------------------ checks

    /**
     * Runs every check of every claim, {@code parallel} at a time (each check still runs its
     * tries in order, so its result does not depend on the others), and files the results in
     * claim and check order.
     */
    private void runChecks(GuardedImplementation guard, List<Claim> claims, List<Check> allChecks, CertifyOptions options,
                           Map<String, Map<KernelRelease, List<Evidence>>> scope, Map<String, Set<String>> skippedBecause,
                           int parallel) {
        record Job(Claim claim, Check check, List<Evidence> into) {}
        List<Job> jobs = new ArrayList<>();
        for (Claim claim : claims) {
            for (Check check : allChecks) {
                if (check.routine() != claim.routine()) continue;
                List<Evidence> into = scope.getOrDefault(check.rule(), Map.of()).get(claim.kernel());
                if (into != null) jobs.add(new Job(claim, check, into));
            }
        }
        // A failure about the implementation rather than the input (a crash, a hang, garbage) is not shrunk:
        // the rule gets its ERROR at once instead of a run of the program per shrink step.
        Predicate<Throwable> shrinks = t -> find(t, ImplementationFailure.class).isEmpty();
        List<CheckResult> results = new ArrayList<>();
        if (parallel <= 1 || jobs.size() <= 1) {
            for (Job j : jobs) {
                try {
                    results.add(guard.watching(() -> CheckRunner.run(j.check(), guard, j.claim().kernel(), options.settings(), shrinks)));
                } catch (ImplementationFailure abandoned) {
                    results.add(new CheckResult.Errored(abandoned, options.settings().seed()));
                }
            }
        } else {
            ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, jobs.size()), DaemonThreads.named("numaspread-check"));
            try {
                List<Future<CheckResult>> futures = new ArrayList<>();
                for (Job j : jobs)
                    futures.add(pool.submit(() -> CheckRunner.run(j.check(), guard, j.claim().kernel(), options.settings(), shrinks)));
                for (Future<CheckResult> f : futures) results.add(f.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the certification was interrupted", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException("kit invariant broken: CheckRunner.run threw " + e.getCause(), e.getCause());
            } finally {
                pool.shutdownNow();
            }
        }
        for (int i = 0; i < jobs.size(); i++) {
            Check check = jobs.get(i).check();
            List<Evidence> into = jobs.get(i).into();
            String source = "check " + check.name();
            CheckResult r = results.get(i);
            if (r instanceof CheckResult.Passed p)
                into.add(Evidence.passed(source, p.tries(), p.judged(), p.graded(), p.cases(), p.machines()));
            else if (r instanceof CheckResult.Failed f)
                into.add(Evidence.failed(source, f.tries(), Counterexample.of(f.violation()), f.graded()));
            else if (r instanceof CheckResult.Errored e) into.add(Evidence.errored(source, reason(e.cause())));
            else if (r instanceof CheckResult.NotVerified n) into.add(Evidence.notVerified(source, n.tries(), n.reason()));
            else if (r instanceof CheckResult.KitFailed k) into.add(Evidence.kitFailed(source, k.failure().getMessage()));
            else if (r instanceof CheckResult.NotApplicable n)
                skippedBecause.computeIfAbsent(check.rule(), k -> new LinkedHashSet<>()).add(check.name() + " " + n.reason());
        }
    }

    private static String reason(Throwable t) {
        Optional<ImplementationFailure> f = find(t, ImplementationFailure.class);
        return f.isPresent() ? f.get().getMessage() : String.valueOf(t.getMessage());
    }

    /** The first of {@code t} and its causes that is a {@code type}. */
    static <T extends Throwable> Optional<T> find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) if (type.isInstance(c)) return Optional.of(type.cast(c));
        return Optional.empty();
    }

    // ------------------------------------------------------------ verdicts

    private RuleResult result(String rule, KernelRelease kernel, List<Evidence> evidence, Set<String> skipped,
                              CertifyOptions options, LocalDate now, List<String> notes) {
        Optional<Rule> meta = registry.byId(rule);
        Verdict v = quoting(Verdict.of(evidence, kernel, skipped), meta);
        if (!(v instanceof Verdict.InternalError))
            for (Evidence e : evidence)
                if (e.outcome() == Evidence.Outcome.KIT_FAILED)
                    notes.add("internal error under " + rule + " (kernel " + kernel + "), " + e.source() + ": " + e.reason());
        Optional<Waivers.Waiver> w = options.waivers().of(rule);
        if (w.isPresent()) {
            if (w.get().expires().isBefore(now)) {
                String note = w.get().location() + ": waiver of " + rule + " expired on " + w.get().expires() + "; the rule is judged as usual";
                if (!notes.contains(note)) notes.add(note);
            } else if (v instanceof Verdict.Pass p) v = new Verdict.UnexpectedPass(w.get(), p.tries());
            else if (v instanceof Verdict.Fail || v instanceof Verdict.Error) v = new Verdict.Waived(w.get(), v);
        }
        return new RuleResult(rule, meta.map(Rule::title).orElse(""), meta.map(m -> m.level().name()).orElse("MUST"),
                meta.map(Rule::location).orElse(""), Optional.of(kernel), v, evidence, replay(options, kernel, rule));
    }

    /**
     * A failure quotes the sentence of the rule it breaks: the one its check named, or else the
     * first sentence of the rule's statement (a scenario names none).
     */
    private static Verdict quoting(Verdict v, Optional<Rule> rule) {
        if (!(v instanceof Verdict.Fail f) || rule.isEmpty() || rule.get().sentences().isEmpty()) return v;
        return new Verdict.Fail(f.counterexample().quotingIfNone(rule.get().sentences().get(0)), f.tries(), f.source());
    }

    /**
     * The command that replays {@code rule} for {@code kernel} with the same seed, tries, budget,
     * per-call timeout and call repetition, started the way this run was ({@link Launch}).
     */
    public static String replay(CertifyOptions options, KernelRelease kernel, String rule) {
        List<String> args = new ArrayList<>(List.of("--impl", Launch.shellWord(options.implSpec()), "--kernel", kernel.toString(),
                "--tries", String.valueOf(options.settings().tries()), "--seed", "0x" + Long.toHexString(options.settings().seed())));
        if (!options.settings().budget().equals(Settings.DEFAULT_BUDGET))
            args.addAll(List.of("--budget", String.valueOf(Math.max(1, options.settings().budget().toSeconds()))));
        if (!options.callTimeout().equals(CertifyOptions.DEFAULT_CALL_TIMEOUT))
            args.addAll(List.of("--timeout", String.valueOf(Math.max(1, options.callTimeout().toSeconds()))));
        if (!options.repeatCalls()) args.add("--once");
        if (options.settings().isExhaustive()) args.addAll(List.of("--exhaustive", String.valueOf(options.settings().exhaustive())));
        if (!options.settings().shard().isWhole()) args.addAll(List.of("--shard", options.settings().shard().toString()));
        args.addAll(List.of("--rule", rule));
        return options.launch().line(args);
    }
}
