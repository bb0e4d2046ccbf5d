package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.json.TopologyJson;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.conformance.spi.RemoteImplementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.spi.Traffic;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.AffinitySetting;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.pagepool.Place;
import dev.numaspread.model.pagepool.PoolState;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.Topology;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.TreeMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An implementation in any language, run as a program that speaks spec/protocol.md: one JSON
 * object per line on stdin and stdout, its log on stderr. The kit offers protocol {@value #PROTOCOL}
 * in {@code hello} and speaks whichever protocol from 1 up the program answers: under protocol 1
 * one request at a time, from protocol 2 pipelined (several requests in flight, matched by id),
 * so that checks can run side by side ({@link #maxConcurrentCalls()}).
 *
 * <p>The program runs in a process group of its own ({@link ProcessGroup}). Each request waits
 * at most the per-request timeout; a timeout, an exit, a line that is not an answer, or a line
 * longer than 16 MiB breaks the run ({@link Channel}): every request in flight fails with an
 * {@link ImplementationFailure} naming what happened and the last lines of stderr, and the
 * whole group is stopped. The next call starts the program again, unless {@value #GIVE_UP_AFTER}
 * runs in a row broke before answering a single routine request: then every call fails at once.
 * Text from the program reaches messages only through {@link ProgramText}.
 */
public final class ProcessImplementation implements RemoteImplementation, AutoCloseable {

    /** The newest protocol the kit speaks; it speaks every one from 1 up to it. */
    public static final int PROTOCOL = 2;
    /** Machines registered at once in one run; registering one more reuses the least recently used name. */
    static final int MAX_TOPOLOGIES = 64;
    /** Runs in a row that broke before answering a routine request, after which the kit stops starting the program. */
    static final int GIVE_UP_AFTER = 2;
    /** The least time hello gets: starting a program (a JVM, a runtime) is slower than answering a request. */
    static final Duration MIN_HELLO_TIMEOUT = Duration.ofSeconds(10);
    /** Calls in flight at once from protocol 2. */
    static final int MAX_IN_FLIGHT = 16;

    private final List<String> command;
    private final boolean viaShell;   // run by /bin/sh -c (ofShell)
    private final String who;
    private final Meter meter = new Meter();
    /** Under protocol 1, one call at a time. */
    private final ReentrantLock oneAtATime = new ReentrantLock(true);
    private volatile Duration requestTimeout;
    private volatile boolean askTwice;

    // guarded by this
    private Channel channel;
    private Run run;
    private int brokenInARow;
    private ImplementationFailure givenUp;
    private String notStarted;   // why the program could not be started, when that is why the kit gave up
    private int protocol;
    private String name;
    private List<Claim> claims;

    public ProcessImplementation(List<String> command, Duration requestTimeout) {
        this(command, requestTimeout, false);
    }

    private ProcessImplementation(List<String> command, Duration requestTimeout, boolean viaShell) {
        if (command.isEmpty()) throw new IllegalArgumentException("process: empty command; expected a program to run");
        this.command = List.copyOf(command);
        this.viaShell = viaShell;
        this.who = "process " + ProgramText.quote(String.join(" ", command), 100);
        this.requestTimeout = requestTimeout;
    }

    /** Sets the per-request timeout for the requests from now on. */
    public void setRequestTimeout(Duration timeout) {
        this.requestTimeout = timeout;
    }

    /** The implementation run by {@code /bin/sh -c commandLine}. */
    public static ProcessImplementation ofShell(String commandLine, Duration requestTimeout) {
        return new ProcessImplementation(List.of("/bin/sh", "-c", commandLine), requestTimeout, true);
    }

    /**
     * Why the program cannot be started, when it cannot: the command does not name an executable
     * (starting it fails), or the shell of {@link #ofShell} ends with its "cannot execute" or
     * "not found" status (126, 127) before the first {@code hello} is answered. Starts the program
     * when no run is going on; empty when it starts, whatever it then answers. A program that cannot
     * be started is the user's setup, not the implementation's behaviour: {@code certify} and
     * {@code plan --impl} say so as a usage error instead of certifying.
     */
    public synchronized Optional<String> cannotStart() {
        if (notStarted == null && name == null) {
            try {
                live();
            } catch (ImplementationFailure f) {
                // Anything else that goes wrong is the implementation's, and the certificate's to report.
            }
        }
        return Optional.ofNullable(notStarted);
    }

    /** The name the program gave in its first {@code hello}, made printable. */
    @Override
    public synchronized String name() {
        if (name == null) live();
        return name;
    }

    @Override
    public synchronized List<Claim> claims() {
        if (claims == null) live();
        return claims;
    }

    /** The protocol the program answered in its first {@code hello}. */
    public synchronized int protocol() {
        if (name == null) live();
        return protocol;
    }

    @Override
    public int maxConcurrentCalls() {
        return protocol() >= 2 ? MAX_IN_FLIGHT : 1;
    }

    @Override
    public Traffic traffic() {
        return meter.traffic();
    }

    @Override
    public void askTwice(boolean on) {
        askTwice = on;
    }

    /** Says {@code bye} and stops the program's process group (SIGTERM, then SIGKILL after a grace period). */
    @Override
    public void close() {
        Channel c;
        synchronized (this) {
            c = channel;
            channel = null;
            run = null;
        }
        if (c != null) c.close(Duration.ofMillis(Math.min(1000, requestTimeout.toMillis())));
    }

    // ------------------------------------------------------------ routines

    @Override
    public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return spread(Routine.LOCAL_SPREAD, kernel, machine, node, count);
    }

    @Override
    public int[] localSpreadNearestNodeCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return spread(Routine.LOCAL_SPREAD_NEAREST_NODE, kernel, machine, node, count);
    }

    private int[] spread(Routine op, KernelRelease kernel, Topology machine, int node, int count) {
        ObjectNode r = op(op, kernel, machine);
        r.put("node", node);
        ArrayNode i = r.putArray("i");
        for (int k = 0; k < count; k++) i.add(k);
        return ints(request(r, machine), "cpus");
    }

    @Override
    public int[] numaLevels(KernelRelease kernel, Topology machine) {
        return ints(request(op(Routine.NUMA_LEVELS, kernel, machine), machine), "levels");
    }

    @Override
    public List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        ObjectNode r = op(Routine.HOP_MASKS, kernel, machine);
        r.put("node", node);
        return cpuLists(request(r, machine), "masks");
    }

    @Override
    public int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        ObjectNode r = op(Routine.NUMA_CLOSEST, kernel, machine);
        r.put("cpus", cpus.toList());
        r.put("cpu", cpu);
        return integer(request(r, machine), "cpu");
    }

    @Override
    public int[] numaClosestCalls(KernelRelease kernel, Topology machine, int callingCpu, int prev,
                                               List<dev.numaspread.model.numa.NumaClosest.Call> calls) {
        ObjectNode r = op(Routine.NUMA_CLOSEST, kernel, machine);
        r.put("op", "numa-closest-calls");
        r.put("callingCpu", callingCpu);
        r.put("prev", prev);
        var array = r.putArray("calls");
        for (var c : calls) array.addObject().put("cpus", c.cpus().toList()).put("cpu", c.cpu());
        return ints(request(r, machine), "cpus");
    }

    @Override
    public int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        ObjectNode r = op(Routine.NUMA_NTH, kernel, machine);
        r.put("cpus", cpus.toList());
        r.put("n", n);
        r.put("node", node);
        return integer(request(r, machine), "cpu");
    }

    @Override
    public int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        ObjectNode r = op(Routine.NUMA_NEAREST_NODE, kernel, machine);
        r.put("node", node);
        return integer(request(r, machine), "node");
    }

    @Override
    public int[] mlx5NumaDistanceCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return vectors(Routine.MLX5_NUMA_DISTANCE, kernel, machine, node, count);
    }

    @Override
    public int[] mlx5CompIrqCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return vectors(Routine.MLX5_COMP_IRQS, kernel, machine, node, count);
    }

    private int[] vectors(Routine op, KernelRelease kernel, Topology machine, int node, int count) {
        ObjectNode r = op(op, kernel, machine);
        r.put("node", node);
        r.put("count", count);
        return ints(request(r, machine), "cpus");
    }

    // ------------------------------------------------------------ NIC drivers (spec/nic.md): one shape for all six ops

    @Override
    public NicQueues virtioNetIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.VIRTIO_NET_IRQS, kernel, machine, node, queues);
    }

    @Override
    public NicQueues enaIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.ENA_IRQS, kernel, machine, node, queues);
    }

    @Override
    public NicQueues gveIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.GVE_IRQS, kernel, machine, node, queues);
    }

    @Override
    public NicQueues iceIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.ICE_IRQS, kernel, machine, node, queues);
    }

    @Override
    public NicQueues i40eIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.I40E_IRQS, kernel, machine, node, queues);
    }

    @Override
    public NicQueues bnxtIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.BNXT_IRQS, kernel, machine, node, queues);
    }

    private NicQueues nic(Routine op, KernelRelease kernel, Topology machine, int node, int queues) {
        ObjectNode r = op(op, kernel, machine);
        r.put("node", node);
        r.put("queues", queues);
        JsonNode a = request(r, machine);
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

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        ObjectNode r = op(Routine.GROUP_CPUS, kernel, machine);
        r.put("groups", numgrps);
        JsonNode answer = request(r, machine);
        if (answer.path("groups").isNull()) return Optional.empty();
        return Optional.of(cpuLists(answer, "groups"));
    }

    /**
     * {@code group_cpus_evenly} on a running machine: asked with {@code "services": true}, so that a
     * program that reports the CPU hotplug services its routine used (spec/protocol.md) shows its
     * lock behaviour; each is then made, in order, on {@code machine} ({@code cpus_read_lock()} from
     * a hotplug operation deadlocks there, HP-6). A program that reports none shows nothing, as before.
     */
    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, dev.numaspread.model.hotplug.Machine machine, int numgrps) {
        ObjectNode r = op(Routine.GROUP_CPUS, kernel, machine.topology());
        r.put("groups", numgrps);
        r.put("services", true);
        JsonNode answer = request(r, machine.topology());
        JsonNode services = answer.path("services");
        if (!services.isMissingNode()) {
            if (!services.isArray())
                throw failure("answer " + answer.get("id") + ": services is " + ProgramText.quote(services.toString(), 60)
                        + "; expected the hotplug services used, in order, such as [\"cpu_present_mask\"]");
            for (JsonNode s : services) {
                switch (s.asText("")) {
                    case "cpus_read_lock" -> machine.cpusReadLock();
                    case "cpus_read_unlock" -> machine.cpusReadUnlock();
                    case "cpu_present_mask" -> machine.cpuPresentMask();
                    case "cpu_online_mask" -> machine.cpuOnlineMask();
                    default -> throw failure("answer " + answer.get("id") + ": services holds " + ProgramText.quote(s.toString(), 60)
                            + "; expected cpus_read_lock, cpus_read_unlock, cpu_present_mask or cpu_online_mask");
                }
            }
        }
        if (answer.path("groups").isNull()) return Optional.empty();
        return Optional.of(cpuLists(answer, "groups"));
    }

    @Override
    public java.util.OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        ObjectNode r = op(Routine.GROUP_CPUS, kernel, machine);
        r.put("groups", numgrps);
        JsonNode answer = request(r, machine);
        if (answer.path("groups").isNull()) return java.util.OptionalInt.empty();
        return java.util.OptionalInt.of(integer(answer, "nummasks"));
    }

    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        ObjectNode r = op(Routine.BLK_MQ_MAP, kernel, machine);
        r.put("queues", nrQueues);
        r.put("offset", queueOffset);
        return ints(request(r, machine), "map");
    }

    @Override
    public Optional<List<AffinityDesc>> irqCreateAffinityMasks(
            KernelRelease kernel, Topology machine, int nvecs, int preVectors, int postVectors, List<Integer> setSizes) {
        ObjectNode r = op(Routine.IRQ_AFFINITY_MASKS, kernel, machine);
        r.put("nvecs", nvecs);
        r.put("preVectors", preVectors);
        r.put("postVectors", postVectors);
        ArrayNode sets = r.putArray("sets");
        for (int s : setSizes) sets.add(s);
        JsonNode answer = request(r, machine);
        if (answer.path("vectors").isNull()) return Optional.empty();
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
        return Optional.of(out);
    }

    // ------------------------------------------------------------ page pool: a session


    /**
     * A page pool of the current run of the program: a {@code page-pool} request with
     * {@code create}, then one {@code page-pool} request with {@code action} per action
     * (spec/protocol.md), each asked once (a pool is a state machine). The pool lives as long as
     * the run does: after a restart its actions fail. Its name is {@code p} and the lowest number no
     * pool of the run holds: a name comes free only when its session is closed, never while a
     * check still drives the pool (issue 24: names given in rotation were reused under pools of
     * checks running side by side).
     */
    @Override
    public PagePoolSession pagePool(KernelRelease kernel, Topology machine, PagePool.Params params) {
        Channel c;
        Run r;
        synchronized (this) {
            c = live();
            r = run;
        }
        String pool;
        int serial;
        synchronized (r) {
            serial = ++r.poolsCreated;
            int number = r.freeNames.isEmpty() ? ++r.namesGiven : r.freeNames.pollFirst();
            pool = "p" + number;
        }
        ObjectNode create = op(Routine.PAGE_POOL, kernel, machine);
        create.put("pool", pool);
        ObjectNode p = create.putObject("create");
        p.put("nid", params.nid());
        p.put("cpu", params.cpu());
        p.put("cache", params.cacheSize());
        p.put("refill", params.refill());
        p.put("poolSize", params.poolSize());
        p.put("tracksNapiNode", params.tracksNapiNode());
        p.put("haveMemorylessNodes", params.haveMemorylessNodes());
        try {
            exchange(c, r, create, Optional.of(machine), false);
        } catch (RuntimeException e) {
            synchronized (r) {
                r.freeNames.add(Integer.parseInt(pool.substring(1)));
            }
            throw e;
        }
        synchronized (r) {
            r.pools.put(pool, serial);
        }
        return new PagePoolSession() {
            @Override public Answer apply(Action action) {
                return poolAction(c, r, pool, serial, action);
            }

            @Override public void close() {
                synchronized (r) {
                    if (Integer.valueOf(serial).equals(r.pools.get(pool))) {
                        r.pools.remove(pool);
                        r.freeNames.add(Integer.parseInt(pool.substring(1)));
                    }
                }
            }
        };
    }

    private PagePoolSession.Answer poolAction(Channel c, Run r, String pool, int serial, Action action) {
        synchronized (this) {
            if (channel != c || c.isBroken()) throw failure("page pool " + pool + " is gone: the program was restarted after it was created");
        }
        synchronized (r) {
            if (!Integer.valueOf(serial).equals(r.pools.get(pool)))
                throw failure("page pool " + pool + " was closed; expected no action after the kit closed it");
        }
        ObjectNode request = Channel.JSON.createObjectNode();
        request.put("op", Routine.PAGE_POOL.id());
        request.put("pool", pool);
        request.put("action", action.text());
        JsonNode a = exchange(c, r, request, Optional.empty(), false);
        return new PagePoolSession.Answer(effect(a), poolState(a));
    }

    private Effect effect(JsonNode a) {
        JsonNode d = a.path("did");
        if (!d.isObject()) throw failure("answer " + a.get("id") + " has no object 'did'; expected what the pool did");
        String what = d.path("what").asText("");
        try {
            return switch (what) {
                case "served" -> new Effect.Served(page(d.path("page"), a), Place.of(d.path("from").asText()), pages(d.path("released"), a, "did.released"));
                case "put" -> new Effect.Put(page(d.path("page"), a), Place.of(d.path("to").asText()));
                case "updated" -> new Effect.Updated(integer(d, "oldNid"), integer(d, "newNid"), pages(d.path("released"), a, "did.released"));
                case "unchanged" -> new Effect.Unchanged(integer(d, "nid"));
                default -> throw failure("answer " + a.get("id") + ": did.what is '" + ProgramText.quote(what, 60)
                        + "'; expected served, put, updated or unchanged");
            };
        } catch (IllegalArgumentException e) {
            throw failure("answer " + a.get("id") + ": " + ProgramText.quote(String.valueOf(e.getMessage()), 200));
        }
    }

    private PoolState poolState(JsonNode a) {
        JsonNode s = a.path("state");
        if (!s.isObject()) throw failure("answer " + a.get("id") + " has no object 'state'; expected the pool's state");
        return new PoolState(integer(s, "nid"), integer(s, "cpu"), pages(s.path("cache"), a, "state.cache"),
                pages(s.path("ptrRing"), a, "state.ptrRing"), pages(s.path("inUse"), a, "state.inUse"),
                pages(s.path("released"), a, "state.released"));
    }

    private List<Page> pages(JsonNode n, JsonNode a, String field) {
        if (!n.isArray()) throw failure("answer " + a.get("id") + " has no array '" + field + "'; expected pages such as {\"id\":0,\"node\":1}");
        List<Page> out = new ArrayList<>();
        for (JsonNode p : n) out.add(page(p, a));
        return out;
    }

    private Page page(JsonNode p, JsonNode a) {
        if (!p.isObject() || !p.path("id").isInt() || !p.path("node").isInt())
            throw failure("answer " + a.get("id") + ": a page is " + ProgramText.quote(String.valueOf(p), 60)
                    + "; expected {\"id\":N,\"node\":N[,\"pfmemalloc\":true]}");
        try {
            return new Page(p.get("id").asInt(), p.get("node").asInt(), p.path("pfmemalloc").asBoolean(false));
        } catch (IllegalArgumentException e) {
            throw failure("answer " + a.get("id") + ": " + ProgramText.quote(String.valueOf(e.getMessage()), 200));
        }
    }

    // ------------------------------------------------------------ requests

    /** A request for {@code routine}: its op is the routine id (spec/protocol.md). */
    private static ObjectNode op(Routine routine, KernelRelease kernel, Topology machine) {
        ObjectNode r = Channel.JSON.createObjectNode();
        r.put("op", routine.id());
        r.put("kernel", kernel.toString());
        r.put("topology", "");   // request() puts the machine's name in the run that answers
        return r;
    }

    /** What one run of the program holds: the machines registered (least recently used first) and the page pools created. */
    private static final class Run {
        final LinkedHashMap<Topology, Registration> machines = new LinkedHashMap<>(16, 0.75f, true);
        int machineCounter;
        final Map<String, Integer> pools = new TreeMap<>();   // name -> serial of the pool it names now (open sessions)
        final java.util.TreeSet<Integer> freeNames = new java.util.TreeSet<>();   // numbers of closed pools' names, for reuse
        int namesGiven;                                                         // p1 .. p<namesGiven> have been given
        int poolsCreated;
    }

    /** A machine's name in one run, and the request that registered it. */
    private record Registration(String name, Channel.Request request) {}

    /** The answer to a pure routine request about {@code machine}: asked twice when {@link #askTwice} says so. */
    private JsonNode request(ObjectNode request, Topology machine) {
        Channel c;
        Run r;
        synchronized (this) {
            c = live();
            r = run;
        }
        return exchange(c, r, request, Optional.of(machine), askTwice);
    }

    /**
     * The answer to {@code request} in the run {@code c} (ok true); an {@code ok:false} answer or a
     * broken run throws. The machine, when there is one, is registered first when this run does
     * not know it: from protocol 2 in the same batch as the request, under protocol 1 as a
     * request of its own. Asked {@code twice}, the request goes twice (from protocol 2 in the
     * same batch) and two different answers fail the call.
     */
    private JsonNode exchange(Channel c, Run run, ObjectNode request, Optional<Topology> machine, boolean twice) {
        Duration timeout = requestTimeout;
        int p;
        synchronized (this) {
            p = protocol;
        }
        if (p == 1) {
            oneAtATime.lock();
            try {
                Optional<Registration> reg = Optional.empty();
                if (machine.isPresent()) {
                    reg = Optional.of(c.batch(() -> registration(c, run, machine.get())));
                    answer(c.await(reg.get().request(), timeout), reg.get().request());
                }
                ObjectNode named = named(request, reg);
                Channel.Request r = send(c, named);
                JsonNode a = c.await(r, timeout);
                if (!twice || !isOk(a)) return answer(a, r);
                Channel.Request again = send(c, named);
                return answer(same(r, a, again, c.await(again, timeout)), r);
            } finally {
                oneAtATime.unlock();
            }
        }
        record Sent(Optional<Registration> reg, Channel.Request first, Optional<Channel.Request> again) {}
        Sent sent = c.batch(() -> {
            Optional<Registration> reg = machine.map(m -> registration(c, run, m));
            ObjectNode named = named(request, reg);
            Channel.Request first = c.write(named);
            return new Sent(reg, first, twice ? Optional.of(c.write(named)) : Optional.empty());
        });
        if (sent.reg().isPresent()) answer(c.await(sent.reg().get().request(), timeout), sent.reg().get().request());
        JsonNode a = c.await(sent.first(), timeout);
        if (sent.again().isEmpty() || !isOk(a)) return answer(a, sent.first());
        return answer(same(sent.first(), a, sent.again().get(), c.await(sent.again().get(), timeout)), sent.first());
    }

    private static Channel.Request send(Channel c, ObjectNode request) {
        return c.batch(() -> c.write(request));
    }

    private static boolean isOk(JsonNode a) {
        return a.path("ok").isBoolean() && a.get("ok").booleanValue();
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
                ? y.path("kernelBug").path("kind").equals(x.get("kernelBug").path("kind")) && isOk(b)
                : x.equals(y);
        if (same) return a;
        throw failure(r.what() + " is nondeterministic: the same request again (" + again.id + ") was answered "
                + ProgramText.quote(y.toString(), 200) + " after " + ProgramText.quote(x.toString(), 200) + "; expected the same answer twice");
    }

    /** {@code request} (built for this call alone) naming the machine as this run knows it. */
    private static ObjectNode named(ObjectNode request, Optional<Registration> reg) {
        reg.ifPresent(r -> request.put("topology", r.name()));
        return request;
    }

    /**
     * The machine's registration in this run, writing a {@code topology} request (not flushed)
     * when it has none. It runs inside the channel's batch, so a name reused for another machine
     * is registered again in the stream before any request that means the new machine.
     */
    private static Registration registration(Channel c, Run known, Topology machine) {
        Registration reg = known.machines.get(machine);
        if (reg != null) return reg;
        String t;
        if (known.machines.size() >= MAX_TOPOLOGIES) {
            Iterator<Registration> eldest = known.machines.values().iterator();
            t = eldest.next().name();
            eldest.remove();
        } else t = "t" + (++known.machineCounter);
        ObjectNode r = Channel.JSON.createObjectNode();
        r.put("op", "topology");
        r.put("name", t);
        r.set("topology", opaque(machine, t));
        reg = new Registration(t, c.write(r));
        known.machines.put(machine, reg);
        return reg;
    }

    /**
     * The JSON form of {@code machine} with nothing that tells where it came from: its name is
     * the opaque registration name and its source, notes and expectations are empty, so a program
     * cannot tell a fixture from a generated machine by a label.
     */
    static ObjectNode opaque(Topology machine, String name) {
        ObjectNode t = TopologyJson.toTree(TopoDocument.of(machine));
        t.put("name", name);
        t.put("source", "");
        t.putArray("notes");
        t.putArray("expect");
        return t;
    }

    /** The current run of the program, started (hello included) when there is none or it broke. */
    private Channel live() {
        if (!Thread.holdsLock(this)) throw new IllegalStateException("driver invariant broken: live() without the driver's lock");
        if (givenUp != null) throw new ImplementationFailure(givenUp.getMessage(), givenUp);
        if (channel != null && !channel.isBroken()) return channel;
        if (channel != null) broke(channel);
        channel = null;
        run = null;
        if (givenUp != null) throw new ImplementationFailure(givenUp.getMessage(), givenUp);
        ProcessGroup group;
        try {
            group = ProcessGroup.start(command);
        } catch (IOException e) {
            givenUp = failure("cannot start: " + ProgramText.quote(String.valueOf(e.getMessage()), 200));
            notStarted = ProgramText.quote(String.valueOf(e.getMessage()), 200);
            throw givenUp;
        }
        Channel c = new Channel(group, who, meter);
        ObjectNode hello = Channel.JSON.createObjectNode();
        hello.put("op", "hello");
        hello.put("protocol", PROTOCOL);
        Hello h;
        try {
            h = hello(c.call(hello, requestTimeout.compareTo(MIN_HELLO_TIMEOUT) > 0 ? requestTimeout : MIN_HELLO_TIMEOUT));
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
                givenUp = failure("cannot start: " + notStarted);
                throw givenUp;
            }
            throw f;
        } catch (BadHello bad) {
            c.breakWith(null, bad.getMessage());
            givenUp = failure(bad.getMessage());
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
            givenUp = failure(how);
            throw givenUp;
        }
        if (protocol >= 2) c.answersInAnyOrder();
        channel = c;
        run = new Run();
        return c;
    }

    /** Counts a broken run; gives up after {@value #GIVE_UP_AFTER} in a row that answered no routine request. */
    private void broke(Channel c) {
        brokenInARow = c.answeredRoutine() ? 0 : brokenInARow + 1;
        if (brokenInARow >= GIVE_UP_AFTER && givenUp == null)
            givenUp = failure("the kit gave up on the program: " + brokenInARow + " runs in a row broke before answering a routine request"
                    + c.brokenReason().map(r -> "; the last: " + r).orElse(""));
    }

    private record Hello(int protocol, String name, List<Claim> claims) {}

    /** A hello answer the kit cannot work with; starting the program again would not change it. */
    private static final class BadHello extends Exception {
        BadHello(String message) {
            super(message, null, false, false);
        }
    }

    private static Hello hello(JsonNode a) throws BadHello {
        if (!a.path("ok").isBoolean() || !a.get("ok").asBoolean())
            throw new BadHello("hello was answered " + ProgramText.quote(a.toString(), 200) + "; expected {\"ok\":true,\"protocol\":...}");
        JsonNode p = a.get("protocol");
        if (p == null || !p.isInt() || p.intValue() < 1 || p.intValue() > PROTOCOL)
            throw new BadHello("hello answered " + (p == null ? "no protocol" : "protocol " + ProgramText.quote(p.toString(), 60))
                    + "; expected the integer protocol the program speaks, 1 to " + PROTOCOL);
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

    /**
     * The answer {@code a} to {@code r} when it is ok; a modelled kernel failure throws
     * {@link KernelBug}, an error answer the matching exception, anything else breaks the run.
     */
    private JsonNode answer(JsonNode a, Channel.Request r) {
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
        Channel c;
        synchronized (this) {
            c = channel;
        }
        if (c != null) c.breakWith(null, r.what() + " " + how);
        return failure(r.what() + ": " + how);
    }

    private ImplementationFailure failure(String message) {
        return new ImplementationFailure(who + ": " + message);
    }

    // ------------------------------------------------------------ answer fields

    private int[] ints(JsonNode a, String field) {
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

    private int integer(JsonNode a, String field) {
        JsonNode n = a.path(field);
        if (!n.isInt()) throw failure("answer " + a.get("id") + " has no integer '" + field + "'");
        return n.intValue();
    }

    private List<CpuSet> cpuLists(JsonNode a, String field) {
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
}
