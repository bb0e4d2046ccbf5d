package dev.numaspread.kernel.guest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The guest's serial console as QEMU prints it: the last lines are kept for messages, and the first
 * line that says the kernel failed (an oops, a BUG, a panic) is remembered. A {@code WARNING:} is
 * not a failure: the kernel goes on (irq_create_affinity_masks() warns and returns NULL for too many
 * interrupt sets, as spec'd).
 */
final class Console {

    /** The lines the kernel prints when it fails ({@code die()}, {@code BUG()}, {@code panic()}, page faults). */
    static final Pattern FAILURE = Pattern.compile("(BUG: |Oops: |kernel BUG at |general protection fault|Kernel panic - not syncing"
            + "|invalid opcode: |divide error: |Unable to handle kernel|stack segment: |double fault: )");

    private final ArrayDeque<String> last = new ArrayDeque<>();
    private final int keep;
    private volatile String failure;
    private volatile boolean ended;

    Console(int keep) {
        this.keep = keep;
    }

    /** Reads {@code in} line by line on a daemon thread until it ends. */
    void follow(InputStream in, String threadName) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) add(line);
            } catch (IOException ignored) {
                // the guest is gone: what was read stays
            } finally {
                ended = true;
            }
        }, threadName);
        t.setDaemon(true);
        t.start();
    }

    void add(String raw) {
        String line = raw.replace("\r", "").stripTrailing();
        if (failure == null && FAILURE.matcher(line).find()) failure = line.strip();
        synchronized (last) {
            last.addLast(line);
            while (last.size() > keep) last.removeFirst();
        }
    }

    /** The first failure line, with the kernel's timestamp; empty while the kernel is well. */
    Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    boolean ended() {
        return ended;
    }

    /** The last {@code n} non-empty lines. */
    List<String> tail(int n) {
        synchronized (last) {
            List<String> all = last.stream().filter(l -> !l.isBlank()).toList();
            return all.subList(Math.max(0, all.size() - n), all.size());
        }
    }

    /** The last lines as one message part: " | "-separated. */
    String tailText(int n) {
        List<String> t = tail(n);
        return t.isEmpty() ? "(the console printed nothing)" : String.join(" | ", t);
    }
}
