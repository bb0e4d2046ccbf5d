package dev.numaspread.conformance.spi;

import java.time.Duration;

/**
 * What an exchange with an out-of-process implementation cost.
 *
 * @param requests requests sent (hello, machines, routine calls, bye), over every run of the program
 * @param batches  writes of one or more requests, each handed to the program at once; fewer
 *                 batches than requests means requests were pipelined
 * @param busy     wall time during which at least one request was waiting for its answer: the
 *                 program's work plus the pipe, as the kit sees it
 */
public record Traffic(long requests, long batches, Duration busy) {
    public static final Traffic NONE = new Traffic(0, 0, Duration.ZERO);
}
