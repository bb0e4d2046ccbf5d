package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.Traffic;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The life of the program's process: started (with {@code hello}) when a call finds no run or a
 * broken one, stopped by {@link #close()}, and given up on after {@value #GIVE_UP_AFTER} runs in a
 * row broke before answering a routine request, after which every call fails at once. The first
 * {@code hello} says the protocol, the name and the claims; a restarted program must answer the
 * same protocol and claims.
 */
final class ProgramLife {

    /** Runs in a row that broke before answering a routine request, after which the kit stops starting the program. */
    static final int GIVE_UP_AFTER = 2;
    /** The least time hello gets: starting a program (a JVM, a runtime) is slower than answering a request. */
    static final Duration MIN_HELLO_TIMEOUT = Duration.ofSeconds(10);

    /** The current run: its channel, what it holds, and the protocol the program speaks. */
    record Live(Channel channel, ProgramRun run, int protocol) {}

    private final List<String> command;
    private final boolean viaShell;   // run by /bin/sh -c
    private final String who;
    private final Meter meter = new Meter();
    private final Answers answers;
    private volatile Duration requestTimeout;

    // guarded by this
    private Channel channel;
    private ProgramRun run;
    private int brokenInARow;
    private ImplementationFailure givenUp;
    private String notStarted;   // why the program could not be started, when that is why the kit gave up
    private int protocol;
    private String name;
    private List<Claim> claims;

    ProgramLife(List<String> command, boolean viaShell, Duration requestTimeout) {
        if (command.isEmpty()) throw new IllegalArgumentException("process: empty command; expected a program to run");
        this.command = List.copyOf(command);
        this.viaShell = viaShell;
        this.who = "process " + ProgramText.quote(String.join(" ", command), 100);
        this.requestTimeout = requestTimeout;
        this.answers = new Answers(who, this::breakCurrent);
    }

    /** How the program's answers are read, its failures named after it. */
    Answers answers() {
        return answers;
    }

    Duration requestTimeout() {
        return requestTimeout;
    }

    void setRequestTimeout(Duration timeout) {
        this.requestTimeout = timeout;
    }

    Traffic traffic() {
        return meter.traffic();
    }

    /** See {@link ProcessImplementation#cannotStart()}. */
    synchronized Optional<String> cannotStart() {
        if (notStarted == null && name == null) {
            try {
                live();
            } catch (ImplementationFailure f) {
                // Anything else that goes wrong is the implementation's, and the certificate's to report.
            }
        }
        return Optional.ofNullable(notStarted);
    }

    synchronized String name() {
        if (name == null) live();
        return name;
    }

    synchronized List<Claim> claims() {
        if (claims == null) live();
        return claims;
    }

    synchronized int protocol() {
        if (name == null) live();
        return protocol;
    }

    /** Says {@code bye} and stops the program's process group (SIGTERM, then SIGKILL after a grace period). */
    void close() {
        Channel c;
        synchronized (this) {
            c = channel;
            channel = null;
            run = null;
        }
        if (c != null) c.close(Duration.ofMillis(Math.min(1000, requestTimeout.toMillis())));
    }

    /** Whether {@code c} is the current run's channel and not broken. */
    synchronized boolean isCurrent(Channel c) {
        return channel == c && !c.isBroken();
    }

    /** Breaks the current run, if there is one, saying {@code reason}. */
    void breakCurrent(String reason) {
        Channel c;
        synchronized (this) {
            c = channel;
        }
        if (c != null) c.breakWith(null, reason);
    }

    /** The current run of the program, started (hello included) when there is none or it broke. */
    synchronized Live live() {
        if (givenUp != null) throw new ImplementationFailure(givenUp.getMessage(), givenUp);
        if (channel != null && !channel.isBroken()) return new Live(channel, run, protocol);
        if (channel != null) broke(channel);
        channel = null;
        run = null;
        if (givenUp != null) throw new ImplementationFailure(givenUp.getMessage(), givenUp);
        ProcessGroup group;
        try {
            group = ProcessGroup.start(command);
        } catch (IOException e) {
            givenUp = answers.failure("cannot start: " + ProgramText.quote(String.valueOf(e.getMessage()), 200));
            notStarted = ProgramText.quote(String.valueOf(e.getMessage()), 200);
            throw givenUp;
        }
        Channel c = new Channel(group, who, meter);
        ObjectNode hello = Channel.JSON.createObjectNode();
        hello.put("op", "hello");
        hello.put("protocol", ProcessImplementation.PROTOCOL);
        Answers.Hello h;
        try {
            h = Answers.hello(c.call(hello, requestTimeout.compareTo(MIN_HELLO_TIMEOUT) > 0 ? requestTimeout : MIN_HELLO_TIMEOUT));
        } catch (ImplementationFailure f) {
            broke(c);
            // POSIX shells end with 127 for a command not found and 126 for one that cannot be
            // executed; before any hello was answered that is the command line, not the program.
            java.util.OptionalInt status = name == null && viaShell ? c.exitStatus() : java.util.OptionalInt.empty();
            if (status.isPresent() && (status.getAsInt() == 126 || status.getAsInt() == 127)) {
                // The shell's own words say which command; under load its stderr may still be in flight.
                String tail = c.stderrAtExit(Duration.ofSeconds(5));
                notStarted = (status.getAsInt() == 127 ? "the shell found no such command" : "the shell cannot execute it")
                        + " (exit status " + status.getAsInt() + ")" + (tail.isEmpty() ? "" : ": " + tail);
                givenUp = answers.failure("cannot start: " + notStarted);
                throw givenUp;
            }
            throw f;
        } catch (Answers.BadHello bad) {
            c.breakWith(null, bad.getMessage());
            givenUp = answers.failure(bad.getMessage());
            throw givenUp;
        }
        if (name == null) {
            protocol = h.protocol();
            name = h.name();
            claims = h.claims();
        } else if (h.protocol() != protocol || !h.claims().equals(claims)) {
            String how = "hello after a restart answered protocol " + h.protocol() + " and claims " + h.claims()
                    + "; expected protocol " + protocol + " and claims " + claims + ", as the first run answered";
            c.breakWith(null, how);
            givenUp = answers.failure(how);
            throw givenUp;
        }
        if (protocol >= 2) c.answersInAnyOrder();
        channel = c;
        run = new ProgramRun();
        return new Live(c, run, protocol);
    }

    /** Counts a broken run; gives up after {@value #GIVE_UP_AFTER} in a row that answered no routine request. */
    private void broke(Channel c) {
        brokenInARow = c.answeredRoutine() ? 0 : brokenInARow + 1;
        if (brokenInARow >= GIVE_UP_AFTER && givenUp == null)
            givenUp = answers.failure("the kit gave up on the program: " + brokenInARow + " runs in a row broke before answering a routine request"
                    + c.brokenReason().map(r -> "; the last: " + r).orElse(""));
    }
}
