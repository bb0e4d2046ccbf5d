package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Family;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.steps.ImplementationUnderTest;
import io.cucumber.core.options.CommandlineOptionsParser;
import io.cucumber.core.options.RuntimeOptions;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A certification runs only the feature files that can matter to its claims, by the table of
 * {@link FeatureSuite#standard()}: so the table must say what the scenarios really call.
 *
 * <p>If this test fails, the following could be checked: a new scenario calls a routine its
 * feature file did not call before (add it to the table), or a new feature file (add its family).
 */
class FeatureCallsTest {

    /** Every packaged scenario, run against the reference model, which claims every routine. */
    @Test
    void theTableNamesEveryRoutineEachFeatureFileCalls() {
        ReferenceModel model = new ReferenceModel();
        GuardedImplementation guard = new GuardedImplementation(model, model.claims(), Duration.ofSeconds(60), false);
        RuntimeOptions options = new CommandlineOptionsParser(OutputStream.nullOutputStream())
                .parse("--glue", "dev.numaspread.conformance.steps", "--monochrome", "classpath:numaspread/features")
                .setNoSummary().setPublishQuiet(true).build();
        ScenarioCollector collector = new ScenarioCollector(guard);
        ImplementationUnderTest.install(guard);
        try {
            io.cucumber.core.runtime.Runtime.builder().withRuntimeOptions(options).withClassLoader(FeatureSuite::loader)
                    .withAdditionalPlugins(collector).build().run();
        } finally {
            ImplementationUnderTest.reset();
            guard.close();
        }
        Map<Family, Set<Routine>> called = new EnumMap<>(Family.class);
        for (ScenarioCollector.Scenario s : collector.scenarios()) {
            String file = s.location().replaceAll(":[0-9]+$", "");
            Family family = dev.numaspread.model.input.HasId.byId(Family.class, file.replaceAll("^features/|\\.feature$", "")).orElseThrow(
                    () -> new AssertionError(file + ": a feature file of no family"));
            Set<Routine> routines = called.computeIfAbsent(family, f -> EnumSet.noneOf(Routine.class));
            for (Claim c : s.exercised()) routines.add(c.routine());
        }
        assertTrue(called.size() >= 12, "scenarios of " + called.size() + " feature files ran; expected the 12 packaged ones");
        assertEquals(called, FeatureSuite.standard().calls().orElseThrow());
    }

    @Test
    void aLocalSpreadCertificationRunsTheFilesThatCallLocalSpread() {
        assertEquals(List.of("numaspread/features/local-spread.feature", "numaspread/features/numa-levels.feature",
                        "numaspread/features/mlx5.feature"),
                FeatureSuite.standard().featuresFor(Set.of(Routine.LOCAL_SPREAD), Set.of(Family.LOCAL_SPREAD)).orElseThrow());
    }

    /** A rule's own file runs even when none of its scenarios reaches a claimed routine: a failure there still shows. */
    @Test
    void theFilesOfTheJudgedRulesRunToo() {
        assertEquals(List.of("numaspread/features/page-pool.feature", "numaspread/features/topology.feature"),
                FeatureSuite.standard().featuresFor(Set.of(Routine.PAGE_POOL), Set.of(Family.TOPOLOGY)).orElseThrow());
        assertEquals(List.of(), FeatureSuite.standard().featuresFor(Set.of(), Set.of(Family.AUDIT)).orElseThrow(),
                "audit has no feature file");
    }

    /** The files a certification names are parsed under the URIs Cucumber's class-path scan gives them. */
    @Test
    void namedFilesAreParsedUnderTheirClassPathUris() {
        List<io.cucumber.core.gherkin.Feature> parsed = FeatureSuite.standard()
                .parse(List.of("numaspread/features/local-spread.feature", "numaspread/features/mlx5.feature"));
        assertEquals(List.of("classpath:numaspread/features/local-spread.feature", "classpath:numaspread/features/mlx5.feature"),
                parsed.stream().map(f -> f.getUri().toString()).toList());
        assertEquals(Optional.of("Local spread"), parsed.get(0).getName());
    }

    @Test
    void aSuiteWithoutTheTableRunsEveryFile() {
        assertTrue(CertifierFeaturesTest.SUITE.featuresFor(Set.of(Routine.LOCAL_SPREAD), Set.of()).isEmpty());
    }
}
