package dev.numaspread.cli;

import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.HotplugRoutine;
import dev.numaspread.model.hotplug.InterleavingExplorer;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.InterleavingExplorer.Interleaving;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.hotplug.Outcomes;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.spread.Mana;
import dev.numaspread.model.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

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
    static final List<String> ROUTINES = List.of("irq-setup", "mana-setup-irqs", "local-spread");
    /** The outcome tables {@code --expect} names. */
    static final List<String> TABLES = List.of("atomic", "sized-before-lock", "unprotected");
    /** Runs above this are refused: the explorer is exhaustive and the machine is shared. */
    static final long MAX_RUNS = 2_000_000;

    @Spec CommandSpec spec;

    @Option(names = "--routine", required = true, paramLabel = "R", description = "irq-setup | mana-setup-irqs | local-spread")
    String routine;

    @Option(names = "--topology", required = true, paramLabel = "FILE", description = "the machine: a .topo or .json file, or a sysfs snapshot directory")
    Path topology;

    @Option(names = "--kernel", required = true, paramLabel = "X.Y", description = "kernel release, e.g. 6.9")
    String kernel;

    @Option(names = "--node", defaultValue = "-1", paramLabel = "N", description = "the device's node; -1 is NUMA_NO_NODE (default)")
    int node;

    @Option(names = "--count", paramLabel = "K",
            description = "irq-setup: IRQs; local-spread: queues (default: the online CPUs); mana-setup-irqs sizes itself")
    Integer count;

    @Mixin
    ManaOptions mana = new ManaOptions();

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

    /** What to explore: the machine, the routine as a run on a {@link Machine}, the table, the events. */
    private record Setup(Machine.Config config, HotplugRoutine<List<CpuSet>> run, Outcomes table, String tableName,
                         InterleavingExplorer.Scope scope, String what) {}

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        Setup s;
        try {
            s = setup(err);
        } catch (RuntimeException e) {
            err.println("numaspread races: " + e.getMessage());
            return Main.USAGE;
        }
        Exploration<List<CpuSet>> x;
        try {
            long runs = runs(s);
            if (runs > MAX_RUNS) {
                err.println("numaspread races: " + runs + " runs to explore on " + s.config().topology().name()
                        + (pairs ? " with --pairs" : "") + "; expected at most " + MAX_RUNS
                        + (pairs ? ": drop --pairs or use a smaller machine" : ": use a smaller machine or a smaller --count"));
                return Main.USAGE;
            }
            x = InterleavingExplorer.explore(s.config(), s.run(), s.table(), s.scope());
        } catch (UnsupportedOperationException e) {
            err.println("numaspread races: --routine " + routine + " --kernel " + s.config().kernel()
                    + ": the reference model does not model it yet");
            return Main.USAGE;
        } catch (IllegalStateException e) {
            // The routine refused its arguments in the run without events (e.g. a variant of another release).
            Throwable cause = e.getCause() instanceof IllegalArgumentException ? e.getCause() : e;
            err.println("numaspread races: " + cause.getMessage());
            return Main.USAGE;
        }
        out.print(render(s, x));
        out.flush();
        return x.forbidden().isEmpty() ? Main.OK : Main.CHECK_FAILED;
    }

    private Setup setup(PrintWriter err) {
        if (!ROUTINES.contains(routine))
            throw new IllegalArgumentException("--routine '" + routine + "': unknown routine; expected one of " + String.join(", ", ROUTINES));
        KernelRelease k = PlanCommand.release(kernel, err, "races");
        Topology machine = TopologyFiles.read(topology).topology();
        if (node != Numa.NUMA_NO_NODE && !machine.hasNode(node))
            throw new IllegalArgumentException("--node " + node + ": " + topology + " has no node " + node + " (nodes "
                    + CpuSet.of(machine.nodeIds()).toList() + "); expected one of them or -1 (NUMA_NO_NODE)");
        if (count != null && count < 1) throw new IllegalArgumentException("--count " + count + ": expected at least 1");
        mana.check(k);
        Mana.Variant v = variant == null ? null : variant(variant);
        int len = count != null ? count : machine.numOnlineCpus();
        Machine.Config config = mana.config(machine, k);
        final int n = node;
        final boolean skip = mana.skipFirstCpu;

        HotplugRoutine<List<CpuSet>> run;
        Outcomes table;
        String tableName;
        String what;
        switch (routine) {
            case "irq-setup" -> {
                if (v == Mana.Variant.LOCK_AFTER_SIZING)
                    throw new IllegalArgumentException("--variant lock-after-sizing: irq_setup() sizes nothing; expected locked or unlocked");
                boolean locked = v != Mana.Variant.UNLOCKED;
                run = m -> {
                    if (locked) m.cpusReadLock();
                    List<CpuSet> r = impl.irqSetup(k, m, n, len, skip);
                    if (locked) m.cpusReadUnlock();
                    return r;
                };
                table = Outcomes.ATOMIC;
                tableName = "atomic";
                what = "irq_setup(" + len + " IRQs, node " + n + ")" + (skip ? " skipping the first core" : "")
                        + (locked ? " under cpus_read_lock()" : " without the hotplug lock");
            }
            case "mana-setup-irqs" -> {
                if (v != null && (k.before(6, 9) || k.atLeast(6, 17)))
                    throw new IllegalArgumentException("--variant " + variant + ": the variants are of the 6.9-6.16 mana_gd_setup_irqs(),"
                            + " not of Linux " + k + "; expected a 6.9-6.16 release or no --variant");
                if (v == null || v == Mana.Variant.LOCKED) {
                    run = m -> impl.manaSetupIrqs(k, m, n);
                    what = "mana_gd_setup_irqs(node " + n + ") of Linux " + k;
                } else {
                    // Variants are the model's: a third-party implementation has one code path, its release's.
                    run = m -> Mana.manaSetupIrqs(m, n, v);
                    what = "mana_gd_setup_irqs(node " + n + "), variant " + variantName(v);
                }
                table = Mana.hotplugOutcomes(k);
                tableName = k.before(6, 9) ? "unprotected" : k.before(6, 17) ? "atomic" : "sized-before-lock";
                if (mana.granted != null) what += ", " + mana.granted + " vectors granted";
                if (mana.dynamicMsix) what += ", dynamic MSI-X";
            }
            case "local-spread" -> {
                if (v == Mana.Variant.LOCK_AFTER_SIZING)
                    throw new IllegalArgumentException("--variant lock-after-sizing: only for mana-setup-irqs; expected locked or unlocked");
                boolean locked = v == Mana.Variant.LOCKED;
                run = m -> {
                    if (locked) m.cpusReadLock();
                    List<CpuSet> r = new ArrayList<>(len);
                    for (int i = 0; i < len; i++) r.add(CpuSet.of(m.cpumaskLocalSpread(i, n)));
                    if (locked) m.cpusReadUnlock();
                    return List.copyOf(r);
                };
                table = Outcomes.ATOMIC;
                tableName = "atomic";
                what = "cpumask_local_spread(0.." + (len - 1) + ", node " + n + ")"
                        + (locked ? " under cpus_read_lock()" : " without the hotplug lock");
            }
            default -> throw new IllegalStateException("routine " + routine + " passed validation");
        }
        if (expect != null) {
            table = table(expect);
            tableName = expect;
        }
        InterleavingExplorer.Scope scope = InterleavingExplorer.Scope.everyEvent(config);
        if (pairs) scope = new InterleavingExplorer.Scope(scope.events(), true);
        return new Setup(config, run, table, tableName, scope, what);
    }

    // The runs the explorer will make: one per event and point, plus the ordered pairs when explored.
    private static long runs(Setup s) {
        Machine dry = Machine.boot(s.config());
        try {
            s.run().run(dry);
        } catch (KernelBug e) {
            // The run without events reaches BUG(): its calls up to there are the points.
        }
        long points = dry.boundaries(), events = s.scope().events().size();
        long runs = events * points;
        if (s.scope().pairs() && points <= InterleavingExplorer.PAIR_BOUNDARY_LIMIT)
            runs += events * (events - 1) * points * (points + 1) / 2;
        return runs;
    }

    static Mana.Variant variant(String text) {
        return switch (text) {
            case "locked" -> Mana.Variant.LOCKED;
            case "unlocked" -> Mana.Variant.UNLOCKED;
            case "lock-after-sizing" -> Mana.Variant.LOCK_AFTER_SIZING;
            default -> throw new IllegalArgumentException("--variant '" + text + "': expected locked, unlocked or lock-after-sizing");
        };
    }

    private static String variantName(Mana.Variant v) {
        return v.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Outcomes table(String text) {
        return switch (text) {
            case "atomic" -> Outcomes.ATOMIC;
            case "sized-before-lock" -> Outcomes.SIZED_BEFORE_LOCK;
            case "unprotected" -> Outcomes.UNPROTECTED;
            default -> throw new IllegalArgumentException("--expect '" + text + "': expected " + String.join(", ", TABLES));
        };
    }

    private String render(Setup s, Exploration<List<CpuSet>> x) {
        StringBuilder sb = new StringBuilder();
        Machine.Config c = s.config();
        sb.append(s.what()).append('\n');
        sb.append(x.interleavings().size()).append(" interleavings on ").append(c.topology().name())
          .append(" (Linux ").append(c.kernel()).append("): ").append(x.points()).append(" points, ")
          .append(s.scope().events().size()).append(" events, ")
          .append(x.pairsExplored() ? "single events and ordered pairs"
                  : s.scope().pairs() ? "single events (pairs skipped: more than " + InterleavingExplorer.PAIR_BOUNDARY_LIMIT + " points)"
                  : "single events").append("; graded ")
          .append(s.tableName()).append('\n');
        sb.append(x.expected().render(x.counts()));
        List<Interleaving<List<CpuSet>>> shown = all ? x.interleavings() : x.forbidden();
        if (!shown.isEmpty()) sb.append('\n').append(all ? "interleavings:" : "forbidden interleavings:").append('\n');
        for (Interleaving<List<CpuSet>> i : shown) sb.append(describe(i, x)).append('\n');
        int f = x.forbidden().size();
        sb.append('\n').append(f == 0 ? "no forbidden outcome" : f + " forbidden interleaving" + (f == 1 ? "" : "s")).append('\n');
        return sb.toString();
    }

    // One run: the events and the calls they arrived before, the outcome, its grade, and what broke.
    private static String describe(Interleaving<List<CpuSet>> i, Exploration<List<CpuSet>> x) {
        StringBuilder sb = new StringBuilder("  ");
        for (int a = 0; a < i.arrivals().size(); a++) sb.append(a == 0 ? "" : "; then ").append(i.arrivals().get(a));
        sb.append("\n    ").append(i.outcome()).append(" (").append(i.grade()).append(")");
        x.expected().rowOf(i.outcome()).ifPresent(o -> sb.append(": ").append(o.reason()));
        if (!i.detail().isEmpty()) sb.append("\n    ").append(i.detail());
        if (i.outcome().equals(Outcomes.MIXED) && i.result().isPresent()) sb.append("\n    result: ").append(lists(i.result().get()));
        return sb.toString();
    }

    private static String lists(List<CpuSet> sets) {
        StringBuilder sb = new StringBuilder("[");
        for (CpuSet s : sets) sb.append(sb.length() == 1 ? "" : ", ").append(s.isEmpty() ? "untouched" : s.toList());
        return sb.append(']').toString();
    }
}
