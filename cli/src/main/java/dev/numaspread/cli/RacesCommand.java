package dev.numaspread.cli;

import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.races.Race;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.InterleavingExplorer;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.hotplug.OutcomeTable;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.siblingspread.SiblingSpread;
import dev.numaspread.model.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code numaspread races}: runs a routine once for every point at which a CPU-hotplug event can
 * arrive (spec/hotplug.md HP-*), grades every run as jcstress grades its results, and prints the
 * table of outcomes with counts and every forbidden interleaving with what broke. The routine runs
 * through the SPI on the reference model. Exit 0 when no run is forbidden, 1 otherwise, 2 usage.
 */
@Command(name = "races", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Explores CPU-hotplug interleavings of a routine and grades the outcomes.",
                "",
                "Every service call the routine makes (num_online_cpus(), cpus_read_lock(), irq_set_affinity_and_hint(), ...)"
                        + " is a point at which a CPU may go offline or come online; an event that arrives while"
                        + " cpus_read_lock() is held waits for the unlock. Each run is graded: acceptable, interesting"
                        + " (allowed, worth a look) or forbidden.",
                "",
                "--variant picks the code, --expect the table the runs are graded by. Defaults:",
                "  irq-setup        locked, as MANA calls it; graded atomic",
                "  mana-setup-irqs  the release's code and table: unprotected before 6.9,",
                "                   atomic 6.9-6.16, sized-before-lock 6.17+;",
                "                   --variant only on 6.9-6.16",
                "  local-spread     unlocked, as cpumask_local_spread() runs; graded atomic,",
                "                   what a caller that needs one consistent answer must get",
                ""},
        footer = {"", "Exit codes: 0 no forbidden outcome; 1 a forbidden outcome (each is printed); 2 usage error."})
public final class RacesCommand implements Callable<Integer> {

    /** The routines {@code races} explores. */
    static final List<Routine> ROUTINES = List.of(Routine.IRQ_SETUP, Routine.MANA_SETUP_IRQS, Routine.LOCAL_SPREAD);
    /** Runs above this are refused: the explorer is exhaustive and the machine is shared. */
    static final long MAX_RUNS = 2_000_000;

    @Spec CommandSpec spec;

    @Option(names = "--routine", required = true, paramLabel = "R", description = "irq-setup | mana-setup-irqs | local-spread")
    String routine;

    @Mixin
    MachineOption topology = new MachineOption();

    @Option(names = "--kernel", required = true, paramLabel = "X.Y", description = "kernel release, e.g. 6.9")
    String kernel;

    @Option(names = "--node", defaultValue = "-1", paramLabel = "N", description = "the device's node; -1 is NUMA_NO_NODE (default)")
    int node;

    @Option(names = "--count", paramLabel = "K",
            description = "irq-setup: IRQs; local-spread: queues, 1 to " + PlanCommand.MAX_COUNT + " (default: the online CPUs); mana-setup-irqs sizes itself")
    Integer count;

    @Mixin
    SiblingSpreadOptions mana = new SiblingSpreadOptions();

    @Option(names = "--variant", paramLabel = "V",
            description = {"locked | unlocked | lock-after-sizing:",
                    "locked: cpus_read_lock() from the first read to the last affinity;",
                    "unlocked: no hotplug lock at all (MANA before the lock series);",
                    "lock-after-sizing: num_online_cpus() read, then the lock (mana-setup-irqs only)"})
    String variant;

    @Option(names = "--expect", paramLabel = "T",
            description = "grade by this table instead of the default: atomic | sized-before-lock | unprotected")
    String expect;

    @Option(names = "--pairs",
            description = "explore ordered pairs of events too, on any machine (default: only on machines of at most "
                    + InterleavingExplorer.PAIR_CPU_LIMIT + " present CPUs); the explorer skips pairs when a run makes more than "
                    + InterleavingExplorer.PAIR_BOUNDARY_LIMIT + " service calls")
    boolean pairs;

    @Option(names = "--all", description = "print every interleaving explored, not only the forbidden ones")
    boolean all;

    private final Implementation impl;

    public RacesCommand() {
        this(new ReferenceModel());
    }

    /** A races command that runs {@code impl}'s routines instead of the reference model's (tests). */
    RacesCommand(Implementation impl) {
        this.impl = impl;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        Machine.Config config;
        Race race;
        InterleavingExplorer.Scope scope;
        try {
            Routine which = Routine.byId(routine).filter(ROUTINES::contains).orElseThrow(() -> new IllegalArgumentException(
                    "--routine '" + routine + "': unknown routine; expected one of "
                            + String.join(", ", ROUTINES.stream().map(Routine::id).toList())));
            KernelRelease k = KernelOption.release(kernel, err, "races");
            Topology machine = machine();
            mana.check(k);
            race = race(which, k, machine);
            config = mana.config(machine, k);
            scope = InterleavingExplorer.Scope.everyEvent(config);
            if (pairs) scope = scope.withPairs();
        } catch (RuntimeException e) {
            err.println("numaspread races: " + e.getMessage());
            return Main.USAGE;
        }
        Exploration<List<CpuSet>> x;
        try {
            long runs = InterleavingExplorer.runs(config, race.routine(), scope);
            if (runs > MAX_RUNS) {
                err.println("numaspread races: " + runs + " runs to explore on " + config.topology().name()
                        + (pairs ? " with --pairs" : "") + "; expected at most " + MAX_RUNS
                        + (pairs ? ": drop --pairs or use a smaller machine" : ": use a smaller machine or a smaller --count"));
                return Main.USAGE;
            }
            x = race.explore(config, scope);
        } catch (UnsupportedOperationException e) {
            err.println("numaspread races: --routine " + routine + " --kernel " + config.kernel()
                    + ": the reference model does not model it yet");
            return Main.USAGE;
        } catch (IllegalArgumentException | IllegalStateException e) {
            // The routine refused its arguments in the run without events (e.g. a variant of another release).
            Throwable cause = e.getCause() instanceof IllegalArgumentException ? e.getCause() : e;
            err.println("numaspread races: " + cause.getMessage());
            return Main.USAGE;
        }
        out.print(race.what() + machineText() + "\n" + x.report(all));
        out.flush();
        return x.forbidden().isEmpty() ? Main.OK : Main.CHECK_FAILED;
    }

    private Topology machine() {
        Topology machine = TopologyFiles.read(topology.path()).topology();
        if (node != Numa.NUMA_NO_NODE && !machine.hasNode(node))
            throw new IllegalArgumentException("--node " + node + ": " + topology.path() + " has no node " + node + " (nodes "
                    + machine.nodeMask().toList() + "); expected one of them or -1 (NUMA_NO_NODE)");
        // Bounded as plan bounds it: the routine allocates per IRQ before the explorer counts its runs.
        if (count != null) CertifyCommand.bounded("--count", count, 1, PlanCommand.MAX_COUNT);
        return machine;
    }

    /** The race the options name: the routine, its guard (--variant) and its table (--expect, else the routine's). */
    private Race race(Routine which, KernelRelease k, Topology machine) {
        SiblingSpread.Variant v = variant == null ? null : SiblingSpread.Variant.byId(variant).orElseThrow(() ->
                new IllegalArgumentException("--variant '" + variant + "': expected locked, unlocked or lock-after-sizing"));
        int len = count != null ? count : machine.numOnlineCpus();
        Race race = switch (which) {
            case IRQ_SETUP -> {
                if (v == SiblingSpread.Variant.LOCK_AFTER_SIZING)
                    throw new IllegalArgumentException("--variant lock-after-sizing: irq_setup() sizes nothing; expected locked or unlocked");
                yield v == SiblingSpread.Variant.UNLOCKED ? Race.irqSetupWithoutLock(impl, k, node, len, mana.skipFirstCpu)
                        : Race.irqSetup(impl, k, node, len, mana.skipFirstCpu);
            }
            case MANA_SETUP_IRQS -> {
                if (v != null && (k.before(6, 9) || k.atLeast(6, 17)))
                    throw new IllegalArgumentException("--variant " + variant + ": the variants are of the 6.9-6.16 mana_gd_setup_irqs(),"
                            + " not of Linux " + k + "; expected a 6.9-6.16 release or no --variant");
                yield v == null || v == SiblingSpread.Variant.LOCKED ? Race.manaSetupIrqs(impl, k, node) : Race.manaSetupIrqs(v, k, node);
            }
            case LOCAL_SPREAD -> {
                if (v == SiblingSpread.Variant.LOCK_AFTER_SIZING)
                    throw new IllegalArgumentException("--variant lock-after-sizing: only for mana-setup-irqs; expected locked or unlocked");
                yield Race.localSpread(node, len, v == SiblingSpread.Variant.LOCKED);
            }
            default -> throw new IllegalStateException("routine " + which + " passed validation");
        };
        if (expect == null) return race;
        return race.gradedBy(OutcomeTable.named(expect).orElseThrow(() -> new IllegalArgumentException("--expect '" + expect
                + "': expected " + OutcomeTable.TABLES.stream().map(OutcomeTable::name).collect(Collectors.joining(", ")))));
    }

    // What the MANA options changed on the machine, for the first line.
    private String machineText() {
        if (!routine.equals(Routine.MANA_SETUP_IRQS.id())) return "";
        return (mana.granted != null ? ", " + mana.granted + " vectors granted" : "") + (mana.dynamicMsix ? ", dynamic MSI-X" : "");
    }
}
