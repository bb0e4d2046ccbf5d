package dev.numaspread.conformance.process;

/**
 * Text that came from the program under certification (its name, its messages, its stderr, a
 * line it should not have written), made safe to print on a terminal and in a report: control
 * characters, line separators, bidirectional and zero-width formatting characters, noncharacters
 * and lone surrogates are shown as {@code \\u001b} ({@code \\U0001fffe} beyond the BMP), never
 * passed on raw. Everything else, non-ASCII letters included, is kept.
 */
final class ProgramText {
    private ProgramText() {}

    /** {@code s} with every character a terminal or a report must not receive raw shown as an escape. */
    static String printable(String s) {
        return quote(s, Integer.MAX_VALUE);
    }

    /**
     * {@code s} made printable and cut to at most {@code max} characters, escapes included; a cut
     * is marked with {@code ...} (within the {@code max}) and never splits an escape.
     */
    static String quote(String s, int max) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 256));
        int fitsWithMark = 0;   // the longest prefix of whole pieces that leaves room for "..."
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int width = Character.charCount(cp);
            String piece;
            if (width == 1 && Character.isSurrogate(s.charAt(i))) piece = String.format("\\u%04x", (int) s.charAt(i));
            else if (isUnsafe(cp)) piece = cp > 0xffff ? String.format("\\U%08x", cp) : String.format("\\u%04x", cp);
            else piece = Character.toString(cp);
            if ((long) sb.length() + piece.length() > max) {
                sb.setLength(fitsWithMark);
                return sb.append("...", 0, Math.min(3, max)).toString();
            }
            sb.append(piece);
            if (sb.length() <= max - 3) fitsWithMark = sb.length();
            i += width;
        }
        return sb.toString();
    }

    private static boolean isUnsafe(int cp) {
        if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f)) return true;     // C0, DEL, C1
        if (cp >= 0x200b && cp <= 0x200f) return true;                                // zero width, LRM, RLM
        if (cp >= 0x2028 && cp <= 0x202e) return true;                                // separators, bidi embedding
        if (cp >= 0x2060 && cp <= 0x206f) return true;                                // word joiner, bidi isolates
        if (cp == 0xfeff) return true;                                                // BOM, zero width no-break space
        if (cp >= 0xfdd0 && cp <= 0xfdef) return true;                                // noncharacters
        return (cp & 0xfffe) == 0xfffe;                                               // U+FFFE, U+FFFF in every plane
    }
}
