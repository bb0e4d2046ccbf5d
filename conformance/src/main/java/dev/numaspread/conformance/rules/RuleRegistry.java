package dev.numaspread.conformance.rules;

import dev.numaspread.conformance.bundle.Bundle;
import dev.numaspread.conformance.topogen.InputClass;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every rule of {@code spec/*.md}, parsed from its heading (format: {@code spec/README.md}).
 *
 * <p>A rule heading is a level-3 heading whose first word is a rule id ({@code ### LS-3 Local CPUs
 * come first}); the next non-blank line is {@code level: ...; kernels: ...; sources: ...}. Other
 * level-3 headings are ordinary headings, unless their first word looks like a misspelt id
 * ({@code ### LS_3 ...}), which is an error. The line after the level line may be
 * {@code classes: ID, ID, ...}: the input classes the rule's checks must draw (RULE-6), each one
 * of {@link InputClass#ids()}. Sources must be reachable from the repository or the kernel's history
 * (RULE-2): a source naming {@code research/} or {@code research §} is an error. Fenced code blocks
 * are skipped, and so are {@code spec/README.md} (it documents the format) and {@code spec/glossary.md}.
 */
public final class RuleRegistry {

    /** The spec files that define no rules. */
    public static final List<String> NOT_RULE_FILES = List.of("README.md", "glossary.md");

    static final String LEVEL_LINE = "level: MUST | EXACT | SHOULD; kernels: ...; sources: ...";

    private static final Pattern HEADING = Pattern.compile("^###(?!#)\\s*(.*?)\\s*#*\\s*$");
    private static final Pattern ANY_HEADING = Pattern.compile("^#{1,6}(\\s.*)?$");
    private static final Pattern LEVEL = Pattern.compile(
            "^level:\\s*(.*?)\\s*;\\s*kernels:\\s*(.*?)\\s*;\\s*sources:\\s*(.*?)\\s*$");
    /** Notes that live outside the repository ({@code research/kernel-semantics.md §8.2}, {@code research §7}). */
    private static final Pattern UNREACHABLE_SOURCE = Pattern.compile(
            "(?i)\\bresearch(?:/[^\\s,;()]*|\\s*§\\s*[^\\s,;()]*)");

    private final List<Rule> rules;                 // spec file order, then line order
    private final Map<String, Rule> byId;           // sorted by id

    private RuleRegistry(List<Rule> rules) {
        this.rules = List.copyOf(rules);
        TreeMap<String, Rule> m = new TreeMap<>();
        for (Rule r : rules) m.put(r.id(), r);
        this.byId = Collections.unmodifiableMap(m);
    }

    /** The rules packaged in the conformance jar ({@code numaspread/spec/}). */
    public static RuleRegistry load() {
        return load(Bundle.classpath());
    }

    /** The rules of {@code bundle}'s {@code spec/} folder. */
    public static RuleRegistry load(Bundle bundle) {
        return parse(bundle.texts("spec", ".md"));
    }

    /**
     * The rules of {@code files} (path such as {@code spec/local-spread.md} → text), in path order.
     *
     * @throws InvalidSpecException listing every malformed heading, level line and duplicate id
     */
    public static RuleRegistry parse(SortedMap<String, String> files) {
        List<Rule> rules = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> f : files.entrySet()) {
            String base = f.getKey().substring(f.getKey().lastIndexOf('/') + 1);
            if (NOT_RULE_FILES.contains(base)) continue;
            parseFile(f.getKey(), f.getValue(), rules, problems);
        }
        TreeMap<String, Rule> seen = new TreeMap<>();
        for (Rule r : rules) {
            Rule first = seen.putIfAbsent(r.id(), r);
            if (first != null)
                problems.add(r.location() + ": found rule " + r.id() + " a second time (first at " + first.location()
                        + "); expected each rule id once: ids are permanent, give a new rule a new number");
        }
        if (!problems.isEmpty()) throw new InvalidSpecException(problems);
        return new RuleRegistry(rules);
    }

    private static void parseFile(String file, String text, List<Rule> rules, List<String> problems) {
        String[] lines = text.split("\r?\n", -1);
        boolean inFence = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (isFence(line)) {
                inFence = !inFence;
                continue;
            }
            if (inFence) continue;
            Matcher h = HEADING.matcher(line);
            if (!h.matches()) continue;
            String heading = h.group(1);
            String first = heading.split("\\s+", 2)[0];
            String where = file + ":" + (i + 1);
            if (Rule.looksLikeId(first)) {
                problems.add(where + ": found heading \"" + line.strip() + "\"; expected \"### ID Title\" with an id"
                        + " such as LS-3 (upper-case letters, a dash, a number from 1)");
                continue;
            }
            if (!Rule.isId(first)) continue;       // an ordinary heading
            String title = heading.substring(first.length()).strip();
            if (title.isEmpty()) {
                problems.add(where + ": found rule " + first + " without a title; expected \"### " + first + " Title\"");
                continue;
            }
            int l = i + 1;
            while (l < lines.length && lines[l].isBlank()) l++;
            String levelWhere = file + ":" + (l >= lines.length ? i + 1 : l + 1);
            if (l >= lines.length || ANY_HEADING.matcher(lines[l]).matches()) {
                problems.add(levelWhere + ": found " + (l >= lines.length ? "the end of the file" : "\"" + lines[l].strip() + "\"")
                        + " after the heading of " + first + "; expected the line \"" + LEVEL_LINE + "\"");
                continue;
            }
            Matcher m = LEVEL.matcher(lines[l].strip());
            if (!m.matches()) {
                problems.add(levelWhere + ": found \"" + lines[l].strip() + "\" after the heading of " + first
                        + "; expected the line \"" + LEVEL_LINE + "\"");
                continue;
            }
            Level level;
            try {
                level = Level.valueOf(m.group(1));
            } catch (IllegalArgumentException e) {
                problems.add(levelWhere + ": found level \"" + m.group(1) + "\" for " + first + "; expected MUST, EXACT or SHOULD");
                continue;
            }
            KernelRange kernels;
            try {
                kernels = KernelRange.parse(m.group(2));
            } catch (IllegalArgumentException e) {
                problems.add(levelWhere + ": " + first + ": " + e.getMessage());
                continue;
            }
            String sources = m.group(3);
            if (sources.isEmpty()) {
                problems.add(levelWhere + ": found no sources for " + first
                        + "; expected seeds, commits (id and title) or kernel runs, e.g. seed 000, commit 406d394abfcd \"...\"");
                continue;
            }
            Matcher unreachable = UNREACHABLE_SOURCE.matcher(sources);
            if (unreachable.find()) {
                problems.add(levelWhere + ": found \"" + unreachable.group() + "\" in the sources of " + first
                        + "; expected sources a reader can reach from the repository or the kernel's history: a seed, a commit"
                        + " (id and title), a kernel file and function at a release, a fixture or a mailing-list thread");
                continue;
            }
            List<String> classes = new ArrayList<>();
            int c = l + 1;
            while (c < lines.length && lines[c].isBlank()) c++;
            if (c < lines.length && lines[c].strip().startsWith("classes:")) {
                String where2 = file + ":" + (c + 1);
                String list = lines[c].strip().substring("classes:".length()).strip();
                if (list.isEmpty())
                    problems.add(where2 + ": found no class after \"classes:\" for " + first + "; expected input classes such as "
                            + String.join(", ", InputClass.ids().subList(0, 3)) + " (spec/rules.md RULE-6)");
                for (String name : list.isEmpty() ? new String[0] : list.split("\\s*,\\s*")) {
                    if (InputClass.byId(name).isEmpty())
                        problems.add(where2 + ": found class \"" + name + "\" for " + first + "; expected one of "
                                + String.join(", ", InputClass.ids()));
                    else if (classes.contains(name))
                        problems.add(where2 + ": found class \"" + name + "\" twice for " + first + "; expected each class once");
                    else classes.add(name);
                }
                l = c;
            }
            int end = l + 1;
            while (end < lines.length && !ANY_HEADING.matcher(lines[end]).matches()) {
                if (isFence(lines[end])) {       // a heading inside an example's fence is not a heading
                    end++;
                    while (end < lines.length && !isFence(lines[end])) end++;
                }
                end++;
            }
            end = Math.min(end, lines.length);
            String body = String.join("\n", java.util.Arrays.asList(lines).subList(l + 1, end)).strip();
            rules.add(new Rule(first, title, level, kernels, sources, file, i + 1, body, classes));
        }
        if (inFence) problems.add(file + ":" + lines.length + ": found the end of the file inside a fenced block; expected a closing ```");
    }

    private static boolean isFence(String line) {
        String s = line.stripLeading();
        return s.startsWith("```") || s.startsWith("~~~");
    }

    /** The rules in spec file order, then in the order of their headings. */
    public List<Rule> rules() {
        return rules;
    }

    /** The rule with id {@code id}, if the spec has it. */
    public Optional<Rule> byId(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public boolean contains(String id) {
        return byId.containsKey(id);
    }

    public int size() {
        return rules.size();
    }

    /**
     * The rules whose ids are closest to {@code id}, closest first, at most three: the id as the
     * registry spells it when {@code id} differs only in case, spaces or {@code _} for {@code -}
     * ({@code ls_3} gives {@code LS-3}); else the ids within two edits, then those of the same
     * prefix with the nearest numbers ({@code LS-99} gives {@code LS-12}, the last LS rule).
     * Empty when nothing is close.
     */
    public List<String> closestIds(String id) {
        String norm = id.strip().toUpperCase(java.util.Locale.ROOT).replace('_', '-').replace(" ", "");
        if (byId.containsKey(norm)) return List.of(norm);
        java.util.TreeMap<Integer, java.util.List<String>> byDistance = new java.util.TreeMap<>();
        for (Rule r : rules) {
            int d = editDistance(norm, r.id());
            if (d <= 2) byDistance.computeIfAbsent(d, k -> new java.util.ArrayList<>()).add(r.id());
        }
        java.util.List<String> out = new java.util.ArrayList<>();
        byDistance.values().forEach(out::addAll);
        int dash = norm.lastIndexOf('-');
        if (out.isEmpty() && dash > 0) {
            String prefix = norm.substring(0, dash + 1);
            long n;
            try {
                n = Long.parseLong(norm.substring(dash + 1));
            } catch (NumberFormatException e) {
                n = 0;
            }
            long want = n;
            rules.stream().filter(r -> r.id().startsWith(prefix))
                    .sorted(java.util.Comparator.comparingLong(r -> Math.abs(Long.parseLong(r.id().substring(prefix.length())) - want)))
                    .forEach(r -> out.add(r.id()));
        }
        return List.copyOf(out.subList(0, Math.min(3, out.size())));
    }

    /**
     * {@code id} when the registry has it.
     *
     * @throws IllegalArgumentException {@code found no rule LS_3; did you mean LS-3?}, naming the
     *                                  closest ids and, for a known prefix, the range of its ids
     */
    public String requireId(String id) {
        if (byId.containsKey(id)) return id;
        List<String> close = closestIds(id);
        StringBuilder sb = new StringBuilder("found no rule '").append(id).append("'");
        if (!close.isEmpty()) sb.append("; did you mean ").append(String.join(", ", close)).append('?');
        String prefix = close.isEmpty() ? "" : close.get(0).substring(0, close.get(0).lastIndexOf('-') + 1);
        List<String> family = rules.stream().map(Rule::id).filter(r -> !prefix.isEmpty() && r.startsWith(prefix)).toList();
        if (family.size() > 1)
            sb.append(" (the ").append(prefix, 0, prefix.length() - 1).append(" rules are ").append(family.get(0))
                    .append(" to ").append(family.get(family.size() - 1)).append(')');
        if (close.isEmpty()) sb.append("; expected a rule id such as ").append(rules.isEmpty() ? "LS-3" : rules.get(0).id())
                .append(" (numaspread rules lists them)");
        throw new IllegalArgumentException(sb.toString());
    }

    /** Levenshtein distance: the fewest inserted, deleted or replaced characters from {@code a} to {@code b}. */
    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++)
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
