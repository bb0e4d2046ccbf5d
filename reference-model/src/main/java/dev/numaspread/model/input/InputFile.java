package dev.numaspread.model.input;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The bytes of a file from outside, read only when it is a regular file no larger than its limit
 * (spec/formats.md FMT-17). A FIFO, a device ({@code /dev/zero}), a socket or a directory where a
 * file is asked for is refused before it is opened, so nothing blocks and nothing reads forever; a
 * file past its limit is refused before its bytes are read, and a file that grows while it is
 * read stops at the limit.
 */
public final class InputFile {

    private InputFile() {}

    /** The largest text file a reader takes ({@code .topo}, JSON, waivers, scripts): {@value} bytes, 16 MiB. */
    public static final int MAX_TEXT_BYTES = 16 << 20;

    /**
     * The bytes of {@code file}, at most {@code maxBytes}.
     *
     * @param expected what the file should be, for messages ({@code "a .topo file"})
     * @throws InvalidInputException {@code FILE: what was found; expected ...}
     */
    public static byte[] read(Path file, int maxBytes, String expected) {
        String name = file.toString();
        checkRegular(file, maxBytes, expected);
        try (InputStream in = Files.newInputStream(file)) {
            // /proc and sysfs files report a size they do not have: read to the end, but never past the limit.
            byte[] bytes = in.readNBytes(maxBytes);
            if (in.read() >= 0) throw tooLarge(name, "a file of more than " + maxBytes + " bytes", maxBytes, expected);
            return bytes;
        } catch (IOException e) {
            throw new InvalidInputException(name, reason(e) + "; expected " + expected);
        }
    }

    /**
     * A stream of the bytes of {@code file}, checked as {@link #read} checks it; reading past
     * {@code maxBytes} (a file that grew) throws {@link InvalidInputException}. For archives read
     * entry by entry, so that their bytes are held once.
     */
    public static InputStream open(Path file, long maxBytes, String expected) {
        String name = file.toString();
        checkRegular(file, maxBytes, expected);
        InputStream in;
        try {
            in = new java.io.BufferedInputStream(Files.newInputStream(file));
        } catch (IOException e) {
            throw new InvalidInputException(name, reason(e) + "; expected " + expected);
        }
        return new java.io.FilterInputStream(in) {
            long count;

            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) count(1);
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                int n = super.read(buf, off, len);
                if (n > 0) count(n);
                return n;
            }

            private void count(int n) {
                count += n;
                if (count > maxBytes) throw tooLarge(name, "a file of more than " + maxBytes + " bytes", maxBytes, expected);
            }
        };
    }

    /** True when {@code file} is a regular file (links followed), so {@link #read} would try it. */
    public static boolean isRegularFile(Path file) {
        return Files.isRegularFile(file);
    }

    /** True when something, even a dangling link, is at {@code file}. */
    public static boolean exists(Path file) {
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS);
    }

    private static InvalidInputException tooLarge(String name, String found, long max, String expected) {
        return new InvalidInputException(name, found + "; expected " + expected + " of at most " + sizeText(max) + " (spec/formats.md FMT-17)");
    }

    /** {@code 16 MiB}, {@code 64 KiB}, {@code 100 bytes}. */
    public static String sizeText(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) return (bytes >> 20) + " MiB";
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) return (bytes >> 10) + " KiB";
        return bytes + " bytes";
    }

    /** What went wrong, in words, without a Java class name. */
    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) return "no such file";
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof FileSystemException f && f.getReason() != null) return "cannot be read (" + Printable.of(f.getReason()) + ")";
        return "cannot be read (an I/O error)";
    }

    /** A regular file of at most {@code maxBytes} by its size on disk, or the error that says what it is. */
    private static void checkRegular(Path file, long maxBytes, String expected) {
        String name = file.toString();
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new InvalidInputException(name, reason(e) + "; expected " + expected);
        }
        if (a.isDirectory()) throw new InvalidInputException(name, "a directory; expected " + expected);
        if (!a.isRegularFile())
            throw new InvalidInputException(name, "not a regular file (a FIFO, a device or a socket); expected " + expected);
        if (a.size() > maxBytes) throw tooLarge(name, "a file of " + a.size() + " bytes", maxBytes, expected);
    }
}
