package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.json.TopologyJson;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.ActionScript;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every exchange shown in spec/protocol.md is played through the kit's own driver: a program
 * (a shell script written from the exchange) reads the requests and writes the answers exactly as
 * the document shows them, while the test makes the calls the requests stand for. The driver must send the
 * requests shown (ids included), accept the answers shown, and make of them what the reference
 * model answers on the document's machine, which is read by the kit's own JSON reader. So the
 * document cannot drift from the kit.
 */
class ProtocolDocTest {

    static final String DOC = "spec/protocol.md";

    /** One line of an exchange: a request ({@code →}) or an answer ({@code ←}), where it is in the document. */
    record Step(boolean request, ObjectNode json, String text, int line) {
        String where() {
            return DOC + ":" + line;
        }

        String op() {
            return json.path("op").asText();
        }

        /** The request without its id, to tell a repeat from another question. */
        ObjectNode question() {
            ObjectNode q = json.deepCopy();
            q.remove("id");
            return q;
        }
    }

    /** A fenced block of the document holding an exchange. */
    record Exchange(int line, List<Step> steps) {
        boolean isHelloOnly() {
            return steps.size() == 2 && steps.get(0).op().equals("hello");
        }

        boolean startsWithHello() {
            return steps.get(0).op().equals("hello");
        }

        boolean registers() {
            return steps.stream().anyMatch(s -> s.request() && s.op().equals("topology"));
        }
    }

    static String document() {
        try (InputStream in = ProtocolDocTest.class.getClassLoader().getResourceAsStream("numaspread/" + DOC)) {
            if (in == null) throw new AssertionError("numaspread/" + DOC + " is not on the test class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(DOC + ": " + e.getMessage(), e);
        }
    }

    /** The exchanges of the document, each line read as JSON by the driver's own reader. */
    static List<Exchange> exchanges() {
        List<Exchange> out = new ArrayList<>();
        String[] lines = document().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].startsWith("```")) continue;
            int start = i + 1;
            List<Step> steps = new ArrayList<>();
            List<String> other = new ArrayList<>();
            for (i = start; i < lines.length && !lines[i].startsWith("```"); i++) {
                String l = lines[i];
                if (l.startsWith("→ ") || l.startsWith("← ")) {
                    JsonNode j;
                    try {
                        j = Channel.JSON.readTree(l.substring(2));
                    } catch (IOException e) {
                        throw new AssertionError(DOC + ":" + (i + 1) + ": found '" + l + "', which is not JSON (" + e.getMessage()
                                + "); expected one JSON object after the arrow");
                    }
                    if (!j.isObject()) throw new AssertionError(DOC + ":" + (i + 1) + ": found " + j + "; expected a JSON object");
                    if (!j.path("id").isInt()) throw new AssertionError(DOC + ":" + (i + 1) + ": found id " + j.get("id") + "; expected an integer id");
                    steps.add(new Step(l.startsWith("→ "), (ObjectNode) j, l, i + 1));
                } else if (!l.isBlank()) other.add(l);
            }
            if (steps.isEmpty()) {
                for (String l : other)
                    if (l.strip().startsWith("{"))
                        throw new AssertionError(DOC + ":" + start + ": found JSON outside an exchange: '" + l + "'; expected → and ← lines");
                continue;
            }
            if (!other.isEmpty())
                throw new AssertionError(DOC + ":" + start + ": found '" + other.get(0) + "' in an exchange; expected only → and ← lines");
            out.add(new Exchange(start, steps));
        }
        return out;
    }

    static Exchange first(List<Exchange> all, java.util.function.Predicate<Exchange> which, String what) {
        return all.stream().filter(which).findFirst().orElseThrow(() -> new AssertionError(DOC + " shows no " + what));
    }

    /** The document's machine, read by the kit's JSON reader from the first topology request. */
    static Topology machine(List<Exchange> all) {
        return machineOf(first(all, Exchange::registers, "topology exchange"));
    }

    /** The machine {@code e} registers, read by the kit's JSON reader. */
    static Topology machineOf(Exchange e) {
        Step t = e.steps().stream().filter(s -> s.request() && s.op().equals("topology")).findFirst().orElseThrow();
        return machineOf(t);
    }

    static Topology machineOf(Step t) {
        return TopologyJson.fromTree(t.json().get("topology"), t.where(), Optional.empty()).topology();
    }

    @Test
    void documentShowsTheExchangesThisTestPlays() {
        List<Exchange> all = exchanges();
        assertTrue(all.size() >= 15, "found " + all.size() + " exchanges in " + DOC + "; expected one per op and more");
        for (String op : List.of("hello", "topology", "local-spread", "local-spread-nearest-node", "numa-levels", "hop-masks",
                "numa-closest", "numa-nth", "numa-nearest-node", "mlx5-numa-distance", "mlx5-comp-irqs", "group-cpus", "blk-mq-map",
                "irq-affinity-masks", "page-pool", "virtio-net-irqs", "ena-irqs", "bnxt-irqs", "bye"))
            assertTrue(all.stream().anyMatch(e -> e.steps().stream().anyMatch(s -> s.request() && s.op().equals(op))),
                    DOC + " has no example of op " + op);
        // The keys of the JSON topology are shown with values (FMT-12), cpuModel (FMT-20) and packages included.
        for (String key : List.of("cpus", "smt", "cpuModel", "packages", "nodes", "nodeOf", "distances"))
            assertTrue(all.stream().anyMatch(e -> e.steps().stream().anyMatch(s -> s.request() && s.op().equals("topology")
                            && shows(s.json().path("topology").path(key)))),
                    DOC + " registers no machine with a non-empty " + key);
    }

    /** A key shown with a value: a non-empty list, object or text. */
    static boolean shows(JsonNode v) {
        return v.isContainerNode() ? !v.isEmpty() : !v.isMissingNode() && !v.asText().isEmpty();
    }

    @Test
    void topologyExampleIsWhatTheDriverSends() throws IOException {
        List<Exchange> all = exchanges();
        for (Exchange e : all)
            for (Step s : e.steps())
                if (s.request() && s.op().equals("topology"))
                    assertEquals(Channel.JSON.readTree(Channel.JSON.writeValueAsString(ProgramRun.opaque(machineOf(s), s.json().path("name").asText()))),
                            s.json().get("topology"),
                            s.where() + ": the machine differs from the JSON the driver sends for it");
    }

    @TestFactory
    List<DynamicTest> everyExchangeGoesThroughTheDriver() {
        List<Exchange> all = exchanges();
        Exchange hello = first(all, Exchange::isHelloOnly, "exchange of hello alone");
        Exchange registration = first(all, e -> e.steps().size() == 2 && e.registers(), "exchange of topology alone");
        Topology machine = machine(all);
        List<DynamicTest> tests = new ArrayList<>();
        for (Exchange e : all) {
            if (e == registration) continue;   // registering alone is no call: the other exchanges send it (and see topologyExampleIsWhatTheDriverSends)
            List<Step> transcript = new ArrayList<>();
            if (!e.startsWithHello()) transcript.addAll(hello.steps());
            boolean needsMachine = e.steps().stream().anyMatch(s -> s.request() && s.json().has("topology") && !s.op().equals("topology"));
            if (needsMachine && !e.registers()) transcript.addAll(registration.steps());
            transcript.addAll(e.steps());
            // An exchange that registers its own machine (the cpuModel example) is played on that machine.
            Topology m = e.registers() ? machineOf(e) : machine;
            tests.add(DynamicTest.dynamicTest(DOC + ":" + e.line(), () -> play(e, transcript, m)));
        }
        return tests;
    }

    static void play(Exchange e, List<Step> transcript, Topology machine) throws Exception {
        Path dir = Files.createTempDirectory("protocol-doc");
        Path log = dir.resolve("log");
        // The program is a shell script: for → it reads a request and logs it, for ← it writes the answer
        // as shown; then it logs what else comes and answers it ok (the kit's bye).
        StringBuilder script = new StringBuilder();
        int n = 0;
        for (Step s : transcript) {
            if (s.request()) script.append("read -r line || exit 0; printf '%s\\n' \"$line\" >> '").append(log).append("'\n");
            else {
                Path answer = dir.resolve("answer" + (n++));
                Files.writeString(answer, s.text().substring(2) + "\n", StandardCharsets.UTF_8);
                script.append("cat '").append(answer).append("'\n");
            }
        }
        script.append("while read -r line; do printf '%s\\n' \"$line\" >> '").append(log).append("'; ")
                .append("id=${line#*\\\"id\\\":}; id=${id%%,*}; printf '{\"id\":%s,\"ok\":true}\\n' \"$id\"; exit 0; done\n");
        Path program = dir.resolve("program.sh");
        Files.writeString(program, script.toString(), StandardCharsets.UTF_8);
        ProcessImplementation p = new ProcessImplementation(List.of("/bin/sh", program.toString()), Duration.ofSeconds(20));
        try {
            Step helloAnswer = transcript.get(1);
            assertEquals(helloAnswer.json().get("protocol").intValue(), p.protocol(), helloAnswer.where());
            assertEquals(helloAnswer.json().get("name").asText(), p.name(), helloAnswer.where());
            List<Claim> claims = new ArrayList<>();
            for (JsonNode c : helloAnswer.json().get("claims")) claims.add(Claim.of(c.get("routine").asText(), c.get("kernel").asText()));
            assertEquals(claims, p.claims(), helloAnswer.where());
            List<Step> steps = e.steps();
            List<ObjectNode> asked = new ArrayList<>();
            PagePoolSession[] pool = new PagePoolSession[2];   // the driver's session and the model's
            for (Step s : steps) {
                if (!s.request() || s.op().equals("hello") || s.op().equals("topology")) continue;
                if (s.op().equals("bye")) {
                    p.close();
                    continue;
                }
                if (s.op().equals("page-pool")) {
                    pagePool(s, answerTo(s, steps), machine, p, pool);
                    continue;
                }
                if (asked.contains(s.question())) continue;   // the repeat of a question: the driver asks it itself
                asked.add(s.question());
                p.askTwice(steps.stream().filter(t -> t.request() && t.question().equals(s.question())).count() == 2);
                call(s, answerTo(s, steps), machine, p);
            }
        } finally {
            p.close();
        }
        List<String> sent = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
        List<Step> shown = transcript.stream().filter(Step::request).toList();
        for (int k = 0; k < shown.size(); k++) {
            Step want = shown.get(k);
            assertTrue(k < sent.size(), want.where() + ": the driver did not send " + want.text().substring(2));
            assertEquals(want.json(), Channel.JSON.readTree(sent.get(k)), want.where() + ": the driver sent another request");
        }
    }

    static Step answerTo(Step s, List<Step> steps) {
        return steps.stream().filter(t -> !t.request() && t.json().get("id").equals(s.json().get("id"))).findFirst()
                .orElseThrow(() -> new AssertionError(s.where() + ": no answer with id " + s.json().get("id") + " in the exchange"));
    }

    /**
     * A page-pool step: {@code create} opens the driver's session and the model's on the same
     * parameters; an action goes to both, and the driver's reading of the shown answer must be
     * the model's (an {@code invalid} answer: the model refuses the action too).
     */
    static void pagePool(Step s, Step answer, Topology machine, ProcessImplementation p, PagePoolSession[] pool) {
        JsonNode r = s.json();
        if (r.has("create")) {
            JsonNode c = r.get("create");
            PagePool.Params params = new PagePool.Params(c.get("nid").intValue(), c.get("cpu").intValue(), c.get("cache").intValue(),
                    c.get("refill").intValue(), c.get("poolSize").intValue(), c.get("tracksNapiNode").booleanValue(),
                    c.get("haveMemorylessNodes").booleanValue());
            KernelRelease k = KernelRelease.parse(r.get("kernel").asText());
            pool[0] = p.pagePool(k, machine, params);
            pool[1] = new ReferenceModel().pagePool(k, machine, params);
            return;
        }
        assertNotNull(pool[0], s.where() + ": a page-pool action before its pool was created");
        Action action = ActionScript.read("create nid 0 cpu 0\n" + r.get("action").asText(), s.where()).actions().get(0);
        if (answer.json().path("error").asText("").equals("invalid")) {
            ImplementationFailure f = assertThrows(ImplementationFailure.class, () -> pool[0].apply(action), answer.where());
            assertTrue(f.getMessage().endsWith(answer.json().get("message").asText()), answer.where() + ": " + f.getMessage());
            assertThrows(IllegalArgumentException.class, () -> pool[1].apply(action),
                    answer.where() + ": the document shows an invalid action the model accepts");
            return;
        }
        assertEquals(pool[1].apply(action), pool[0].apply(action), answer.where() + ": the document's answer differs from the reference model's");
    }

    /** Makes the call {@code s} stands for and checks the driver's result against {@code answer} and the model. */
    static void call(Step s, Step answer, Topology machine, ProcessImplementation p) {
        JsonNode r = s.json();
        KernelRelease k = KernelRelease.parse(r.get("kernel").asText());
        Function<Implementation, Object> call = switch (s.op()) {
            case "local-spread" -> i -> i.localSpreadCpus(k, machine, r.get("node").intValue(), count(s));
            case "local-spread-nearest-node" -> i -> i.localSpreadNearestNodeCpus(k, machine, r.get("node").intValue(), count(s));
            case "numa-levels" -> i -> i.numaLevels(k, machine);
            case "hop-masks" -> i -> i.hopMasks(k, machine, r.get("node").intValue());
            case "numa-closest" -> i -> i.numaClosest(k, machine, CpuSet.parseList(r.get("cpus").asText()), r.get("cpu").intValue());
            case "numa-closest-calls" -> i -> {
                List<dev.numaspread.model.numa.NumaClosest.Call> calls = new java.util.ArrayList<>();
                r.get("calls").forEach(c -> calls.add(new dev.numaspread.model.numa.NumaClosest.Call(CpuSet.parseList(c.get("cpus").asText()),
                        c.get("cpu").intValue())));
                return i.numaClosestCalls(k, machine, r.get("callingCpu").intValue(), r.get("prev").intValue(), calls);
            };
            case "numa-nth" -> i -> i.numaNth(k, machine, CpuSet.parseList(r.get("cpus").asText()), r.get("n").intValue(), r.get("node").intValue());
            case "numa-nearest-node" -> i -> i.numaNearestNode(k, machine, r.get("node").intValue());
            case "mlx5-numa-distance" -> i -> i.mlx5NumaDistanceCpus(k, machine, r.get("node").intValue(), r.get("count").intValue());
            case "mlx5-comp-irqs" -> i -> i.mlx5CompIrqCpus(k, machine, r.get("node").intValue(), r.get("count").intValue());
            case "group-cpus" -> r.path("services").asBoolean(false)
                    // On a running machine: the answer and the services the driver made on it are the model's.
                    ? i -> {
                        var running = dev.numaspread.model.hotplug.Machine.boot(machine, k);
                        Object groups = i.groupCpusEvenly(k, running, r.get("groups").intValue());
                        return groups + " services " + running.calls().stream().map(c -> c.service()).toList();
                    }
                    : i -> i.groupCpusEvenly(k, machine, r.get("groups").intValue());
            case "blk-mq-map" -> i -> i.blkMqMapQueues(k, machine, r.get("queues").intValue(), r.get("offset").intValue());
            case "virtio-net-irqs" -> i -> i.virtioNetIrqs(k, machine, r.get("node").intValue(), r.get("queues").intValue());
            case "ena-irqs" -> i -> i.enaIrqs(k, machine, r.get("node").intValue(), r.get("queues").intValue());
            case "gve-irqs" -> i -> i.gveIrqs(k, machine, r.get("node").intValue(), r.get("queues").intValue());
            case "ice-irqs" -> i -> i.iceIrqs(k, machine, r.get("node").intValue(), r.get("queues").intValue());
            case "i40e-irqs" -> i -> i.i40eIrqs(k, machine, r.get("node").intValue(), r.get("queues").intValue());
            case "bnxt-irqs" -> i -> i.bnxtIrqs(k, machine, r.get("node").intValue(), r.get("queues").intValue());
            case "irq-affinity-masks" -> i -> {
                List<Integer> sets = new ArrayList<>();
                r.get("sets").forEach(n -> sets.add(n.intValue()));
                return i.irqCreateAffinityMasks(k, machine, r.get("nvecs").intValue(), r.get("preVectors").intValue(),
                        r.get("postVectors").intValue(), sets);
            };
            default -> throw new AssertionError(s.where() + ": op " + s.op() + " has no call in this test; expected an op of the kit");
        };
        JsonNode a = answer.json();
        String error = a.path("error").asText("");
        if (error.equals("unsupported")) {
            assertThrows(UnsupportedOperationException.class, () -> call.apply(p), answer.where());
        } else if (!error.isEmpty()) {
            ImplementationFailure f = assertThrows(ImplementationFailure.class, () -> call.apply(p), answer.where());
            assertTrue(f.getMessage().endsWith(a.get("message").asText()), answer.where() + ": " + f.getMessage());
        } else if (a.has("kernelBug")) {
            KernelBug got = assertThrows(KernelBug.class, () -> call.apply(p), answer.where());
            KernelBug model = assertThrows(KernelBug.class, () -> call.apply(new ReferenceModel()),
                    answer.where() + ": the document shows a kernel failure where the model answers");
            assertEquals(model.kind(), got.kind(), answer.where());
        } else {
            assertEquals(text(call.apply(new ReferenceModel())), text(call.apply(p)),
                    answer.where() + ": the document's answer differs from the reference model's");
        }
    }

    /** {@code i} is always 0 .. count-1: the driver asks for a whole plan. */
    static int count(Step s) {
        JsonNode i = s.json().get("i");
        for (int k = 0; k < i.size(); k++)
            if (i.get(k).intValue() != k) throw new AssertionError(s.where() + ": i = " + i + "; expected 0 .. count-1, as the driver asks");
        return i.size();
    }

    static String text(Object o) {
        return o instanceof int[] a ? Arrays.toString(a) : Objects.toString(o);
    }
}
