package dev.numaspread.cli;

import dev.numaspread.cli.plan.ExplainedPlan;
import dev.numaspread.cli.plan.PagePoolPlan;
import dev.numaspread.cli.plan.Plan;
import dev.numaspread.cli.plan.PlanFormat;
import dev.numaspread.cli.plan.PlanRequest;
import dev.numaspread.cli.plan.PlanRoutine;
import dev.numaspread.cli.plan.PlanRoutines;
import dev.numaspread.cli.plan.Planned;
import dev.numaspread.cli.plan.SvgFormat;
import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.spi.Implementation;
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

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    @Option(names = "--format", defaultValue = "list", paramLabel = "F", completionCandidates = FormatNames.class,
            description = {"${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE});",
                    "svg draws the placement: nodes nearest first, CPUs labelled with their queue numbers;",
                    "an IRQ left untouched is an empty line (list), the all-zero mask (smp_affinity), 'untouched' (table)"})
    String format;

    @Option(names = "--first-irq", paramLabel = "IRQ", description = "smp_affinity: prefix line k with 'IRQ+k: '")
    Integer firstIrq;

    @Option(names = "--script", paramLabel = "FILE", description = "page-pool: the action script to replay (spec/page-pool.md)")
    Path script;

    private final Implementation impl;

    public PlanCommand() {
        this(new ReferenceModel());
    }

    /** A plan command that asks {@code impl} instead of the reference model (tests). */
    PlanCommand(Implementation impl) {
        this.impl = impl;
    }

    /** Routine ids for picocli's help. */
    static final class RoutineNames extends ArrayList<String> {
        RoutineNames() {
            super(PlanRoutines.routines().stream().map(Routine::id).toList());
            add(Routine.PAGE_POOL.id());
        }
    }

    /** Format names for picocli's help. */
    static final class FormatNames extends ArrayList<String> {
        FormatNames() {
            super(PlanFormat.all().stream().map(PlanFormat::name).toList());
        }
    }

    @Override
    public Integer call() {
        if (routine.equals(Routine.PAGE_POOL.id())) return pagePool();
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        List<PlanRequest> requests = new ArrayList<>();
        PlanRoutine planRoutine;
        PlanFormat view;
        try {
            Routine r = Routine.byId(routine).filter(x -> PlanRoutines.of(x).isPresent())
                    .orElseThrow(() -> new IllegalArgumentException("--routine '" + routine + "': unknown routine; expected one of "
                            + String.join(", ", new RoutineNames())));
            planRoutine = PlanRoutines.of(r).orElseThrow();
            List<String> formats = new FormatNames();
            PlanFormat planFormat = PlanFormat.named(format).orElseThrow(() -> new IllegalArgumentException("--format '" + format
                    + "': expected " + String.join(", ", formats.subList(0, formats.size() - 1)) + " or " + formats.get(formats.size() - 1)));
            List<KernelRelease> ks = new ArrayList<>();
            for (String k : kernel.split(",")) ks.add(KernelOption.release(k, err, "plan"));
            if (ks.size() > 1 && !planFormat.takesSeveralReleases())
                throw new IllegalArgumentException("--kernel " + kernel + ": several releases print one column each (the default) or --format svg;"
                        + " expected one release for --format " + format);
            if (ks.size() > 1 && explain)
                throw new IllegalArgumentException("--explain: expected one release (--kernel " + kernel + " names " + ks.size() + ")");
            // The picture shows every slot of every release; --explain replaces the other formats' text.
            view = explain && !(planFormat instanceof SvgFormat) ? new ExplainedPlan() : planFormat;
            Topology machine = TopologyFiles.read(topology).topology();
            if (node != Numa.NUMA_NO_NODE && !machine.hasNode(node))
                throw new IllegalArgumentException("--node " + node + ": " + topology + " has no node " + node + " (nodes "
                        + machine.nodeMask().toList() + "); expected one of them or -1 (NUMA_NO_NODE)");
            if (count < 1) throw new IllegalArgumentException("--count " + count + ": expected at least 1");
            for (KernelRelease k : ks) {
                mana.check(k);
                requests.add(new PlanRequest(r, k, machine, node, count, offset, mana.granted(), Optional.ofNullable(cpus).map(CpuSet::parseList),
                        Optional.ofNullable(cpu), mana.skipFirstCpu, mana.dynamicMsix, Optional.ofNullable(firstIrq)));
            }
        } catch (RuntimeException e) {
            err.println("numaspread plan: " + e.getMessage());
            return 2;
        }
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
        out.print(view.render(plans));
        out.flush();
        return 0;
    }

    /** {@code --routine page-pool}: replays {@code --script} on the machine ({@link PagePoolPlan}). */
    private Integer pagePool() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        String text;
        try {
            if (script == null) throw new IllegalArgumentException("--routine page-pool needs --script FILE: the actions to replay");
            if (!PagePoolPlan.FORMATS.contains(format))
                throw new IllegalArgumentException("--format '" + format + "': page-pool prints list, table or json");
            KernelRelease k = KernelOption.release(kernel, err, "plan");
            Topology machine = TopologyFiles.read(topology).topology();
            String file = script.toString();
            ActionScript s;
            try {
                s = ActionScript.read(Files.readString(script), file);
            } catch (IOException e) {
                throw new IllegalArgumentException("--script " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
            }
            text = PagePoolPlan.render(s, PagePoolPlan.replay(impl, k, machine, s, file), format, k, machine);
        } catch (RuntimeException e) {
            err.println("numaspread plan: " + e.getMessage());
            return 2;
        }
        out.print(text);
        out.flush();
        return 0;
    }
}
