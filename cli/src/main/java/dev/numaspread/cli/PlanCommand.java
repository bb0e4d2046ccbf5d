package dev.numaspread.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code numaspread plan}: what a routine of a kernel release gives on a machine, printed in the
 * kernel's own formats so it can be diffed against {@code /proc/irq/N/smp_affinity} or
 * {@code /sys/block/DEV/mq/N/cpu_list}. The routine runs through the SPI on the reference model.
 * Exit 0; 1 when the release's kernel would fail (a modelled BUG()/oops); 2 for a usage error.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Print what a routine of a kernel release gives on a machine, in the kernel's formats.",
        footer = {"", "Exit codes: 0 ok; 1 the release itself would fail there (BUG(), NULL, -ENOSPC); 2 usage error."})
public final class PlanCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--routine", required = true, paramLabel = "R", description = "routine id: ${COMPLETION-CANDIDATES}",
            completionCandidates = RoutineNames.class)
    String routine;

    @Option(names = "--kernel", required = true, paramLabel = "X.Y[,X.Y...]",
            description = "kernel release, e.g. 6.12; several (6.1,6.12,7.3) print side by side, one column per release")
    String kernel;

    @Option(names = "--explain", description = "say why each queue, IRQ or group got its CPUs, with the rule ids of spec/")
    boolean explain;

    @Option(names = "--topology", required = true, paramLabel = "FILE", description = "the machine: a .topo or .json file, an archive of 'numaspread snapshot', or a sysfs copy directory")
    Path topology;

    @Option(names = "--node", defaultValue = "-1", paramLabel = "N", description = "the device's node; -1 is NUMA_NO_NODE")
    int node;

    @Option(names = "--count", defaultValue = "1", paramLabel = "K",
            description = "queues, IRQs (irq-setup) or groups; mana-setup-irqs sizes its vectors itself")
    int count;

    @Option(names = "--offset", defaultValue = "0", paramLabel = "O", description = "blk-mq: first queue number")
    int offset;

    @Mixin
    SiblingSpreadOptions mana = new SiblingSpreadOptions();

    @Option(names = "--cpus", paramLabel = "LIST", description = "numa-closest: the CPU set searched")
    String cpus;

    @Option(names = "--cpu", paramLabel = "CPU", description = "numa-closest: the CPU to be close to")
    Integer cpu;

    @Option(names = "--format", defaultValue = "list", paramLabel = "F",
            description = {"list | smp_affinity | table | json | cpu_list | svg (default: ${DEFAULT-VALUE});",
                    "svg draws the placement: nodes nearest first, CPUs labelled with their queue numbers;",
                    "an IRQ left untouched is an empty line (list), the all-zero mask (smp_affinity), 'untouched' (table)"})
    String format;

    @Option(names = "--first-irq", paramLabel = "IRQ", description = "smp_affinity: prefix line k with 'IRQ+k: '")
    Integer firstIrq;

    private final Implementation impl;

    public PlanCommand() {
        this(new ReferenceModel());
    }

    /** A plan command that asks {@code impl} instead of the reference model (tests). */
    PlanCommand(Implementation impl) {
        this.impl = impl;
    }

    // ------------------------------------------------------------ routines

    /** What a routine gave: one CPU set per line (queues, hop masks, groups), or a CPU → queue map. */
    sealed interface Plan permits Lines, QueueMap {}

    /**
     * One CPU set per queue (or mask, group, IRQ); {@code header} names a line in table and json,
     * {@code emptyWord} is what the table says for an empty set ("none" for a queue without a CPU,
     * "untouched" for an IRQ whose affinity the routine did not set).
     */
    record Lines(String header, List<CpuSet> sets, String emptyWord) implements Plan {
        Lines(String header, List<CpuSet> sets) {
            this(header, sets, "none");
        }
    }

    /** {@code blk_mq_map_queues()}: the queue of each CPU id, -1 for an id that is not possible. */
    record QueueMap(int[] queueOfCpu) implements Plan {}

    /** The arguments a routine may use. */
    record Request(KernelRelease kernel, Topology machine, int node, int count, int offset, Optional<Integer> granted,
                   Optional<CpuSet> cpus, Optional<Integer> cpu, boolean skipFirstCpu, boolean dynamicMsix) {}

    /** One routine of the plan command. */
    @FunctionalInterface
    interface PlanRoutine {
        Plan plan(Implementation impl, Request r);
    }

    /**
     * The routines {@code plan} knows, in the order help lists them. {@code irq-setup} and
     * {@code mana-setup-irqs} run on a {@link Machine} booted from the topology, on which no
     * hotplug event arrives.
     */
    static final Map<Routine, PlanRoutine> ROUTINES = routines();

    private static Map<Routine, PlanRoutine> routines() {
        Map<Routine, PlanRoutine> table = new LinkedHashMap<>();
        table.put(Routine.LOCAL_SPREAD, (impl, r) -> queues(impl.localSpreadCpus(r.kernel(), r.machine(), r.node(), r.count()), r));
        table.put(Routine.LOCAL_SPREAD_NEAREST_NODE,
                (impl, r) -> queues(impl.localSpreadNearestNodeCpus(r.kernel(), r.machine(), r.node(), r.count()), r));
        table.put(Routine.MLX5_NUMA_DISTANCE, (impl, r) -> queues(impl.mlx5NumaDistanceCpus(r.kernel(), r.machine(), r.node(), r.count()), r));
        table.put(Routine.MLX5_COMP_IRQS, (impl, r) -> queues(impl.mlx5CompIrqCpus(r.kernel(), r.machine(), r.node(), r.count()), r));
        table.put(Routine.HOP_MASKS, (impl, r) -> new Lines("hop", impl.hopMasks(r.kernel(), r.machine(), r.node())));
        table.put(Routine.NUMA_CLOSEST, (impl, r) -> {
            CpuSet set = r.cpus().orElseThrow(() -> new IllegalArgumentException("--routine numa-closest: needs --cpus LIST and --cpu CPU"));
            int c = r.cpu().orElseThrow(() -> new IllegalArgumentException("--routine numa-closest: needs --cpus LIST and --cpu CPU"));
            return queues(new int[]{impl.numaClosest(r.kernel(), r.machine(), set, c)}, r);
        });
        table.put(Routine.GROUP_CPUS, (impl, r) -> new Lines("group", impl.groupCpusEvenly(r.kernel(), r.machine(), r.count())
                .orElseThrow(() -> new KernelBug("NULL", "group_cpus_evenly(" + r.count() + ") returned NULL"))));
        table.put(Routine.BLK_MQ_MAP, (impl, r) -> new QueueMap(impl.blkMqMapQueues(r.kernel(), r.machine(), r.count(), r.offset())));
        // irq_setup() assigns IRQs in order and stops when the hops run out (SIB-8): the IRQs
        // past the list it returns keep no affinity of its making.
        table.put(Routine.IRQ_SETUP, (impl, r) -> irqs("irq", impl.irqSetup(r.kernel(), Machine.boot(r.machine(), r.kernel()),
                r.node(), r.count(), r.skipFirstCpu()), r.count()));
        table.put(Routine.MANA_SETUP_IRQS, (impl, r) -> {
            Machine.Config config = Machine.Config.of(r.machine(), r.kernel()).withDynamicMsix(r.dynamicMsix());
            if (r.granted().isPresent()) config = config.withGrantedVectors(r.granted().get());
            List<CpuSet> vectors = impl.manaSetupIrqs(r.kernel(), Machine.boot(config), r.node());
            if (vectors.isEmpty())
                // Not a BUG(): the probe fails cleanly, but the machine has no MANA IRQs to print.
                throw new KernelBug("-ENOSPC", "pci_alloc_irq_vectors() grants " + r.granted().map(String::valueOf).orElse("every")
                        + " vector(s), fewer than mana_gd_setup_irqs() asks for at least; the probe fails");
            return irqs("vector", vectors, vectors.size());
        });
        return Collections.unmodifiableMap(table);
    }

    private static Lines irqs(String header, List<CpuSet> assigned, int count) {
        List<CpuSet> sets = new ArrayList<>(assigned);
        while (sets.size() < count) sets.add(CpuSet.EMPTY);
        return new Lines(header, sets, "untouched");
    }

    /** Routine ids for picocli's help. */
    static final class RoutineNames extends ArrayList<String> {
        RoutineNames() {
            super(ids());
        }
    }

    private static List<String> ids() {
        return ROUTINES.keySet().stream().map(Routine::id).toList();
    }

    private static Lines queues(int[] cpus, Request r) {
        List<CpuSet> sets = new ArrayList<>();
        for (int c : cpus) sets.add(c >= 0 && c < r.machine().nrCpuIds() ? CpuSet.of(c) : CpuSet.EMPTY);
        return new Lines("queue", sets);
    }

    // ------------------------------------------------------------ command

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        List<Request> requests;
        PlanRoutine routineImpl = Routine.byId(routine).map(ROUTINES::get).orElse(null);
        try {
            if (routineImpl == null)
                throw new IllegalArgumentException("--routine '" + routine + "': unknown routine; expected one of "
                        + String.join(", ", ids()));
            if (!List.of("list", "smp_affinity", "table", "json", "cpu_list", "svg").contains(format))
                throw new IllegalArgumentException("--format '" + format + "': expected list, smp_affinity, table, json, cpu_list or svg");
            List<KernelRelease> ks = new ArrayList<>();
            for (String k : kernel.split(",")) ks.add(release(k, err, "plan"));
            if (ks.size() > 1 && !List.of("list", "svg").contains(format))
                throw new IllegalArgumentException("--kernel " + kernel + ": several releases print one column each (the default) or --format svg;"
                        + " expected one release for --format " + format);
            if (ks.size() > 1 && explain)
                throw new IllegalArgumentException("--explain: expected one release (--kernel " + kernel + " names " + ks.size() + ")");
            Topology machine = TopologyFiles.read(topology).topology();
            if (node != Numa.NUMA_NO_NODE && !machine.hasNode(node))
                throw new IllegalArgumentException("--node " + node + ": " + topology + " has no node " + node + " (nodes "
                        + CpuSet.of(machine.nodeIds()).toList() + "); expected one of them or -1 (NUMA_NO_NODE)");
            if (count < 1) throw new IllegalArgumentException("--count " + count + ": expected at least 1");
            requests = new ArrayList<>();
            for (KernelRelease k : ks) {
                mana.check(k);
                requests.add(new Request(k, machine, node, count, offset, mana.granted(),
                        Optional.ofNullable(cpus).map(CpuSet::parseList), Optional.ofNullable(cpu), mana.skipFirstCpu, mana.dynamicMsix));
            }
        } catch (RuntimeException e) {
            err.println("numaspread plan: " + e.getMessage());
            return 2;
        }
        List<Plan> plans = new ArrayList<>();
        for (Request request : requests) {
            try {
                plans.add(routineImpl.plan(impl, request));
            } catch (KernelBug e) {
                err.println("numaspread plan: Linux " + request.kernel() + " would fail here: " + e.getMessage());
                return 1;
            } catch (UnsupportedOperationException e) {
                err.println("numaspread plan: --routine " + routine + " --kernel " + request.kernel()
                        + ": the reference model does not model it yet");
                return 2;
            } catch (IllegalArgumentException e) {
                err.println("numaspread plan: " + e.getMessage());
                return 2;
            }
        }
        Request first = requests.get(0);
        if (format.equals("svg")) out.print(PlanPlacements.svg(routine, plans, requests));
        else if (plans.size() > 1) out.print(PlanPlacements.columns(plans, requests));
        else if (explain) out.print(PlanPlacements.explained(routine, plans.get(0), first));
        else out.print(render(plans.get(0), first));
        out.flush();
        return 0;
    }

    /**
     * Reads {@code text} as a release the project models ({@link KernelRelease#OLDEST} to
     * {@link KernelRelease#NEWEST}). A point release or uname ({@code 6.12.3}) means its series; the
     * note saying so goes to {@code err} as one line.
     *
     * @throws IllegalArgumentException {@code --kernel '7.9': ...}, naming the newest modelled release
     */
    static KernelRelease release(String text, PrintWriter err, String command) {
        KernelRelease k;
        try {
            k = KernelRelease.modelled(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--kernel: " + e.getMessage());
        }
        if (KernelRelease.isPointOrUname(text))
            err.println("numaspread " + command + ": note: --kernel " + text.strip() + " means the series " + k
                    + ", modelled as its current stable point release");
        return k;
    }

    // ------------------------------------------------------------ formats

    String render(Plan plan, Request r) {
        return plan instanceof Lines l ? renderLines(l, r) : renderMap((QueueMap) plan, r);
    }

    private String renderLines(Lines l, Request r) {
        StringBuilder sb = new StringBuilder();
        Topology m = r.machine();
        switch (format) {
            case "list" -> l.sets().forEach(s -> sb.append(s.toList()).append('\n'));
            case "cpu_list" -> l.sets().forEach(s -> sb.append(cpuList(s)).append('\n'));
            case "smp_affinity" -> {
                for (int q = 0; q < l.sets().size(); q++) {
                    if (firstIrq != null) sb.append(firstIrq + q).append(": ");
                    sb.append(l.sets().get(q).toMask(m.nrCpuIds())).append('\n');
                }
            }
            case "table" -> {
                sb.append(String.format("%-6s %-12s %-5s %-8s %s%n", l.header(), "cpu", "node", "distance", "core"));
                for (int q = 0; q < l.sets().size(); q++) {
                    CpuSet s = l.sets().get(q);
                    sb.append(String.format("%-6d %-12s %-5s %-8s %s%n", q, s.isEmpty() ? l.emptyWord() : s.toList(), nodesOf(s, m),
                            distanceOf(s, m, r.node()), coreOf(s, m)));
                }
            }
            case "json" -> {
                ObjectNode o = header(r);
                ArrayNode a = o.putArray(l.header() + "s");
                for (int q = 0; q < l.sets().size(); q++)
                    a.addObject().put(l.header(), q).put("cpus", l.sets().get(q).toList())
                            .put("mask", l.sets().get(q).toMask(m.nrCpuIds()));
                sb.append(json(o));
            }
            default -> throw new IllegalStateException("format " + format + " passed validation");
        }
        return sb.toString();
    }

    private String renderMap(QueueMap map, Request r) {
        Topology m = r.machine();
        int[] q = map.queueOfCpu();
        // Queue k's CPUs, for the per-queue forms; queues run offset .. offset+count-1.
        List<CpuSet> perQueue = new ArrayList<>();
        for (int k = 0; k < r.count(); k++) {
            CpuSet.Builder b = CpuSet.builder();
            for (int c = 0; c < q.length; c++) if (q[c] == r.offset() + k) b.add(c);
            perQueue.add(b.build());
        }
        StringBuilder sb = new StringBuilder();
        switch (format) {
            case "list" -> {
                for (int c = 0; c < q.length; c++) if (q[c] >= 0) sb.append(c).append(' ').append(q[c]).append('\n');
            }
            case "table" -> {
                sb.append(String.format("%-5s %-6s %s%n", "cpu", "queue", "node"));
                for (int c = 0; c < q.length; c++)
                    if (q[c] >= 0) sb.append(String.format("%-5d %-6d %d%n", c, q[c], m.nodeOf(c)));
            }
            case "cpu_list" -> perQueue.forEach(s -> sb.append(cpuList(s)).append('\n'));
            case "smp_affinity" -> {
                for (int k = 0; k < perQueue.size(); k++) {
                    if (firstIrq != null) sb.append(firstIrq + k).append(": ");
                    sb.append(perQueue.get(k).toMask(m.nrCpuIds())).append('\n');
                }
            }
            case "json" -> {
                ObjectNode o = header(r);
                o.put("offset", r.offset());
                ArrayNode a = o.putArray("map");
                for (int v : q) a.add(v);
                sb.append(json(o));
            }
            default -> throw new IllegalStateException("format " + format + " passed validation");
        }
        return sb.toString();
    }

    /** As {@code /sys/block/DEV/mq/N/cpu_list} prints it: every CPU, comma and space separated. */
    static String cpuList(CpuSet s) {
        StringBuilder sb = new StringBuilder();
        for (int c : s.toArray()) sb.append(sb.length() == 0 ? "" : ", ").append(c);
        return sb.toString();
    }

    // The core a set lies in: one CPU's, or a whole sibling mask (irq_setup); "-" when it spans cores.
    private static String coreOf(CpuSet s, Topology m) {
        if (s.isEmpty()) return "-";
        CpuSet core = m.siblingsOf(s.first());
        return s.isSubsetOf(core) ? core.toList() : "-";
    }

    private static String nodesOf(CpuSet s, Topology m) {
        if (s.isEmpty()) return "-";
        return CpuSet.ofStream(s.stream().map(m::nodeOf)).toList();
    }

    private static String distanceOf(CpuSet s, Topology m, int node) {
        if (s.isEmpty() || node == Numa.NUMA_NO_NODE) return "-";
        CpuSet nodes = CpuSet.ofStream(s.stream().map(m::nodeOf));
        if (nodes.size() != 1) return "-";
        return String.valueOf(m.distance(node, nodes.first()));
    }

    private ObjectNode header(Request r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("routine", routine);
        o.put("kernel", r.kernel().toString());
        o.put("topology", r.machine().name());
        o.put("node", r.node());
        o.put("count", r.count());
        o.put("nrCpuIds", r.machine().nrCpuIds());
        return o;
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private static String json(ObjectNode o) {
        try {
            return JSON.writeValueAsString(o) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
