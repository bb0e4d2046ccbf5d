package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.rules.FeatureIndex;
import dev.numaspread.conformance.rules.Rule;
import dev.numaspread.conformance.spi.Family;
import dev.numaspread.conformance.spi.Routine;

import io.cucumber.core.feature.FeatureParser;
import io.cucumber.core.gherkin.Feature;
import io.cucumber.core.resource.Resource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Where the Cucumber features and their glue are: by default the features packaged under
 * {@code numaspread/features} on the class path and the glue package
 * {@code dev.numaspread.conformance.steps}. Tests use their own.
 *
 * @param featureRoot a class-path folder such as {@code numaspread/features}; empty runs no feature
 * @param gluePackages the packages Cucumber searches for step definitions
 * @param calls        per family, the routines the scenarios of its feature file call, when
 *                     known: a certification then runs only the feature files that can matter to
 *                     it ({@link #featuresFor}); empty runs every feature file under the root
 */
public record FeatureSuite(Optional<String> featureRoot, List<String> gluePackages, Optional<Map<Family, Set<Routine>>> calls) {

    public FeatureSuite {
        gluePackages = List.copyOf(gluePackages);
        calls = calls.map(m -> {
            Map<Family, Set<Routine>> copy = new EnumMap<>(Family.class);
            m.forEach((f, r) -> copy.put(f, r.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(r))));
            return java.util.Collections.unmodifiableMap(copy);
        });
    }

    /** A suite whose feature files all run in every certification. */
    public FeatureSuite(Optional<String> featureRoot, List<String> gluePackages) {
        this(featureRoot, gluePackages, Optional.empty());
    }

    /**
     * The packaged features and glue, with the routines each feature file calls: the calls of
     * each scenario against the reference model, gathered per file ({@code FeatureCallsTest}
     * keeps this table equal to them).
     */
    public static FeatureSuite standard() {
        Map<Family, Set<Routine>> calls = new EnumMap<>(Family.class);
        calls.put(Family.LOCAL_SPREAD, EnumSet.of(Routine.LOCAL_SPREAD, Routine.LOCAL_SPREAD_NEAREST_NODE));
        calls.put(Family.NUMA_LEVELS, EnumSet.of(Routine.NUMA_LEVELS, Routine.HOP_MASKS, Routine.NUMA_CLOSEST, Routine.NUMA_NTH,
                Routine.LOCAL_SPREAD, Routine.MLX5_COMP_IRQS));
        calls.put(Family.NUMA_HOPS, EnumSet.of(Routine.NUMA_LEVELS, Routine.HOP_MASKS, Routine.NUMA_CLOSEST, Routine.NUMA_NTH,
                Routine.NUMA_NEAREST_NODE));
        calls.put(Family.MLX5, EnumSet.of(Routine.LOCAL_SPREAD, Routine.MLX5_NUMA_DISTANCE, Routine.MLX5_COMP_IRQS));
        calls.put(Family.SIBLING_SPREAD, EnumSet.of(Routine.IRQ_SETUP, Routine.MANA_SETUP_IRQS));
        calls.put(Family.GROUP_CPUS, EnumSet.of(Routine.GROUP_CPUS));
        calls.put(Family.BLK_MQ, EnumSet.of(Routine.BLK_MQ_MAP, Routine.IRQ_AFFINITY_MASKS));
        calls.put(Family.PAGE_POOL, EnumSet.of(Routine.PAGE_POOL));
        calls.put(Family.HOTPLUG, EnumSet.of(Routine.IRQ_SETUP, Routine.MANA_SETUP_IRQS));
        calls.put(Family.NIC, EnumSet.of(Routine.VIRTIO_NET_IRQS, Routine.ENA_IRQS, Routine.GVE_IRQS, Routine.ICE_IRQS,
                Routine.I40E_IRQS, Routine.BNXT_IRQS));
        calls.put(Family.TOPOLOGY, Set.of());
        calls.put(Family.FORMATS, Set.of());
        calls.put(Family.RULES, Set.of());
        return new FeatureSuite(Optional.of("numaspread/features"), List.of("dev.numaspread.conformance.steps"), Optional.of(calls));
    }

    public static FeatureSuite none() {
        return new FeatureSuite(Optional.empty(), List.of());
    }

    /**
     * The feature files a certification of {@code claimed} runs, as class-path paths: the files
     * of the families of {@code ruleFamilies} (the rules it judges: their scenarios show even when
     * they fail before reaching the implementation) and every file whose scenarios call a claimed
     * routine (they prove their rules for it, whatever family those rules belong to). A scenario
     * of any other file can only stop at its first call, as not claimed, or call none: it proves
     * nothing about the implementation, so it is not run. Empty when {@link #calls} is not
     * known: then every file under the root runs.
     */
    public Optional<List<String>> featuresFor(Collection<Routine> claimed, Collection<Family> ruleFamilies) {
        if (featureRoot.isEmpty() || calls.isEmpty()) return Optional.empty();
        List<String> out = new ArrayList<>();
        for (Family f : Family.values()) {
            boolean calling = calls.get().getOrDefault(f, Set.of()).stream().anyMatch(claimed::contains);
            if (!calling && !ruleFamilies.contains(f)) continue;
            String path = featureRoot.get() + f.featureFile().substring("features".length());
            if (loader().getResource(path) != null) out.add(path);
        }
        return Optional.of(out);
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

    /**
     * The features of {@code paths} (class-path paths, as {@link #featuresFor} gives them), parsed
     * by Cucumber's parser under the URIs its class-path scan would give them
     * ({@code classpath:numaspread/features/local-spread.feature}), in the order given.
     *
     * @throws io.cucumber.core.exception.CucumberException when a file is missing or not Gherkin
     */
    public List<Feature> parse(List<String> paths) {
        FeatureParser parser = new FeatureParser(UUID::randomUUID);
        List<Feature> out = new ArrayList<>();
        for (String path : paths) {
            URI uri = URI.create("classpath:" + path);
            Resource resource = new Resource() {
                @Override public URI getUri() { return uri; }

                @Override public InputStream getInputStream() throws IOException {
                    InputStream in = loader().getResourceAsStream(path);
                    if (in == null) throw new IOException(path + ": not on the class path");
                    return in;
                }
            };
            parser.parseResource(resource).ifPresent(out::add);
        }
        return out;
    }

    static ClassLoader loader() {
        ClassLoader cl = Thread.currentThread().getContextClassLoader();
        return cl != null ? cl : FeatureSuite.class.getClassLoader();
    }
}
