package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Family;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.steps.ImplementationUnderTest;
import dev.numaspread.conformance.topogen.MachinePool;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import io.cucumber.core.options.CommandlineOptionsParser;
import io.cucumber.core.options.RuntimeOptions;
import io.cucumber.plugin.event.Status;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The scenarios of a certification ({@link Certifier}): the feature files that can matter to the
 * claims run under Cucumber against the guarded implementation, and each scenario that reached a
 * claimed routine, or failed before it, becomes evidence for the rules it is tagged with.
 */
final class FeatureRun {

    private final RuleRegistry registry;
    private final FeatureSuite features;

    FeatureRun(RuleRegistry registry, FeatureSuite features) {
        this.registry = registry;
        this.features = features;
    }

    /**
     * Runs every scenario that can matter to the claims (those of the feature files
     * {@link FeatureSuite#featuresFor} names; only those of {@code --rule} when one is given)
     * against the guarded implementation. A scenario counts for each claim it exercised, whatever family its rule
     * belongs to: a scenario tagged with a NUMA-levels rule that calls local spread proves that rule
     * for a local-spread claim too, and brings the rule into the certificate for that release.
     */
    void run(GuardedImplementation guard, List<Claim> claims, Map<String, Map<KernelRelease, List<Evidence>>> scope,
             CertifyOptions options, List<String> notes) {
        if (claims.isEmpty() || features.featureRoot().isEmpty()) return;
        Optional<MachinePool> pool = options.settings().pool();
        if (pool.isPresent() && pool.get().whyNoScenarios().isPresent()) {
            // Scenarios bring their own machines: a replay on a given machine runs the checks that draw one.
            notes.add(pool.get().whyNoScenarios().get());
            return;
        }
        if (!features.isPresent()) {
            notes.add(features.featureRoot().get() + ": no features on the class path; scenarios were not run");
            return;
        }
        List<String> args = new ArrayList<>();
        for (String g : features.gluePackages()) {
            args.add("--glue");
            args.add(g);
        }
        if (options.rule().isPresent()) {
            args.add("--tags");
            args.add("@" + options.rule().get());
        }
        args.add("--monochrome");
        Set<Routine> claimed = EnumSet.noneOf(Routine.class);
        for (Claim c : claims) claimed.add(c.routine());
        Optional<List<String>> files = ruleFamilies(scope.keySet()).flatMap(families -> features.featuresFor(claimed, families));
        if (files.isPresent() && files.get().isEmpty()) return;
        if (files.isEmpty()) args.add("classpath:" + features.featureRoot().get());
        RuntimeOptions runtimeOptions = new CommandlineOptionsParser(OutputStream.nullOutputStream())
                .parse(args.toArray(String[]::new)).setNoSummary().setPublishQuiet(true).build();
        ScenarioCollector collector = new ScenarioCollector(guard);
        try {
            // Cucumber runs the scenarios on the thread that runs it: the implementation is installed there.
            guard.watching(() -> {
                ImplementationUnderTest.install(guard);
                try {
                    if (pool.isPresent() && pool.get().listsScenarioMachines()) {
                        // A first run only names the machines the scenarios call about; the pool makes them ready at once.
                        pool.get().scenarios(MachinePool.ScenarioPhase.LISTING);
                        runCucumber(runtimeOptions, files, new ScenarioCollector(guard));
                        guard.drainCalls();
                    }
                    pool.ifPresent(p -> p.scenarios(MachinePool.ScenarioPhase.RUNNING));
                    runCucumber(runtimeOptions, files, collector);
                } finally {
                    ImplementationUnderTest.reset();
                }
                return null;
            });
        } catch (ImplementationFailure abandoned) {
            // A call that would not return even when interrupted: the scenarios after it did not run.
            notes.add("the feature run stopped: " + abandoned.getMessage());
            for (Map<KernelRelease, List<Evidence>> byKernel : scope.values())
                for (List<Evidence> ev : byKernel.values()) ev.add(Evidence.errored("features", abandoned.getMessage()));
        } catch (RuntimeException e) {
            notes.add("the feature run could not complete: " + e);
            for (Map<KernelRelease, List<Evidence>> byKernel : scope.values())
                for (List<Evidence> ev : byKernel.values()) ev.add(Evidence.errored("features", "the feature run could not complete: " + e));
        } finally {
            pool.ifPresent(p -> p.scenarios(MachinePool.ScenarioPhase.DONE));
        }
        Map<String, List<String>> notRun = new TreeMap<>();
        for (ScenarioCollector.Scenario s : collector.scenarios()) {
            Optional<MachineOutOfReach> out = s.error().flatMap(e -> Certifier.find(e, MachineOutOfReach.class));
            if (out.isPresent()) notRun.computeIfAbsent(out.get().getMessage(), k -> new ArrayList<>()).add(s.location());
            else addScenario(s, scope, options);
        }
        // A scenario whose machine the implementation does not run on judged nothing: listed, with why.
        for (Map.Entry<String, List<String>> e : notRun.entrySet())
            notes.add(e.getValue().size() + " scenario" + (e.getValue().size() == 1 ? "" : "s") + " not run: " + e.getKey() + " ("
                    + String.join(", ", e.getValue()) + ")");
    }

    /** Runs the scenarios of {@code files} (every packaged one when empty) with {@code collector} listening. */
    private void runCucumber(RuntimeOptions runtimeOptions, Optional<List<String>> files, ScenarioCollector collector) {
        io.cucumber.core.runtime.Runtime.Builder cucumber = io.cucumber.core.runtime.Runtime.builder()
                .withRuntimeOptions(runtimeOptions)
                .withClassLoader(FeatureSuite::loader)
                .withAdditionalPlugins(collector);
        // Named files are read as class-path resources: Cucumber's own scan would open the whole jar
        // as a zip file system once per file.
        if (files.isPresent()) cucumber.withFeatureSupplier(() -> features.parse(files.get()));
        cucumber.build().run();
    }

    /** The families whose spec files hold {@code rules}; empty when one of them is in none. */
    private Optional<Set<Family>> ruleFamilies(Set<String> rules) {
        Set<Family> out = EnumSet.noneOf(Family.class);
        for (String rule : rules) {
            Optional<Family> family = registry.byId(rule)
                    .flatMap(r -> Arrays.stream(Family.values()).filter(f -> f.specFile().equals(r.file())).findFirst());
            if (family.isEmpty()) return Optional.empty();
            out.add(family.get());
        }
        return Optional.of(out);
    }

    private void addScenario(ScenarioCollector.Scenario s, Map<String, Map<KernelRelease, List<Evidence>>> scope, CertifyOptions options) {
        if (s.status() == Status.SKIPPED || s.status() == Status.UNUSED) return;
        if (s.error().flatMap(e -> Certifier.find(e, NotClaimedCall.class)).isPresent()) return;
        String source = "scenario " + s.location() + " \"" + s.name() + "\"";
        Evidence evidence = switch (s.status()) {
            case PASSED -> Evidence.passed(source, 1);
            case FAILED -> scenarioFailure(source, s);
            default -> Evidence.kitFailed(source, "the scenario cannot run: a step is " + s.status().name().toLowerCase()
                    + "; expected glue for every step (a bug of numaspread, not of the implementation)");
        };
        Set<KernelRelease> exercised = new LinkedHashSet<>();
        for (Claim c : s.exercised()) exercised.add(c.kernel());
        // The scenario's rules join the certificate for each release it exercised, even when no
        // claimed routine's family holds them.
        for (String tag : s.tags())
            for (KernelRelease k : exercised)
                if (registry.contains(tag) && Certifier.inScope(registry, tag, k, options))
                    scope.computeIfAbsent(tag, r -> new TreeMap<>()).computeIfAbsent(k, x -> new ArrayList<>());
        for (String tag : s.tags()) {
            Map<KernelRelease, List<Evidence>> byKernel = scope.get(tag);
            if (byKernel == null) continue;
            for (Map.Entry<KernelRelease, List<Evidence>> k : byKernel.entrySet()) {
                // A scenario that never reached the implementation proves nothing about it; one that
                // failed before reaching it still shows, so the gap is seen.
                boolean applies = exercised.isEmpty() ? s.status() != Status.PASSED : exercised.contains(k.getKey());
                if (applies) k.getValue().add(evidence);
            }
        }
    }

    private static Evidence scenarioFailure(String source, ScenarioCollector.Scenario s) {
        Throwable e = s.error().orElse(new AssertionError("no error reported"));
        Optional<ImplementationFailure> f = Certifier.find(e, ImplementationFailure.class);
        if (f.isPresent()) return Evidence.errored(source, f.get().getMessage());
        Optional<Violation> v = Certifier.find(e, Violation.class);
        if (v.isPresent()) return Evidence.failed(source, 1, Counterexample.of(v.get()));
        if (e instanceof AssertionError)
            return Evidence.failed(source, 1, new Counterexample("scenario " + s.location() + " \"" + s.name() + "\"",
                    "what the scenario states", String.valueOf(e.getMessage()).strip(), "", Optional.empty()));
        // A kernel crash is an answer the guard lets through; the scenario expected another.
        Optional<KernelBug> bug = Certifier.find(e, KernelBug.class);
        if (bug.isPresent())
            return Evidence.failed(source, 1, new Counterexample("scenario " + s.location() + " \"" + s.name() + "\"",
                    "what the scenario states", "a kernel crash (" + bug.get().getMessage() + ")", "", Optional.empty()));
        return Evidence.kitFailed(source, "the glue of the scenario broke" + CheckRunner.where(e) + ": " + CheckRunner.message(e)
                + "; a bug of numaspread, please report it");
    }
}
