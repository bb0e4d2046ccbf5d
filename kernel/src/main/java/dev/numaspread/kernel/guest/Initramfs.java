package dev.numaspread.kernel.guest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * An initramfs as the kernel unpacks it: a {@code newc} cpio archive, gzip-compressed
 * ({@code Documentation/driver-api/early-userspace/buffer-format.rst}). Each entry is a 110-byte
 * ASCII header ({@code 070701} and thirteen 8-digit hex fields), the NUL-terminated name, padding
 * to 4 bytes, the data, padding to 4 bytes; the archive ends with an entry named
 * {@code TRAILER!!!}.
 */
public final class Initramfs {

    private final List<Entry> entries = new ArrayList<>();

    private record Entry(String name, int mode, byte[] data) {}

    /** A directory ({@code 0755}). */
    public Initramfs directory(String name) {
        entries.add(new Entry(name, 0040755, new byte[0]));
        return this;
    }

    /** A regular file; {@code executable} gives it {@code 0755}, else {@code 0644}. */
    public Initramfs file(String name, byte[] data, boolean executable) {
        entries.add(new Entry(name, executable ? 0100755 : 0100644, data.clone()));
        return this;
    }

    /** The archive, gzip-compressed. */
    public byte[] bytes() {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(raw, 1 << 16)) {
            write(gz);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return raw.toByteArray();
    }

    /** The uncompressed cpio archive. */
    public byte[] cpio() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    private void write(OutputStream out) throws IOException {
        long[] written = {0};
        int ino = 1;
        for (Entry e : entries) entry(out, written, ino++, e.name, e.mode, e.data);
        entry(out, written, 0, "TRAILER!!!", 0, new byte[0]);
        // The kernel reads the archive in 512-byte blocks as cpio writes it; padding does no harm.
        pad(out, written, 512);
    }

    private static void entry(OutputStream out, long[] written, int ino, String name, int mode, byte[] data) throws IOException {
        byte[] n = (name + "\0").getBytes(StandardCharsets.US_ASCII);
        StringBuilder h = new StringBuilder("070701");
        int nlink = (mode & 0170000) == 0040000 ? 2 : 1;
        for (long field : new long[]{ino, mode, 0, 0, nlink, 0, data.length, 0, 0, 0, 0, n.length, 0})
            h.append(String.format("%08x", field));
        put(out, written, h.toString().getBytes(StandardCharsets.US_ASCII));
        put(out, written, n);
        pad(out, written, 4);
        put(out, written, data);
        pad(out, written, 4);
    }

    private static void put(OutputStream out, long[] written, byte[] b) throws IOException {
        out.write(b);
        written[0] += b.length;
    }

    private static void pad(OutputStream out, long[] written, int to) throws IOException {
        while (written[0] % to != 0) {
            out.write(0);
            written[0]++;
        }
    }
}
