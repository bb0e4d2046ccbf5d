package dev.numaspread.conformance.process;

import dev.numaspread.conformance.spi.Traffic;

import java.time.Duration;

/** Counts what the exchange with the program costs, over all its runs: see {@link Traffic}. Thread-safe. */
final class Meter {
    private long requests;
    private long batches;
    private long busyNanos;
    private int waiting;
    private long busySince;

    synchronized void sent() {
        requests++;
        if (waiting++ == 0) busySince = System.nanoTime();
    }

    synchronized void batch() {
        batches++;
    }

    /** {@code n} requests got their answer, or will never get one. */
    synchronized void settled(int n) {
        if (n <= 0) return;
        waiting -= n;
        if (waiting < 0) throw new IllegalStateException("driver invariant broken: " + waiting + " requests waiting");
        if (waiting == 0) busyNanos += System.nanoTime() - busySince;
    }

    synchronized Traffic traffic() {
        long busy = busyNanos + (waiting > 0 ? System.nanoTime() - busySince : 0);
        return new Traffic(requests, batches, Duration.ofNanos(busy));
    }
}
