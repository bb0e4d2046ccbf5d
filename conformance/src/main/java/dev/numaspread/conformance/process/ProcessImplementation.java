package dev.numaspread.conformance.process;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.json.TopologyJson;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.pagepool.Place;
import dev.numaspread.model.pagepool.PoolState;
import dev.numaspread.model.topology.Topology;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An implementation in any language, run as a process that speaks protocol 1 (spec/protocol.md):
 * one JSON object per line on stdin and stdout, its log on stderr. Each request waits at most
 * {@code requestTimeout} for its answer; a timeout, an exit, a line that is not JSON or an answer
 * to another request is an {@link ImplementationFailure} naming what happened (with the last
 * lines of stderr), and the next request starts the process again.
 */
public final class ProcessImplementation implements Implementation, AutoCloseable {

    /** The protocol this driver speaks. */
    public static final int PROTOCOL = 1;
    /** Machines registered at once; registering one more reuses the oldest name. */
    static final int MAX_TOPOLOGIES = 64;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> command;
    private Duration requestTimeout;

    private Process process;
    private OutputStream stdin;
    private BlockingQueue<String> stdout;
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private Thread stderrReader;
    private int nextId;
    private int linesRead;
    private String name;
    private List<Claim> claims;
    private final LinkedHashMap<Topology, String> registered = new LinkedHashMap<>();
    private int topologyCounter;

    /** End of stdout, as a sentinel line no JSON answer can equal. */
    private static final String EOF = "\u0000EOF";

    public ProcessImplementation(List<String> command, Duration requestTimeout) {
        if (command.isEmpty()) throw new IllegalArgumentException("process: empty command; expected a program to run");
        this.command = List.copyOf(command);
        this.requestTimeout = requestTimeout;
    }

    /** Sets the per-request timeout for the requests from now on. */
    public synchronized void setRequestTimeout(Duration timeout) {
        this.requestTimeout = timeout;
    }

    /** The implementation run by {@code /bin/sh -c commandLine}. */
    public static ProcessImplementation ofShell(String commandLine, Duration requestTimeout) {
        return new ProcessImplementation(List.of("/bin/sh", "-c", commandLine), requestTimeout);
    }

    @Override
    public synchronized String name() {
        ensureStarted();
        return name;
    }

    @Override
    public synchronized List<Claim> claims() {
        ensureStarted();
        return claims;
    }

    /** Says {@code bye} and stops the process. */
    @Override
    public synchronized void close() {
        if (process == null) return;
        try {
            ObjectNode bye = JSON.createObjectNode();
            bye.put("id", ++nextId);
            bye.put("op", "bye");
            send(bye);
            stdout.poll(Math.min(1000, requestTimeout.toMillis()), TimeUnit.MILLISECONDS);
            process.waitFor(1, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        } finally {
            kill();
        }
    }

    // ------------------------------------------------------------ routines

    @Override
    public synchronized int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return spread(Routine.LOCAL_SPREAD, kernel, machine, node, count);
    }

    @Override
    public synchronized int[] localSpreadNearestNodeCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return spread(Routine.LOCAL_SPREAD_NEAREST_NODE, kernel, machine, node, count);
    }

    private int[] spread(Routine op, KernelRelease kernel, Topology machine, int node, int count) {
        ObjectNode r = op(op, kernel, machine);
        r.put("node", node);
        ArrayNode i = r.putArray("i");
        for (int k = 0; k < count; k++) i.add(k);
        return ints(request(r), "cpus");
    }

    @Override
    public synchronized int[] numaLevels(KernelRelease kernel, Topology machine) {
        return ints(request(op(Routine.NUMA_LEVELS, kernel, machine)), "levels");
    }

    @Override
    public synchronized List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        ObjectNode r = op(Routine.HOP_MASKS, kernel, machine);
        r.put("node", node);
        return cpuLists(request(r), "masks");
    }

    @Override
    public synchronized int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        ObjectNode r = op(Routine.NUMA_CLOSEST, kernel, machine);
        r.put("cpus", cpus.toList());
        r.put("cpu", cpu);
        return integer(request(r), "cpu");
    }

    @Override
    public synchronized int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        ObjectNode r = op(Routine.NUMA_NTH, kernel, machine);
        r.put("cpus", cpus.toList());
        r.put("n", n);
        r.put("node", node);
        return integer(request(r), "cpu");
    }

    @Override
    public synchronized int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        ObjectNode r = op(Routine.NUMA_NEAREST_NODE, kernel, machine);
        r.put("node", node);
        return integer(request(r), "node");
    }

    @Override
    public synchronized int[] mlx5NumaDistanceCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return vectors(Routine.MLX5_NUMA_DISTANCE, kernel, machine, node, count);
    }

    @Override
    public synchronized int[] mlx5CompIrqCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return vectors(Routine.MLX5_COMP_IRQS, kernel, machine, node, count);
    }

    private int[] vectors(Routine op, KernelRelease kernel, Topology machine, int node, int count) {
        ObjectNode r = op(op, kernel, machine);
        r.put("node", node);
        r.put("count", count);
        return ints(request(r), "cpus");
    }

    @Override
    public synchronized Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        ObjectNode r = op(Routine.GROUP_CPUS, kernel, machine);
        r.put("groups", numgrps);
        JsonNode answer = request(r);
        if (answer.path("groups").isNull()) return Optional.empty();
        return Optional.of(cpuLists(answer, "groups"));
    }

    @Override
    public synchronized int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        ObjectNode r = op(Routine.BLK_MQ_MAP, kernel, machine);
        r.put("queues", nrQueues);
        r.put("offset", queueOffset);
        return ints(request(r), "map");
    }

    // ------------------------------------------------------------ page pool: a session

    /** Pools alive at once in the process; creating one more reuses the oldest name. */
    static final int MAX_POOLS = 64;
    private int poolsCreated;
    private final Map<String, Integer> poolSerial = new LinkedHashMap<>();
    private int generation;

    /**
     * A page pool of the process: a {@code page-pool} request with {@code create}, then one
     * {@code page-pool} request with {@code action} per action (spec/protocol.md). The pool lives
     * as long as the process does and its name is not reused.
     */
    @Override
    public synchronized PagePoolSession pagePool(KernelRelease kernel, Topology machine, PagePool.Params params) {
        ObjectNode r = op(Routine.PAGE_POOL, kernel, machine);
        int serial = ++poolsCreated;
        String pool = "p" + ((serial - 1) % MAX_POOLS + 1);
        r.put("pool", pool);
        ObjectNode c = r.putObject("create");
        c.put("nid", params.nid());
        c.put("cpu", params.cpu());
        c.put("cache", params.cacheSize());
        c.put("refill", params.refill());
        c.put("poolSize", params.poolSize());
        c.put("tracksNapiNode", params.tracksNapiNode());
        c.put("haveMemorylessNodes", params.haveMemorylessNodes());
        request(r);
        poolSerial.put(pool, serial);
        int born = generation;
        return action -> poolAction(pool, serial, born, action);
    }

    private synchronized PagePoolSession.Answer poolAction(String pool, int serial, int born, Action action) {
        if (born != generation || process == null || !process.isAlive())
            throw failure("page pool " + pool + " is gone: the process was restarted after it was created");
        if (!Integer.valueOf(serial).equals(poolSerial.get(pool)))
            throw failure("page pool " + pool + " was replaced by a newer pool of the same name (at most " + MAX_POOLS + " live pools)");
        ObjectNode r = JSON.createObjectNode();
        r.put("op", Routine.PAGE_POOL.id());
        r.put("pool", pool);
        r.put("action", action.text());
        JsonNode a = request(r);
        return new PagePoolSession.Answer(effect(a), poolState(a));
    }

    private Effect effect(JsonNode a) {
        JsonNode d = a.path("did");
        if (!d.isObject()) throw failure("answer " + a.path("id") + " has no object 'did'; expected what the pool did");
        String what = d.path("what").asText("");
        try {
            return switch (what) {
                case "served" -> new Effect.Served(page(d.path("page"), a), Place.of(d.path("from").asText()), pages(d.path("released"), a, "did.released"));
                case "put" -> new Effect.Put(page(d.path("page"), a), Place.of(d.path("to").asText()));
                case "updated" -> new Effect.Updated(integer(d, "oldNid"), integer(d, "newNid"), pages(d.path("released"), a, "did.released"));
                case "unchanged" -> new Effect.Unchanged(integer(d, "nid"));
                default -> throw failure("answer " + a.path("id") + ": did.what is '" + abbreviate(what) + "'; expected served, put, updated or unchanged");
            };
        } catch (IllegalArgumentException e) {
            throw failure("answer " + a.path("id") + ": " + e.getMessage());
        }
    }

    private PoolState poolState(JsonNode a) {
        JsonNode s = a.path("state");
        if (!s.isObject()) throw failure("answer " + a.path("id") + " has no object 'state'; expected the pool's state");
        return new PoolState(integer(s, "nid"), integer(s, "cpu"), pages(s.path("cache"), a, "state.cache"),
                pages(s.path("ptrRing"), a, "state.ptrRing"), pages(s.path("inUse"), a, "state.inUse"),
                pages(s.path("released"), a, "state.released"));
    }

    private List<Page> pages(JsonNode n, JsonNode a, String field) {
        if (!n.isArray()) throw failure("answer " + a.path("id") + " has no array '" + field + "'; expected pages such as {\"id\":0,\"node\":1}");
        List<Page> out = new ArrayList<>();
        for (JsonNode p : n) out.add(page(p, a));
        return out;
    }

    private Page page(JsonNode p, JsonNode a) {
        if (!p.isObject() || !p.path("id").isInt() || !p.path("node").isInt())
            throw failure("answer " + a.path("id") + ": a page is " + abbreviate(String.valueOf(p)) + "; expected {\"id\":N,\"node\":N[,\"pfmemalloc\":true]}");
        try {
            return new Page(p.get("id").asInt(), p.get("node").asInt(), p.path("pfmemalloc").asBoolean(false));
        } catch (IllegalArgumentException e) {
            throw failure("answer " + a.path("id") + ": " + e.getMessage());
        }
    }

    // ------------------------------------------------------------ requests

    /** A request for {@code routine}: its op is the routine id (spec/protocol.md). */
    private ObjectNode op(Routine routine, KernelRelease kernel, Topology machine) {
        ensureStarted();
        String t = topologyName(machine);
        ObjectNode r = JSON.createObjectNode();
        r.put("op", routine.id());
        r.put("kernel", kernel.toString());
        r.put("topology", t);
        return r;
    }

    private String topologyName(Topology machine) {
        String known = registered.get(machine);
        if (known != null) return known;
        String name;
        if (registered.size() >= MAX_TOPOLOGIES) {
            Map.Entry<Topology, String> oldest = registered.entrySet().iterator().next();
            registered.remove(oldest.getKey());
            name = oldest.getValue();
        } else name = "t" + (++topologyCounter);
        ObjectNode r = JSON.createObjectNode();
        r.put("op", "topology");
        r.put("name", name);
        try {
            r.set("topology", JSON.readTree(TopologyJson.write(machine)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("TopologyJson.write gave text that is not JSON: " + e.getMessage(), e);
        }
        request(r);
        registered.put(machine, name);
        return name;
    }

    private void ensureStarted() {
        if (process != null && process.isAlive()) return;
        if (process != null) kill();
        start();
    }

    private void start() {
        ProcessBuilder pb = new ProcessBuilder(command);
        try {
            process = pb.start();
        } catch (IOException e) {
            process = null;
            throw new ImplementationFailure("process " + String.join(" ", command) + ": cannot start: " + e.getMessage(), e);
        }
        stdin = process.getOutputStream();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        stdout = lines;
        linesRead = 0;
        registered.clear();
        poolSerial.clear();
        generation++;
        Process p = process;
        daemon("numaspread-stdout", () -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) lines.add(line);
            } catch (IOException ignored) {
                // the process went away; EOF below tells the waiting request
            }
            lines.add(EOF);
        });
        stderrReader = daemon("numaspread-stderr", () -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (stderrTail) {
                        stderrTail.addLast(line);
                        while (stderrTail.size() > 10) stderrTail.removeFirst();
                    }
                }
            } catch (IOException ignored) {
                // stderr is only a log
            }
        });
        ObjectNode hello = JSON.createObjectNode();
        hello.put("op", "hello");
        hello.put("protocol", PROTOCOL);
        JsonNode a = request(hello);
        if (a.has("protocol") && a.get("protocol").asInt() != PROTOCOL)
            throw failure("hello answered protocol " + a.get("protocol") + "; expected " + PROTOCOL);
        if (!a.path("name").isTextual()) throw failure("hello answer has no string 'name'; expected {\"ok\":true,\"name\":...,\"claims\":[...]}");
        List<Claim> cs = new ArrayList<>();
        for (JsonNode c : a.path("claims")) {
            String routine = c.path("routine").asText();
            if (Routine.byId(routine).isEmpty()) throw failure("hello claims unknown routine '" + routine + "'; expected a routine id such as local-spread");
            try {
                cs.add(Claim.of(routine, c.path("kernel").asText()));
            } catch (IllegalArgumentException e) {
                throw failure("hello claim " + c + ": " + e.getMessage());
            }
        }
        name = a.get("name").asText();
        claims = List.copyOf(cs);
    }

    private static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void send(ObjectNode request) throws IOException {
        stdin.write((JSON.writeValueAsString(request) + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** The answer to {@code request} (ok true); an {@code ok:false} answer or a broken exchange throws. */
    private JsonNode request(ObjectNode request) {
        int id = ++nextId;
        ObjectNode r = JSON.createObjectNode();
        r.put("id", id);
        r.setAll(request);
        String op = request.path("op").asText();
        String what = "request " + id + " (" + op + ")";
        try {
            send(r);
        } catch (IOException e) {
            throw dead(what, "cannot write to its stdin (" + e.getMessage() + ")");
        }
        String line;
        try {
            line = stdout.poll(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw dead(what, "the driver was interrupted");
        }
        if (line == null) throw dead(what, "no answer within " + requestTimeout.toMillis() + " ms (per-request timeout)");
        if (line.equals(EOF)) {
            String status;
            try {
                status = process.waitFor(1, TimeUnit.SECONDS) ? "exited with status " + process.exitValue() : "closed its stdout";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = "closed its stdout";
            }
            throw dead(what, status);
        }
        linesRead++;
        JsonNode a;
        try {
            a = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw dead(what, "stdout line " + linesRead + " is not JSON: '" + abbreviate(line) + "'; expected one JSON object per line (logs go to stderr)");
        }
        if (a == null || !a.isObject()) throw dead(what, "stdout line " + linesRead + " is not a JSON object: '" + abbreviate(line) + "'");
        if (a.path("id").asInt(-1) != id)
            throw dead(what, "answered id " + a.path("id") + "; expected id " + id + " (answers come in request order)");
        if (a.path("ok").asBoolean(false)) {
            JsonNode bug = a.path("kernelBug");
            if (bug.isObject()) throw new KernelBug(bug.path("kind").asText("BUG"), bug.path("message").asText(""));
            return a;
        }
        String error = a.path("error").asText("");
        String message = a.path("message").asText("");
        switch (error) {
            case "unsupported" -> throw new UnsupportedOperationException(op + ": " + message);
            case "invalid" -> throw failure(what + " was rejected as invalid: " + message);
            case "internal" -> throw failure(what + " failed inside the implementation: " + message);
            default -> throw dead(what, "answered error '" + abbreviate(error) + "'; expected unsupported, invalid or internal");
        }
    }

    /** A broken exchange: the process is stopped, and the next request starts it again. */
    private ImplementationFailure dead(String what, String how) {
        if (process != null && !process.isAlive() && stderrReader != null) {
            // The last words of a crashed process are the most useful part of the message.
            try {
                stderrReader.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String tail = stderr();
        kill();
        return failure(what + ": " + how + (tail.isEmpty() ? "" : "; stderr: " + tail));
    }

    private ImplementationFailure failure(String message) {
        return new ImplementationFailure("process " + String.join(" ", command) + ": " + message);
    }

    private String stderr() {
        synchronized (stderrTail) {
            return String.join(" | ", stderrTail);
        }
    }

    private void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        process = null;
        registered.clear();
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }

    // ------------------------------------------------------------ answer fields

    private int[] ints(JsonNode a, String field) {
        JsonNode n = a.path(field);
        if (!n.isArray()) throw failure("answer " + a.path("id") + " has no array '" + field + "'; expected integers");
        int[] out = new int[n.size()];
        for (int k = 0; k < out.length; k++) {
            if (!n.get(k).isInt()) throw failure("answer " + a.path("id") + ": " + field + "[" + k + "] = " + n.get(k) + "; expected an integer");
            out[k] = n.get(k).asInt();
        }
        return out;
    }

    private int integer(JsonNode a, String field) {
        JsonNode n = a.path(field);
        if (!n.isInt()) throw failure("answer " + a.path("id") + " has no integer '" + field + "'");
        return n.asInt();
    }

    private List<CpuSet> cpuLists(JsonNode a, String field) {
        JsonNode n = a.path(field);
        if (!n.isArray()) throw failure("answer " + a.path("id") + " has no array '" + field + "'; expected CPU lists such as \"0-3\"");
        List<CpuSet> out = new ArrayList<>();
        for (JsonNode s : n) {
            try {
                out.add(CpuSet.parseList(s.asText()));
            } catch (IllegalArgumentException e) {
                throw failure("answer " + a.path("id") + ": " + field + " holds '" + s.asText() + "': " + e.getMessage());
            }
        }
        return out;
    }
}
