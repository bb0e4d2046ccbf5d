package dev.numaspread.conformance.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Edits of a valid input that a hostile tester would make: one to four edits drawn from one
 * seeded {@link SplittableRandom}, so a campaign replays from its seed and the input's number.
 * The edits are the ones that broke readers before (issue 16): a flipped bit, a byte that is not
 * UTF-8 or a control character, a number at or past a limit, a full-width or Arabic-Indic digit,
 * a bidirectional override, a span deleted, a span or a line repeated many times, the end cut off.
 * An edit never makes an input larger than {@link #MAX_GROWTH} bytes more than its seed, so the
 * campaign's own memory stays bounded.
 */
final class Mutator {

    /** The most bytes a mutation adds to its seed. */
    static final int MAX_GROWTH = 1 << 20;

    /** Bytes that readers treat specially, or that are not text. */
    private static final byte[] BYTES = {0, (byte) 0xff, (byte) 0xc3, (byte) 0x80, 0x1b, 0x7f, '\r', '\n', '\t', ' ', ',', '-', ':', '"',
            '{', '}', '[', ']', '0', '9', '#', '\\', '/', '.'};

    /** Tokens at and past the limits of spec/formats.md FMT-16, and look-alikes of digits and text. */
    private static final String[] TOKENS = {"2147483647", "2147483648", "-1", "-2147483648", "4294967296", "9223372036854775808",
            "99999999999999999999999999", "0-8191", "8192", "0-8192", "0-1023", "1024", "1023", "999", "1000", "256", "255", "0",
            "17592186044416", "0x", "0xffffffffffffffff", "ffffffff,ffffffff", "\uff10", "\u0663", "\u0b68", "\u202e", "\ufeff",
            "\ufffe", "\u2028", "\ud800", "NaN", "1e9", "1.5", "+1", "null", "true", "[]", "{}", "[[[[[[[[", "\"", ",,", "--",
            "0-", "-0", "5-3", "node", "cpus:", "size:", "MB", "distances:", "available:", "siblings", "cluster", "package",
            "possible", "present", "online", "node-of", "expect", "\\u0000", "\\ud800", "../", "/", "#"};

    private final SplittableRandom random;

    Mutator(SplittableRandom random) {
        this.random = random;
    }

    /** A mutation of {@code seed}: one to four edits. */
    byte[] mutate(byte[] seed) {
        byte[] b = seed;
        int edits = 1 + random.nextInt(4);
        for (int i = 0; i < edits; i++) b = edit(b, seed.length + MAX_GROWTH);
        return b;
    }

    private byte[] edit(byte[] b, int maxLength) {
        int n = b.length;
        switch (random.nextInt(9)) {
            case 0 -> {   // flip a bit
                if (n == 0) return b;
                byte[] c = b.clone();
                c[random.nextInt(n)] ^= (byte) (1 << random.nextInt(8));
                return c;
            }
            case 1 -> {   // overwrite a byte
                if (n == 0) return b;
                byte[] c = b.clone();
                c[random.nextInt(n)] = BYTES[random.nextInt(BYTES.length)];
                return c;
            }
            case 2 -> {   // insert a token, or put it in place of a number
                String t = TOKENS[random.nextInt(TOKENS.length)];
                int at = random.nextInt(n + 1);
                int end = at;
                if (random.nextBoolean()) while (end < n && b[end] >= '0' && b[end] <= '9') end++;
                return splice(b, at, end, t.getBytes(StandardCharsets.UTF_8), maxLength);
            }
            case 3 -> {   // delete a span
                if (n == 0) return b;
                int at = random.nextInt(n);
                return splice(b, at, Math.min(n, at + 1 + random.nextInt(Math.min(n - at, 64))), new byte[0], maxLength);
            }
            case 4 -> {   // repeat a span, up to thousands of times
                if (n == 0) return b;
                int at = random.nextInt(n);
                int len = 1 + random.nextInt(Math.min(n - at, 80));
                return splice(b, at, at, repeat(b, at, len, 1 + random.nextInt(random.nextBoolean() ? 4 : 4000)), maxLength);
            }
            case 5 -> {   // repeat a whole line
                int[] line = line(b);
                if (line == null) return b;
                return splice(b, line[0], line[0], repeat(b, line[0], line[1] - line[0], 1 + random.nextInt(random.nextBoolean() ? 3 : 3000)), maxLength);
            }
            case 6 -> {   // swap two lines
                int[] x = line(b), y = line(b);
                if (x == null || y == null || x[0] == y[0]) return b;
                if (x[0] > y[0]) { int[] t = x; x = y; y = t; }
                if (x[1] > y[0]) return b;
                ByteArrayOutputStream out = new ByteArrayOutputStream(n);
                out.write(b, 0, x[0]);
                out.write(b, y[0], y[1] - y[0]);
                out.write(b, x[1], y[0] - x[1]);
                out.write(b, x[0], x[1] - x[0]);
                out.write(b, y[1], n - y[1]);
                return out.toByteArray();
            }
            case 7 -> {   // cut the end off
                return n == 0 ? b : java.util.Arrays.copyOf(b, random.nextInt(n));
            }
            default -> {   // a long run of one digit, or of one byte
                byte fill = random.nextBoolean() ? (byte) ('0' + random.nextInt(10)) : BYTES[random.nextInt(BYTES.length)];
                byte[] run = new byte[1 + random.nextInt(random.nextBoolean() ? 40 : 300_000)];
                java.util.Arrays.fill(run, fill);
                int at = random.nextInt(n + 1);
                return splice(b, at, at, run, maxLength);
            }
        }
    }

    /** The start and end (after its line feed) of a random line of {@code b}, or null when there is none. */
    private int[] line(byte[] b) {
        if (b.length == 0) return null;
        int at = random.nextInt(b.length);
        int start = at;
        while (start > 0 && b[start - 1] != '\n') start--;
        int end = at;
        while (end < b.length && b[end] != '\n') end++;
        if (end < b.length) end++;
        return new int[]{start, end};
    }

    private static byte[] repeat(byte[] b, int at, int len, int times) {
        byte[] out = new byte[Math.min(len * times, MAX_GROWTH)];
        for (int i = 0; i < out.length; i++) out[i] = b[at + i % len];
        return out;
    }

    /** {@code b} with {@code [from, to)} replaced by {@code insert}; unchanged when the result would pass {@code maxLength}. */
    private static byte[] splice(byte[] b, int from, int to, byte[] insert, int maxLength) {
        if ((long) b.length - (to - from) + insert.length > maxLength) return b;
        byte[] c = new byte[b.length - (to - from) + insert.length];
        System.arraycopy(b, 0, c, 0, from);
        System.arraycopy(insert, 0, c, from, insert.length);
        System.arraycopy(b, to, c, from + insert.length, b.length - to);
        return c;
    }
}
