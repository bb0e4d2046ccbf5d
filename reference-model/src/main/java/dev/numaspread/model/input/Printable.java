package dev.numaspread.model.input;

/**
 * Text from outside (a topology's notes, an implementation's name, its messages and stderr) made
 * safe to print on a terminal and in every report (spec/formats.md FMT-19). The one place that
 * decides which characters are shown as escapes: the console, {@code report.md},
 * {@code report.html}, {@code report.json} and {@code junit.xml} all go through it.
 *
 * <p>Escaped: control characters (C0 but for what a form keeps, DEL, C1) as {@code \x1b}, or
 * {@code \n}, {@code \t}, {@code \r}; format characters that reorder or hide text (bidirectional
 * overrides such as U+202E, zero-width characters, the byte order mark), line and paragraph
 * separators, noncharacters (U+FFFE, U+FFFF, U+FDD0..U+FDEF) and lone surrogates as a
 * backslash, {@code u} and the code point in braces ({@code u{202e}}). What remains is text
 * XML 1.0 allows, so an XML writer only has to replace its five markup characters. A backslash is
 * left as it is: the escapes are for eyes, not for reading back.
 */
public final class Printable {

    private Printable() {}

    /** How much of a value a message quotes: {@value} characters, then {@code ...}. */
    public static final int QUOTE_CHARS = 60;

    /** {@code text} on one line: line ends and tabs escaped too. */
    public static String of(CharSequence text) {
        return escape(text, false);
    }

    /** {@code text} keeping its line feeds and tabs: for texts shown as blocks (stderr, a {@code .topo}). */
    public static String ofLines(CharSequence text) {
        return escape(text, true);
    }

    /**
     * {@code 'text'} for a message: at most {@value #QUOTE_CHARS} characters of {@code text}
     * (then {@code ...}), escaped on one line.
     */
    public static String quote(CharSequence text) {
        return "'" + of(cut(text)) + "'";
    }

    /** At most {@value #QUOTE_CHARS} characters (code points) of {@code text}, then {@code ...} when it was longer. */
    public static String cut(CharSequence text) {
        String s = text.toString();
        if (s.length() <= QUOTE_CHARS) return s;
        int end = s.offsetByCodePoints(0, Math.min(QUOTE_CHARS, s.codePointCount(0, s.length())));
        return end == s.length() ? s : s.substring(0, end) + "...";
    }

    /** True when {@link #of} leaves {@code text} as it is. */
    public static boolean isPrintable(CharSequence text) {
        for (int i = 0; i < text.length(); ) {
            int cp = Character.codePointAt(text, i);
            if (escaped(cp, false)) return false;
            i += Character.charCount(cp);
        }
        return true;
    }

    private static String escape(CharSequence text, boolean keepLines) {
        StringBuilder sb = null;
        for (int i = 0; i < text.length(); ) {
            int cp = Character.codePointAt(text, i);
            int n = Character.charCount(cp);
            if (escaped(cp, keepLines)) {
                if (sb == null) sb = new StringBuilder(text.length() + 16).append(text, 0, i);
                switch (cp) {
                    case '\n' -> sb.append("\\n");
                    case '\t' -> sb.append("\\t");
                    case '\r' -> sb.append("\\r");
                    default -> sb.append(cp < 0x100 ? String.format("\\x%02x", cp) : String.format("\\u{%04x}", cp));
                }
            } else if (sb != null) {
                sb.appendCodePoint(cp);
            }
            i += n;
        }
        return sb == null ? text.toString() : sb.toString();
    }

    private static boolean escaped(int cp, boolean keepLines) {
        if (keepLines && (cp == '\n' || cp == '\t')) return false;
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return true;
        if (cp < 0xa0) return false;
        if (Character.isSurrogate((char) cp) && cp <= 0xffff) return true;   // a lone surrogate: Character.codePointAt gave it alone
        if ((cp & 0xfffe) == 0xfffe || (cp >= 0xfdd0 && cp <= 0xfdef)) return true;
        int type = Character.getType(cp);
        return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.CONTROL;
    }
}
