package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.races.Race;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.InterleavingExplorer;
import dev.numaspread.model.hotplug.InterleavingExplorer.Exploration;
import dev.numaspread.model.hotplug.InterleavingExplorer.Interleaving;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.hotplug.Outcome;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks of spec/hotplug.md (HP-*): the implementation's routine runs once per point at which a
 * hotplug event can arrive ({@link InterleavingExplorer}), on small machines where every point and,
 * up to six CPUs, every pair of events is tried. Exhaustive and deterministic: no random draws.
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
                Check.of("HP-1", Routine.IRQ_SETUP, "HP_1_irqSetupUnderCallersLockIsAtomic", HotplugChecks::hp1IrqSetup),
                Check.of("HP-2", Routine.MANA_SETUP_IRQS, "HP_2_noAffinityNamesAnOfflineCpu", HotplugChecks::hp2Setup),
                Check.of("HP-2", Routine.IRQ_SETUP, "HP_2_irqSetupNamesNoOfflineCpu", HotplugChecks::hp2IrqSetup),
                Check.of("HP-3", Routine.MANA_SETUP_IRQS, "HP_3_lockReleasedOnEveryPath", HotplugChecks::hp3),
                Check.of("HP-3", Routine.IRQ_SETUP, "HP_3_irqSetupLeavesTheCallersLockAsItWas", HotplugChecks::hp3IrqSetup),
                Check.of("HP-4", Routine.MANA_SETUP_IRQS, "HP_4_sizingBeforeTheLockFrom617", HotplugChecks::hp4),
                Check.of("HP-5", Routine.MANA_SETUP_IRQS, "HP_5_classicLocalSpreadReachesBug", HotplugChecks::hp5),
                Check.of("HP-6", Routine.GROUP_CPUS, "HP_6_groupCpusTakesNoHotplugLock", HotplugChecks::hp6));
    }

    /** 2 nodes x 1 core x 2 threads: small enough for every pair of events. */
    static Topology four() {
        return TopologyBuilder.machine("2node-2core-4cpu").source("HotplugChecks").node(0, "0-1").node(1, "2-3").smtAdjacent(2).build();
    }

    /** The machines every HP check explores: all online (pairs), one CPU offline (online events too), and 8 CPUs. */
    static List<Machine.Config> machines(KernelRelease k) {
        return List.of(
                Machine.Config.of(four(), k),
                Machine.Config.of(four().withOnline(CpuSet.parseList("0-2")), k),
                Machine.Config.of(four(), k).withGrantedVectors(2),
                Machine.Config.of(SiblingSpreadChecks.commentMachine(), k));
    }

    /**
     * Explores {@code race} on every machine of {@code machines} (single events only unless
     * {@code pairs}) and throws a violation of {@code rule} for the first run the race's table
     * forbids as breaking {@code rule}: every forbidden outcome seen violates its row's rule.
     */
    private static void noForbiddenRunBreaks(String rule, Race race, List<Machine.Config> machines, boolean pairs,
                                             String call, String expected, String hint) {
        for (Machine.Config c : machines) {
            InterleavingExplorer.Scope scope = InterleavingExplorer.Scope.everyEvent(c);
            Exploration<List<CpuSet>> x = race.explore(c, pairs ? scope : scope.singleEventsOnly());
            List<Interleaving<List<CpuSet>>> broken = x.forbiddenBreaking(rule);
            if (!broken.isEmpty()) throw violation(rule, call, x, broken.get(0), expected, hint);
        }
    }

    private static Violation violation(String rule, String call, Exploration<List<CpuSet>> x, Interleaving<List<CpuSet>> i,
                                       String expected, String hint) {
        return Violation.of(rule, call + " on Linux " + x.config().kernel() + ", " + i.arrivals(), expected,
                        i.outcome() + (i.detail().isEmpty() ? "" : ": " + i.detail())
                                + i.result().map(r -> "; result " + SiblingSpreadChecks.listText(r)).orElse(""))
                .hint(hint).on(x.config().topology());
    }

    private static Race setup(CheckContext ctx) {
        return Race.manaSetupIrqs(ctx.implementation(), ctx.kernel(), 0);
    }

    private static Race irqSetup(CheckContext ctx) {
        return Race.irqSetup(ctx.implementation(), ctx.kernel(), 0, 5, false);
    }

    private static boolean between(KernelRelease k, int fromMinor, int toMinor) {
        return k.between(KernelRelease.of(6, fromMinor), KernelRelease.of(6, toMinor));
    }

    private static final String SETUP = "manaSetupIrqs(node=0)";
    private static final String IRQ_SETUP = "irqSetup(node=0, len=5) under cpus_read_lock()";

    // ---------------------------------------------------------------- HP-1

    static void hp1Setup(CheckContext ctx) {
        if (!between(ctx.kernel(), 9, 16)) return;
        noForbiddenRunBreaks("HP-1", setup(ctx), machines(ctx.kernel()), true, SETUP,
                "the plan of the machine before the event or after it (same-plan, plan-after-event)",
                "is cpus_read_lock() taken before num_online_cpus() and held until the last affinity?");
    }

    static void hp1IrqSetup(CheckContext ctx) {
        if (ctx.kernel().before(6, 9)) return;
        noForbiddenRunBreaks("HP-1", irqSetup(ctx), machines(ctx.kernel()), true, IRQ_SETUP,
                "the plan of the machine before the event or after it", "does irq_setup() drop or take the hotplug lock itself?");
    }

    // ---------------------------------------------------------------- HP-2

    static void hp2Setup(CheckContext ctx) {
        if (ctx.kernel().before(6, 9)) return;
        noForbiddenRunBreaks("HP-2", setup(ctx), machines(ctx.kernel()), true, SETUP, "only CPUs online when each affinity is set",
                "is the sibling mask read and the affinity set without cpus_read_lock() held?");
    }

    static void hp2IrqSetup(CheckContext ctx) {
        if (ctx.kernel().before(6, 9)) return;
        noForbiddenRunBreaks("HP-2", irqSetup(ctx), machines(ctx.kernel()), true, IRQ_SETUP, "only CPUs online when each affinity is set",
                "does irq_setup() release the caller's lock?");
    }

    // ---------------------------------------------------------------- HP-3

    static void hp3(CheckContext ctx) {
        List<Machine.Config> configs = new ArrayList<>(machines(ctx.kernel()));
        configs.add(Machine.Config.of(four(), ctx.kernel()).withGrantedVectors(1));   // pci_alloc_irq_vectors() fails
        configs.add(Machine.Config.of(four(), ctx.kernel()).withGrantedVectors(0));
        for (Machine.Config c : configs) {
            String call = SETUP + " with " + grantedText(c) + " granted";
            noForbiddenRunBreaks("HP-3", setup(ctx), List.of(c), false, call, "cpus_read_lock() released on return",
                    "is cpus_read_unlock() missing on an error path?");
            Machine quiet = Machine.boot(c);
            setup(ctx).routine().run(quiet);
            if (quiet.lockDepth() != 0)
                throw Violation.of("HP-3", call + ", no hotplug event", "lock depth 0 on return", "lock depth " + quiet.lockDepth())
                        .hint("is cpus_read_unlock() missing on an error path?").on(c.topology());
        }
    }

    static void hp3IrqSetup(CheckContext ctx) {
        noForbiddenRunBreaks("HP-3", irqSetup(ctx), machines(ctx.kernel()), false, IRQ_SETUP,
                "cpus_read_lock() held as the caller left it", "does irq_setup() take cpus_read_lock() and keep it?");
    }

    private static String grantedText(Machine.Config c) {
        return c.grantedVectors() == Integer.MAX_VALUE ? "every vector" : c.grantedVectors() + " vectors";
    }

    // ---------------------------------------------------------------- HP-4, HP-5: what the releases do

    static void hp4(CheckContext ctx) {
        if (ctx.kernel().before(6, 17)) return;
        Machine.Config c = Machine.Config.of(SiblingSpreadChecks.commentMachine(), ctx.kernel());
        noForbiddenRunBreaks("HP-4", setup(ctx), List.of(c), true, SETUP, "no outcome but same-plan, plan-after-event, stale-count",
                "is the spread itself (irq_setup and the HWC) under cpus_read_lock()?");
        Exploration<List<CpuSet>> x = setup(ctx).explore(c, InterleavingExplorer.Scope.everyEvent(c).singleEventsOnly());
        if (x.withOutcome(Outcome.STALE_COUNT).isEmpty())
            throw Violation.of("HP-4", SETUP + " on Linux " + ctx.kernel() + ", every single event",
                            "a stale-count run: 6.17+ reads num_online_cpus() for the vector count before cpus_read_lock()",
                            "outcomes " + x.counts()).hint("is the sizing of mana_gd_setup_hwc_irqs() done under the lock? The release does not.")
                    .on(c.topology());
    }

    static void hp5(CheckContext ctx) {
        if (!ctx.kernel().between(KernelRelease.of(5, 13), KernelRelease.of(6, 2))) return;
        Machine.Config c = Machine.Config.of(SiblingSpreadChecks.commentMachine(), ctx.kernel());
        Exploration<List<CpuSet>> x = setup(ctx).explore(c, InterleavingExplorer.Scope.everyEvent(c).singleEventsOnly());
        if (x.withOutcome(Outcome.BUG).isEmpty())
            throw Violation.of("HP-5", SETUP + " on Linux " + ctx.kernel() + ", every single event",
                            "a BUG run: cpumask_local_spread() called without cpus_read_lock() while a CPU goes offline",
                            "outcomes " + x.counts()).hint("is cpumask_local_spread() called through the machine, without the lock?")
                    .on(c.topology());
    }

    // ---------------------------------------------------------------- HP-6

    static void hp6(CheckContext ctx) {
        if (ctx.kernel().before(6, 7)) return;
        Topology t = SiblingSpreadChecks.commentMachine();
        Machine m = Machine.boot(t, ctx.kernel());
        try {
            m.duringHotplug(() -> ctx.implementation().groupCpusEvenly(ctx.kernel(), m, 2));
        } catch (KernelBug bug) {
            if (!bug.kind().equals("deadlock")) throw bug;
            throw Violation.of("HP-6", "groupCpusEvenly(numgrps=2) from a CPU hotplug operation on Linux " + ctx.kernel(),
                    "groups, without cpus_read_lock()", "deadlock: " + bug.getMessage())
                    .hint("6.7 replaced cpus_read_lock() by a snapshot of the present mask").on(t);
        }
    }
}
