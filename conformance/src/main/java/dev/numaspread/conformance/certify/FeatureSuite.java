package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.rules.FeatureIndex;
import dev.numaspread.conformance.rules.Rule;
import dev.numaspread.conformance.spi.Routine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where the Cucumber features and their glue are: by default the features packaged under
 * {@code numaspread/features} on the class path and the glue package
 * {@code dev.numaspread.conformance.steps}. Tests use their own.
 *
 * @param featureRoot a class-path folder such as {@code numaspread/features}; empty runs no feature
 * @param gluePackages the packages Cucumber searches for step definitions
 */
public record FeatureSuite(Optional<String> featureRoot, List<String> gluePackages) {

    public FeatureSuite {
        gluePackages = List.copyOf(gluePackages);
    }

    public static FeatureSuite standard() {
        return new FeatureSuite(Optional.of("numaspread/features"), List.of("dev.numaspread.conformance.steps"));
    }

    public static FeatureSuite none() {
        return new FeatureSuite(Optional.empty(), List.of());
    }

    /** True when the feature folder exists on the class path. */
    public boolean isPresent() {
        return featureRoot.isPresent() && loader().getResource(featureRoot.get()) != null;
    }

    /**
     * The rule ids tagged in the feature file of {@code routine} ({@link Routine#featureFile()},
     * found under {@link #featureRoot}), in file order; empty when the file does not exist. The
     * file is read by Cucumber's Gherkin parser, so a tag-like line inside a doc string is not a tag.
     *
     * @throws dev.numaspread.conformance.rules.InvalidSpecException when the file is not Gherkin (file:line)
     */
    public Set<String> ruleTagsOf(Routine routine) {
        Set<String> out = new LinkedHashSet<>();
        if (featureRoot.isEmpty()) return out;
        // The feature root stands for the features/ folder of the checkout.
        String path = featureRoot.get() + routine.featureFile().substring("features".length());
        try (InputStream in = loader().getResourceAsStream(path)) {
            if (in == null) return out;
            SortedMap<String, String> file = new TreeMap<>(Map.of(path, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            for (FeatureIndex.Tag t : FeatureIndex.parse(file).tags()) {
                String id = t.tag().substring(1);
                if (Rule.isId(id)) out.add(id);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": " + e.getMessage(), e);
        }
        return out;
    }

    static ClassLoader loader() {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        return cl != null ? cl : FeatureSuite.class.getClassLoader();
    }
}
