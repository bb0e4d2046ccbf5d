package dev.numaspread.model.cpu;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kernel's list and hex mask forms of a CPU set (spec/formats.md FMT-1 to FMT-4). */
class CpuSetTest {

    @Test
    void FMT_1_printsTheKernelListForm() {
        assertEquals("0-7,128-135", CpuSet.parseList("0 1 2 3 4 5 6 7 128 129 130 131 132 133 134 135").toList());
        assertEquals("0,4,8,12", CpuSet.of(0, 4, 8, 12).toList());
        assertEquals("0,2-3", CpuSet.of(0, 2, 3).toList());
        assertEquals("", CpuSet.EMPTY.toList());
    }

    @Test
    void FMT_2_readsEveryListDialect() {
        CpuSet expected = CpuSet.of(0, 1, 2, 3, 64, 65);
        assertEquals(expected, CpuSet.parseList("0-3,64-65"));              // kernel %*pbl
        assertEquals(expected, CpuSet.parseList(" 0 1 2 3 64 65"));          // numactl -H
        assertEquals(expected, CpuSet.parseList(" 0-3, 64-65 (6)"));         // numactl --cpu-compress
        assertEquals(expected, CpuSet.parseList("0, 1, 2, 3, 64, 65"));      // blk-mq cpu_list
        assertEquals(expected, CpuSet.parseList("0-3, 64-65"));              // ABI documentation style
        assertEquals(CpuSet.of(0, 2, 4, 6), CpuSet.parseList("0-6:2"));      // util-linux stride
        assertEquals(CpuSet.of(0, 1, 4, 5), CpuSet.parseList("0-7:2/4"));    // kernel used/group
        assertEquals(CpuSet.range(1, 7), CpuSet.parseList("1-N", 7));        // N = last CPU
        assertEquals(CpuSet.EMPTY, CpuSet.parseList(""));                    // cpu/offline with nothing offline
        assertEquals(CpuSet.of(5), CpuSet.parseList("5"));
    }

    @Test
    void FMT_2_namesTheBadPiece() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuSet.parseList("0-3,x"));
        assertEquals("cpu list piece 'x' in '0-3,x': 'x' is not a CPU id; expected a list such as 0-7,128-135", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CpuSet.parseList("7-3"));
        assertEquals("cpu list piece '7-3' in '7-3': range ends before it starts", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CpuSet.parseList("0-7:3/2"));
        assertEquals("cpu list piece '0-7:3/2' in '0-7:3/2': expected used/group with 0 < used <= group", e.getMessage());
    }

    /** The three examples of the issue, and the width rule behind them. */
    @Test
    void FMT_3_printsTheHexMaskAsSmpAffinity() {
        assertEquals("0f", CpuSet.range(0, 3).toMask(8));
        assertEquals("00,00000001", CpuSet.of(0).toMask(40));
        assertEquals("00000000,00000000,00000000,00000000,00010000,00000000,00000000,00000000", CpuSet.of(112).toMask(256));
        assertEquals("03", CpuSet.range(0, 1).toMask(6));                       // 6 CPUs (FMT-3)
        assertEquals("fffff", CpuSet.range(0, 19).toMask(20));                   // 20 CPUs
        assertEquals("1111,11111111,11111111", CpuSet.parseList("0-79:4").toMask(80));
        assertEquals("ffffffff", CpuSet.range(0, 31).toMask(32));
        assertEquals("0,00000000", CpuSet.EMPTY.toMask(33));
    }

    /** Seed 000's affinity hints: IRQ 347 on CPU 0, IRQ 339 on CPU 240, of 256 CPUs. */
    @Test
    void FMT_3_matchesTheSeedAffinityLines() {
        assertEquals("00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000001", CpuSet.of(0).toMask(256));
        assertEquals("00010000,00000000,00000000,00000000,00000000,00000000,00000000,00000000", CpuSet.of(240).toMask(256));
    }

    @Test
    void FMT_3_refusesACpuBeyondNrCpuIds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuSet.of(8).toMask(8));
        assertEquals("cpu 8 does not fit in nr_cpu_ids 8", e.getMessage());
    }

    @Test
    void FMT_4_readsHexMasks() {
        assertEquals(CpuSet.range(0, 3), CpuSet.parseMask("0f"));
        assertEquals(CpuSet.of(0), CpuSet.parseMask("00,00000001"));
        assertEquals(CpuSet.of(112), CpuSet.parseMask("00000000,00000000,00000000,00000000,00010000,00000000,00000000,00000000"));
        assertEquals(CpuSet.range(0, 3), CpuSet.parseMask("0x0000000f"));
        assertEquals(CpuSet.of(32), CpuSet.parseMask("1,0"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuSet.parseMask("0g"));
        assertEquals("hex mask group '0g' in '0g'; expected 1 to 8 hex digits per comma-separated 32-bit group", e.getMessage());
    }

    @Test
    void FMT_4_maskRoundTripsForEveryWidth() {
        CpuSet s = CpuSet.of(0, 5, 31, 32, 63, 64, 100);
        for (int nr = 101; nr <= 200; nr++) assertEquals(s, CpuSet.parseMask(s.toMask(nr)), "nr_cpu_ids " + nr);
    }

    // Found by mutation testing (docs/mutation-testing.md): boundaries of the list dialects, sets
    // beyond one 64-bit word, and the edges of the query methods had no case. Values by hand from
    // the kernel's bitmap_parselist() ("a-b:used/group": the first `used` of every `group` CPUs from a).

    @Test
    void FMT_2_usedGroupBoundaries() {
        assertEquals(CpuSet.range(0, 3), CpuSet.parseList("0-3:2/2"));                 // used = group: every CPU
        assertEquals(CpuSet.of(1, 4, 7), CpuSet.parseList("1-7:1/3"));                 // groups start at a, not at 0
        assertThrows(IllegalArgumentException.class, () -> CpuSet.parseList("0-3:1/0"));   // group 0
        assertEquals(CpuSet.of(0), CpuSet.parseList("N", 0));                          // N on a one-CPU machine
    }

    @Test
    void FMT_3_refusesNoCpuIds() {
        assertThrows(IllegalArgumentException.class, () -> CpuSet.of(0).toMask(0));
    }

    @Test
    void FMT_1_queriesAtTheirEdges() {
        CpuSet twoWords = CpuSet.range(0, 127);
        assertEquals(70, twoWords.nth(70));
        assertEquals(-1, twoWords.nth(128));
        assertEquals(-1, twoWords.nth(-1));
        assertEquals(-1, CpuSet.EMPTY.last());
        assertFalse(CpuSet.of(100).isSubsetOf(CpuSet.of(1)));
        assertTrue(CpuSet.of(1).isSubsetOf(CpuSet.of(1, 100)));
        assertEquals(CpuSet.of(1), CpuSet.builder().add(0).add(1).remove(0).build());
        assertEquals("0,2-3", CpuSet.of(0, 2, 3).toString());
    }

    /** The glossary's "none": the empty set where people read; a sequence of sets in brackets, read back as written. */
    @Test
    void textFormsForPeople_writeNoneAndReadBack() {
        assertEquals("none", CpuSet.EMPTY.toText());
        assertEquals("0-3,8", CpuSet.parseList("0-3,8").toText());
        List<CpuSet> sets = List.of(CpuSet.range(0, 3), CpuSet.EMPTY, CpuSet.of(4, 6));
        assertEquals("[0-3 | none | 4,6]", CpuSet.toText(sets));
        assertEquals("[]", CpuSet.toText(List.of()));
        assertEquals(sets, CpuSet.parseTexts("[0-3 | none | 4,6]"));
        assertEquals(List.of(), CpuSet.parseTexts("[]"));
        assertEquals(CpuSet.EMPTY, CpuSet.parseText(" none "));
        assertEquals("CPU sets '0-3 | 4'; expected them in brackets, such as [0-3 | 4-7 | none]",
                assertThrows(IllegalArgumentException.class, () -> CpuSet.parseTexts("0-3 | 4")).getMessage());
    }

    // ---------------------------------------------------------------- FMT-16 limits

    static String listError(String text) {
        return assertThrows(IllegalArgumentException.class, () -> CpuSet.parseList(text)).getMessage();
    }

    @Test
    void FMT_16_refusesCpuIdsPastNrCpusAtTheirPiece() {
        assertEquals("cpu list piece '0-99999999' in '0-99999999': 99999999 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)",
                listError("0-99999999"));
        assertEquals("cpu list piece '2147483646' in '2147483646': 2147483646 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)",
                listError("2147483646"));
        assertEquals("cpu list piece '8192' in '0-3,8192': 8192 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)",
                listError("0-3,8192"));
        assertEquals(CpuSet.range(0, 8191), CpuSet.parseList("0-8191"));
        assertEquals(8191, CpuSet.parseList("0-8191").last());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuSet.builder().add(8192));
        assertEquals("cpu id 8192 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CpuSet.range(0, Integer.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> CpuSet.of(-1));
    }

    @Test
    void FMT_16_refusesMasksWiderThanNrCpus() {
        String widest = "1" + ",00000000".repeat(255);
        assertEquals(CpuSet.of(8160), CpuSet.parseMask(widest));
        String wider = "1" + ",00000000".repeat(256);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuSet.parseMask(wider));
        assertTrue(e.getMessage().startsWith("hex mask '1,00000000,00000000,00000000,00000000,00000000,00000000,0000...'"), e.getMessage());
        assertTrue(e.getMessage().endsWith(" has more than 256 groups; expected at most 256 32-bit groups (NR_CPUS 8192, spec/formats.md FMT-16)"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CpuSet.parseMask("０f"));   // a full-width zero is no hex digit
    }

    /** Integer.parseInt reads these as 3; a CPU id is ASCII digits only. */
    @Test
    void FMT_16_readsOnlyAsciiDigits() {
        assertEquals("cpu list piece '３' in '３': '３' is not a CPU id; expected a list such as 0-7,128-135", listError("３"));
        assertEquals("cpu list piece '٣' in '0,٣': '٣' is not a CPU id; expected a list such as 0-7,128-135", listError("0,٣"));
        assertEquals("cpu list piece '+3' in '+3': '+3' is not a CPU id; expected a list such as 0-7,128-135", listError("+3"));
    }

    /** The highest id iterates and ends: next() past it is -1, never an overflow. */
    @Test
    void FMT_16_iterationEndsAtTheLastId() {
        CpuSet top = CpuSet.of(8190, 8191);
        assertEquals(List.of(8190, 8191), top.stream().boxed().toList());
        assertEquals(-1, top.next(8192));
        assertEquals(-1, top.next(Integer.MAX_VALUE));
        assertEquals(8190, top.next(Integer.MIN_VALUE));
        int[] seen = new int[1];
        top.forEachCpu(c -> seen[0]++);
        assertEquals(2, seen[0]);
    }

    /** A strided piece is filled a word at a time; it must give exactly its definition. */
    @Test
    void FMT_16_stridedPiecesAreTheirDefinition() {
        Random r = new Random(16);
        for (int k = 0; k < 2000; k++) {
            int lo = r.nextInt(400), hi = lo + r.nextInt(600);
            int group = 1 + r.nextInt(k % 2 == 0 ? 70 : 200), used = 1 + r.nextInt(group);
            BitSet want = new BitSet();
            for (int c = lo; c <= hi; c++) if ((c - lo) % group < used) want.set(c);
            String piece = lo + "-" + hi + ":" + used + "/" + group;
            assertEquals(toList(want), CpuSet.parseList(piece).toList(), piece);
        }
    }

    /** Sets keep only the words of their span: algebra on sets far apart agrees with java.util.BitSet. */
    @Test
    void FMT_16_setAlgebraAgreesWithBitSet() {
        Random r = new Random(1616);
        for (int k = 0; k < 3000; k++) {
            BitSet x = randomBits(r), y = randomBits(r);
            CpuSet a = CpuSet.parseList(toList(x)), b = CpuSet.parseList(toList(y));
            BitSet and = (BitSet) x.clone(); and.and(y);
            BitSet or = (BitSet) x.clone(); or.or(y);
            BitSet andNot = (BitSet) x.clone(); andNot.andNot(y);
            assertEquals(toList(and), a.and(b).toList());
            assertEquals(toList(or), a.or(b).toList());
            assertEquals(toList(andNot), a.andNot(b).toList());
            assertEquals(x.intersects(y), a.intersects(b));
            assertEquals(andNot.isEmpty(), a.isSubsetOf(b));
            assertEquals(x.cardinality(), a.size());
            assertEquals(x.isEmpty() ? -1 : x.length() - 1, a.last());
            assertEquals(x.nextSetBit(0), a.first());
            int from = r.nextInt(8300);
            assertEquals(from < 0 ? -1 : x.nextSetBit(from), a.next(from));
            int n = r.nextInt(Math.max(1, x.cardinality() + 2));
            assertEquals(x.stream().skip(n).findFirst().orElse(-1), a.nth(n));
            assertEquals(a.equals(b), x.equals(y));
            assertEquals(CpuSet.parseList(toList(x)), a.and(a));
            assertEquals(a.hashCode(), CpuSet.parseList(toList(x)).hashCode());
            assertEquals(Integer.signum(compareLists(x, y)), Integer.signum(a.compareTo(b)));
            int c = r.nextInt(8192);
            assertEquals(x.get(c), a.contains(c));
            assertEquals(toList(withBit(x, c, true)), a.with(c).toList());
            assertEquals(toList(withBit(x, c, false)), a.without(c).toList());
        }
    }

    static BitSet randomBits(Random r) {
        BitSet b = new BitSet();
        int start = r.nextInt(8192), span = 1 + r.nextInt(r.nextBoolean() ? 200 : 8192);
        int count = r.nextInt(40);
        for (int i = 0; i < count; i++) b.set(Math.min(8191, start + r.nextInt(span)));
        if (r.nextInt(4) == 0) b.set(start, Math.min(8192, start + r.nextInt(300)));
        return b;
    }

    static BitSet withBit(BitSet x, int c, boolean on) {
        BitSet b = (BitSet) x.clone();
        b.set(c, on);
        return b;
    }

    static int compareLists(BitSet x, BitSet y) {
        int a = x.nextSetBit(0), b = y.nextSetBit(0);
        while (a >= 0 && b >= 0) {
            if (a != b) return Integer.compare(a, b);
            a = x.nextSetBit(a + 1);
            b = y.nextSetBit(b + 1);
        }
        return Boolean.compare(a >= 0, b >= 0);
    }

    static String toList(BitSet b) {
        StringBuilder sb = new StringBuilder();
        for (int c = b.nextSetBit(0); c >= 0; ) {
            int end = b.nextClearBit(c) - 1;
            if (sb.length() > 0) sb.append(',');
            sb.append(c);
            if (end > c) sb.append('-').append(end);
            c = b.nextSetBit(end + 1);
        }
        return sb.toString();
    }
}
