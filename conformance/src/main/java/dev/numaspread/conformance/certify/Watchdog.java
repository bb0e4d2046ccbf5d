package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.model.kernel.KernelRelease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The per-call timeout of an in-process implementation, without a thread switch per call. Work
 * that calls the implementation (a check, the feature run) runs on a thread of its own, a
 * <em>lane</em>, and every call runs on the lane itself; one watchdog thread looks at a lane's
 * current call when that call's deadline comes.
 *
 * <p>A call past its deadline is interrupted, and the lane's stack as the watchdog saw it goes
 * into the message. If the call then ends within a grace period (it returns or throws), the call
 * fails with the timeout's {@link ImplementationFailure} and the work goes on: a check records
 * its ERROR, Cucumber its failed scenario and then the next one. If it does not, the lane is
 * abandoned: the work fails with that message and its caller goes on, while the lane's thread
 * (a daemon) stays wherever the implementation holds it; every later call from it is refused
 * with {@link AbandonedLane}, so it cannot run on beside the work that replaced it.
 *
 * <p>Before, every call was handed to a worker thread and its answer handed back: two thread
 * switches a call, which cost more than most calls (benchmarks/README.md, issue 26). A call made
 * outside a lane is made a lane of its own, so it keeps its timeout at that old price.
 */
final class Watchdog {

    /** A lane the watchdog gave up on: its work failed already; nothing it does counts any more. */
    static final class AbandonedLane extends Error {
        AbandonedLane(String message) {
            super(message, null, false, false);
        }
    }

    /** One thread running one piece of work, and the call it is in. */
    private static final class Lane {
        final CompletableFuture<Object> result = new CompletableFuture<>();
        volatile Thread thread;
        /** The number of the call under way, its negation once the watchdog expired it, 0 between calls. */
        final AtomicLong call = new AtomicLong();
        /** Calls begun on this lane; touched by the lane's thread only. */
        long begun;
        volatile long startedAt;
        volatile Supplier<String> callText;
        volatile KernelRelease kernel;
        /** Set by the watchdog under the lane's lock, before it interrupts. */
        volatile String expiry;
        volatile long expiredAt;
        volatile boolean abandoned;
    }

    private final Duration timeout;
    private final long timeoutNanos;
    private final long graceNanos;
    private final ThreadLocal<Lane> laneOf = new ThreadLocal<>();
    private final Set<Lane> lanes = ConcurrentHashMap.newKeySet();
    private ExecutorService threads;
    private Thread watcher;
    private volatile boolean closed;

    /**
     * @param timeout how long one call may take; a call interrupted at its deadline then has
     *                as long again, at most a second, to end before its lane is abandoned
     */
    Watchdog(Duration timeout) {
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
        this.graceNanos = Math.min(timeoutNanos, Duration.ofSeconds(1).toNanos());
    }

    /**
     * What {@code work} returns, run on a lane; on the calling thread when it is a lane already.
     *
     * @throws ImplementationFailure when a call of the work was abandoned, with the timeout's message
     */
    @SuppressWarnings("unchecked")
    <T> T onLane(Supplier<T> work) {
        if (laneOf.get() != null) return work.get();
        Lane lane = new Lane();
        lanes.add(lane);
        try {
            threads().execute(() -> {
                lane.thread = Thread.currentThread();
                laneOf.set(lane);
                try {
                    lane.result.complete(work.get());
                } catch (Throwable t) {
                    lane.result.completeExceptionally(t);
                } finally {
                    laneOf.remove();
                    lanes.remove(lane);
                }
            });
            return (T) lane.result.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw new IllegalStateException("kit invariant broken: a lane threw " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            lanes.remove(lane);
            throw new ImplementationFailure("the certification was interrupted while the implementation was called", e);
        }
    }

    /**
     * What {@code body} returns or throws, called on this thread within the timeout.
     *
     * @throws ImplementationFailure when it took longer than the timeout (whatever it then returned)
     */
    <T> T call(Supplier<String> callText, KernelRelease kernel, Supplier<T> body) {
        Lane lane = laneOf.get();
        if (lane == null) return onLane(() -> call(callText, kernel, body));
        if (lane.abandoned) throw new AbandonedLane(lane.expiry);
        long n = ++lane.begun;
        lane.callText = callText;
        lane.kernel = kernel;
        lane.startedAt = System.nanoTime();
        lane.call.set(n);   // publishes the three above to the watchdog
        T value;
        try {
            value = body.get();
        } catch (RuntimeException | Error e) {
            end(lane, n);
            throw e;
        }
        end(lane, n);
        return value;
    }

    /** Ends call {@code n} of {@code lane}; throws when the watchdog expired it meanwhile. */
    private void end(Lane lane, long n) {
        if (lane.call.compareAndSet(n, 0)) return;
        synchronized (lane) {
            // The watchdog interrupts while it holds the lane: the flag is its interrupt, not the caller's.
            Thread.interrupted();
            lane.call.set(0);
        }
        if (lane.abandoned) throw new AbandonedLane(lane.expiry);
        throw new ImplementationFailure(lane.expiry);
    }

    /** Stops the watchdog and the idle lanes; an abandoned lane's thread stays where it is. */
    synchronized void close() {
        closed = true;
        if (watcher != null) LockSupport.unpark(watcher);
        watcher = null;
        if (threads != null) threads.shutdownNow();
        threads = null;
    }

    private synchronized ExecutorService threads() {
        closed = false;
        if (watcher == null) {
            watcher = new Thread(this::watch, "numaspread-watchdog");
            watcher.setDaemon(true);
            watcher.start();
        }
        if (threads == null) threads = Executors.newCachedThreadPool(DaemonThreads.named("numaspread-lane"));
        return threads;
    }

    // ------------------------------------------------------------ the watchdog's thread

    /**
     * Wakes at the earliest deadline it knows of. A call that starts while it sleeps has a deadline
     * at least a timeout away, no earlier than the wake-up it set for a lane between calls.
     */
    private void watch() {
        Thread self = Thread.currentThread();
        while (!closed && watcher == self) {
            long now = System.nanoTime();
            long wake = now + timeoutNanos;
            for (Lane lane : lanes) {
                long n = lane.call.get();
                if (n > 0) {
                    // startedAt is read after call: it is call n's or a later call's, never an earlier one's.
                    long deadline = lane.startedAt + timeoutNanos;
                    if (now - deadline >= 0) {
                        expire(lane, n, now);
                        wake = Math.min(wake, now + graceNanos);
                    } else {
                        wake = Math.min(wake, deadline);
                    }
                } else if (n < 0 && !lane.abandoned) {
                    long giveUp = lane.expiredAt + graceNanos;
                    if (now - giveUp >= 0) abandon(lane, n);
                    else wake = Math.min(wake, giveUp);
                }
            }
            LockSupport.parkNanos(this, Math.max(wake - now, 1_000_000));
        }
    }

    private void expire(Lane lane, long n, long now) {
        synchronized (lane) {
            if (!lane.call.compareAndSet(n, -n)) return;   // it ended meanwhile
            Thread t = lane.thread;
            lane.expiry = lane.callText.get() + " for kernel " + lane.kernel + " did not return within " + timeout.toMillis()
                    + " ms; expected an answer (per-call timeout)" + stackOf(t.getStackTrace());
            lane.expiredAt = now;
            t.interrupt();
        }
    }

    private void abandon(Lane lane, long n) {
        synchronized (lane) {
            if (lane.call.get() != n) return;   // it ended after all
            lane.abandoned = true;
        }
        lanes.remove(lane);
        lane.result.completeExceptionally(new ImplementationFailure(lane.expiry
                + "; interrupted, it did not return within " + Duration.ofNanos(graceNanos).toMillis()
                + " ms more, so the kit left it running and went on"));
    }

    /** How many frames of a stuck call the message shows: where it is, and the calls that led there. */
    static final int FRAMES = 8;

    /**
     * The frames of a stuck call above the guard, innermost first, as "; it was at A, called from
     * B, ..."; empty when the thread had just left the implementation.
     */
    static String stackOf(StackTraceElement[] stack) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement e : stack) {
            if (e.getClassName().startsWith(Watchdog.class.getName()) || e.getClassName().startsWith(GuardedImplementation.class.getName()))
                break;
            String where = e.isNativeMethod() ? "native" : e.getFileName() == null ? "unknown source"
                    : e.getFileName() + (e.getLineNumber() >= 0 ? ":" + e.getLineNumber() : "");
            frames.add(e.getClassName() + "." + e.getMethodName() + "(" + where + ")");
        }
        if (frames.isEmpty()) return "";
        StringBuilder out = new StringBuilder("; it was at ").append(frames.get(0));
        for (int i = 1; i < Math.min(frames.size(), FRAMES); i++) out.append(", called from ").append(frames.get(i));
        if (frames.size() > FRAMES) out.append(" (").append(frames.size() - FRAMES).append(" frames more)");
        return out.toString();
    }
}
