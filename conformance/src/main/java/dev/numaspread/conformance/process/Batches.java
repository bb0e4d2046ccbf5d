package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.model.topology.Topology;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * How a request travels to the program and its answer comes back (spec/protocol.md): under
 * protocol 1 one call at a time, the machine's registration a request of its own; from protocol
 * 2 the registration, the request and its repetition written in one batch and matched by id, so
 * that calls of checks running side by side are in flight together.
 */
final class Batches {

    /** Under protocol 1, one call at a time. */
    private final ReentrantLock oneAtATime = new ReentrantLock(true);
    private final Answers answers;
    private final Supplier<Duration> requestTimeout;

    Batches(Answers answers, Supplier<Duration> requestTimeout) {
        this.answers = answers;
        this.requestTimeout = requestTimeout;
    }

    /**
     * The answer to {@code request} in the run {@code live} (ok true); an {@code ok:false} answer or a
     * broken run throws. The machine, when there is one, is registered first when this run does
     * not know it: from protocol 2 in the same batch as the request, under protocol 1 as a
     * request of its own. Asked {@code twice}, the request goes twice (from protocol 2 in the
     * same batch) and two different answers fail the call.
     */
    JsonNode exchange(ProgramLife.Live live, ObjectNode request, Optional<Topology> machine, boolean twice) {
        Duration timeout = requestTimeout.get();
        Channel c = live.channel();
        ProgramRun run = live.run();
        if (live.protocol() == 1) {
            oneAtATime.lock();
            try {
                Optional<ProgramRun.Registration> reg = Optional.empty();
                if (machine.isPresent()) {
                    reg = Optional.of(c.batch(() -> run.registration(c, machine.get())));
                    answers.answer(c.await(reg.get().request(), timeout), reg.get().request());
                }
                ObjectNode named = named(request, reg);
                Channel.Request r = send(c, named);
                JsonNode a = c.await(r, timeout);
                if (!twice || !Answers.isOk(a)) return answers.answer(a, r);
                Channel.Request again = send(c, named);
                return answers.answer(same(r, a, again, c.await(again, timeout)), r);
            } finally {
                oneAtATime.unlock();
            }
        }
        record Sent(Optional<ProgramRun.Registration> reg, Channel.Request first, Optional<Channel.Request> again) {}
        Sent sent = c.batch(() -> {
            Optional<ProgramRun.Registration> reg = machine.map(m -> run.registration(c, m));
            ObjectNode named = named(request, reg);
            Channel.Request first = c.write(named);
            return new Sent(reg, first, twice ? Optional.of(c.write(named)) : Optional.empty());
        });
        if (sent.reg().isPresent()) answers.answer(c.await(sent.reg().get().request(), timeout), sent.reg().get().request());
        JsonNode a = c.await(sent.first(), timeout);
        if (sent.again().isEmpty() || !Answers.isOk(a)) return answers.answer(a, sent.first());
        return answers.answer(same(sent.first(), a, sent.again().get(), c.await(sent.again().get(), timeout)), sent.first());
    }

    private static Channel.Request send(Channel c, ObjectNode request) {
        return c.batch(() -> c.write(request));
    }

    /**
     * {@code a}, when the repeated question got the same answer {@code b} (ids aside; for a
     * modelled kernel failure, the same kind); else the call fails as nondeterministic.
     */
    private JsonNode same(Channel.Request r, JsonNode a, Channel.Request again, JsonNode b) {
        ObjectNode x = ((ObjectNode) a).deepCopy(), y = ((ObjectNode) b).deepCopy();
        x.remove("id");
        y.remove("id");
        boolean same = x.has("kernelBug") && x.get("kernelBug").isObject()
                ? y.path("kernelBug").path("kind").equals(x.get("kernelBug").path("kind")) && Answers.isOk(b)
                : x.equals(y);
        if (same) return a;
        throw answers.failure(r.what() + " is nondeterministic: the same request again (" + again.id + ") was answered "
                + ProgramText.quote(y.toString(), 200) + " after " + ProgramText.quote(x.toString(), 200) + "; expected the same answer twice");
    }

    /** {@code request} (built for this call alone) naming the machine as this run knows it. */
    private static ObjectNode named(ObjectNode request, Optional<ProgramRun.Registration> reg) {
        reg.ifPresent(r -> request.put("topology", r.name()));
        return request;
    }
}
