package dev.numaspread.model.input;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Every byte is text or a clear error (spec/formats.md FMT-18), and digits are ASCII (FMT-16). */
class InputTextTest {

    static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) out[i] = (byte) b[i];
        return out;
    }

    static byte[] concat(String text, int... tail) {
        byte[] head = text.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + tail.length];
        System.arraycopy(head, 0, out, 0, head.length);
        for (int i = 0; i < tail.length; i++) out[head.length + i] = (byte) tail[i];
        return out;
    }

    static byte[] ascii(int n) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) '1');
        return b;
    }

    static String error(byte[] b) {
        return assertThrows(InvalidInputException.class, () -> InputText.lines(b, "x.topo")).getMessage();
    }

    @Test
    void FMT_18_namesTheByteThatIsNotUtf8() {
        assertEquals("x.topo:1:15: byte 0xc3 is not UTF-8; expected UTF-8 text", error(concat("node 0 cpus: 0", 0xc3)));
        assertEquals("x.topo:2:3: byte 0xe9 is not UTF-8; expected UTF-8 text", error(concat("a\nbc", 0xe9, 'x')));   // Latin-1 é
        assertEquals("x.topo:1:1: byte 0xc0 is not UTF-8; expected UTF-8 text", error(bytes(0xc0, 0x80)));           // overlong NUL
        assertEquals("x.topo:1:1: byte 0xed is not UTF-8; expected UTF-8 text", error(bytes(0xed, 0xa0, 0x80)));     // a surrogate
        assertEquals("x.topo:1:1: byte 0xf4 is not UTF-8; expected UTF-8 text", error(bytes(0xf4, 0x90, 0x80, 0x80))); // past U+10FFFF
        assertEquals("x.topo:1:2: byte 0xff is not UTF-8; expected UTF-8 text", error(bytes('a', 0xff)));
        assertEquals("x.topo:1:2: byte 0xe2 is not UTF-8; expected UTF-8 text", error(bytes('a', 0xe2, 0x82)));      // cut short
        assertEquals("x.topo:1:3: byte 0x80 is not UTF-8; expected UTF-8 text", error(bytes('a', 'b', 0x80)));       // a lone continuation
    }

    @Test
    void FMT_18_columnsCountCharactersNotBytes() {
        assertEquals("x.topo:1:4: byte 0xff is not UTF-8; expected UTF-8 text", error(concat("é€", 'x', 0xff)));
    }

    @Test
    void FMT_18_refusesNulAndControlCharacters() {
        assertEquals("x.topo:1:3: byte 0x00 (NUL); expected text (tabs and line ends are the only control characters read)",
                error(bytes('a', 'b', 0, 'c')));
        assertEquals("x.topo:2:1: byte 0x1b (ESC); expected text (tabs and line ends are the only control characters read)",
                error(concat("a\n", 0x1b, '[')));
        assertEquals("x.topo:1:1: byte 0x7f (DEL); expected text (tabs and line ends are the only control characters read)",
                error(bytes(0x7f)));
        assertEquals("x.topo:1:2: character U+009B (a control character); expected text (tabs and line ends are the only control characters read)",
                error(bytes('a', 0xc2, 0x9b)));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> InputText.lines("ok\n\u0007", "d.topo"));
        assertEquals("d.topo:2:1: byte 0x07 (a control character); expected text (tabs and line ends are the only control characters read)", e.getMessage());
    }

    @Test
    void FMT_18_acceptsWhatIsHarmless() {
        assertEquals(List.of("a", "b\tc", "d", "e", ""), InputText.lines(concat("a\r\nb\tc\rd\ne\n"), "x.topo"));
        assertEquals(List.of("node 0", ""), InputText.lines(concat("", 0xef, 0xbb, 0xbf, 'n', 'o', 'd', 'e', ' ', '0', '\n'), "x.topo"));
        assertEquals(List.of("é€😀"), InputText.lines("é€😀".getBytes(StandardCharsets.UTF_8), "x.topo"));
        assertEquals(List.of("a", "b"), InputText.lines("a\r\nb", "x.topo"));
    }

    @Test
    void FMT_17_refusesALineTooLong() {
        byte[] b = new byte[InputText.MAX_LINE_CHARS + 1];
        java.util.Arrays.fill(b, (byte) 'x');
        assertEquals("x.topo:1: a line of more than 262144 characters; expected lines of at most 262144 (spec/formats.md FMT-17)", error(b));
        b[b.length - 1] = '\n';
        assertEquals(2, InputText.lines(b, "x.topo").size());
        assertEquals(InputText.MAX_LINE_CHARS + 1, InputText.decode(ascii(InputText.MAX_LINE_CHARS + 1), "j.json").length(),
                "JSON is not line-based") ;
    }

    @Test
    void FMT_16_decimalValuesAreAsciiDigitsOnly() {
        assertEquals(0, InputText.decimalValue("0"));
        assertEquals(8191, InputText.decimalValue("008191"));
        assertEquals(2147483647L, InputText.decimalValue("2147483647"));
        assertEquals(-1, InputText.decimalValue(""));
        assertEquals(-1, InputText.decimalValue("+5"));
        assertEquals(-1, InputText.decimalValue("-5"));
        assertEquals(-1, InputText.decimalValue("３"));          // full-width three
        assertEquals(-1, InputText.decimalValue("٣"));          // Arabic-Indic three
        assertEquals(-1, InputText.decimalValue("1 2"));
        assertEquals(Long.MAX_VALUE, InputText.decimalValue("99999999999999999999999"));
        assertEquals(42, InputText.decimalValue("000000000000000000000042"));
    }
}
