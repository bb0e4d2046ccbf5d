package dev.numaspread.conformance.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The JUnit tests of a checkout that carry {@link Proves}: every {@code MODULE/src/test/java/**}
 * source is scanned (the annotation is read from source, so the CLI and the gate need no compiled
 * tests). Only annotations that start a line count, so a {@code @Proves} quoted in a string or a
 * comment is not taken for one.
 */
public final class ProvesIndex {

    private static final Pattern START = Pattern.compile("^@(?:[\\w.]+\\.)?Proves\\s*\\(");
    private static final Pattern STRING = Pattern.compile("\"([^\"\\\\]*)\"");
    private static final Pattern MEMBER = Pattern.compile("\\b(?:class|interface|record|enum)\\s+(\\w+)|\\b(\\w+)\\s*\\(");

    private ProvesIndex() {}

    /** The tests of the modules of the checkout at {@code root}, in path order. */
    public static List<Evidence> scan(Path root) {
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path m : modules.sorted().toList()) {
                Path tests = m.resolve("src/test/java");
                if (!Files.isDirectory(tests)) continue;
                try (Stream<Path> files = Files.walk(tests)) {
                    files.filter(p -> p.toString().endsWith(".java")).sorted().forEach(sources::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(root + ": cannot list the test sources", e);
        }
        List<Evidence> out = new ArrayList<>();
        for (Path p : sources) {
            try {
                String where = root.relativize(p).toString().replace('\\', '/');
                out.addAll(parse(where, Files.readString(p, StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new UncheckedIOException(p + ": cannot read", e);
            }
        }
        return out;
    }

    /** The {@code @Proves} annotations of one Java source; {@code file} is its path for messages. */
    public static List<Evidence> parse(String file, String text) {
        String className = file.substring(file.lastIndexOf('/') + 1).replaceFirst("\\.java$", "");
        String[] lines = text.split("\r?\n", -1);
        List<Evidence> out = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (!START.matcher(lines[i].strip()).find()) continue;
            // The arguments run from the annotation's '(' to its matching ')', possibly over lines.
            int j = i;
            int col = lines[i].indexOf('(', lines[i].indexOf("Proves")) + 1;
            int depth = 1;
            boolean inString = false;
            StringBuilder inside = new StringBuilder();
            scan:
            for (; j < lines.length; j++, col = 0) {
                for (int k = col; k < lines[j].length(); k++) {
                    char ch = lines[j].charAt(k);
                    if (ch == '"' && (k == 0 || lines[j].charAt(k - 1) != '\\')) inString = !inString;
                    else if (!inString && ch == '(') depth++;
                    else if (!inString && ch == ')' && --depth == 0) {
                        col = k + 1;
                        break scan;
                    }
                    inside.append(ch);
                }
                inside.append('\n');
            }
            if (j >= lines.length) break;
            String member = memberAfter(lines, j, col, i);
            String name = member.equals(className) ? className : className + "#" + member;
            Matcher m = STRING.matcher(inside);
            while (m.find()) out.add(new Evidence(m.group(1), Evidence.Kind.TEST, name, file + ":" + (i + 1)));
        }
        return out;
    }

    /** The method or class the annotation at line {@code from} belongs to. */
    private static String memberAfter(String[] lines, int end, int col, int from) {
        for (int k = end; k < Math.min(lines.length, end + 12); k++) {
            String s = (k == end ? lines[k].substring(col) : lines[k]).strip();
            for (String prev = ""; s.startsWith("@") && !s.equals(prev); ) {    // drop other annotations
                prev = s;
                s = s.replaceFirst("^@[\\w.]+(\\([^)]*\\))?\\s*", "");
            }
            if (s.startsWith("@") || s.startsWith("//") || s.startsWith("*") || s.startsWith("/*")) continue;
            Matcher m = MEMBER.matcher(s);
            if (m.find()) return m.group(1) != null ? m.group(1) : m.group(2);
        }
        return "line " + (from + 1);
    }
}
