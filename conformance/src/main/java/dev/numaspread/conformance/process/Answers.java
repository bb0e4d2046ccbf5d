package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.nic.AffinitySetting;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How the program's answers are read (spec/protocol.md): an answer's {@code ok} and {@code error},
 * its fields (integers, CPU lists, a NIC's IRQs, affinity vectors) and the {@code hello} answer.
 * Anything that is not what the protocol says fails the call with an {@link ImplementationFailure}
 * naming the program; an answer that breaks the protocol breaks the run too. Text from the program
 * reaches messages only through {@link ProgramText}.
 */
final class Answers {

    private final String who;
    private final Consumer<String> breakRun;   // breaks the current run, with the reason

    /** @param who the program as messages name it; @param breakRun breaks the current run with a reason */
    Answers(String who, Consumer<String> breakRun) {
        this.who = who;
        this.breakRun = breakRun;
    }

    ImplementationFailure failure(String message) {
        return new ImplementationFailure(who + ": " + message);
    }

    static boolean isOk(JsonNode a) {
        return a.path("ok").isBoolean() && a.get("ok").booleanValue();
    }

    /**
     * The answer {@code a} to {@code r} when it is ok; a modelled kernel failure throws
     * {@link KernelBug}, an error answer the matching exception, anything else breaks the run.
     */
    JsonNode answer(JsonNode a, Channel.Request r) {
        JsonNode ok = a.get("ok");
        if (ok != null && ok.isBoolean() && ok.booleanValue()) {
            JsonNode bug = a.get("kernelBug");
            if (bug != null && bug.isObject())
                throw new KernelBug(ProgramText.quote(bug.path("kind").asText("BUG"), 60), ProgramText.quote(bug.path("message").asText(""), 500));
            return a;
        }
        if (ok == null || !ok.isBoolean())
            throw garbage(r, "answered " + (ok == null ? "no 'ok'" : "ok " + ProgramText.quote(ok.toString(), 60)) + "; expected \"ok\": true or false");
        String error = a.path("error").asText("");
        String message = ProgramText.quote(a.path("message").asText(""), 500);
        switch (error) {
            case "unsupported" -> throw new UnsupportedOperationException(r.op + ": " + message);
            case "invalid" -> throw failure(r.what() + " was rejected as invalid: " + message);
            case "internal" -> throw failure(r.what() + " failed inside the implementation: " + message);
            default -> throw garbage(r, "answered error '" + ProgramText.quote(error, 60) + "'; expected unsupported, invalid or internal");
        }
    }

    /** An answer that breaks the protocol: the run is stopped, as for a line that is not JSON. */
    private ImplementationFailure garbage(Channel.Request r, String how) {
        breakRun.accept(r.what() + " " + how);
        return failure(r.what() + ": " + how);
    }

    // ------------------------------------------------------------ answer fields

    int[] ints(JsonNode a, String field) {
        JsonNode n = a.path(field);
        if (!n.isArray()) throw failure("answer " + a.get("id") + " has no array '" + field + "'; expected integers");
        int[] out = new int[n.size()];
        for (int k = 0; k < out.length; k++) {
            if (!n.get(k).isInt())
                throw failure("answer " + a.get("id") + ": " + field + "[" + k + "] = " + ProgramText.quote(n.get(k).toString(), 60) + "; expected an integer");
            out[k] = n.get(k).intValue();
        }
        return out;
    }

    int integer(JsonNode a, String field) {
        JsonNode n = a.path(field);
        if (!n.isInt()) throw failure("answer " + a.get("id") + " has no integer '" + field + "'");
        return n.intValue();
    }

    List<CpuSet> cpuLists(JsonNode a, String field) {
        JsonNode n = a.path(field);
        if (!n.isArray()) throw failure("answer " + a.get("id") + " has no array '" + field + "'; expected CPU lists such as \"0-3\"");
        List<CpuSet> out = new ArrayList<>();
        for (JsonNode s : n) {
            if (!s.isTextual())
                throw failure("answer " + a.get("id") + ": " + field + " holds " + ProgramText.quote(s.toString(), 60) + "; expected CPU lists such as \"0-3\"");
            try {
                out.add(CpuSet.parseList(s.asText()));
            } catch (IllegalArgumentException e) {
                throw failure("answer " + a.get("id") + ": " + field + " holds '" + ProgramText.quote(s.asText(), 60) + "': "
                        + ProgramText.quote(String.valueOf(e.getMessage()), 200));
            }
        }
        return out;
    }

    /** A NIC driver's answer: its {@code irqs} (role, queue, CPUs, setting) and {@code xps} maps. */
    NicQueues nicQueues(JsonNode a) {
        JsonNode irqs = a.path("irqs");
        if (!irqs.isArray()) throw failure("answer " + a.get("id") + " has no array 'irqs'; expected one object per IRQ");
        List<QueueIrq> out = new ArrayList<>();
        for (JsonNode i : irqs) {
            String where = "answer " + a.get("id") + ": irqs[" + out.size() + "]";
            if (!i.isObject()) throw failure(where + " = " + ProgramText.quote(i.toString(), 60) + "; expected an object");
            QueueIrq.Role role = QueueIrq.Role.byId(i.path("role").asText("")).orElseThrow(() -> failure(where + " has role "
                    + ProgramText.quote(i.path("role").toString(), 60) + "; expected rx, tx, rx-tx, management or config"));
            AffinitySetting setting = AffinitySetting.byId(i.path("setting").asText("")).orElseThrow(() -> failure(where + " has setting "
                    + ProgramText.quote(i.path("setting").toString(), 60) + "; expected forced, hint or none"));
            if (!i.path("queue").isInt() || i.path("queue").intValue() < 0)
                throw failure(where + " has queue " + ProgramText.quote(i.path("queue").toString(), 60) + "; expected an integer >= 0");
            if (!i.path("cpus").isTextual()) throw failure(where + " has no CPU list 'cpus'; expected one such as \"0-3\" (\"\" for none)");
            CpuSet cpus;
            try {
                cpus = CpuSet.parseList(i.path("cpus").asText());
            } catch (IllegalArgumentException e) {
                throw failure(where + ": cpus '" + ProgramText.quote(i.path("cpus").asText(), 60) + "': " + ProgramText.quote(String.valueOf(e.getMessage()), 200));
            }
            out.add(new QueueIrq(role, i.path("queue").intValue(), cpus, setting));
        }
        return new NicQueues(out, cpuLists(a, "xps"));
    }

    /** {@code irq_create_affinity_masks}' answer: a mask and whether it is managed, per vector. */
    List<AffinityDesc> affinityDescs(JsonNode answer) {
        JsonNode v = answer.path("vectors");
        if (!v.isArray())
            throw failure("answer " + answer.get("id") + " has no array 'vectors'; expected {\"mask\":\"0-3\",\"managed\":true} per vector, or null");
        List<AffinityDesc> out = new ArrayList<>();
        for (JsonNode d : v) {
            if (!d.isObject() || !d.path("mask").isTextual() || !d.path("managed").isBoolean())
                throw failure("answer " + answer.get("id") + ": a vector is " + ProgramText.quote(d.toString(), 60)
                        + "; expected {\"mask\":\"0-3\",\"managed\":true}");
            try {
                out.add(new AffinityDesc(CpuSet.parseList(d.get("mask").asText()), d.get("managed").booleanValue()));
            } catch (IllegalArgumentException e) {
                throw failure("answer " + answer.get("id") + ": vectors holds the mask '" + ProgramText.quote(d.get("mask").asText(), 60) + "': "
                        + ProgramText.quote(String.valueOf(e.getMessage()), 200));
            }
        }
        return out;
    }

    // ------------------------------------------------------------ hello

    /** What {@code hello} answered: the protocol, the program's name made printable, its claims. */
    record Hello(int protocol, String name, List<Claim> claims) {}

    /** A hello answer the kit cannot work with; starting the program again would not change it. */
    static final class BadHello extends Exception {
        BadHello(String message) {
            super(message, null, false, false);
        }
    }

    static Hello hello(JsonNode a) throws BadHello {
        if (!a.path("ok").isBoolean() || !a.get("ok").asBoolean())
            throw new BadHello("hello was answered " + ProgramText.quote(a.toString(), 200) + "; expected {\"ok\":true,\"protocol\":...}");
        JsonNode p = a.get("protocol");
        if (p == null || !p.isInt() || p.intValue() < 1 || p.intValue() > ProcessImplementation.PROTOCOL)
            throw new BadHello("hello answered " + (p == null ? "no protocol" : "protocol " + ProgramText.quote(p.toString(), 60))
                    + "; expected the integer protocol the program speaks, 1 to " + ProcessImplementation.PROTOCOL);
        if (!a.path("name").isTextual())
            throw new BadHello("hello answer has no string 'name'; expected {\"ok\":true,\"protocol\":" + p.intValue()
                    + ",\"name\":...,\"claims\":[...]}");
        if (!a.path("claims").isArray())
            throw new BadHello("hello answer has no array 'claims'; expected [{\"routine\":\"local-spread\",\"kernel\":\"6.12\"}, ...]");
        List<Claim> cs = new ArrayList<>();
        for (JsonNode c : a.get("claims")) {
            if (!c.path("routine").isTextual() || Routine.byId(c.get("routine").asText()).isEmpty())
                throw new BadHello("hello claims unknown routine " + ProgramText.quote(c.path("routine").toString(), 60)
                        + "; expected a routine id such as local-spread");
            if (!c.path("kernel").isTextual())
                throw new BadHello("hello claim " + ProgramText.quote(c.toString(), 120) + " has no string 'kernel'; expected a release such as \"6.12\"");
            try {
                cs.add(Claim.of(c.get("routine").asText(), c.get("kernel").asText()));
            } catch (IllegalArgumentException e) {
                throw new BadHello("hello claim " + ProgramText.quote(c.toString(), 120) + ": " + ProgramText.quote(String.valueOf(e.getMessage()), 200));
            }
        }
        return new Hello(p.intValue(), ProgramText.quote(a.get("name").asText(), 200), List.copyOf(cs));
    }
}
