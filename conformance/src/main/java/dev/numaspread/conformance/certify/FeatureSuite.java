package dev.numaspread.conformance.certify;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the Cucumber features and their glue are: by default the features packaged under
 * {@code numaspread/features} on the class path and the glue package
 * {@code dev.numaspread.conformance.steps}. Tests use their own.
 *
 * @param featureRoot a class-path folder such as {@code numaspread/features}; empty runs no feature
 * @param gluePackages the packages Cucumber searches for step definitions
 */
public record FeatureSuite(Optional<String> featureRoot, List<String> gluePackages) {

    private static final Pattern RULE_TAG = Pattern.compile("@([A-Z][A-Z0-9]*-\\d+[a-z]?)\\b");

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
     * The rule ids tagged in {@code <routine>.feature}, in file order; empty when the file does not
     * exist. A family's feature file names the routine it certifies (STYLE §2).
     */
    public Set<String> ruleTagsOf(String routineId) {
        Set<String> out = new LinkedHashSet<>();
        if (featureRoot.isEmpty()) return out;
        try (InputStream in = loader().getResourceAsStream(featureRoot.get() + "/" + routineId + ".feature")) {
            if (in == null) return out;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String l = line.strip();
                if (!l.startsWith("@")) continue;
                Matcher m = RULE_TAG.matcher(l);
                while (m.find()) out.add(m.group(1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(featureRoot.get() + "/" + routineId + ".feature: " + e.getMessage(), e);
        }
        return out;
    }

    /** True when {@code tag} (without {@code @}) has the shape of a rule id. */
    static boolean isRuleTag(String tag) {
        Matcher m = RULE_TAG.matcher(tag);
        return m.matches();
    }

    static ClassLoader loader() {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        return cl != null ? cl : FeatureSuite.class.getClassLoader();
    }
}
