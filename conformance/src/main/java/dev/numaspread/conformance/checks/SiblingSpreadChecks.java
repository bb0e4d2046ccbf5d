package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.races.Race;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.numa.NumaHops;
import dev.numaspread.model.siblingspread.SiblingSpread;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Checks of spec/sibling-spread.md (SIB-*): MANA's {@code irq_setup()} and
 * {@code mana_gd_setup_irqs()}. Contract checks (MUST) use invariants over small generated SMT
 * machines; exact checks (EXACT) compare with the model and with the worked examples of seed 004
 * and the kernel comment. Each call runs on a fresh {@link Machine} with no hotplug event; the
 * kit holds {@code cpus_read_lock()} around {@code irq_setup()} as its caller does.
 *
 * <p>Over 450 lines on purpose (issue 26): one family's checks, a method per rule, as every {@link
 * CheckFamily}.
 */
public final class SiblingSpreadChecks implements CheckFamily {

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("SIB-1", Routine.IRQ_SETUP, "SIB_1_eachIrqGetsAWholeOnlineSiblingMask", SiblingSpreadChecks::sib1),
                Check.of("SIB-1", Routine.IRQ_SETUP, "SIB_1_seed004Machine", SiblingSpreadChecks::sib1Seed004),
                Check.of("SIB-2", Routine.IRQ_SETUP, "SIB_2_everyCoreOfAHopBeforeASecondIrq", SiblingSpreadChecks::sib2),
                Check.of("SIB-3", Routine.IRQ_SETUP, "SIB_3_hopsNearestFirstEachExhausted", SiblingSpreadChecks::sib3),
                Check.of("SIB-4", Routine.IRQ_SETUP, "SIB_4_countsPerCoreDifferByAtMostOne", SiblingSpreadChecks::sib4),
                Check.of("SIB-5", Routine.IRQ_SETUP, "SIB_5_planIsTheKernels", SiblingSpreadChecks::sib5),
                Check.of("SIB-5", Routine.IRQ_SETUP, "SIB_5_kernelCommentExample", SiblingSpreadChecks::sib5Comment),
                Check.of("SIB-6", Routine.IRQ_SETUP, "SIB_6_unequalCoresOverAssignTheRing", SiblingSpreadChecks::sib6),
                Check.of("SIB-7", Routine.IRQ_SETUP, "SIB_7_skipFirstCpuOnceAndCounted", SiblingSpreadChecks::sib7),
                Check.of("SIB-8", Routine.IRQ_SETUP, "SIB_8_untouchedIrqs", SiblingSpreadChecks::sib8),
                Check.of("SIB-9", Routine.MANA_SETUP_IRQS, "SIB_9_hwcRuleAndSizing", SiblingSpreadChecks::sib9),
                Check.of("SIB-10", Routine.MANA_SETUP_IRQS, "SIB_10_dynamicMsixPlan", SiblingSpreadChecks::sib10),
                Check.of("SIB-11", Routine.IRQ_SETUP, "SIB_11_oneCpuPerIrqBefore69", SiblingSpreadChecks::sib11),
                Check.of("SIB-12", Routine.MANA_SETUP_IRQS, "SIB_12_hwcAndQueuesAreTheKernels", SiblingSpreadChecks::sib12),
                Check.of("SIB-13", Routine.MANA_SETUP_IRQS, "SIB_13_oneQueuePerOnlineCpuIsLinearFrom72", SiblingSpreadChecks::sib13));
    }

    // ---------------------------------------------------------------- machines and draws

    /** Seed 004: 2 nodes x 32 cores x 2 threads, siblings adjacent. */
    static Topology seed004Machine() {
        return Fixtures.topology("mana-2node-32c-smt2");
    }

    /** Commit 4607617af1b4's example: 2 nodes x 2 cores x 2 threads, the machine of the features. */
    static Topology commentMachine() {
        return Fixtures.topology("mana-2node-2c-smt2");
    }

    /** Cores {0,1} and {2} on node 0, CPUs 3 and 4 on node 1: a weight of 3 gives node 0 four IRQs (SIB-6). */
    static Topology oddCoreMachine() {
        return TopologyBuilder.machine("odd-core").source("hand-made for irq_setup() of gdma_main.c, 6.9").node(0, "0-2").node(1, "3-4")
                .siblings("0-1", "2", "3", "4").build();
    }

    /**
     * The machines of the MANA checks: realistic machines of at most 3 nodes and 16 CPUs, SMT
     * 1/2/4 with adjacent or split numbering, offline CPUs (a core with one online thread among
     * cores with two, as half-offline SMT gives) and asymmetric tables. The bound is for speed:
     * each try boots a {@link Machine}.
     */
    static Gen<Topology> smtMachines() {
        return Machines.realistic(Machines.Options.DEFAULT.withMaxNodes(3).withMaxCpus(16));
    }

    /** A machine, a node of it (or NUMA_NO_NODE) and an IRQ count up to twice the online CPUs plus two. */
    record Draw(Topology machine, int node, int len, boolean skipFirstCpu) {
        String call() {
            return "irqSetup(node=" + node + ", len=" + len + (skipFirstCpu ? ", skip_first_cpu" : "") + ")";
        }
    }

    // Alike on purpose (duplicates, issue 26) with setupDraws: two draws, each on the MANA machines and on the SNC ones; the node pick and the machines are shared.
    static Gen<Draw> draws(KernelRelease kernel) {
        return draws(kernel, smtMachines());
    }

    /** The draws of {@link #draws(KernelRelease)} on the SNC tries' machines: irq_setup() walks the hop masks, which follow the scheduler's distance from 6.19. */
    static Gen<Draw> sncDraws(KernelRelease kernel) {
        return draws(kernel, LocalSpreadChecks.sncMachines());
    }

    static Gen<Draw> draws(KernelRelease kernel, Gen<Topology> machines) {
        return machines.flatMap(t -> c -> {
            int node = MachineDraws.anyNodeOrNoNode(t).generate(c);
            int len = MachineDraws.counts(t, 0, 2 * t.numOnlineCpus() + 2).generate(c);
            boolean skip = kernel.atLeast(6, 17) && c.chance(30);
            return new Draw(t, node, len, skip);
        });
    }

    /** What the implementation's irq_setup gives on a quiet machine, under its caller's cpus_read_lock(). */
    static List<CpuSet> irqSetup(CheckContext ctx, Draw d) {
        return Race.irqSetupUnderCallersLock(ctx.implementation(), ctx.kernel(), d.node(), d.len(), d.skipFirstCpu())
                .run(Machine.boot(d.machine(), ctx.kernel()));
    }

    /** The reference model's irq_setup on a quiet machine: the plan EXACT rules compare with. */
    static List<CpuSet> irqSetupPlan(KernelRelease kernel, Topology machine, int node, int len, boolean skipFirstCpu) {
        return SiblingSpread.irqSetup(Machine.boot(machine, kernel), node, len, skipFirstCpu);
    }

    private static boolean sinceIrqSetup(CheckContext ctx) {
        return ctx.kernel().atLeast(6, 9);
    }

    // ---------------------------------------------------------------- SIB-1 .. SIB-4: the contract

    static void sib1(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        ctx.forAll(draws(ctx.kernel()), d -> {
            List<CpuSet> got = irqSetup(ctx, d);
            for (int j = 0; j < got.size(); j++) {
                CpuSet mask = got.get(j);
                CpuSet want = mask.isEmpty() || !d.machine().online().contains(mask.first())
                        ? CpuSet.EMPTY : d.machine().onlineSiblingsOf(mask.first());
                if (mask.isEmpty() || !mask.equals(want))
                    throw Violation.of("SIB-1", d.call() + ", IRQ " + j, "the online sibling mask of one core"
                                    + (want.isEmpty() ? "" : " (" + want.toList() + ")"), "'" + mask.toList() + "'")
                            .hint("is the IRQ given cpumask_of(cpu) instead of topology_sibling_cpumask(cpu)?").on(d.machine());
            }
        });
    }

    static void sib1Seed004(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        Draw d = new Draw(seed004Machine(), 0, 64, false);
        List<CpuSet> got = irqSetup(ctx, d);
        // Siblings are adjacent there (0-1, 2-3, ...): every mask is a pair c, c+1 with c even. Which
        // pair an IRQ gets is SIB-5's matter.
        for (int k = 0; k < got.size(); k++) {
            CpuSet mask = got.get(k);
            int c = mask.isEmpty() ? -1 : mask.first();
            if (c < 0 || c % 2 != 0 || !mask.equals(CpuSet.of(c, c + 1)))
                throw Violation.of("SIB-1", d.call() + ", IRQ " + k, "both threads of one core, such as 0-1 (seed 004's siblings are adjacent)",
                                "'" + mask.toList() + "'")
                        .quoting("The affinity `irq_setup()` gives an IRQ is `topology_sibling_cpumask(cpu)` of an online CPU: every"
                                + " online CPU of one core, and nothing else.")
                        .hint("is the IRQ given cpumask_of(cpu) instead of topology_sibling_cpumask(cpu)?").on(d.machine());
        }
    }

    /** The rings of the hop masks the kernel yields for {@code node}: mask k minus mask k-1. */
    static List<CpuSet> rings(KernelRelease kernel, Topology t, int node) {
        List<CpuSet> out = new ArrayList<>();
        CpuSet prev = CpuSet.EMPTY;
        for (CpuSet hop : NumaHops.hopMasks(kernel, t, node)) {
            out.add(hop.andNot(prev));
            prev = hop;
        }
        return out;
    }

    private static int ringOf(List<CpuSet> rings, int cpu) {
        for (int k = 0; k < rings.size(); k++) if (rings.get(k).contains(cpu)) return k;
        return -1;
    }

    /** The cores (first CPU of each sibling group) with an online CPU in {@code ring}, ascending. */
    private static List<Integer> coresOf(Topology t, CpuSet ring) {
        List<Integer> cores = new ArrayList<>();
        for (CpuSet g : t.smtSiblings()) if (g.intersects(ring)) cores.add(g.first());
        return cores;
    }

    static void sib2(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        NumaChecks.alsoOnDrawnSnc(ctx, draws(ctx.kernel()), sncDraws(ctx.kernel()), d -> {
            List<CpuSet> got = irqSetup(ctx, d);
            List<CpuSet> rings = rings(ctx.kernel(), d.machine(), d.node());
            TreeMap<Integer, Integer> count = new TreeMap<>();
            boolean judged = false;
            for (int j = 0; j < got.size(); j++) {
                if (got.get(j).isEmpty()) continue;
                int cpu = got.get(j).first();
                int ring = ringOf(rings, cpu);
                if (ring < 0) continue;
                judged = true;
                int core = d.machine().siblingsOf(cpu).first();
                int mine = count.getOrDefault(core, 0);
                for (int other : coresOf(d.machine(), rings.get(ring)))
                    if (count.getOrDefault(other, 0) < mine)
                        throw Violation.of("SIB-2", d.call() + ", IRQ " + j,
                                        "a core of hop " + ring + " with the fewest IRQs (core of cpu " + other + " has " + count.getOrDefault(other, 0) + ")",
                                        "core of cpu " + core + ", its IRQ number " + (mine + 1))
                                .hint("does a pass give every core of the hop one IRQ before the next pass?").on(d.machine());
                count.put(core, mine + 1);
            }
            if (!judged) throw new NotApplicable(NO_IRQ_IN_THE_RINGS);
        });
    }

    /** Why SIB-2..SIB-4 judge nothing on an answer: which IRQs get which CPUs at all is SIB-1's and SIB-8's to judge. */
    static final String NO_IRQ_IN_THE_RINGS = "no IRQ of the answer has a CPU in the hops of the node: SIB-1's and SIB-8's matter";

    static void sib3(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        NumaChecks.alsoOnSnc(ctx, draws(ctx.kernel()), sncDraws(ctx.kernel()), d -> {
            List<CpuSet> got = irqSetup(ctx, d);
            List<CpuSet> rings = rings(ctx.kernel(), d.machine(), d.node());
            int[] given = new int[rings.size()];
            int last = 0;
            boolean judged = false;
            for (int j = 0; j < got.size(); j++) {
                if (got.get(j).isEmpty()) continue;
                int ring = ringOf(rings, got.get(j).first());
                if (ring < 0) continue;
                judged = true;
                for (int k = 0; k < ring; k++) {
                    // The core skip_first_cpu skips in hop 0 still counts (SIB-7): hop 0 needs one IRQ less.
                    int need = rings.get(k).size() - (k == 0 && d.skipFirstCpu() ? 1 : 0);
                    if (given[k] < need)
                        throw Violation.of("SIB-3", d.call() + ", IRQ " + j,
                                        "hops nearest first, each exhausted first: hop " + k + " needs " + need + " IRQs for its "
                                                + rings.get(k).size() + " CPUs " + rings.get(k).toList(),
                                        "hop " + ring + " after " + given[k] + " IRQs in hop " + k)
                                .hint("does the spread move to the next hop after one pass instead of when the hop's weight is used up?").on(d.machine());
                }
                if (ring < last)
                    throw Violation.of("SIB-3", d.call() + ", IRQ " + j, "hops nearest first, each exhausted first: hop " + last + " or later",
                            "hop " + ring + " (" + got.get(j).toList() + ")").hint("are hops visited in distance order?").on(d.machine());
                given[ring]++;
                last = ring;
            }
            if (!judged) throw new NotApplicable(NO_IRQ_IN_THE_RINGS);
        });
    }

    static void sib4(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        NumaChecks.alsoOnDrawnSnc(ctx, draws(ctx.kernel()), sncDraws(ctx.kernel()), d -> {
            List<CpuSet> got = irqSetup(ctx, d);
            List<CpuSet> rings = rings(ctx.kernel(), d.machine(), d.node());
            boolean judged = false;
            for (int k = 0; k < rings.size(); k++) {
                TreeMap<Integer, Integer> count = new TreeMap<>();
                for (int core : coresOf(d.machine(), rings.get(k))) count.put(core, 0);
                boolean used = false;
                for (CpuSet mask : got)
                    if (!mask.isEmpty() && rings.get(k).contains(mask.first())) {
                        count.merge(d.machine().siblingsOf(mask.first()).first(), 1, Integer::sum);
                        used = true;
                    }
                if (!used) continue;
                judged = true;
                int min = count.values().stream().mapToInt(Integer::intValue).min().orElse(0);
                int max = count.values().stream().mapToInt(Integer::intValue).max().orElse(0);
                if (max - min > 1)
                    throw Violation.of("SIB-4", d.call(), "IRQ counts per core of hop " + k + " within one of each other",
                            "counts " + countsText(count)).hint("is one core served twice in one pass?").on(d.machine());
            }
            if (!judged) throw new NotApplicable(NO_IRQ_IN_THE_RINGS);
        });
    }

    private static String countsText(TreeMap<Integer, Integer> count) {
        StringBuilder s = new StringBuilder();
        count.forEach((core, n) -> s.append(s.length() == 0 ? "" : ", ").append("core of cpu ").append(core).append(": ").append(n));
        return s.toString();
    }

    // ---------------------------------------------------------------- SIB-5 .. SIB-8: the kernel's exact plan

    private static void expectPlan(String rule, Draw d, List<CpuSet> want, List<CpuSet> got, String hint) {
        if (!want.equals(got))
            throw Violation.of(rule, d.call(), CpuSet.toText(want), CpuSet.toText(got)).hint(hint).on(d.machine());
    }

    static List<CpuSet> masks(String... lists) {
        List<CpuSet> out = new ArrayList<>();
        for (String l : lists) out.add(CpuSet.parseList(l));
        return out;
    }

    static void sib5(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        NumaChecks.alsoOnSnc(ctx, draws(ctx.kernel()), sncDraws(ctx.kernel()), d -> expectPlan("SIB-5", d,
                irqSetupPlan(ctx.kernel(), d.machine(), d.node(), d.len(), d.skipFirstCpu()), irqSetup(ctx, d),
                "are cores taken in ascending order of their lowest online CPU, pass after pass?"));
    }

    static void sib5Comment(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        Draw d = new Draw(commentMachine(), 0, 8, false);
        expectPlan("SIB-5", d, masks("0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), irqSetup(ctx, d),
                "commit 4607617af1b4's table: two passes over node 0's cores, then node 1");
    }

    static void sib6(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        Draw d = new Draw(oddCoreMachine(), 0, 5, false);
        expectPlan("SIB-6", d, masks("0-1", "2", "0-1", "2", "3"), irqSetup(ctx, d),
                "the weight drops by one per core and is tested between passes only: ring 0-2 (weight 3) takes four IRQs");
    }

    static void sib7(CheckContext ctx) {
        if (ctx.kernel().before(6, 17)) return;
        Draw d = new Draw(commentMachine(), 0, 4, true);
        expectPlan("SIB-7", d, masks("2-3", "0-1", "2-3", "4-5"), irqSetup(ctx, d),
                "the skipped core counts in the weight and is skipped once, in the first pass only");
        Draw seed = new Draw(seed004Machine(), 0, 64, true);
        List<CpuSet> want = new ArrayList<>();
        for (int k = 1; k <= 64; k++) want.add(CpuSet.of(2 * (k % 32), 2 * (k % 32) + 1));
        // Ring 0-63 has weight 64: 31 cores in pass 1 (core 0 skipped, counted), 32 in pass 2, then node 1.
        want.set(63, CpuSet.of(64, 65));
        expectPlan("SIB-7", seed, want, irqSetup(ctx, seed), "core 0 skipped once and counted: 63 IRQs on node 0, the 64th on node 1");
    }

    static void sib8(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        Draw more = new Draw(commentMachine(), 0, 11, false);
        expectPlan("SIB-8", more, masks("0-1", "2-3", "0-1", "2-3", "4-5", "6-7", "4-5", "6-7"), irqSetup(ctx, more),
                "IRQs left after the last hop are not touched");
        Draw none = new Draw(commentMachine(), Numa.NUMA_NO_NODE, 9, false);
        expectPlan("SIB-8", none, masks("0-1", "2-3", "4-5", "6-7", "0-1", "2-3", "4-5", "6-7"), irqSetup(ctx, none),
                "NUMA_NO_NODE is one hop of every online CPU");
        Topology cpuless = TopologyBuilder.machine("cpuless-node").node(0, "0-3").node(1, "").smtAdjacent(2).build();
        Draw empty = new Draw(cpuless, 1, 4, false);
        expectPlan("SIB-8", empty, List.of(), irqSetup(ctx, empty), "a CPU-less node has no hop: nothing is assigned");
    }

    // ---------------------------------------------------------------- SIB-9, SIB-10: mana_gd_setup_irqs

    record SetupDraw(Topology machine, int node, int granted, boolean dyn) {
        Machine.Config config(KernelRelease k) {
            return Machine.Config.of(machine, k).withGrantedVectors(granted).withDynamicMsix(dyn);
        }

        String call() {
            return "manaSetupIrqs(node=" + node + ") with " + (granted == Integer.MAX_VALUE ? "every vector" : granted + " vectors")
                    + " granted" + (dyn ? ", dynamic MSI-X" : "");
        }
    }

    static Gen<SetupDraw> setupDraws(boolean dyn) {
        return setupDraws(dyn, smtMachines());
    }

    /** The draws of {@link #setupDraws(boolean)} on the SNC tries' machines: mana_gd_setup_irqs() goes through irq_setup(). */
    static Gen<SetupDraw> sncSetupDraws(boolean dyn) {
        return setupDraws(dyn, LocalSpreadChecks.sncMachines());
    }

    static Gen<SetupDraw> setupDraws(boolean dyn, Gen<Topology> machines) {
        return machines.flatMap(t -> c -> {
            int node = MachineDraws.anyNodeOrNoNode(t).generate(c);
            int granted = c.chance(50) ? Integer.MAX_VALUE : MachineDraws.counts(t, 2, t.numOnlineCpus() + 2).generate(c);
            return new SetupDraw(t, node, granted, dyn);
        });
    }

    static List<CpuSet> manaSetupIrqs(CheckContext ctx, SetupDraw d) {
        return ctx.implementation().manaSetupIrqs(ctx.kernel(), Machine.boot(d.config(ctx.kernel())), d.node());
    }

    static void sib9(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        String sizing = "`mana_gd_setup_irqs()` asks for `min(num_online_cpus(), 64) + 1` vectors (at least 2).";
        String hwc = "When the granted count exceeds the online CPUs, vector 0 (the HWC) gets a single CPU, one of the node's online CPUs"
                + " when it has any, and the queues start at vector 1 through `irq_setup()`, so vector 1 gets that CPU's core.";
        String rest = "Otherwise every vector, the HWC first, goes through `irq_setup()`.";
        ctx.forAll(setupDraws(false), d -> {
            Topology t = d.machine();
            List<CpuSet> got = manaSetupIrqs(ctx, d);
            int online = t.numOnlineCpus();
            int nvec = Math.min(Math.min(online, SiblingSpread.MANA_MAX_NUM_QUEUES) + 1, d.granted());
            if (got.size() != nvec)
                throw Violation.of("SIB-9", d.call(), nvec + " vectors (min(num_online_cpus(), 64) + 1, at most the granted " + d.granted() + ")",
                        got.size() + " vectors").quoting(sizing).hint("is the HWC vector counted in the request?").on(t);
            int first = 0;
            if (nvec > online) {
                CpuSet local = d.node() >= 0 && !t.isCpuless(d.node()) ? t.onlineCpusOf(d.node()) : t.online();
                CpuSet v0 = got.get(0);
                if (v0.size() != 1 || !local.contains(v0.first()))
                    throw Violation.of("SIB-9", d.call() + ", HWC (vector 0)", "a single CPU of " + local.toList(), "'" + v0.toList() + "'")
                            .quoting(hwc).hint("with more vectors than CPUs the HWC takes one CPU, not a core").on(t);
                CpuSet core = t.onlineSiblingsOf(v0.first());
                // A CPU-less node has no hop: irq_setup() leaves every queue untouched (SIB-8).
                if (got.size() > 1 && !got.get(1).isEmpty() && !got.get(1).equals(core))
                    throw Violation.of("SIB-9", d.call() + ", vector 1", "the core of the HWC's CPU " + v0.first() + ": " + core.toList(),
                                    "'" + got.get(1).toList() + "'")
                            .quoting(hwc).hint("do the queues start at vector 1 (start_irq_index) with the HWC's core?").on(t);
                first = 1;
            }
            for (int v = first; v < got.size(); v++) {
                CpuSet mask = got.get(v);
                if (mask.isEmpty()) continue;       // irq_setup() may leave vectors untouched (SIB-8)
                if (!t.online().contains(mask.first()) || !mask.equals(t.onlineSiblingsOf(mask.first())))
                    throw Violation.of("SIB-9", d.call() + ", vector " + v, "what irq_setup() gives: the online sibling mask of one core",
                                    "'" + mask.toList() + "'")
                            .quoting(first == 1 ? hwc : rest).hint("does every vector from " + first + " on go through irq_setup()?").on(t);
            }
        });
    }

    static void sib12(CheckContext ctx) {
        if (!sinceIrqSetup(ctx)) return;
        NumaChecks.alsoOnSnc(ctx, setupDraws(false), sncSetupDraws(false), d -> {
            List<CpuSet> want = SiblingSpread.manaSetupIrqs(Machine.boot(d.config(ctx.kernel())), d.node());
            List<CpuSet> got = manaSetupIrqs(ctx, d);
            if (!want.equals(got))
                throw Violation.of("SIB-12", d.call(), CpuSet.toText(want), CpuSet.toText(got))
                        .hint(d.machine().numOnlineCpus() < want.size() ? "the HWC on cpumask_local_spread(0, node), then irq_setup() from vector 1"
                                : "irq_setup() over every vector, the HWC first").on(d.machine());
        });
    }

    static void sib10(CheckContext ctx) {
        if (ctx.kernel().before(6, 17)) return;
        Topology t = commentMachine();
        SetupDraw five = new SetupDraw(t, 0, 5, true);
        List<CpuSet> got = manaSetupIrqs(ctx, five);
        if (!got.equals(masks("0-1", "2-3", "0-1", "2-3", "4-5")))
            throw Violation.of("SIB-10", five.call(), CpuSet.toText(masks("0-1", "2-3", "0-1", "2-3", "4-5")), CpuSet.toText(got))
                    .hint("usable 5 <= 8 online: the queues skip the HWC's core").on(t);
        // From 6.19 irq_setup() walks hop masks of the scheduler's distance: SNC tries too (issue 24).
        NumaChecks.alsoOnDrawnSnc(ctx, setupDraws(true), sncSetupDraws(true), d -> {
            List<CpuSet> want = SiblingSpread.manaSetupIrqs(Machine.boot(d.config(ctx.kernel())), d.node());
            List<CpuSet> mine = manaSetupIrqs(ctx, d);
            // With 5316394b1752 one queue per online CPU is SIB-13's: here only the HWC and the count are judged.
            if (linearQueues(ctx.kernel(), d)) {
                want = want.subList(0, 1);
                mine = mine.isEmpty() ? mine : mine.subList(0, 1);
            }
            if (!want.equals(mine))
                throw Violation.of("SIB-10", d.call(), CpuSet.toText(want), CpuSet.toText(mine))
                        .hint("HWC alone through irq_setup(), then min(max_msix, online + 1) - 1 queues, skipping core 0 when they fit").on(d.machine());
        });
    }

    /** {@code num_msix_usable} of a dynamic MSI-X draw: the device's maximum, at most one per online CPU plus the HWC. */
    private static int numMsixUsable(SetupDraw d) {
        return Math.min(d.granted(), d.machine().numOnlineCpus() + 1);
    }

    // With 5316394b1752 and more usable vectors than online CPUs: the queues are SIB-13's linear spread.
    private static boolean linearQueues(KernelRelease kernel, SetupDraw d) {
        return SiblingSpread.spreadsQueuesLinearly(kernel) && numMsixUsable(d) > d.machine().numOnlineCpus();
    }

    // ---------------------------------------------------------------- SIB-13: 7.2, 7.1.y, 6.18.y

    static void sib13(CheckContext ctx) {
        if (!SiblingSpread.spreadsQueuesLinearly(ctx.kernel())) return;
        Topology vm = Fixtures.topology("mana-1node-2c-smt2");
        String linear = "queue k on the k-th online CPU alone: one queue per online CPU";
        String fits = "irq_setup() with skip_first_cpu: linear only when the usable vectors exceed the online CPUs";
        SetupDraw all = new SetupDraw(vm, 0, 64, true);
        List<CpuSet> got = manaSetupIrqs(ctx, all);
        if (!got.equals(masks("0-1", "0", "1", "2", "3")))
            throw Violation.of("SIB-13", all.call(), linear + ": 0-1 | 0 | 1 | 2 | 3 (commit 5316394b1752's table)", CpuSet.toText(got))
                    .hint("num_msix_usable 5 > 4 online CPUs: mana_irq_setup_linear(), not irq_setup()").on(vm);
        SetupDraw four = new SetupDraw(vm, 0, 4, true);
        got = manaSetupIrqs(ctx, four);
        if (!got.equals(masks("0-1", "2-3", "0-1", "2-3")))
            throw Violation.of("SIB-13", four.call(), fits + ": 0-1 | 2-3 | 0-1 | 2-3", CpuSet.toText(got))
                    .hint("num_msix_usable 4 <= 4 online CPUs: the queues stay on whole cores").on(vm);
        NumaChecks.alsoOnDrawnSnc(ctx, setupDraws(true), sncSetupDraws(true), d -> {
            List<CpuSet> mine = manaSetupIrqs(ctx, d);
            List<CpuSet> queues = mine.size() <= 1 ? List.of() : mine.subList(1, mine.size());
            List<CpuSet> want = new ArrayList<>();
            String expected;
            if (linearQueues(ctx.kernel(), d)) {
                // Straight from the rule: queue k (from 1) gets online CPU k-1, counting in ascending order.
                CpuSet online = d.machine().online();
                for (int k = 1; k < numMsixUsable(d); k++) want.add(CpuSet.of(online.nth(k - 1)));
                expected = linear;
            } else {
                List<CpuSet> plan = SiblingSpread.manaSetupIrqs(Machine.boot(d.config(ctx.kernel())), d.node());
                want.addAll(plan.size() <= 1 ? List.of() : plan.subList(1, plan.size()));
                expected = fits;
            }
            if (!want.equals(queues))
                throw Violation.of("SIB-13", d.call() + ", queues (vectors 1..)", expected + ": " + CpuSet.toText(want), CpuSet.toText(queues))
                        .hint("is the linear spread taken exactly when num_msix_usable > num_online_cpus()?").on(d.machine());
        });
    }

    // ---------------------------------------------------------------- SIB-11: before 6.9

    static void sib11(CheckContext ctx) {
        if (ctx.kernel().atLeast(6, 9)) return;
        Draw seed = new Draw(seed004Machine(), 0, 64, false);
        List<CpuSet> got = irqSetup(ctx, seed);
        List<CpuSet> want = new ArrayList<>();
        for (int k = 0; k < 64; k++) want.add(CpuSet.of(k));
        expectPlan("SIB-11", seed, want, got, "before 6.9 IRQ k gets the single CPU cpumask_local_spread(k, node)");
        Implementation impl = ctx.implementation();
        ctx.forAll(draws(ctx.kernel()), d -> {
            int[] cpus;
            try {
                // No IRQ, no cpumask_local_spread() call: nothing can oops.
                cpus = d.len() == 0 ? new int[0] : LocalSpread.localSpreadCpus(ctx.kernel(), d.machine(), d.node(), d.len());
            } catch (KernelBug oops) {
                // 6.3-6.6 oops on a CPU-less node (LS-9); the driver calling it oopses with it.
                List<CpuSet> answer;
                try {
                    answer = irqSetup(ctx, d);
                } catch (KernelBug same) {
                    return;
                }
                throw Violation.of("SIB-11", d.call(), "a kernel oops: " + oops.getMessage(), CpuSet.toText(answer))
                        .hint("cpumask_local_spread(i, node) of the release oopses on a CPU-less node").on(d.machine());
            }
            List<CpuSet> w = new ArrayList<>();
            for (int c : cpus) w.add(CpuSet.of(c));
            expectPlan("SIB-11", d, w, irqSetup(ctx, d), "IRQ i gets cpumask_local_spread(i, node) of " + impl.name() + "'s release");
        });
    }
}
