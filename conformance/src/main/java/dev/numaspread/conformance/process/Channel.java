package dev.numaspread.conformance.process;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.ImplementationFailure;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The exchange with one run of the program: requests go to its stdin, answers come from its
 * stdout and are matched to their requests by id, and its stderr is kept as a tail of its last
 * lines. Once broken (the program exited, left a request unanswered past the per-request timeout,
 * wrote a line that is not an answer to a request in flight), a channel fails every request in
 * flight and every later one at once, and stops the program's process group.
 *
 * <p>Under protocol 1 answers must come in request order; from protocol 2 in any order.
 * Requests are written in batches ({@link #batch}): a batch reaches the program whole and in
 * order, and batches written by several threads at once go out in one write.
 *
 * <p>Over 450 lines on purpose (issue 26): one concern, a run's line I/O (writing, reading answers by
 * id, timeouts, breaking the run with stderr's tail), whose parts share one lock and the run's
 * state.
 */
final class Channel {

    /** The longest stdout line read; a longer one is an error, and the rest of it is never read. */
    static final int MAX_LINE_BYTES = 16 << 20;
    /** stderr lines kept, and the bytes kept of each. */
    static final int STDERR_LINES = 10;
    static final int STDERR_LINE_BYTES = 1000;
    /** Time between SIGTERM and SIGKILL. */
    static final Duration GRACE = Duration.ofSeconds(1);

    static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** One request in flight: the answer completes with the answer object or an {@link ImplementationFailure}. */
    static final class Request {
        final int id;
        final String op;
        final CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        final long sentNanos = System.nanoTime();

        Request(int id, String op) {
            this.id = id;
            this.op = op;
        }

        String what() {
            return "request " + id + " (" + op + ")";
        }
    }

    private final ProcessGroup group;
    private final String who;
    private final Meter meter;
    private final OutputStream stdin;
    private final Object writeLock = new Object();
    private final LinkedHashMap<Integer, Request> inFlight = new LinkedHashMap<>();   // guarded by this
    private final Deque<String> stderrTail = new ArrayDeque<>();                        // guarded by itself
    private final Thread stderrReader;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    private int nextId;                      // guarded by writeLock
    private boolean unflushed;               // guarded by writeLock
    private final java.util.concurrent.atomic.AtomicInteger writers = new java.util.concurrent.atomic.AtomicInteger();
    private boolean inOrder = true;          // guarded by this
    private String broken;                   // guarded by this: how it broke
    private boolean closing;                 // guarded by this
    private volatile boolean answeredRoutine;

    /** Starts reading the program's stdout and stderr. {@code who} starts every message ({@code process CMD}). */
    Channel(ProcessGroup group, String who, Meter meter) {
        this.group = group;
        this.who = who;
        this.meter = meter;
        this.stdin = new BufferedOutputStream(group.process().getOutputStream(), 1 << 16);
        // stderr's reader first: a program that ends at once ends stdout at once, and the stdout
        // reader then breaks the channel, which waits for stderr's reader (it was not there yet: an
        // NPE on a thread of its own, seen in CertifyCommandTest).
        this.stderrReader = daemon("numaspread-stderr-" + group.id(), this::readStderr);
        daemon("numaspread-stdout-" + group.id(), this::readAnswers);
    }

    /** From protocol 2, answers may come in any order. */
    synchronized void answersInAnyOrder() {
        inOrder = false;
    }

    /**
     * Runs {@code writes} (calls of {@link #write}) as one batch: under the write lock, so that the
     * batch reaches the program whole and in order (a machine before the request that names it),
     * and flushed by the last of the threads then waiting to write, so that the requests of
     * checks running side by side reach the program in one write rather than one each.
     */
    <T> T batch(Supplier<T> writes) {
        writers.incrementAndGet();
        synchronized (writeLock) {
            try {
                return writes.get();
            } finally {
                // Whoever came in after us is blocked on the lock and flushes when its turn comes.
                if (writers.decrementAndGet() == 0) flush();
            }
        }
    }

    synchronized boolean isBroken() {
        return broken != null;
    }

    private synchronized boolean isClosing() {
        return closing;
    }

    /**
     * The last lines of stderr once the program has ended: waits up to {@code patience} for the
     * reader to reach the end of the stream, which an ended program's stderr soon does.
     */
    String stderrAtExit(Duration patience) {
        try {
            stderrReader.join(patience.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return stderr();
    }

    /** The program's exit status once it has ended (waiting at most a second for it); empty while it runs. */
    java.util.OptionalInt exitStatus() {
        try {
            return group.process().waitFor(1, TimeUnit.SECONDS) ? java.util.OptionalInt.of(group.process().exitValue())
                    : java.util.OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.OptionalInt.empty();
        }
    }

    /** How the channel broke, with the last lines of stderr; empty while it works. */
    synchronized java.util.Optional<String> brokenReason() {
        if (broken == null) return java.util.Optional.empty();
        String tail = stderr();
        return java.util.Optional.of(broken + (tail.isEmpty() ? "" : "; stderr: " + tail));
    }

    /** Whether the program answered a request other than hello and topology in this run. */
    boolean answeredRoutine() {
        return answeredRoutine;
    }

    /**
     * Sends {@code request} under a fresh id, put first, as part of the current {@link #batch}.
     *
     * @throws ImplementationFailure when the channel is broken or the program's stdin is closed
     */
    Request write(ObjectNode request) {
        if (!Thread.holdsLock(writeLock)) throw new IllegalStateException("driver invariant broken: a write outside a batch");
        Request r = new Request(++nextId, request.path("op").asText());
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(request);
        } catch (IOException e) {
            throw new IllegalStateException("driver invariant broken: a request did not serialise: " + e.getMessage(), e);
        }
        if (request.has("id") || body.length < 3 || body[0] != '{')
            throw new IllegalStateException("driver invariant broken: request " + request + " is not an object without an id");
        byte[] id = ("{\"id\":" + r.id + ",").getBytes(StandardCharsets.US_ASCII);
        synchronized (this) {
            if (broken != null) throw failure(r, "the program stopped before it: " + broken, stderr());
            inFlight.put(r.id, r);
        }
        meter.sent();
        try {
            // The id goes first, as every example shows it: {"id":7, then the request's own fields.
            unflushed = true;
            stdin.write(id);
            stdin.write(body, 1, body.length - 1);
            stdin.write('\n');
        } catch (IOException e) {
            writeFailed(r, e);
        }
        return r;
    }

    /** Hands the requests written since the last flush to the program. The caller holds the write lock. */
    private void flush() {
        if (!unflushed) return;
        unflushed = false;
        try {
            stdin.flush();
            meter.batch();
        } catch (IOException e) {
            writeFailed(null, e);
        }
    }

    /**
     * A write that failed: the program most likely exited, which its stdout's end tells better
     * (status, stderr) than a broken pipe; that is waited for a moment before the pipe is blamed.
     */
    private void writeFailed(Request r, IOException e) {
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        try {
            while (!isBroken() && !isClosing() && System.nanoTime() - deadline < 0) Thread.sleep(5);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        breakWith(r, "cannot write to its stdin (" + e.getMessage() + ")");
    }

    /** Writes {@code request} as a batch of its own and waits for its answer. */
    JsonNode call(ObjectNode request, Duration timeout) {
        return await(batch(() -> write(request)), timeout);
    }

    /**
     * The answer to {@code r}, waiting at most {@code timeout} after it was sent; past that the
     * channel breaks.
     *
     * @throws ImplementationFailure when the channel broke before the answer came
     */
    JsonNode await(Request r, Duration timeout) {
        long left = timeout.toNanos() - (System.nanoTime() - r.sentNanos);
        try {
            return r.answer.get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            breakWith(r, "no answer within " + timeout.toMillis() + " ms (per-request timeout)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            breakWith(r, "the driver was interrupted");
        } catch (ExecutionException e) {
            throw rethrown(e);
        }
        try {
            // Broken: whoever broke it completes every request in flight once the group is stopped.
            return r.answer.get(GRACE.toMillis() + 5000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw rethrown(e);
        } catch (InterruptedException | TimeoutException e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            throw failure(r, "the driver gave up waiting for the program to stop", "");
        }
    }

    private static RuntimeException rethrown(Exception e) {
        Throwable c = e.getCause() != null ? e.getCause() : e;
        if (c instanceof ImplementationFailure f) return new ImplementationFailure(f.getMessage(), f);
        return new IllegalStateException("driver invariant broken: an answer failed with " + c, c);
    }

    /**
     * The polite end: {@code bye} (answered within {@code wait}, or not), then the process group
     * is stopped, SIGTERM first, once the program had {@code wait} to exit by itself.
     */
    void close(Duration wait) {
        boolean alreadyBroken;
        synchronized (this) {
            alreadyBroken = broken != null;
            closing = true;   // from now on the end of stdout is expected
        }
        if (!alreadyBroken) bye(wait);
        breakWith(null, "the kit closed it");
        try {
            // Whoever broke the channel (this thread, or the reader at the end of stdout) stops the group.
            if (!stopped.await(GRACE.toMillis() + 5000, TimeUnit.MILLISECONDS))
                throw new IllegalStateException("driver invariant broken: the program's group was not stopped");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void bye(Duration wait) {
        try {
            ObjectNode bye = JSON.createObjectNode();
            bye.put("op", "bye");
            Request r = batch(() -> write(bye));
            r.answer.get(wait.toMillis(), TimeUnit.MILLISECONDS);
            closeStdin();   // a program that reads until the end of its input ends there
            group.process().waitFor(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ImplementationFailure | ExecutionException | TimeoutException e) {
            // the program is stopped below either way
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeStdin() {
        synchronized (writeLock) {
            try {
                stdin.close();
            } catch (IOException e) {
                // it is gone already
            }
        }
    }

    /**
     * Breaks the channel, once: stops the program's group and fails every request in flight,
     * {@code culprit} with {@code how}, the others as stopped because of it (every one with
     * {@code how} when there is no culprit). The last lines of stderr end every message.
     */
    void breakWith(Request culprit, String how) {
        List<Request> victims;
        synchronized (this) {
            if (broken != null) return;
            broken = how;
            victims = new ArrayList<>(inFlight.values());
            inFlight.clear();
        }
        meter.settled(victims.size());
        group.stop(GRACE);
        stopped.countDown();
        try {
            // Once the group is gone, stderr ends: its last words are the most useful part of the message.
            stderrReader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String tail = stderr();
        for (Request v : victims) {
            String reason = culprit == null || v == culprit ? how
                    : "the program was stopped because of " + culprit.what() + ": " + how;
            v.answer.completeExceptionally(failure(v, reason, tail));
        }
        if (culprit != null && !victims.contains(culprit)) culprit.answer.completeExceptionally(failure(culprit, how, tail));
    }

    private ImplementationFailure failure(Request r, String how, String tail) {
        return new ImplementationFailure(who + ": " + r.what() + ": " + how + (tail.isEmpty() ? "" : "; stderr: " + tail));
    }

    /** The last lines of stderr of this run, printable, {@code |}-separated. */
    String stderr() {
        synchronized (stderrTail) {
            return String.join(" | ", stderrTail);
        }
    }

    // ------------------------------------------------------------ reading

    private void readAnswers() {
        LineReader lines = new LineReader(group.process().getInputStream(), MAX_LINE_BYTES);
        int number = 0;
        try {
            for (LineReader.Line line; (line = lines.next()) != null; ) {
                number++;
                if (line.cut()) {
                    breakWith(oldest(), "stdout line " + number + " is longer than " + (MAX_LINE_BYTES >> 20)
                            + " MiB; expected one JSON object per line (logs go to stderr)");
                    return;
                }
                if (!dispatch(number, line.bytes())) return;
            }
        } catch (IOException e) {
            // the program went away: the same as the end of its stdout
        }
        ended();
    }

    /** Hands an answer to its request; false when the line broke the channel. */
    private boolean dispatch(int number, byte[] bytes) {
        JsonNode a;
        try {
            a = JSON.readTree(bytes);
        } catch (IOException e) {
            // The parser's reason and column: "duplicate field 'cpus'" says more than "not JSON".
            String why = e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                    ? " (" + (j.getLocation() == null || j.getLocation().getColumnNr() < 1 ? "" : "column " + j.getLocation().getColumnNr() + ": ")
                    + dev.numaspread.conformance.json.JsonInput.parserMessage(j) + ")" : "";
            breakWith(oldest(), "stdout line " + number + " is not JSON" + why + ": '" + quoted(bytes)
                    + "'; expected one JSON object per line (logs go to stderr)");
            return false;
        }
        if (a == null || !a.isObject()) {
            breakWith(oldest(), "stdout line " + number + " is not a JSON object: '" + quoted(bytes) + "'; expected one answer per line");
            return false;
        }
        JsonNode id = a.get("id");
        if (id == null || !id.isInt()) {
            breakWith(oldest(), "stdout line " + number + " has " + (id == null ? "no id" : "id " + ProgramText.quote(id.toString(), 60))
                    + "; expected the integer id of a request");
            return false;
        }
        Request r;
        String mismatch = null;
        synchronized (this) {
            if (broken != null) return false;
            Request first = inFlight.isEmpty() ? null : inFlight.values().iterator().next();
            r = inOrder ? (first != null && first.id == id.intValue() ? first : null) : inFlight.get(id.intValue());
            if (r != null) inFlight.remove(r.id);
            else if (first == null) mismatch = "answered id " + id + " while no request was waiting";
            else if (inOrder) mismatch = "answered id " + id + "; expected id " + first.id + " (answers come in request order)";
            else mismatch = "answered id " + id + ", which no request in flight has (" + idsInFlight() + ")";
        }
        if (r == null) {
            breakWith(oldest(), mismatch);
            return false;
        }
        meter.settled(1);
        if (!r.op.equals("hello") && !r.op.equals("topology") && !r.op.equals("bye")) answeredRoutine = true;
        r.answer.complete(a);
        return true;
    }

    private synchronized String idsInFlight() {
        StringBuilder sb = new StringBuilder("in flight: ");
        Iterator<Integer> it = inFlight.keySet().iterator();
        for (int n = 0; it.hasNext() && n < 8; n++) sb.append(n == 0 ? "" : ", ").append(it.next());
        if (inFlight.size() > 8) sb.append(", ...");
        return sb.toString();
    }

    private synchronized Request oldest() {
        return inFlight.isEmpty() ? null : inFlight.values().iterator().next();
    }

    private void ended() {
        boolean asked;
        synchronized (this) {
            if (broken != null) return;
            asked = closing;
        }
        if (asked) {
            // The end close() asked for: the bye waiting for its answer is settled now, not after its
            // whole wait (a program that exits on bye, or at the end of its work, without answering it).
            breakWith(null, "the program ended its output as the kit closed it");
            return;
        }
        String status;
        try {
            status = group.process().waitFor(1, TimeUnit.SECONDS) ? "exited with status " + group.process().exitValue() : "closed its stdout";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = "closed its stdout";
        }
        breakWith(oldest(), status);
    }

    private void readStderr() {
        LineReader lines = new LineReader(group.process().getErrorStream(), STDERR_LINE_BYTES);
        try {
            for (LineReader.Line line; (line = lines.next()) != null; ) {
                String text = ProgramText.printable(new String(line.bytes(), StandardCharsets.UTF_8)) + (line.cut() ? "..." : "");
                if (line.cut()) lines.skipRestOfLine();
                synchronized (stderrTail) {
                    stderrTail.addLast(text);
                    while (stderrTail.size() > STDERR_LINES) stderrTail.removeFirst();
                }
            }
        } catch (IOException e) {
            // stderr is only a log
        }
    }

    private static String quoted(byte[] bytes) {
        return ProgramText.quote(new String(bytes, 0, Math.min(bytes.length, 1000), StandardCharsets.UTF_8), 60);
    }

    private static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
