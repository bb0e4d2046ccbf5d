package dev.numaspread.kernel.guest;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * The host's end of the channel to the guest's agent (a unix socket QEMU connects to a
 * virtio-serial port), driven by the calling thread itself: requests are written and answers read
 * in one select loop, so a long pipeline never blocks on a full socket, and no other thread hands
 * answers over (a handover costs more than a call's round trip under TCG).
 *
 * <p>An answer is one line, except the answer to {@code snap}: a line {@code ok N}, then N bytes.
 */
final class GuestChannel implements AutoCloseable {

    private final SocketChannel channel;
    private final Selector selector;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private byte[] pending = new byte[1 << 16];
    private int start, end;

    GuestChannel(SocketChannel channel) throws IOException {
        this.channel = channel;
        channel.configureBlocking(false);
        this.selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
    }

    /**
     * Sends {@code out} and returns {@code snap.length} answers: a String per line, a byte[] for an
     * answer marked in {@code snap}. While it waits, {@code watch} runs every 20 ms and may throw to
     * give up.
     *
     * @throws EOFException     when the guest closed the channel first
     * @throws TimeoutException when the deadline ({@link System#nanoTime()}) passes first
     */
    List<Object> exchange(byte[] out, boolean[] snap, long deadline, Runnable watch) throws IOException, TimeoutException {
        ByteBuffer toSend = ByteBuffer.wrap(out);
        List<Object> answers = new ArrayList<>(snap.length);
        channel.write(toSend);
        for (; ; ) {
            while (answers.size() < snap.length) {
                Object a = next(snap[answers.size()]);
                if (a == null) break;
                answers.add(a);
            }
            if (answers.size() == snap.length && !toSend.hasRemaining()) return answers;
            SelectionKey key = channel.keyFor(selector);
            key.interestOps(toSend.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
            long left = deadline - System.nanoTime();
            if (left <= 0) throw new TimeoutException();
            selector.select(Math.max(1, Math.min(20, left / 1_000_000)));
            selector.selectedKeys().clear();
            if (toSend.hasRemaining()) channel.write(toSend);
            buffer.clear();
            int n = channel.read(buffer);
            if (n < 0) throw new EOFException();
            if (n > 0) append(buffer.array(), n);
            else watch.run();
        }
    }

    private void append(byte[] b, int n) {
        if (end + n > pending.length) {
            int live = end - start;
            byte[] grown = live + n > pending.length ? new byte[Math.max(pending.length * 2, live + n)] : pending;
            System.arraycopy(pending, start, grown, 0, live);
            pending = grown;
            start = 0;
            end = live;
        }
        System.arraycopy(b, 0, pending, end, n);
        end += n;
    }

    /** The next complete answer in what has arrived, or null. */
    private Object next(boolean snap) {
        int nl = -1;
        for (int i = start; i < end; i++)
            if (pending[i] == '\n') {
                nl = i;
                break;
            }
        if (nl < 0) return null;
        String line = new String(pending, start, nl - start, StandardCharsets.UTF_8);
        if (snap && line.startsWith("ok ")) {
            int size = Integer.parseInt(line.substring(3).strip());
            if (end - (nl + 1) < size) return null;
            byte[] payload = Arrays.copyOfRange(pending, nl + 1, nl + 1 + size);
            start = nl + 1 + size;
            return payload;
        }
        start = nl + 1;
        return line;
    }

    @Override
    public void close() throws IOException {
        try {
            selector.close();
        } finally {
            channel.close();
        }
    }
}
