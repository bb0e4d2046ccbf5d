package dev.numaspread.conformance.snapshot;

import dev.numaspread.model.input.InputFile;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.topology.InvalidTopologyException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The POSIX tar format (ustar, with pax {@code path}/{@code linkpath} records for long names), as
 * far as a snapshot needs it: regular files and symbolic links, written with fixed owner, mode and
 * time so that the same machine gives the same bytes. Reading also takes GNU long-name records
 * ({@code L}, {@code K}), so a tar made by GNU tar of a copied tree reads too; directories and
 * other entry types are skipped (a directory is implied by the paths under it).
 *
 * <p>Hand-written on purpose, where Apache Commons Compress would do (issue 26): measured on the
 * pax corner case of {@code MachineSnapshotTest} (a pax header of 32 MiB of six-byte records
 * before one file), Commons Compress 1.28.0's {@code TarArchiveInputStream} allocated 7.7-7.9 GB
 * and took 4.5 s of CPU (C2) or 25 s (C1 and the serial collector, as the tests run; 107 s of wall
 * time at load 10-16), where this reader allocated 0.34 GB and took 0.1-1.1 s. How to reproduce:
 * benchmarks/README.md, "Tar.java against Commons Compress".
 */
public final class Tar {

    private Tar() {}

    static final int BLOCK = 512;

    /** One entry: a regular file with its bytes, or a symbolic link with its target. */
    public sealed interface Entry permits File, Link {
        /** The path inside the archive, relative, {@code /}-separated ({@code proc/interrupts}). */
        String path();
    }

    /** A regular file: its path and bytes. Immutable: the bytes are copied in and out, but for the reader's own. */
    public static final class File implements Entry {
        private final String path;
        private final byte[] content;

        public File(String path, byte[] content) {
            this(content.clone(), path);
        }

        /** Takes {@code owned} as it is: the reader's bytes, which nothing else holds (an archive's bytes are held once). */
        private File(byte[] owned, String path) {
            this.path = java.util.Objects.requireNonNull(path);
            this.content = owned;
        }

        @Override
        public String path() {
            return path;
        }

        /** A copy of the bytes. */
        public byte[] content() {
            return content.clone();
        }

        /** The size in bytes, without copying them. */
        public int size() {
            return content.length;
        }

        public String text() {
            return new String(content, StandardCharsets.UTF_8);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof File f && path.equals(f.path) && Arrays.equals(content, f.content);
        }

        @Override
        public int hashCode() {
            return path.hashCode() * 31 + Arrays.hashCode(content);
        }

        @Override
        public String toString() {
            return "file " + path + " (" + content.length + " bytes)";
        }
    }

    public record Link(String path, String target) implements Entry {}

    // ------------------------------------------------------------ writing

    /** Writes {@code entries} in order, then the two zero blocks that end an archive. */
    public static void write(OutputStream out, List<? extends Entry> entries) throws IOException {
        for (Entry e : entries) {
            byte[] content = e instanceof File f ? f.content : new byte[0];
            String link = e instanceof Link l ? l.target() : "";
            char type = e instanceof File ? '0' : '2';
            String name = e.path(), prefix = "";
            boolean fits = utf8(link).length <= 100 && isAscii(name) && isAscii(link);
            int split = fits ? ustarSplit(name) : -2;
            if (split == -2) {
                // pax record: "LEN path=VALUE\n", LEN counting itself.
                ByteArrayOutputStream pax = new ByteArrayOutputStream();
                pax.writeBytes(paxRecord("path", name));
                if (!link.isEmpty()) pax.writeBytes(paxRecord("linkpath", link));
                byte[] records = pax.toByteArray();
                out.write(header("PaxHeaders/" + tail(name, 80), "", records.length, 'x', ""));
                out.write(records);
                out.write(new byte[pad(records.length)]);
                name = tail(name, 99);
                link = tail(link, 99);
            } else if (split >= 0) {
                prefix = name.substring(0, split);
                name = name.substring(split + 1);
            }
            out.write(header(name, prefix, content.length, type, link));
            out.write(content);
            out.write(new byte[pad(content.length)]);
        }
        out.write(new byte[2 * BLOCK]);
    }

    /** -1 when the name fits the 100-byte field; the index of the '/' to split at for prefix/name; -2 when neither works. */
    private static int ustarSplit(String name) {
        if (utf8(name).length <= 100) return -1;
        for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1))
            if (i <= 155 && name.length() - i - 1 <= 100 && i > 0 && i < name.length() - 1) return i;
        return -2;
    }

    /** The last {@code n} characters: the ustar fields of an entry whose pax record holds the whole name. */
    private static String tail(String s, int n) {
        String ascii = s.replaceAll("[^ -~]", "_");
        return ascii.length() <= n ? ascii : ascii.substring(ascii.length() - n);
    }

    private static boolean isAscii(String s) {
        return s.chars().allMatch(c -> c > 0 && c < 128);
    }

    private static byte[] paxRecord(String key, String value) {
        int body = utf8(" " + key + "=" + value + "\n").length;
        int len = body + String.valueOf(body).length();
        if (String.valueOf(len).length() != String.valueOf(body).length()) len++;  // the length grew a digit
        return utf8(len + " " + key + "=" + value + "\n");
    }

    private static byte[] header(String name, String prefix, long size, char type, String link) {
        byte[] h = new byte[BLOCK];
        put(h, 0, 100, utf8(name));
        put(h, 100, 8, octal(type == '2' ? 0777 : 0444, 7));
        put(h, 108, 8, octal(0, 7));
        put(h, 116, 8, octal(0, 7));
        put(h, 124, 12, octal(size, 11));
        put(h, 136, 12, octal(0, 11));
        Arrays.fill(h, 148, 156, (byte) ' ');
        h[156] = (byte) type;
        put(h, 157, 100, utf8(link));
        put(h, 257, 6, utf8("ustar\0"));
        put(h, 263, 2, utf8("00"));
        put(h, 265, 32, utf8("root"));
        put(h, 297, 32, utf8("root"));
        put(h, 345, 155, utf8(prefix));
        long sum = 0;
        for (byte b : h) sum += b & 0xff;
        put(h, 148, 8, utf8(String.format("%06o", sum) + "\0 "));
        return h;
    }

    private static void put(byte[] h, int at, int width, byte[] v) {
        if (v.length > width) throw new IllegalStateException("tar field of " + width + " bytes given " + v.length);
        System.arraycopy(v, 0, h, at, v.length);
    }

    private static byte[] octal(long v, int digits) {
        return utf8(String.format("%0" + digits + "o", v) + "\0");
    }

    private static int pad(long size) {
        return (int) ((BLOCK - size % BLOCK) % BLOCK);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------ reading

    /** The largest archive read: {@value} bytes, 128 MiB (FMT-17). */
    public static final long MAX_ARCHIVE_BYTES = 128L << 20;
    /** The largest entry of an archive: {@value} bytes, 32 MiB ({@code /proc/interrupts} of 8192 CPUs takes about 20 MB). */
    public static final int MAX_ENTRY_BYTES = 32 << 20;

    /**
     * The files and links of the archive {@code bytes}, in archive order.
     *
     * @param name the archive as the user named it, for messages ({@code snap.tar})
     * @throws InvalidTopologyException {@code snap.tar:byte 1024: what was found; what was expected}
     */
    public static List<Entry> read(String name, byte[] bytes) {
        return read(name, new ByteArrayInputStream(bytes));
    }

    /**
     * The files and links of the archive read from {@code in}, in archive order; each entry's
     * bytes are read only once its size is known to be at most {@link #MAX_ENTRY_BYTES}.
     *
     * @throws InvalidTopologyException {@code snap.tar:byte 1024: what was found; what was expected}
     */
    public static List<Entry> read(String name, InputStream in) {
        try {
            return readEntries(name, in);
        } catch (IOException e) {
            throw new InvalidTopologyException(name, "cannot be read (an I/O error); expected a tar archive written by 'numaspread snapshot'");
        } catch (InvalidInputException e) {
            throw InvalidTopologyException.of(e);
        }
    }

    private static List<Entry> readEntries(String name, InputStream in) throws IOException {
        List<Entry> entries = new ArrayList<>();
        String longName = null, longLink = null;
        long at = 0;
        byte[] h = new byte[BLOCK];
        while (true) {
            int got = in.readNBytes(h, 0, BLOCK);
            if (got < BLOCK) {
                if (got == 0 && at > 0 && entries.size() + (longName == null ? 0 : 1) > 0) break; // ended without zero blocks: accept
                throw new InvalidTopologyException(name + ":byte " + at, at == 0 && got == 0 ? "an empty file; expected a tar archive written by 'numaspread snapshot'"
                        : "the archive ends inside a header; expected 512-byte tar blocks (was the file cut short?)");
            }
            if (isZero(h, 0)) break;
            int sum = 0;
            for (int i = 0; i < BLOCK; i++) sum += (i >= 148 && i < 156) ? ' ' : h[i] & 0xff;
            long stated = number(h, 148, 8, name, at);
            if (stated != sum)
                throw new InvalidTopologyException(name + ":byte " + at, "a header whose checksum is " + stated + " but whose bytes add up to "
                        + sum + "; expected a tar archive (is it compressed? numaspread reads plain .tar, not .tar.gz)");
            long size = number(h, 124, 12, name, at);
            char type = (char) h[156];
            String path = string(h, 0, 100);
            String prefix = string(h, 345, 155);
            if (!prefix.isEmpty() && "ustar".equals(string(h, 257, 5))) path = prefix + "/" + path;
            String link = string(h, 157, 100);
            if (size > MAX_ENTRY_BYTES)
                throw new InvalidTopologyException(name + ":byte " + at, "entry " + Printable.quote(path) + " of " + size + " bytes; expected entries of at most "
                        + InputFile.sizeText(MAX_ENTRY_BYTES) + " (spec/formats.md FMT-17)");
            byte[] content = in.readNBytes((int) size);
            if (content.length < size)
                throw new InvalidTopologyException(name + ":byte " + at, "entry " + Printable.quote(path) + " of " + size + " bytes runs past the end of the file ("
                        + (at + BLOCK + content.length) + " bytes); expected the whole archive (was the file cut short?)");
            skipPadding(in, pad(size));
            switch (type) {
                case 'x' -> {
                    for (String[] kv : pax(content, name, at)) {
                        if (kv[0].equals("path")) longName = kv[1];
                        if (kv[0].equals("linkpath")) longLink = kv[1];
                    }
                }
                case 'L' -> longName = cString(content);
                case 'K' -> longLink = cString(content);
                case '0', '\0', '7' -> {
                    entries.add(new File(content, clean(longName != null ? longName : path)));
                    longName = longLink = null;
                }
                case '2' -> {
                    entries.add(new Link(clean(longName != null ? longName : path), longLink != null ? longLink : link));
                    longName = longLink = null;
                }
                default -> longName = longLink = null;   // directories, hard links, devices, global pax: nothing a snapshot needs
            }
            at += BLOCK + size + pad(size);
        }
        return entries;
    }

    /** Skips up to {@code n} bytes: an archive whose last entry lacks its padding still reads. */
    private static void skipPadding(InputStream in, int n) throws IOException {
        in.readNBytes(n);   // one read, not one per byte: the stream may be a file's
    }

    private static boolean isZero(byte[] b, int at) {
        for (int i = 0; i < BLOCK; i++) if (b[at + i] != 0) return false;
        return true;
    }

    private static long number(byte[] b, int at, int width, String name, long header) {
        String s = new String(b, at, width, StandardCharsets.US_ASCII).replace("\0", " ").strip();
        if (s.isEmpty()) return 0;
        // Octal digits only, at most 11 of them (8 GiB): no sign ("-0000000001" was read as -1), no other digits.
        if (!s.matches("[0-7]{1,11}"))
            throw new InvalidTopologyException(name + ":byte " + header, "a header field " + Printable.quote(s.replaceAll("[^ -~]", "?"))
                    + "; expected an octal number of at most 11 digits (is this a tar archive?)");
        return Long.parseLong(s, 8);
    }

    private static String string(byte[] b, int at, int width) {
        int end = at;
        while (end < at + width && b[end] != 0) end++;
        return new String(b, at, end - at, StandardCharsets.UTF_8);
    }

    private static String cString(byte[] content) {
        return string(content, 0, content.length);
    }

    /**
     * The {@code path} and {@code linkpath} records of a pax header, in order; the other keys are
     * skipped. Each record is {@code LENGTH key=value\n}, LENGTH counting the whole record in
     * bytes. Read in place, record by record, so that a header of millions of short records costs
     * no more than its bytes (issue 25: 32 MiB of six-byte records took 1.24 GB and 11 s).
     */
    private static List<String[]> pax(byte[] content, String name, long header) {
        List<String[]> out = new ArrayList<>();
        int i = 0;
        while (i < content.length) {
            if (content[i] == '\n' || content[i] == 0) {   // padding, or the blank line some writers leave
                i++;
                continue;
            }
            int digits = i;
            long length = 0;
            while (digits < content.length && content[digits] >= '0' && content[digits] <= '9' && digits - i < 9)
                length = length * 10 + (content[digits++] - '0');
            int eq = -1;
            if (digits > i && digits < content.length && content[digits] == ' ' && length > digits - i + 1 && i + length <= content.length
                    && content[(int) (i + length - 1)] == '\n')
                for (int k = digits + 1; k < i + length - 1; k++)
                    if (content[k] == '=') {
                        eq = k;
                        break;
                    }
            if (eq < 0) {
                int end = i;
                while (end < content.length && end - i < 60 && content[end] != '\n') end++;
                throw new InvalidTopologyException(name + ":byte " + header, "a pax record " + Printable.quote(new String(content, i, end - i,
                        StandardCharsets.UTF_8)) + " at byte " + i + " of its header; expected 'LENGTH key=value' ending in a line feed,"
                        + " LENGTH its size in bytes");
            }
            String key = new String(content, digits + 1, eq - digits - 1, StandardCharsets.UTF_8);
            if (key.equals("path") || key.equals("linkpath"))
                out.add(new String[]{key, new String(content, eq + 1, (int) (i + length - 1 - eq - 1), StandardCharsets.UTF_8)});
            i += (int) length;
        }
        return out;
    }

    /** A path without leading "./" or "/", so archives made with either read alike. */
    private static String clean(String p) {
        String s = p;
        while (s.startsWith("./") || s.startsWith("/")) s = s.substring(s.startsWith("./") ? 2 : 1);
        return s;
    }
}
