package dev.numaspread.conformance.spi;

/**
 * An implementation the kit reaches across a process boundary, as the process driver reaches a
 * program over spec/protocol.md. It bounds every call itself (the per-request timeout), may take
 * several calls at once, and counts what the exchange cost, so the certificate can tell the time
 * inside the implementation from the kit's. A Java implementation does not implement this.
 */
public interface RemoteImplementation extends Implementation {

    /** How many calls may be in progress at once: 1 for one at a time (protocol 1), more when pipelined. */
    int maxConcurrentCalls();

    /** What the exchange has cost so far, over every run of the program. */
    Traffic traffic();

    /**
     * From now on, asks every routine question twice (from protocol 2 in one batch) and fails
     * the call as nondeterministic when the two answers differ: the kit's repeated-call check
     * without a second round trip.
     */
    void askTwice(boolean on);
}
