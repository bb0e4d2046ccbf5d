package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.bundle.Bundle;
import io.cucumber.gherkin.GherkinParser;
import io.cucumber.messages.types.Envelope;
import io.cucumber.messages.types.Examples;
import io.cucumber.messages.types.Feature;
import io.cucumber.messages.types.FeatureChild;
import io.cucumber.messages.types.GherkinDocument;
import io.cucumber.messages.types.ParseError;
import io.cucumber.messages.types.RuleChild;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scenarios of {@code features/*.feature} with the tags they carry, their own and those
 * inherited from their {@code Feature:}, {@code Rule:} and {@code Examples:} lines, as Cucumber
 * applies them. The files are read by Cucumber's own Gherkin parser, so what this index sees is
 * what Cucumber runs (any dialect, doc strings, comments after tags).
 */
public final class FeatureIndex {

    /**
     * One scenario (or scenario outline) of a feature file.
     *
     * @param file  {@code features/local-spread.feature}
     * @param line  the line of its keyword
     * @param name  its name
     * @param tags  every tag that applies to it, with the {@code @}
     */
    public record Scenario(String file, int line, String name, Set<String> tags) {
        public Scenario {
            tags = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(tags));
        }

        public String where() {
            return file + ":" + line;
        }
    }

    /** One tag as written, where it was written. */
    public record Tag(String file, int line, String tag) {
        public String where() {
            return file + ":" + line;
        }
    }

    private static final GherkinParser PARSER = GherkinParser.builder()
            .includeSource(false).includeGherkinDocument(true).includePickles(false).build();

    /** Gherkin's parse errors start with {@code (line:column): }. */
    private static final Pattern POSITION = Pattern.compile("^\\((\\d+):\\d+\\): ");

    /** Most of them then say {@code expected: #A, #B, got 'text'}. */
    private static final Pattern EXPECTED_GOT = Pattern.compile("expected: (.*), got '(.*)'", Pattern.DOTALL);

    private final List<Scenario> scenarios;
    private final List<Tag> tags;

    private FeatureIndex(List<Scenario> scenarios, List<Tag> tags) {
        this.scenarios = List.copyOf(scenarios);
        this.tags = List.copyOf(tags);
    }

    /** The scenarios of {@code bundle}'s {@code features/} folder. */
    public static FeatureIndex scan(Bundle bundle) {
        return parse(bundle.texts("features", ".feature"));
    }

    /**
     * The scenarios of {@code files} (path → text), in path order.
     *
     * @throws InvalidSpecException when a file is not Gherkin, one line per error: {@code file:line: found ...; expected ...}
     */
    public static FeatureIndex parse(SortedMap<String, String> files) {
        List<Scenario> scenarios = new ArrayList<>();
        List<Tag> tags = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (var f : files.entrySet()) parseFile(f.getKey(), f.getValue(), scenarios, tags, problems);
        if (!problems.isEmpty()) throw new InvalidSpecException(problems);
        return new FeatureIndex(scenarios, tags);
    }

    private static void parseFile(String file, String text, List<Scenario> scenarios, List<Tag> tagsOut, List<String> problems) {
        List<Envelope> envelopes = PARSER.parse(file, text.getBytes(StandardCharsets.UTF_8)).toList();
        for (Envelope e : envelopes) e.getParseError().ifPresent(p -> problems.add(problem(file, p)));
        List<io.cucumber.messages.types.Tag> written = new ArrayList<>();
        for (Envelope e : envelopes) {
            Feature feature = e.getGherkinDocument().flatMap(GherkinDocument::getFeature).orElse(null);
            if (feature == null) continue;
            written.addAll(feature.getTags());
            Set<String> featureTags = names(feature.getTags());
            for (FeatureChild child : feature.getChildren()) {
                child.getScenario().ifPresent(s -> scenarios.add(scenario(file, s, featureTags, written)));
                child.getRule().ifPresent(rule -> {
                    written.addAll(rule.getTags());
                    Set<String> ruleTags = new LinkedHashSet<>(featureTags);
                    ruleTags.addAll(names(rule.getTags()));
                    for (RuleChild rc : rule.getChildren())
                        rc.getScenario().ifPresent(s -> scenarios.add(scenario(file, s, ruleTags, written)));
                });
            }
        }
        written.stream()
                .sorted(Comparator.comparing((io.cucumber.messages.types.Tag t) -> t.getLocation().getLine())
                        .thenComparing(t -> t.getLocation().getColumn().orElse(0L)))
                .forEach(t -> tagsOut.add(new Tag(file, t.getLocation().getLine().intValue(), t.getName())));
    }

    /** A scenario with the tags it inherits, its own, and those of its {@code Examples:} blocks. */
    private static Scenario scenario(String file, io.cucumber.messages.types.Scenario s, Set<String> inherited,
                                     List<io.cucumber.messages.types.Tag> written) {
        Set<String> t = new LinkedHashSet<>(inherited);
        t.addAll(names(s.getTags()));
        written.addAll(s.getTags());
        for (Examples ex : s.getExamples()) {
            t.addAll(names(ex.getTags()));
            written.addAll(ex.getTags());
        }
        return new Scenario(file, s.getLocation().getLine().intValue(), s.getName(), t);
    }

    private static Set<String> names(List<io.cucumber.messages.types.Tag> tags) {
        Set<String> out = new LinkedHashSet<>();
        for (var t : tags) out.add(t.getName());
        return out;
    }

    /** {@code file:line: found ...; expected ...} from Gherkin's {@code (line:column): expected: ..., got '...'}. */
    private static String problem(String file, ParseError error) {
        String message = error.getMessage();
        long line = error.getSource().getLocation().map(l -> l.getLine()).orElse(0L);
        Matcher at = POSITION.matcher(message);
        if (at.find()) {
            line = Long.parseLong(at.group(1));
            message = message.substring(at.end());
        }
        Matcher m = EXPECTED_GOT.matcher(message);
        String what = m.matches() ? "found \"" + m.group(2).strip() + "\"; expected one of " + m.group(1).replace("#", "")
                : "found " + message + "; expected Gherkin that Cucumber can read";
        return file + ":" + line + ": " + what;
    }

    public List<Scenario> scenarios() {
        return scenarios;
    }

    /** Every tag as written, in file and line order. */
    public List<Tag> tags() {
        return tags;
    }
}
