package dev.numaspread.conformance.process;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads the lines of a program's output without ever holding more than {@code maxLineBytes} of
 * one: a longer line is handed over cut, and the caller decides whether to stop (stdout: one
 * JSON answer never needs that much) or to skip the rest ({@link #skipRestOfLine()}, stderr).
 */
final class LineReader {

    /** A line without its {@code '\n'}; {@code cut} when it went on past {@code maxLineBytes}. */
    record Line(byte[] bytes, boolean cut) {}

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buffer = new byte[1 << 16];
    private int pos;
    private int limit;

    LineReader(InputStream in, int maxLineBytes) {
        if (maxLineBytes < 1) throw new IllegalArgumentException("maxLineBytes " + maxLineBytes + "; expected at least 1");
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * The next line, or {@code null} at the end of the stream (a last line without {@code '\n'}
     * is a line). A cut line leaves the stream right after its first {@code maxLineBytes} bytes.
     */
    Line next() throws IOException {
        byte[] line = new byte[Math.min(256, maxLineBytes)];
        int length = 0;
        for (;;) {
            if (pos == limit && !fill()) return length == 0 ? null : new Line(Arrays.copyOf(line, length), false);
            int end = pos;
            while (end < limit && buffer[end] != '\n') end++;
            int take = end - pos;
            if (length + take > maxLineBytes) {
                int room = maxLineBytes - length;
                line = append(line, length, room);
                pos += room;
                return new Line(Arrays.copyOf(line, maxLineBytes), true);
            }
            line = append(line, length, take);
            length += take;
            pos = end;
            if (end < limit) {
                pos++;   // the '\n'
                return new Line(Arrays.copyOf(line, length), false);
            }
        }
    }

    /** Discards the stream up to and including the next {@code '\n'}. */
    void skipRestOfLine() throws IOException {
        for (;;) {
            if (pos == limit && !fill()) return;
            while (pos < limit) if (buffer[pos++] == '\n') return;
        }
    }

    private byte[] append(byte[] line, int length, int take) {
        if (length + take > line.length) line = Arrays.copyOf(line, Math.min(maxLineBytes, Math.max(length + take, 2 * line.length)));
        System.arraycopy(buffer, pos, line, length, take);
        return line;
    }

    private boolean fill() throws IOException {
        int n = in.read(buffer);
        if (n <= 0) return false;
        pos = 0;
        limit = n;
        return true;
    }
}
