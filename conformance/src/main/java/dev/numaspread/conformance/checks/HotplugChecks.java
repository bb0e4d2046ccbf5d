package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.races.Race;
import dev.numaspread.conformance.topogen.DeviceDraws;
import dev.numaspread.conformance.topogen.MachineGen;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.hotplug.InterleavingExplorer;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.InterleavingExplorer.Interleaving;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.hotplug.Outcome;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks of spec/hotplug.md (HP-*): the implementation's routine runs once per point at which a
 * hotplug event can arrive ({@link InterleavingExplorer}), on fixed machines and on generated
 * ones of at most six CPUs, where every point and every pair of events is tried; a generated
 * machine that fails is shrunk like any other. Each exploration is recorded for the certificate.
 * Each check explores the routine's {@link Race} and fails on the first run the race's
 * {@link dev.numaspread.model.hotplug.OutcomeTable} forbids as breaking the check's rule: every
 * forbidden outcome seen violates its row's rule. HP-4 and HP-5 also require the outcome their
 * release shows. A violation names the interleaving (event, point, the service call it preceded)
 * and the machine.
 */
public final class HotplugChecks implements CheckFamily {

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("HP-1", Routine.MANA_SETUP_IRQS, "HP_1_setupUnderTheLockIsAtomic", HotplugChecks::hp1Setup),
                irqSetupCheck("HP-1", "HP_1_irqSetupUnderCallersLockIsAtomic", true, "the plan of the machine before the event or after it",
                        "does irq_setup() drop or take the hotplug lock itself?"),
                Check.of("HP-2", Routine.MANA_SETUP_IRQS, "HP_2_noAffinityNamesAnOfflineCpu", HotplugChecks::hp2Setup),
                irqSetupCheck("HP-2", "HP_2_irqSetupNamesNoOfflineCpu", true, "only CPUs online when each affinity is set",
                        "does irq_setup() release the caller's lock?"),
                Check.of("HP-3", Routine.MANA_SETUP_IRQS, "HP_3_lockReleasedOnEveryPath", HotplugChecks::hp3),
                irqSetupCheck("HP-3", "HP_3_irqSetupLeavesTheCallersLockAsItWas", false, "cpus_read_lock() held as the caller left it",
                        "does irq_setup() take cpus_read_lock() and keep it?"),
                Check.of("HP-4", Routine.MANA_SETUP_IRQS, "HP_4_sizingBeforeTheLockFrom617", HotplugChecks::hp4),
                Check.of("HP-5", Routine.MANA_SETUP_IRQS, "HP_5_classicLocalSpreadReachesBug", HotplugChecks::hp5),
                Check.of("HP-6", Routine.GROUP_CPUS, "HP_6_groupCpusTakesNoHotplugLock", HotplugChecks::hp6));
    }

    /** 2 nodes x 1 core x 2 threads: small enough for every pair of events. */
    static Topology four() {
        return TopologyBuilder.machine("2node-2core-4cpu").source("HotplugChecks").node(0, "0-1").node(1, "2-3").smtAdjacent(2).build();
    }

    /**
     * The fixed machines every HP check explores, each with every event and, up to six CPUs, every
     * pair: all online, one CPU offline (online events too), 2 vectors granted, and the 8 CPUs of
     * the kernel comment.
     */
    static List<Machine.Config> machines(KernelRelease k) {
        return List.of(
                Machine.Config.of(four(), k),
                Machine.Config.of(four().withOnline(CpuSet.parseList("0-2")), k),
                Machine.Config.of(four(), k).withGrantedVectors(2),
                Machine.Config.of(SiblingSpreadChecks.commentMachine(), k));
    }

    /** Present CPUs of a generated machine: at most this many. */
    static final int MAX_CPUS = InterleavingExplorer.PAIR_CPU_LIMIT;
    /**
     * Pairs of events are explored on generated machines of at most this many present CPUs (a few
     * thousand runs each); larger ones get every single event (a few hundred).
     */
    static final int PAIR_CPUS = 4;
    /** Generated machines per HP check at most: each is explored exhaustively. */
    static final int MAX_TRIES = 20;

    /**
     * A generated machine the routine races on: the topology (at most {@link #MAX_CPUS} present
     * CPUs, SMT, offline CPUs, up to 3 nodes), the device's node (or NUMA_NO_NODE), the vectors the
     * PCI core grants (every one, or 0 to online + 1, allocation failures included) and, 6.17+,
     * whether MSI-X is dynamic.
     */
    record Draw(Machine.Config config, int node) {
        /** {@code manaSetupIrqs(node=0) with 2 vectors granted, dynamic MSI-X}, or {@code irqSetup(node=0, len=5) under cpus_read_lock()}. */
        String call(String routine) {
            if (routine.equals(IRQ_SETUP)) return IRQ_SETUP + "(node=" + node + ", len=5) under cpus_read_lock()";
            return routine + "(node=" + node + ")" + (config.grantedVectors() == Integer.MAX_VALUE ? "" : " with "
                    + config.grantedVectors() + " vectors granted") + (config.dynamicMsix() ? ", dynamic MSI-X" : "");
        }
    }

    static Gen<Draw> draws(KernelRelease kernel) {
        return Machines.realistic(Machines.Options.DEFAULT.withMaxNodes(3).withMaxCpus(MAX_CPUS))
                .filter(t -> !t.online().isEmpty())
                .flatMap(m -> c -> {
                    // A device on a CPU-less node one draw in five (HP-1, HP-3: sizing with no local CPU).
                    Optional<DeviceDraws.Device> cpuless = c.chance(20) ? DeviceDraws.withCpulessNode(c, m) : Optional.empty();
                    Topology t = cpuless.map(DeviceDraws.Device::machine).orElse(m);
                    int node = cpuless.isPresent() ? cpuless.get().node() : MachineDraws.nodeOrNoNode(m).generate(c);
                    int granted = c.chance(50) ? Integer.MAX_VALUE : MachineDraws.counts(t, 0, t.numOnlineCpus() + 1).generate(c);
                    boolean dyn = kernel.atLeast(6, 17) && c.chance(50);
                    return new Draw(Machine.Config.of(t, kernel).withGrantedVectors(granted).withDynamicMsix(dyn), node);
                });
    }

    /**
     * Explores {@code race} on {@code config} (single events only unless {@code pairs}), records
     * the runs for the certificate, and throws a violation of {@code rule} for the first run the
     * race's table forbids as breaking {@code rule}: every forbidden outcome seen violates its row's rule.
     */
    private static void noForbiddenRunBreaks(CheckContext ctx, String rule, Race race, Machine.Config config, boolean pairs,
                                             String call, String expected, String hint) {
        InterleavingExplorer.Scope scope = InterleavingExplorer.Scope.everyEvent(config);
        Exploration<List<CpuSet>> x = race.explore(config, pairs ? scope : scope.singleEventsOnly());
        ctx.graded(x);
        List<Interleaving<List<CpuSet>>> broken = x.forbiddenBreaking(rule);
        if (!broken.isEmpty()) throw violation(rule, call, x, broken.get(0), expected, hint);
    }

    /**
     * {@link #noForbiddenRunBreaks} on the fixed {@link #machines}, then on generated machines
     * ({@link #draws}), shrunk on failure like any other property.
     */
    private static void noForbiddenRunBreaks(CheckContext ctx, String rule, Function<Integer, Race> race, String routine,
                                             boolean pairs, String expected, String hint) {
        if (!ctx.countsDrawsOnly())
            for (Machine.Config c : machines(ctx.kernel()))
                noForbiddenRunBreaks(ctx, rule, race.apply(0), c, pairs, new Draw(c, 0).call(routine), expected, hint);
        ctx.forAll(draws(ctx.kernel()), s -> s.withTries(Math.min(s.tries(), MAX_TRIES)),
                d -> noForbiddenRunBreaks(ctx, rule, race.apply(d.node()), d.config(),
                        pairs && d.config().topology().present().size() <= PAIR_CPUS, d.call(routine), expected, hint));
    }

    private static Violation violation(String rule, String call, Exploration<List<CpuSet>> x, Interleaving<List<CpuSet>> i,
                                       String expected, String hint) {
        return Violation.of(rule, call + " on Linux " + x.config().kernel() + ", " + i.arrivals(), expected,
                        i.outcome() + (i.detail().isEmpty() ? "" : ": " + i.detail())
                                + i.result().map(r -> "; result " + CpuSet.toText(r)).orElse(""))
                .hint(hint).on(x.config().topology());
    }

    private static Function<Integer, Race> setup(CheckContext ctx) {
        return node -> Race.manaSetupIrqs(ctx.implementation(), ctx.kernel(), node);
    }

    /** {@link #noForbiddenRunBreaks} of {@code rule} on {@code mana_gd_setup_irqs()}'s race, pairs of events included. */
    private static void setupBreaksNothing(CheckContext ctx, String rule, String expected, String hint) {
        noForbiddenRunBreaks(ctx, rule, setup(ctx), SETUP, true, expected, hint);
    }

    /**
     * The check {@code name} of HP-1 .. HP-3 on {@code irq_setup()}, which MANA has from 6.9 (one
     * CPU per IRQ before): the {@link #noForbiddenRunBreaks} of {@code rule} on the race of its
     * caller's lock. The three differ only in their words, so they stand in {@link #checks()}, each
     * with its rule.
     */
    private static Check irqSetupCheck(String rule, String name, boolean pairs, String expected, String hint) {
        return Check.of(rule, Routine.IRQ_SETUP, name, ctx -> {
            if (ctx.kernel().atLeast(6, 9)) noForbiddenRunBreaks(ctx, rule, irqSetup(ctx), IRQ_SETUP, pairs, expected, hint);
        });
    }

    private static Function<Integer, Race> irqSetup(CheckContext ctx) {
        return node -> Race.irqSetup(ctx.implementation(), ctx.kernel(), node, 5, false);
    }

    private static boolean between(KernelRelease k, int fromMinor, int toMinor) {
        return k.between(KernelRelease.of(6, fromMinor), KernelRelease.of(6, toMinor));
    }

    private static final String SETUP = "manaSetupIrqs";
    private static final String IRQ_SETUP = "irqSetup";

    // ---------------------------------------------------------------- HP-1

    static void hp1Setup(CheckContext ctx) {
        if (!between(ctx.kernel(), 9, 16)) return;
        setupBreaksNothing(ctx, "HP-1", "the plan of the machine before the event or after it (same-plan, plan-after-event)",
                "is cpus_read_lock() taken before num_online_cpus() and held until the last affinity?");
    }

    // ---------------------------------------------------------------- HP-2

    static void hp2Setup(CheckContext ctx) {
        if (ctx.kernel().before(6, 9)) return;
        setupBreaksNothing(ctx, "HP-2", "only CPUs online when each affinity is set",
                "is the sibling mask read and the affinity set without cpus_read_lock() held?");
    }

    // ---------------------------------------------------------------- HP-3

    static void hp3(CheckContext ctx) {
        List<Machine.Config> failing = List.of(
                Machine.Config.of(four(), ctx.kernel()).withGrantedVectors(1),   // pci_alloc_irq_vectors() fails
                Machine.Config.of(four(), ctx.kernel()).withGrantedVectors(0));
        for (Machine.Config c : failing) hp3On(ctx, new Draw(c, 0));
        for (Machine.Config c : machines(ctx.kernel())) hp3On(ctx, new Draw(c, 0));
        ctx.forAll(draws(ctx.kernel()), s -> s.withTries(Math.min(s.tries(), MAX_TRIES)), d -> hp3On(ctx, d));
    }

    // Every single event, then the run without events: the lock depth on return is 0.
    private static void hp3On(CheckContext ctx, Draw d) {
        String hint = "is cpus_read_unlock() missing on an error path?";
        noForbiddenRunBreaks(ctx, "HP-3", setup(ctx).apply(d.node()), d.config(), false, d.call(SETUP),
                "cpus_read_lock() released on return", hint);
        Machine quiet = Machine.boot(d.config());
        setup(ctx).apply(d.node()).routine().run(quiet);
        if (quiet.lockDepth() != 0)
            throw Violation.of("HP-3", d.call(SETUP) + ", no hotplug event", "cpus_read_lock() released on return (lock depth 0)", "lock depth " + quiet.lockDepth())
                    .hint(hint).on(d.config().topology());
    }

    // ---------------------------------------------------------------- HP-4, HP-5: what the releases do

    static void hp4(CheckContext ctx) {
        if (ctx.kernel().before(6, 17)) return;
        setupBreaksNothing(ctx, "HP-4", "no outcome but same-plan, plan-after-event, stale-count",
                "is the spread itself (irq_setup and the HWC) under cpus_read_lock()?");
        showsOutcome(ctx, "HP-4", Outcome.STALE_COUNT,
                "a stale-count run: 6.17+ reads num_online_cpus() for the vector count before cpus_read_lock()",
                "is the sizing of mana_gd_setup_hwc_irqs() done under the lock? The release does not.");
    }

    static void hp5(CheckContext ctx) {
        if (!ctx.kernel().between(KernelRelease.of(5, 13), KernelRelease.of(6, 2))) return;
        showsOutcome(ctx, "HP-5", Outcome.BUG,
                "a BUG run: cpumask_local_spread() called without cpus_read_lock() while a CPU goes offline",
                "is cpumask_local_spread() called through the machine, without the lock?");
    }

    /**
     * HP-4, HP-5: the release's own race shows {@code outcome} on the kernel comment's machine under
     * some single event; the exploration is recorded for the certificate.
     */
    private static void showsOutcome(CheckContext ctx, String rule, Outcome outcome, String expected, String hint) {
        Machine.Config c = Machine.Config.of(SiblingSpreadChecks.commentMachine(), ctx.kernel());
        Exploration<List<CpuSet>> x = setup(ctx).apply(0).explore(c, InterleavingExplorer.Scope.everyEvent(c).singleEventsOnly());
        ctx.graded(x);
        if (x.withOutcome(outcome).isEmpty())
            throw Violation.of(rule, SETUP + "(node=0) on Linux " + ctx.kernel() + ", every single event", expected, "outcomes " + x.counts())
                    .hint(hint).on(c.topology());
    }

    // ---------------------------------------------------------------- HP-6

    /**
     * HP-6: {@code group_cpus_evenly} called from inside a CPU hotplug operation, on the kernel
     * comment's machine, or on a machine of the pool when there is one (a booted kernel answers for
     * the machines it booted on; any machine with a CPU to bring online besides CPU 0 shows the lock).
     * That one machine is a fixed example, not a draw of input classes: the census leaves it out.
     */
    static void hp6(CheckContext ctx) {
        if (GroupCpusEvenly.takesHotplugLock(ctx.kernel()) || ctx.countsDrawsOnly()) return;
        Gen<Topology> machine = MachineGen.poolOr(Gen.constant(SiblingSpreadChecks.commentMachine()), t -> t.present().size() >= 2,
                "of two or more present CPUs (one besides CPU 0 to bring online)");
        ctx.forAll(machine, s -> s.withTries(1), t -> hp6(ctx, t));
    }

    private static void hp6(CheckContext ctx, Topology t) {
        Machine m = Machine.boot(t, ctx.kernel());
        try {
            m.duringHotplug(() -> ctx.implementation().groupCpusEvenly(ctx.kernel(), m, 2));
        } catch (KernelBug bug) {
            if (!bug.kind().equals("deadlock")) throw bug;
            throw Violation.of("HP-6", "groupCpusEvenly(numgrps=2) from a CPU hotplug operation on Linux " + ctx.kernel(),
                    "groups, without cpus_read_lock()", bug.getMessage())
                    .hint("6.7 replaced cpus_read_lock() by a snapshot of the present mask").on(t);
        }
        // Lock behaviour shows only in the calls made on the machine. None at all: the implementation
        // did not run on it (a program reported no services; a Java one kept the default), so nothing was shown.
        if (m.calls().isEmpty())
            throw new CannotJudge("groupCpusEvenly(numgrps=2) on a running machine made no call on it, so whether it takes"
                    + " cpus_read_lock() cannot be seen (a program shows lock behaviour by reporting the hotplug services its"
                    + " routine used, spec/protocol.md group-cpus \"services\"; a Java implementation by overriding"
                    + " groupCpusEvenly(KernelRelease, Machine, int) and reading the machine through its services,"
                    + " cpu_present_mask as 6.7+ does; a booted kernel by calling it from a CPU hotplug callback)");
    }
}
