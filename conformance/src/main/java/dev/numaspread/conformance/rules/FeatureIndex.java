package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.bundle.Bundle;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The scenarios of {@code features/*.feature} with the tags they carry, their own and those
 * inherited from their {@code Feature:}, {@code Rule:} and {@code Examples:} lines, as Cucumber
 * applies them. A line scan of the English Gherkin keywords, enough to read tags: doc strings,
 * tables and comments are skipped.
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

    private final List<Scenario> scenarios;
    private final List<Tag> tags;

    private FeatureIndex(List<Scenario> scenarios, List<Tag> tags) {
        this.scenarios = List.copyOf(scenarios);
        this.tags = List.copyOf(tags);
    }

    /** The scenarios of {@code bundle}'s {@code features/} folder. */
    public static FeatureIndex scan(Bundle bundle) {
        SortedMap<String, String> files = new TreeMap<>();
        for (String name : bundle.list("features", ".feature")) files.put("features/" + name, bundle.read("features/" + name));
        return parse(files);
    }

    /** The scenarios of {@code files} (path → text), in path order. */
    public static FeatureIndex parse(SortedMap<String, String> files) {
        List<Scenario> scenarios = new ArrayList<>();
        List<Tag> tags = new ArrayList<>();
        for (var f : files.entrySet()) parseFile(f.getKey(), f.getValue(), scenarios, tags);
        return new FeatureIndex(scenarios, tags);
    }

    private static void parseFile(String file, String text, List<Scenario> scenarios, List<Tag> tagsOut) {
        String[] lines = text.split("\r?\n", -1);
        Set<String> pending = new LinkedHashSet<>();
        Set<String> featureTags = new LinkedHashSet<>();
        Set<String> ruleTags = new LinkedHashSet<>();
        String docDelimiter = null;
        int outline = -1;           // index in scenarios of the current outline, for Examples: tags
        for (int i = 0; i < lines.length; i++) {
            String s = lines[i].strip();
            if (docDelimiter != null) {
                if (s.startsWith(docDelimiter)) docDelimiter = null;
                continue;
            }
            if (s.startsWith("\"\"\"")) { docDelimiter = "\"\"\""; continue; }
            if (s.startsWith("```")) { docDelimiter = "```"; continue; }
            if (s.isEmpty() || s.startsWith("#") || s.startsWith("|")) continue;
            if (s.startsWith("@")) {
                for (String t : s.split("\\s+")) {
                    if (t.startsWith("#")) break;            // a comment after the tags
                    pending.add(t);
                    tagsOut.add(new Tag(file, i + 1, t));
                }
                continue;
            }
            String keyword = keyword(s);
            if (keyword == null) continue;                   // a step or a description line
            String name = s.substring(s.indexOf(':') + 1).strip();
            switch (keyword) {
                case "Feature" -> {
                    featureTags = new LinkedHashSet<>(pending);
                    ruleTags = new LinkedHashSet<>();
                    outline = -1;
                }
                case "Rule" -> {
                    ruleTags = new LinkedHashSet<>(pending);
                    outline = -1;
                }
                case "Background" -> outline = -1;
                case "Examples" -> {
                    if (outline >= 0 && !pending.isEmpty()) {
                        Scenario o = scenarios.get(outline);
                        Set<String> t = new LinkedHashSet<>(o.tags());
                        t.addAll(pending);
                        scenarios.set(outline, new Scenario(o.file(), o.line(), o.name(), t));
                    }
                }
                default -> {                                 // Scenario, Example, Scenario Outline
                    Set<String> t = new LinkedHashSet<>(featureTags);
                    t.addAll(ruleTags);
                    t.addAll(pending);
                    scenarios.add(new Scenario(file, i + 1, name, t));
                    outline = keyword.equals("Scenario Outline") ? scenarios.size() - 1 : -1;
                }
            }
            pending = new LinkedHashSet<>();
        }
    }

    /** The Gherkin keyword that starts line {@code s}, normalised; null for steps and descriptions. */
    private static String keyword(String s) {
        int colon = s.indexOf(':');
        if (colon < 0) return null;
        String k = s.substring(0, colon).strip();
        return switch (k) {
            case "Feature", "Business Need", "Ability" -> "Feature";
            case "Rule" -> "Rule";
            case "Background" -> "Background";
            case "Scenario", "Example" -> "Scenario";
            case "Scenario Outline", "Scenario Template" -> "Scenario Outline";
            case "Examples", "Scenarios" -> "Examples";
            default -> null;
        };
    }

    public List<Scenario> scenarios() {
        return scenarios;
    }

    /** Every tag as written, in file and line order. */
    public List<Tag> tags() {
        return tags;
    }
}
