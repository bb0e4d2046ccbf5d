package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.rules.InvalidSpecException;
import dev.numaspread.conformance.spi.Routine;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A routine's rules are the rule tags of its feature file, read by Cucumber's Gherkin parser. */
class FeatureSuiteTest {

    static final FeatureSuite SUITE = new FeatureSuite(Optional.of("feature-suite"), List.of());

    @Test
    void ruleTagsAreThoseCucumberSeesInFileOrder() {
        // local-spread.feature holds @LS-99 in a doc string and @slow, @ls-3 beside rule tags.
        assertEquals(Set.of("LS-2", "LS-1", "LS-4"), SUITE.ruleTagsOf(Routine.LOCAL_SPREAD));
        assertEquals(List.of("LS-2", "LS-1", "LS-4"), List.copyOf(SUITE.ruleTagsOf(Routine.LOCAL_SPREAD)));
    }

    @Test
    void aRoutineWithoutAFeatureFileHasNoTags() {
        assertEquals(Set.of(), SUITE.ruleTagsOf(Routine.GROUP_CPUS));
        assertEquals(Set.of(), FeatureSuite.none().ruleTagsOf(Routine.LOCAL_SPREAD));
    }

    @Test
    void aBrokenFeatureFileIsNamedWithItsLine() {
        FeatureSuite broken = new FeatureSuite(Optional.of("feature-suite-broken"), List.of());
        InvalidSpecException e = assertThrows(InvalidSpecException.class, () -> broken.ruleTagsOf(Routine.MLX5_NUMA_DISTANCE));
        assertEquals(1, e.problems().size());
        assertEquals("feature-suite-broken/mlx5.feature:4: found \"| a | b |\"; expected one of EOF, Language, TagLine, FeatureLine, Comment, Empty",
                e.problems().get(0));
    }
}
