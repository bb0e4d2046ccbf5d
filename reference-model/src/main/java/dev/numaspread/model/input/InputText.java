package dev.numaspread.model.input;

import java.util.ArrayList;
import java.util.List;

/**
 * Text from outside as every reader takes it (spec/formats.md FMT-18): UTF-8, no control
 * characters but tabs and line ends, lines of at most {@link #MAX_LINE_CHARS} characters. A
 * leading byte order mark is skipped, and CRLF, LF and a lone CR all end a line (read as LF).
 * Anything else is refused at its place, {@code file:line:col} with {@code col} counting
 * characters from 1: {@code t.topo:3:7: byte 0xc3 is not UTF-8; expected UTF-8 text}.
 *
 * <p>Numbers are ASCII digits only ({@link #decimalValue}): {@code Integer.parseInt} would take
 * full-width and Arabic-Indic digits and a {@code +}.
 */
public final class InputText {

    private InputText() {}

    /** The longest line a line-based reader takes: {@value} characters (256 Ki; 6x the longest line of a canonical 8192-CPU file). */
    public static final int MAX_LINE_CHARS = 256 * 1024;

    /**
     * The lines of the UTF-8 {@code bytes}, line ends removed (a final line end gives a final
     * empty line).
     *
     * @throws InvalidInputException at the first byte that is not text, or the first line too long
     */
    public static List<String> lines(byte[] bytes, String file) {
        return split(decode(bytes, file, MAX_LINE_CHARS), file);
    }

    /** The lines of {@code text} (a doc string, a protocol field), checked as {@link #lines(byte[], String)} checks bytes. */
    public static List<String> lines(String text, String file) {
        return split(check(text, file, MAX_LINE_CHARS), file);
    }

    /**
     * The UTF-8 {@code bytes} as text with line ends made LF, any line length (JSON may be one
     * line).
     *
     * @throws InvalidInputException at the first byte that is not text
     */
    public static String decode(byte[] bytes, String file) {
        return decode(bytes, file, Integer.MAX_VALUE);
    }

    /** {@code text} with line ends made LF, checked as {@link #decode(byte[], String)} checks bytes. */
    public static String check(String text, String file) {
        return check(text, file, Integer.MAX_VALUE);
    }

    /** A line that says something: its number from 1 and its text without the comment and the blanks around it. */
    public record ContentLine(int number, String text) {}

    /**
     * The lines of {@code lines} that say something, as line-based files with comments have them
     * (waivers, page-pool scripts): {@code #} starts a comment to the end of its line, and a line
     * left blank is left out.
     */
    public static List<ContentLine> contentLines(List<String> lines) {
        List<ContentLine> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String text = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (!text.isEmpty()) out.add(new ContentLine(i + 1, text));
        }
        return out;
    }

    private static List<String> split(String text, String file) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
            out.add(text.substring(start, i));
            start = i + 1;
        }
        out.add(text.substring(start));
        return out;
    }

    /** Decodes strictly; {@code line}/{@code col} follow the decoded text so that messages point where an editor does. */
    private static String decode(byte[] b, String file, int maxLine) {
        StringBuilder sb = new StringBuilder(b.length);
        int line = 1, col = 1;
        int i = b.length >= 3 && (b[0] & 0xff) == 0xef && (b[1] & 0xff) == 0xbb && (b[2] & 0xff) == 0xbf ? 3 : 0;
        while (i < b.length) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                if (c == '\n' || c == '\r') {
                    sb.append('\n');
                    i += c == '\r' && i + 1 < b.length && b[i + 1] == '\n' ? 2 : 1;
                    line++;
                    col = 1;
                    continue;
                }
                if (c != '\t' && (c < 0x20 || c == 0x7f)) throw control(file, line, col, c, true);
                sb.append((char) c);
                i++;
            } else {
                int n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
                if (n == 0 || i + n > b.length) throw notUtf8(file, line, col, c);
                int cp = c & (0x7f >> n);
                for (int k = 1; k < n; k++) {
                    int cc = b[i + k] & 0xff;
                    if ((cc & 0xc0) != 0x80) throw notUtf8(file, line, col, c);
                    cp = cp << 6 | (cc & 0x3f);
                }
                // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 (RFC 3629).
                if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
                    throw notUtf8(file, line, col, c);
                if (cp < 0xa0) throw control(file, line, col, cp, false);
                sb.appendCodePoint(cp);
                i += n;
            }
            if (col++ > maxLine) throw tooLong(file, line, maxLine);
        }
        return sb.toString();
    }

    private static String check(String text, String file, int maxLine) {
        StringBuilder sb = null;
        int line = 1, col = 1;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int n = Character.charCount(cp);
            if (cp == '\n' || cp == '\r') {
                boolean crlf = cp == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n';
                if (cp == '\r' && sb == null) sb = new StringBuilder(text.length()).append(text, 0, i);
                if (sb != null) sb.append('\n');
                i += crlf ? 2 : 1;
                line++;
                col = 1;
                continue;
            }
            if (cp != '\t' && (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))) throw control(file, line, col, cp, cp < 0x80);
            if (n == 1 && Character.isSurrogate((char) cp))
                throw new InvalidInputException(file + ":" + line + ":" + col, String.format("a lone surrogate U+%04X; expected text", cp));
            if (sb != null) sb.appendCodePoint(cp);
            i += n;
            if (col++ > maxLine) throw tooLong(file, line, maxLine);
        }
        return sb == null ? text : sb.toString();
    }

    private static InvalidInputException notUtf8(String file, int line, int col, int b) {
        return new InvalidInputException(file + ":" + line + ":" + col, String.format("byte 0x%02x is not UTF-8; expected UTF-8 text", b));
    }

    private static InvalidInputException control(String file, int line, int col, int cp, boolean isByte) {
        String name = switch (cp) {
            case 0 -> "NUL";
            case 0x1b -> "ESC";
            case 0x7f -> "DEL";
            default -> "a control character";
        };
        String what = isByte ? String.format("byte 0x%02x (%s)", cp, name) : String.format("character U+%04X (%s)", cp, name);
        return new InvalidInputException(file + ":" + line + ":" + col, what + "; expected text (tabs and line ends are the only control characters read)");
    }

    private static InvalidInputException tooLong(String file, int line, int maxLine) {
        return new InvalidInputException(file + ":" + line, "a line of more than " + maxLine + " characters; expected lines of at most "
                + maxLine + " (spec/formats.md FMT-17)");
    }

    /**
     * The value of {@code token} when it is one to eighteen ASCII digits {@code 0-9}; -1 when it is
     * anything else (a sign, a space, a full-width digit); {@link Long#MAX_VALUE} when it has more
     * digits than that, so that every limit refuses it without overflow.
     */
    public static long decimalValue(CharSequence token) {
        int n = token.length();
        if (n == 0) return -1;
        long v = 0;
        for (int i = 0; i < n; i++) {
            char ch = token.charAt(i);
            if (ch < '0' || ch > '9') return -1;
            if (i < 18) v = v * 10 + (ch - '0');
        }
        if (n > 18) {
            for (int i = 0; i < n - 18; i++) if (token.charAt(i) != '0') return Long.MAX_VALUE;
            // leading zeros only: the value is in the last 18 digits
            v = 0;
            for (int i = n - 18; i < n; i++) v = v * 10 + (token.charAt(i) - '0');
        }
        return v;
    }
}
