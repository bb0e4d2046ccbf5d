package dev.numaspread.conformance.rules;

import dev.numaspread.model.kernel.KernelRelease;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One rule of the specification, as its heading in {@code spec/*.md} gives it.
 *
 * @param id      the permanent id: {@code LS-3}
 * @param title   the heading after the id: {@code Local CPUs come first}
 * @param level   MUST, EXACT or SHOULD
 * @param kernels the releases it holds in ({@code 6.3+})
 * @param sources where it comes from: seeds, commits (id and title), kernel runs
 * @param file    the spec file: {@code spec/local-spread.md}
 * @param line    the line of the heading (1-based)
 * @param text    the Markdown below the level line (and the classes line), up to the next heading
 *                (statement, why, example)
 * @param classes the input classes its checks must draw (RULE-6: the {@code classes:} line,
 *                {@code topogen.InputClass} ids); empty when the rule has no such line
 */
public record Rule(String id, String title, Level level, KernelRange kernels, String sources,
                   String file, int line, String text, java.util.List<String> classes) {

    /** A rule id: an upper-case prefix (letters, then letters or digits), a dash, a number from 1. */
    public static final Pattern ID = Pattern.compile("[A-Z][A-Z0-9]*-[1-9][0-9]*");

    /**
     * Something a writer meant as a rule id but spelled wrong ({@code ls-3}, {@code LS_3},
     * {@code LS-03}, {@code LS-3a}): reported, never silently taken for an ordinary word.
     */
    static final Pattern ID_LIKE = Pattern.compile("(?i)[a-z][a-z0-9]*[-_][0-9]+[a-z0-9]*");

    public Rule {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(kernels, "kernels");
        classes = java.util.List.copyOf(classes);
        if (!ID.matcher(id).matches()) throw new IllegalArgumentException("rule id '" + id + "'; expected an id such as LS-3");
    }

    public static boolean isId(String s) {
        return ID.matcher(s).matches();
    }

    static boolean looksLikeId(String s) {
        return !isId(s) && ID_LIKE.matcher(s).matches();
    }

    /** {@code spec/local-spread.md:41}. */
    public String location() {
        return file + ":" + line;
    }

    /** True when the rule holds in release {@code k}. */
    public boolean appliesTo(KernelRelease k) {
        return kernels.includes(k);
    }

    /**
     * The statement: the text below the level line up to the first {@code *Why:*} or
     * {@code *Example:*} paragraph, lines joined by single spaces.
     */
    public String statement() {
        StringBuilder out = new StringBuilder();
        for (String line : text.split("\r?\n")) {
            String l = line.strip();
            if (l.startsWith("*Why:*") || l.startsWith("*Example:*") || l.startsWith("#")) break;
            if (l.isEmpty()) continue;
            out.append(out.length() == 0 ? "" : l.startsWith("- ") ? "\n" : " ").append(l);
        }
        return out.toString();
    }

    /** A sentence ends at a full stop followed by a capital, a backtick, a quote or a parenthesis. */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=\\.)\\s+(?=[A-Z`\"(])|\\n");

    /**
     * The sentences of the statement, in order, as written (Markdown kept); each bullet of a list is
     * a sentence of its own, the line before the list too. A failure message quotes one of them.
     */
    public java.util.List<String> sentences() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String s : SENTENCE_END.split(statement())) {
            String t = s.strip();
            if (t.startsWith("- ")) t = t.substring(2).strip();
            if (!t.isEmpty()) out.add(t);
        }
        return out;
    }

    /** True when {@code text} contains a sentence of the statement, Markdown emphasis and backticks aside. */
    public boolean isQuotedIn(String text) {
        String plain = plain(text);
        for (String s : sentences()) if (plain.contains(plain(s))) return true;
        return false;
    }

    /** {@code s} without backticks and asterisks, runs of white space as one space. */
    public static String plain(String s) {
        return s.replace("`", "").replace("*", "").replaceAll("\\s+", " ").strip();
    }

    /** {@code LS-3 Local CPUs come first}. */
    @Override
    public String toString() {
        return id + " " + title;
    }
}
