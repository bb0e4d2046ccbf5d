package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.conformance.spi.RemoteImplementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.spi.Traffic;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.topology.Topology;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

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
 * whole group is stopped. The next call starts the program again, unless {@value ProgramLife#GIVE_UP_AFTER}
 * runs in a row broke before answering a single routine request: then every call fails at once.
 * Text from the program reaches messages only through {@link ProgramText}.
 *
 * <p>One class per concern: this one says what each routine asks and reads its answer;
 * {@link ProgramLife} starts, restarts and stops the program, {@link Batches} carries requests
 * (one at a time or batched), {@link ProgramRun} holds a run's machines and page pool names,
 * {@link PagePools} drives page pool sessions, and {@link Answers} reads answers and {@code hello}.
 */
public final class ProcessImplementation implements RemoteImplementation, AutoCloseable {

    /** The newest protocol the kit speaks; it speaks every one from 1 up to it. */
    public static final int PROTOCOL = 2;
    /** Calls in flight at once from protocol 2. */
    static final int MAX_IN_FLIGHT = 16;

    private final ProgramLife life;
    private final Answers answers;
    private final Batches batches;
    private final PagePools pagePools;
    private volatile boolean askTwice;

    public ProcessImplementation(List<String> command, Duration requestTimeout) {
        this(command, requestTimeout, false);
    }

    private ProcessImplementation(List<String> command, Duration requestTimeout, boolean viaShell) {
        this.life = new ProgramLife(command, viaShell, requestTimeout);
        this.answers = life.answers();
        this.batches = new Batches(answers, life::requestTimeout);
        this.pagePools = new PagePools(life, batches);
    }

    /** Sets the per-request timeout for the requests from now on. */
    public void setRequestTimeout(Duration timeout) {
        life.setRequestTimeout(timeout);
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
    public Optional<String> cannotStart() {
        return life.cannotStart();
    }

    /** The name the program gave in its first {@code hello}, made printable. */
    @Override
    public String name() {
        return life.name();
    }

    @Override
    public List<Claim> claims() {
        return life.claims();
    }

    /** The protocol the program answered in its first {@code hello}. */
    public int protocol() {
        return life.protocol();
    }

    @Override
    public int maxConcurrentCalls() {
        return protocol() >= 2 ? MAX_IN_FLIGHT : 1;
    }

    @Override
    public Traffic traffic() {
        return life.traffic();
    }

    // Alike on purpose (duplicates, issue 26) with KernelImplementation: delegations to the program's life, one per SPI method.
    @Override
    public void askTwice(boolean on) {
        askTwice = on;
    }

    /** Says {@code bye} and stops the program's process group (SIGTERM, then SIGKILL after a grace period). */
    @Override
    public void close() {
        life.close();
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
        return answers.ints(request(r, machine), "cpus");
    }

    @Override
    public int[] numaLevels(KernelRelease kernel, Topology machine) {
        return answers.ints(request(op(Routine.NUMA_LEVELS, kernel, machine), machine), "levels");
    }

    @Override
    public List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        ObjectNode r = op(Routine.HOP_MASKS, kernel, machine);
        r.put("node", node);
        return answers.cpuLists(request(r, machine), "masks");
    }

    @Override
    public int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        ObjectNode r = op(Routine.NUMA_CLOSEST, kernel, machine);
        r.put("cpus", cpus.toList());
        r.put("cpu", cpu);
        return answers.integer(request(r, machine), "cpu");
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
        return answers.ints(request(r, machine), "cpus");
    }

    @Override
    public int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        ObjectNode r = op(Routine.NUMA_NTH, kernel, machine);
        r.put("cpus", cpus.toList());
        r.put("n", n);
        r.put("node", node);
        return answers.integer(request(r, machine), "cpu");
    }

    @Override
    public int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        ObjectNode r = op(Routine.NUMA_NEAREST_NODE, kernel, machine);
        r.put("node", node);
        return answers.integer(request(r, machine), "node");
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
        return answers.ints(request(r, machine), "cpus");
    }

    // ------------------------------------------------------------ NIC drivers (spec/nic.md): one shape for all six ops

    // Alike on purpose (duplicates, issue 26) with the lines below: one request per SPI method; the six NIC drivers share nic() and differ in their op.
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
        return answers.nicQueues(request(r, machine));
    }

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        return groups(request(groupCpus(kernel, machine, numgrps), machine));
    }

    /**
     * {@code group_cpus_evenly} on a running machine: asked with {@code "services": true}, so that a
     * program that reports the CPU hotplug services its routine used (spec/protocol.md) shows its
     * lock behaviour; each is then made, in order, on {@code machine} ({@code cpus_read_lock()} from
     * a hotplug operation deadlocks there, HP-6). A program that reports none shows nothing, as before.
     */
    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, dev.numaspread.model.hotplug.Machine machine, int numgrps) {
        ObjectNode r = groupCpus(kernel, machine.topology(), numgrps);
        r.put("services", true);
        JsonNode answer = request(r, machine.topology());
        JsonNode services = answer.path("services");
        if (!services.isMissingNode()) {
            if (!services.isArray())
                throw answers.failure("answer " + answer.get("id") + ": services is " + ProgramText.quote(services.toString(), 60)
                        + "; expected the hotplug services used, in order, such as [\"cpu_present_mask\"]");
            for (JsonNode s : services) {
                switch (s.asText("")) {
                    case "cpus_read_lock" -> machine.cpusReadLock();
                    case "cpus_read_unlock" -> machine.cpusReadUnlock();
                    case "cpu_present_mask" -> machine.cpuPresentMask();
                    case "cpu_online_mask" -> machine.cpuOnlineMask();
                    default -> throw answers.failure("answer " + answer.get("id") + ": services holds " + ProgramText.quote(s.toString(), 60)
                            + "; expected cpus_read_lock, cpus_read_unlock, cpu_present_mask or cpu_online_mask");
                }
            }
        }
        return groups(answer);
    }

    @Override
    public java.util.OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        JsonNode answer = request(groupCpus(kernel, machine, numgrps), machine);
        if (answer.path("groups").isNull()) return java.util.OptionalInt.empty();
        return java.util.OptionalInt.of(answers.integer(answer, "nummasks"));
    }

    /** A {@code group-cpus} request for {@code numgrps} groups. */
    private static ObjectNode groupCpus(KernelRelease kernel, Topology machine, int numgrps) {
        ObjectNode r = op(Routine.GROUP_CPUS, kernel, machine);
        r.put("groups", numgrps);
        return r;
    }

    /** The groups of a {@code group-cpus} answer; empty where the program answered null (the kernel's NULL). */
    private Optional<List<CpuSet>> groups(JsonNode answer) {
        if (answer.path("groups").isNull()) return Optional.empty();
        return Optional.of(answers.cpuLists(answer, "groups"));
    }

    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        ObjectNode r = op(Routine.BLK_MQ_MAP, kernel, machine);
        r.put("queues", nrQueues);
        r.put("offset", queueOffset);
        return answers.ints(request(r, machine), "map");
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
        return Optional.of(answers.affinityDescs(answer));
    }

    // ------------------------------------------------------------ page pool: a session

    /** A page pool of the current run of the program ({@link PagePools#open}). */
    @Override
    public PagePoolSession pagePool(KernelRelease kernel, Topology machine, PagePool.Params params) {
        return pagePools.open(op(Routine.PAGE_POOL, kernel, machine), machine, params);
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

    /** The answer to a pure routine request about {@code machine}: asked twice when {@link #askTwice} says so. */
    private JsonNode request(ObjectNode request, Topology machine) {
        return batches.exchange(life.live(), request, Optional.of(machine), askTwice);
    }
}
