package dev.numaspread.model.input;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What numaspread prints of its input is escaped (spec/formats.md FMT-19); quotes are cut (FMT-18). */
class PrintableTest {

    @Test
    void FMT_19_escapesControlAndFormatCharacters() {
        assertEquals("a\\x1b[31mb", Printable.of("a\u001b[31mb"));
        assertEquals("a\\nb\\tc\\rd", Printable.of("a\nb\tc\rd"));
        assertEquals("a\nb\tc\\rd", Printable.ofLines("a\nb\tc\rd"));
        assertEquals("\\x00\\x7f\\x9b", Printable.of("\u0000\u007f\u009b"));
        assertEquals("evil\\u{202e}txt", Printable.of("evil\u202etxt"));
        assertEquals("x\\u{fffe}y\\u{ffff}", Printable.of("x\ufffey\uffff"));
        assertEquals("\\u{d800}z", Printable.of("\ud800z"));
        assertEquals("a\\u{2028}b", Printable.of("a\u2028b"));
        assertEquals("\\u{feff}", Printable.of("\ufeff"));
    }

    @Test
    void FMT_19_leavesTextAlone() {
        String text = "Kunpeng 920 — nœud 2, 東京 😀 \\x1b";
        assertEquals(text, Printable.of(text));
        assertTrue(Printable.isPrintable(text));
        assertFalse(Printable.isPrintable("a\u001bb"));
    }

    @Test
    void FMT_18_quotesAreCutToSixtyCharacters() {
        String sixty = "x".repeat(60);
        assertEquals("'" + sixty + "'", Printable.quote(sixty));
        assertEquals("'" + sixty + "...'", Printable.quote(sixty + "yz"));
        assertEquals("'" + "😀".repeat(60) + "...'", Printable.quote("😀".repeat(61)));
        assertEquals("'a\\x1bb'", Printable.quote("a\u001bb"));
    }
}
