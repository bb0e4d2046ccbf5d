package dev.numaspread.conformance.certify;

import dev.numaspread.model.input.InputFile;
import dev.numaspread.model.input.InputText;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.input.Printable;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rules an implementation is allowed to fail, each until an expiry date and for a reason. File
 * format, one waiver per line, {@code #} starts a comment:
 * <pre>
 * LS-3  2026-12-31  nodes are visited by id until acme 2.0
 * </pre>
 * A waived rule that fails is WAIVED; one that passes is UNEXPECTED-PASS; an expired waiver is
 * ignored (the rule is judged as usual) and the certificate says so.
 */
public final class Waivers {

    /** One waiver; {@code location} is {@code file:line}. */
    public record Waiver(String rule, LocalDate expires, String reason, String location) {}

    private static final Pattern LINE = Pattern.compile("([A-Z][A-Z0-9]*-\\d+[a-z]?)\\s+(\\S+)\\s+(.+)");

    private final Map<String, Waiver> byRule;

    private Waivers(Map<String, Waiver> byRule) {
        this.byRule = byRule;
    }

    public static Waivers none() {
        return new Waivers(new TreeMap<>());
    }

    /** The largest waivers file read: a file past it is refused before it is read. */
    public static final int MAX_BYTES = 1 << 20;

    /**
     * The waivers of {@code file}, a regular file of at most {@link #MAX_BYTES} in UTF-8
     * (spec/formats.md FMT-17, FMT-18).
     *
     * @throws InvalidInputException not a regular file, too large, a byte that is not text, or a bad line ({@code file:line: ...})
     */
    public static Waivers read(Path file) {
        return parse(InputText.lines(InputFile.read(file, MAX_BYTES, "a waivers file"), file.toString()), file.toString());
    }

    /**
     * The waivers of {@code text}.
     *
     * @throws IllegalArgumentException {@code file:line: found ...; expected RULE-ID YYYY-MM-DD reason}
     */
    public static Waivers parse(String text, String fileName) {
        return parse(InputText.lines(text, fileName), fileName);
    }

    private static Waivers parse(List<String> lines, String fileName) {
        Map<String, Waiver> out = new TreeMap<>();
        for (InputText.ContentLine l : InputText.contentLines(lines)) {
            String line = l.text();
            String where = fileName + ":" + l.number();
            Matcher m = LINE.matcher(line);
            if (!m.matches())
                throw new InvalidInputException(where, "found " + Printable.quote(line) + "; expected RULE-ID YYYY-MM-DD reason");
            LocalDate expires;
            try {
                expires = LocalDate.parse(m.group(2));
            } catch (DateTimeParseException e) {
                throw new InvalidInputException(where, "found expiry " + Printable.quote(m.group(2)) + "; expected a date YYYY-MM-DD");
            }
            Waiver previous = out.put(m.group(1), new Waiver(m.group(1), expires, m.group(3).strip(), where));
            if (previous != null)
                throw new InvalidInputException(where, "found a second waiver of " + Printable.of(Printable.cut(m.group(1)))
                        + " (first at " + previous.location() + "); expected one waiver per rule");
        }
        return new Waivers(out);
    }

    /** The waiver of {@code rule}, whether expired or not. */
    public Optional<Waiver> of(String rule) {
        return Optional.ofNullable(byRule.get(rule));
    }

    public List<Waiver> all() {
        return new ArrayList<>(byRule.values());
    }
}
