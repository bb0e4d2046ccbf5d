package dev.numaspread.cli;

import dev.numaspread.cli.plan.DevicePlan;
import dev.numaspread.cli.plan.ExplainedPlan;
import dev.numaspread.cli.plan.PagePoolPlan;
import dev.numaspread.cli.plan.Plan;
import dev.numaspread.cli.plan.PlanFormat;
import dev.numaspread.cli.plan.PlanRequest;
import dev.numaspread.cli.plan.PlanRoutine;
import dev.numaspread.cli.plan.PlanRoutines;
import dev.numaspread.cli.plan.Planned;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.GuardedImplementation;
import dev.numaspread.conformance.certify.Implementations;
import dev.numaspread.conformance.comparison.ReleaseColumns;
import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.picture.Placement;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.certify.MachineOutOfReach;
import dev.numaspread.kernel.certify.KernelRun;
import dev.numaspread.kernel.certify.KernelSources;
import dev.numaspread.kernel.guest.BootableKernel;
import dev.numaspread.kernel.source.KernelSrc;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.pagepool.ActionScript;
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
 *
 * <p>This class holds the options and checks them; the routines are {@link PlanRoutines}, the
 * value they give a {@link Plan}, each {@code --format} a {@link PlanFormat}, and
 * {@code --explain} the {@link ExplainedPlan}.
 *
 * <p>Over 450 lines on purpose (issue 26): most of it is the command's options, a field each with its
 * description.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Print what a routine of a kernel release gives on a machine, in the kernel's formats.",
        footer = {"", "Exit codes: 0 ok; 1 the release itself would fail there (BUG(), NULL, -ENOSPC), or --impl answers otherwise;",
                "2 usage error (an --impl program that cannot be started included)."})
public final class PlanCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(names = "--routine", paramLabel = "R", description = "routine id: ${COMPLETION-CANDIDATES}",
            completionCandidates = RoutineNames.class)
    String routine;

    @Option(names = "--device", paramLabel = "D", completionCandidates = DeviceNames.class,
            description = {"a NIC instead of --routine: ${COMPLETION-CANDIDATES} (spec/nic.md); prints each IRQ's CPUs,",
                    "forced or only a hint, what the IRQ then shows, and the XPS masks"})
    String device;

    @Option(names = "--queues", paramLabel = "N",
            description = {"--device: the queues the driver is given, 1 to " + MAX_COUNT + ": queue pairs (virtio-net, gve),",
                    "I/O queues (ena), queue vectors (ice, i40e) or rings (bnxt) (default: 1, with a note)"})
    Integer queues;

    @Option(names = "--kernel", required = true, paramLabel = "X.Y[,X.Y...]",
            description = "kernel release, e.g. 6.12; several (6.1,6.12,7.3) print side by side, one column per release")
    String kernel;

    @Option(names = "--explain", description = "say why each queue, IRQ or group got its CPUs (numa-closest: each call its answer), with the rule ids of spec/")
    boolean explain;

    @Mixin
    MachineOption topology = new MachineOption();

    @Option(names = "--node", paramLabel = "N",
            description = "the device's node; -1 is NUMA_NO_NODE (default: -1, with a note, for the routines that take a node)")
    Integer node;

    @Option(names = "--count", paramLabel = "K",
            description = {"queues, IRQs (irq-setup) or groups, 1 to " + MAX_COUNT + "; mana-setup-irqs sizes its vectors itself",
                    "(default: 1, with a note, for the routines that take a count)"})
    Integer count;

    @Option(names = "--offset", paramLabel = "O", description = "blk-mq-map: first queue number, 0 to " + MAX_OFFSET + " (default: 0)")
    Integer offset;

    @Mixin
    SiblingSpreadOptions mana = new SiblingSpreadOptions();

    @Option(names = "--cpus", paramLabel = "LIST", description = "numa-closest: the CPU set searched")
    String cpus;

    @Option(names = "--cpu", paramLabel = "CPU", description = "numa-closest: the CPU to be close to")
    Integer cpu;

    @Option(names = "--calls", paramLabel = "K",
            description = {"numa-closest: K calls in turn on the calling CPU, one line each, 1 to " + MAX_COUNT + " (default: 1);",
                    "from 6.16 each answer depends on the one before it (HOP-10)"})
    Integer calls;

    @Option(names = "--calling-cpu", paramLabel = "CPU",
            description = "numa-closest: the CPU that executes the calls and keeps the state (default: the --cpu argument)")
    Integer callingCpu;

    @Option(names = "--prev", paramLabel = "CPU",
            description = {"numa-closest, 6.16+: distribute_cpu_mask_prev of the calling CPU before the first call, the CPU it",
                    "returned last (default: 0, as at boot, with a note)"})
    Integer prev;

    @Option(names = "--format", defaultValue = "list", paramLabel = "F", completionCandidates = FormatNames.class,
            description = {"${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE});",
                    "svg draws the placement: nodes nearest first, CPUs labelled with their queue numbers;",
                    "an IRQ left untouched is an empty line (list), the all-zero mask (smp_affinity), 'untouched' (table)"})
    String format;

    @Option(names = "--first-irq", paramLabel = "IRQ",
            description = "--format smp_affinity: prefix line k with 'IRQ+k: ', 0 to " + Integer.MAX_VALUE + " for the last line (default: no prefix)")
    Integer firstIrq;

    // Alike on purpose (duplicates, issue 26) with RacesCommand: picocli options, a field each with its description.
    @Option(names = "--impl", paramLabel = "IMPL",
            description = {"also ask this implementation (java:CLASS | process:'CMD' | example | kernel-src:TREE) and print its answer beside the model's,",
                    "the rows that differ marked; exit 1 when they differ (default: the model alone); kernel:SOURCE boots",
                    "the machine under QEMU with that kernel and asks it (certify --help lists the sources)"})
    String other;

    @Option(names = "--class-path", paramLabel = "PATH",
            description = "--impl java:CLASS: jars and class folders, ':'-separated (default: $NUMASPREAD_CLASSPATH)")
    String classPath;

    @Option(names = "--script", paramLabel = "FILE", description = "page-pool: the action script to replay (spec/page-pool.md)")
    Path script;

    /** The largest {@code --count}: a plan holds one line per queue, IRQ or group. */
    static final int MAX_COUNT = 65_536;
    /** The largest {@code --offset}. */
    static final int MAX_OFFSET = 65_535;

    /** The routine-specific options each routine takes; any other one given is a usage error. */
    static final Map<Routine, List<String>> OPTIONS = options();

    private static Map<Routine, List<String>> options() {
        Map<Routine, List<String>> t = new LinkedHashMap<>();
        for (Routine r : List.of(Routine.LOCAL_SPREAD, Routine.LOCAL_SPREAD_NEAREST_NODE, Routine.MLX5_NUMA_DISTANCE, Routine.MLX5_COMP_IRQS))
            t.put(r, List.of("--node", "--count"));
        t.put(Routine.HOP_MASKS, List.of("--node"));
        t.put(Routine.NUMA_CLOSEST, List.of("--cpus", "--cpu", "--calls", "--calling-cpu", "--prev"));
        t.put(Routine.GROUP_CPUS, List.of("--count"));
        t.put(Routine.BLK_MQ_MAP, List.of("--count", "--offset"));
        t.put(Routine.IRQ_SETUP, List.of("--node", "--count", "--skip-first-cpu"));
        t.put(Routine.MANA_SETUP_IRQS, List.of("--node", "--granted", "--dynamic-msix"));
        t.put(Routine.PAGE_POOL, List.of("--script"));
        for (Routine r : Routine.values()) if (r.isNic()) t.put(r, List.of("--node", "--queues"));
        return Collections.unmodifiableMap(t);
    }

    /** Every routine-specific option, in the order {@code --help} lists them. */
    static final List<String> ROUTINE_OPTIONS = List.of("--node", "--count", "--queues", "--offset", "--granted", "--dynamic-msix",
            "--skip-first-cpu", "--cpus", "--cpu", "--calls", "--calling-cpu", "--prev", "--script");

    private final Implementation impl;
    /** The machines a booted kernel ({@code --impl kernel:}) runs on; empty for other implementations. */
    private Optional<dev.numaspread.conformance.topogen.MachinePool> bootedOn = Optional.empty();

    public PlanCommand() {
        this(new ReferenceModel());
    }

    /** A plan command that asks {@code impl} instead of the reference model (tests). */
    PlanCommand(Implementation impl) {
        this.impl = impl;
    }

    /** True when {@code option} was given on the command line. */
    private boolean given(String option) {
        return spec.commandLine().getParseResult() != null && spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    /**
     * Refuses the routine-specific options {@code r} does not take, and notes on {@code notes} the
     * defaults it takes silently no more ({@code --node}, {@code --count}).
     *
     * @throws IllegalArgumentException {@code --offset does not apply to --routine local-spread (it takes --node, --count)}
     */
    void checkOptionsOf(Routine r, List<String> notes) {
        List<String> takes = OPTIONS.getOrDefault(r, List.of());
        for (String o : ROUTINE_OPTIONS)
            if (given(o) && !takes.contains(o))
                throw new IllegalArgumentException(o + " does not apply to --routine " + r.id() + " (it takes "
                        + (takes.isEmpty() ? "no routine option" : String.join(", ", takes)) + "); leave it out");
        if (takes.contains("--node") && node == null) notes.add("--node not given: the device has no node (NUMA_NO_NODE, -1)");
        if (takes.contains("--count") && count == null) notes.add("--count not given: 1");
        if (takes.contains("--queues") && queues == null) notes.add("--queues not given: 1");
        if (firstIrq != null && !format.equals("smp_affinity"))
            throw new IllegalArgumentException("--first-irq applies to --format smp_affinity only (not " + format + "); leave it out");
    }

    /**
     * {@code --node} on {@code machine}: NUMA_NO_NODE when not given.
     *
     * @throws IllegalArgumentException when {@code machine} has no such node
     */
    private int nodeOn(Topology machine) {
        int nodeId = node == null ? Numa.NUMA_NO_NODE : node;
        if (nodeId != Numa.NUMA_NO_NODE && !machine.hasNode(nodeId))
            throw new IllegalArgumentException("--node " + nodeId + ": " + topology.path() + " has no node " + nodeId + " (nodes "
                    + machine.nodeMask().toList() + "); expected one of them or -1 (NUMA_NO_NODE)");
        return nodeId;
    }

    /**
     * The {@code --format} given, one of {@code prints}.
     *
     * @throws IllegalArgumentException {@code --format 'svg': --device prints list, table, json or smp_affinity}
     */
    private PlanFormat formatAmong(List<PlanFormat> prints, String what) {
        return PlanFormat.named(format).filter(prints::contains).orElseThrow(() -> new IllegalArgumentException("--format '" + format
                + "': " + what + " prints " + PlanFormat.words(prints)));
    }

    /** Routine ids for picocli's help. */
    static final class RoutineNames extends ArrayList<String> {
        RoutineNames() {
            super(PlanRoutines.routines().stream().map(Routine::id).toList());
            add(Routine.PAGE_POOL.id());
            for (Routine r : Routine.values()) if (r.isNic()) add(r.id());
        }
    }

    /** Device names for picocli's help. */
    static final class DeviceNames extends ArrayList<String> {
        DeviceNames() {
            super(DevicePlan.devices());
        }
    }

    /** Format names for picocli's help. */
    static final class FormatNames extends ArrayList<String> {
        FormatNames() {
            super(PlanFormat.all().stream().map(PlanFormat::word).toList());
        }
    }

    @Override
    public Integer call() {
        if (routine == null && device == null || routine != null && device != null) {
            spec.commandLine().getErr().println("numaspread plan: " + (routine == null ? "expected --routine R or --device D"
                    : "--routine " + routine + " and --device " + device + ": expected one of them"));
            return 2;
        }
        if (device != null || Routine.byId(routine).filter(Routine::isNic).isPresent()) return devicePlan();
        if (routine.equals(Routine.PAGE_POOL.id())) return pagePool();
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        List<PlanRequest> requests = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        PlanRoutine planRoutine;
        PlanFormat planFormat;
        Implementation third = null;
        try {
            Routine r = Routine.byId(routine).filter(x -> PlanRoutines.of(x).isPresent())
                    .orElseThrow(() -> new IllegalArgumentException("--routine '" + routine + "': unknown routine; expected one of "
                            + String.join(", ", new RoutineNames())));
            planRoutine = PlanRoutines.of(r).orElseThrow();
            checkOptionsOf(r, notes);
            planFormat = formatAmong(PlanFormat.all(), "--routine " + routine);
            List<KernelRelease> ks = KernelOption.releases(kernel, err, "plan");
            if (ks.size() > 1 && !planFormat.takesSeveralReleases())
                throw new IllegalArgumentException("--kernel " + kernel + ": several releases print one column each (the default) or --format svg;"
                        + " expected one release for --format " + format);
            if (ks.size() > 1 && explain)
                throw new IllegalArgumentException("--explain: expected one release (--kernel " + kernel + " names " + ks.size() + ")");
            if (other != null && (ks.size() > 1 || explain || !format.equals("list")))
                throw new IllegalArgumentException("--impl " + other + ": prints its answer beside the model's, one release in"
                        + " --format list; expected no --explain, one --kernel and no other --format");
            if (classPath != null && other == null)
                throw new IllegalArgumentException("--class-path applies to --impl java:CLASS only; leave it out");
            Topology machine = TopologyFiles.read(topology.path()).topology();
            int nodeId = nodeOn(machine);
            int countValue = count == null ? 1 : CertifyCommand.bounded("--count", count, 1, MAX_COUNT);
            int callsValue = calls == null ? 1 : CertifyCommand.bounded("--calls", calls, 1, MAX_COUNT);
            // The calls run on the calling CPU, so it is online; the state is a CPU id.
            if (callingCpu != null && (callingCpu < 0 || !machine.online().contains(callingCpu)))
                throw new IllegalArgumentException("--calling-cpu " + callingCpu + ": " + topology.path() + " has online CPUs "
                        + machine.online().toList() + "; expected one of them (the CPU that executes the calls)");
            if (prev != null && (prev < 0 || prev >= machine.nrCpuIds()))
                throw new IllegalArgumentException("--prev " + prev + ": expected a CPU id, 0 to nr_cpu_ids - 1 = " + (machine.nrCpuIds() - 1));
            if (r == Routine.NUMA_CLOSEST && prev == null && ks.stream().anyMatch(k -> k.atLeast(6, 16)))
                notes.add("--prev not given: the calling CPU's distribute_cpu_mask_prev is 0, as at boot (HOP-10)");
            int offsetValue = offset == null ? 0 : CertifyCommand.bounded("--offset", offset, 0, MAX_OFFSET);
            if (firstIrq != null) CertifyCommand.bounded("--first-irq", firstIrq, 0, Integer.MAX_VALUE);
            for (KernelRelease k : ks) {
                mana.check(k);
                requests.add(new PlanRequest(r, k, machine, nodeId, countValue, offsetValue, mana.granted(),
                        Optional.ofNullable(cpus).map(CpuSet::parseList), Optional.ofNullable(cpu), callsValue,
                        Optional.ofNullable(callingCpu), prev == null ? 0 : prev, mana.skipFirstCpu, mana.dynamicMsix,
                        Optional.ofNullable(firstIrq)));
            }
            if (other != null && KernelSources.names(other)) {
                // A booted kernel answers for the machine it booted on: boot this one, judged as the release asked for.
                BootableKernel k = KernelSources.resolve(other, line -> err.println("numaspread plan: " + line));
                KernelRun run = KernelRun.boot(k, Optional.of(ks.get(0)), dev.numaspread.conformance.checks.Settings.defaults(), 1,
                        Optional.of(machine), 1, KernelRun.DEFAULT_BOOT_BUDGET, line -> err.println("numaspread plan: " + line));
                third = run.implementation();
                bootedOn = run.settings().pool();
            } else if (other != null) {
                third = KernelSrc.names(other)
                        ? KernelSrc.open(other, Optional.of(ks.get(0)), CertifyOptions.DEFAULT_CALL_TIMEOUT, KernelSrc.cacheRoot(System::getenv), err::println)
                        : Implementations.resolve(other, CertifyOptions.DEFAULT_CALL_TIMEOUT, Implementations.classPath(
                        classPath != null ? classPath : Optional.ofNullable(System.getenv("NUMASPREAD_CLASSPATH")).orElse("")));
                CertifyCommand.requireStartable(other, third);
            }
        } catch (RuntimeException e) {
            err.println("numaspread plan: " + e.getMessage());
            return 2;
        }
        for (String n : notes) err.println("numaspread plan: note: " + n);
        try {
            if (third != null) return beside(third, planRoutine, requests.get(0), out, err);
            List<Planned> plans = new ArrayList<>();
            for (PlanRequest request : requests) {
                try {
                    plans.add(new Planned(request, planRoutine.plan(impl, request)));
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
            if (firstIrq != null) {
                int lines = plans.stream().mapToInt(p -> p.plan().slots().size()).max().orElse(0);
                if ((long) firstIrq + lines - 1 > Integer.MAX_VALUE) {
                    err.println("numaspread plan: --first-irq " + firstIrq + ": the last of " + lines + " lines would be IRQ "
                            + ((long) firstIrq + lines - 1) + "; expected at most " + Integer.MAX_VALUE);
                    return 2;
                }
            }
            // The picture shows every slot of every release; --explain replaces the other formats' text.
            out.print(explain && planFormat != PlanFormat.SVG ? ExplainedPlan.render(plans) : planFormat.render(plans));
            out.flush();
            return 0;
        } finally {
            CertifyCommand.close(third, other, "plan", err);
        }
    }

    /**
     * {@code --impl}: the model's plan and the implementation's side by side, the rows that differ
     * marked ({@link ReleaseColumns}); 0 when they agree, 1 when they differ or the implementation
     * failed, 2 when it does not claim the routine for the release.
     */
    private int beside(Implementation third, PlanRoutine planRoutine, PlanRequest request, PrintWriter out, PrintWriter err) {
        String name;
        List<Claim> claims;
        try {
            name = printable(third.name());
            claims = third.claims();
        } catch (RuntimeException e) {
            err.println("numaspread plan: --impl " + other + ": could not state its name and claims: " + e.getMessage());
            return 1;
        }
        Claim wanted = new Claim(request.routine(), request.kernel());
        if (!claims.contains(wanted)) {
            err.println("numaspread plan: --impl " + other + ": \"" + name + "\" does not claim " + wanted + " (it claims "
                    + (claims.isEmpty() ? "nothing" : claims.stream().map(Claim::toString).collect(java.util.stream.Collectors.joining(", ")))
                    + "); expected a claimed routine and release");
            return 2;
        }
        GuardedImplementation guarded = new GuardedImplementation(third, claims, CertifyOptions.DEFAULT_CALL_TIMEOUT, false, bootedOn);
        String modelText, theirsText;
        Plan model = null, theirs = null;
        try {
            model = planRoutine.plan(impl, request);
            modelText = "";
        } catch (KernelBug e) {
            modelText = "Linux " + request.kernel() + " would fail here: " + e.getMessage();
        }
        try {
            theirs = planRoutine.plan(guarded, request);
            theirsText = "";
        } catch (KernelBug e) {
            theirsText = "a kernel failure: " + e.getMessage();
        } catch (ImplementationFailure e) {
            err.println("numaspread plan: --impl " + other + ": " + e.getMessage());
            return 1;
        } catch (MachineOutOfReach e) {
            err.println("numaspread plan: --impl " + other + ": " + e.getMessage());
            return 2;
        } finally {
            guarded.close();
        }
        if (model != null && theirs != null) {
            String word = model.word();
            List<Placement> columns = List.of(new Placement("model", word, model.slots()), new Placement(name, word, theirs.slots()));
            out.print(ReleaseColumns.text(word, columns));
            out.flush();
            return ReleaseColumns.differingRows(columns).isEmpty() ? 0 : 1;
        }
        out.println("model: " + (model == null ? modelText : "an answer (" + model.slots().size() + " " + model.word() + "s)"));
        out.println(name + ": " + (theirs == null ? theirsText : "an answer (" + theirs.slots().size() + " " + theirs.word() + "s)"));
        out.flush();
        return model == null && theirs == null ? 0 : 1;
    }

    /** {@code s} with control characters shown as {@code \\uXXXX}: an implementation's name reaches the terminal. */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.toString();
    }

    /**
     * {@code --device D} (or {@code --routine D-irqs}): the IRQs and XPS masks of a NIC driver
     * ({@link DevicePlan}), one block per release.
     */
    private Integer devicePlan() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        List<DevicePlan.Result> results = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        PlanFormat deviceFormat;
        try {
            Routine r = device != null
                    ? DevicePlan.routineOf(device).orElseThrow(() -> new IllegalArgumentException("--device '" + device
                            + "': unknown device; expected one of " + String.join(", ", DevicePlan.devices())))
                    : Routine.byId(routine).orElseThrow();
            checkOptionsOf(r, notes);
            deviceFormat = formatAmong(DevicePlan.FORMATS, "--device");
            if (explain || other != null || classPath != null)
                throw new IllegalArgumentException((explain ? "--explain" : other != null ? "--impl" : "--class-path")
                        + " applies to --routine plans, not to --device; leave it out");
            List<KernelRelease> ks = KernelOption.releases(kernel, err, "plan");
            if (ks.size() > 1 && deviceFormat == PlanFormat.SMP_AFFINITY)
                throw new IllegalArgumentException("--kernel " + kernel + ": expected one release for --format smp_affinity");
            Topology machine = TopologyFiles.read(topology.path()).topology();
            int nodeId = nodeOn(machine);
            int queuesValue = queues == null ? 1 : CertifyCommand.bounded("--queues", queues, 1, MAX_COUNT);
            if (firstIrq != null) CertifyCommand.bounded("--first-irq", firstIrq, 0, Integer.MAX_VALUE);
            if (node != null && ks.stream().noneMatch(k -> DevicePlan.readsNode(r, k)))
                notes.add("--node " + nodeId + ": the driver does not read the device's node in Linux " + kernel
                        + "; it only decides the default affinity of the IRQs it does not force (spec/nic.md NIC-1)");
            for (KernelRelease k : ks) {
                try {
                    results.add(DevicePlan.ask(impl, r, k, machine, nodeId, queuesValue));
                } catch (KernelBug e) {
                    err.println("numaspread plan: Linux " + k + " would fail here: " + e.getMessage());
                    return 1;
                }
            }
        } catch (RuntimeException e) {
            err.println("numaspread plan: " + e.getMessage());
            return 2;
        }
        for (String n : notes) err.println("numaspread plan: note: " + n);
        out.print(DevicePlan.render(results, deviceFormat, Optional.ofNullable(firstIrq)));
        out.flush();
        return 0;
    }

    /** {@code --routine page-pool}: replays {@code --script} on the machine ({@link PagePoolPlan}). */
    private Integer pagePool() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        String text;
        try {
            checkOptionsOf(Routine.PAGE_POOL, new ArrayList<>());
            if (other != null || classPath != null)
                throw new IllegalArgumentException("--impl: --routine page-pool replays a script on the model only; leave it out");
            if (script == null) throw new IllegalArgumentException("--routine page-pool needs --script FILE: the actions to replay");
            PlanFormat poolFormat = formatAmong(PagePoolPlan.FORMATS, "page-pool");
            KernelRelease k = KernelOption.release(kernel, err, "plan");
            Topology machine = TopologyFiles.read(topology.path()).topology();
            String file = script.toString();
            ActionScript s = ActionScript.read(script);
            text = PagePoolPlan.render(s, PagePoolPlan.replay(impl, k, machine, s, file), poolFormat, k, machine);
        } catch (RuntimeException e) {
            err.println("numaspread plan: " + e.getMessage());
            return 2;
        }
        out.print(text);
        out.flush();
        return 0;
    }
}
