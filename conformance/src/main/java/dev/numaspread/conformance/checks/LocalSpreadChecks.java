package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.checks.SpreadText.Outcome;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.DeviceDraws;
import dev.numaspread.conformance.topogen.MachineGen;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.conformance.topogen.SncDraws;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.ArchSchedNodeDistance;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.spread.LocalSpreadNearestNode;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.List;

import static dev.numaspread.conformance.checks.SpreadText.cpu;
import static dev.numaspread.conformance.checks.SpreadText.plan;

/** The checks of spec/local-spread.md: contract rules as invariants, exact rules against the model, and the seeds' machines. */
public final class LocalSpreadChecks implements CheckFamily {

    /** A machine and a node of it, or NUMA_NO_NODE, to ask about. */
    record Case(Topology machine, int node) {}

    /** A case of LS-2 and whether it asks past a 16-bit index (1) or for 3 n + 1 CPUs (0). */
    record WrapCase(Case c, int pastShortIndex) {}

    /**
     * The machines of the local-spread, NUMA and mlx5 checks: realistic machines (asymmetric,
     * non-metric and CPU-less nodes included) of at most 8 nodes and 32 CPUs. The bound is for
     * speed only: the exact checks plan 2 x possible + 1 queues on every try.
     */
    static final MachineGen MACHINES = Machines.realistic(Machines.Options.DEFAULT.withMaxNodes(8).withMaxCpus(32));

    /**
     * A machine and a node of it ({@link DeviceDraws#devices}): NUMA_NO_NODE one draw in eight, a
     * CPU-less node often, one whose distance row orders the nodes otherwise than its stand-in's
     * one draw in five.
     */
    static Gen<Case> cases() {
        return DeviceDraws.devices(MACHINES.options()).map(d -> new Case(d.machine(), d.node()));
    }

    /**
     * Devices on SNC-style machines ({@link SncDraws#sncDevices}), whose scheduler's distance
     * differs from the table from 6.19 (LVL-6): the device checks that follow that distance (LS-4,
     * LS-6, HOP-4, HOP-6) run them after their own cases ({@link #onSncMachines}), so a failure on
     * an ordinary machine is found and shrunk as before, and one that needs the SNC hook is found
     * on a generated machine too. A small scope (exhaustive walk) has no SNC machine, which needs
     * 4 CPUs: there the SNC tries are {@link #cases()} walked at scope 1 ({@link #onSncMachines}),
     * machines the check's own walk covers already.
     */
    static Gen<Case> sncCases() {
        Gen<Case> drawn = SncDraws.sncDevices().map(d -> new Case(d.machine(), d.node()));
        Gen<Case> small = cases();
        return c -> c.smallScope().isPresent() ? small.generate(c) : drawn.generate(c);
    }

    /** The machines of {@link #sncCases()}, for the checks that draw their own node or none. */
    static Gen<Topology> sncMachines() {
        return sncCases().map(Case::machine);
    }

    /** One SNC try for every {@value #SNC_SHARE} tries of the run: the tries of {@link #sncCases()}. */
    static final int SNC_SHARE = 4;

    /**
     * Runs {@code body} on {@code snc}'s inputs with the SNC tries ({@link #onSncMachines}) when the
     * claimed release is 6.19 or later: from there the scheduler's distance on an SNC machine is
     * not the table's (LVL-6, LVL-8), so every check of a routine that reads it meets SNC-2 and
     * SNC-3 machines in each of those releases (issue 24); before it they are ordinary machines.
     */
    static <T> void onSnc(CheckContext ctx, Gen<T> snc, java.util.function.Consumer<T> body) {
        if (ctx.kernel().atLeast(6, 19)) ctx.forAll(snc, onSncMachines(), body);
    }

    /** The settings of the tries on {@link #sncCases()}: a sixth of the run's tries, or a walk of scope 1 in an exhaustive run. */
    static java.util.function.UnaryOperator<dev.numaspread.conformance.checks.Settings> onSncMachines() {
        return s -> s.isExhaustive() ? s.withExhaustive(1) : s.withTries(Math.max(1, s.tries() / SNC_SHARE));
    }

    /**
     * The cases of the exact checks, which compare with the model whatever the machine: those of
     * {@link #cases()}, one in ten without NUMA levels (a distance outside 10..255, LVL-4), so a
     * local spread that ignores LVL-4 is seen by a local-spread claim.
     */
    static Gen<Case> exactCases() {
        return DeviceDraws.sometimesWithoutNumaLevels(DeviceDraws.devices(MACHINES.options()), 10).map(d -> new Case(d.machine(), d.node()));
    }

    /**
     * The cases of LS-8, a device on {@code NUMA_NO_NODE}: those of {@link #exactCases()} that LS-8
     * judges, drawn directly ({@link DeviceDraws#noNodeDevices}) rather than filtered out of eight
     * times as many draws.
     */
    static Gen<Case> noNodeCases() {
        return DeviceDraws.sometimesWithoutNumaLevels(DeviceDraws.noNodeDevices(MACHINES.options()), 10).map(d -> new Case(d.machine(), d.node()));
    }

    static boolean housekeeping(KernelRelease k) {
        return LocalSpread.isHousekeeping(k);
    }

    /** The model's plan, or empty when the release oopses there (contract checks skip those inputs). */
    static int[] modelPlan(KernelRelease k, Case c, int count) {
        try {
            return LocalSpread.localSpreadCpus(k, c.machine(), c.node(), count);
        } catch (KernelBug b) {
            return null;
        }
    }

    static String call(Case c, int count) {
        return "localSpreadCpus(node=" + c.node() + ", i=0.." + (count - 1) + ")";
    }

    @Override
    public List<Check> checks() {
        Gen<Case> gen = cases();
        return List.of(
            Check.of("LS-1", Routine.LOCAL_SPREAD, "LS_1_offlineCpusAreNeverReturned", ctx -> {
                if (housekeeping(ctx.kernel())) return;
                ctx.forAll(gen, c -> {
                    int count = 2 * c.machine().numOnlineCpus() + 1;
                    if (modelPlan(ctx.kernel(), c, count) == null) return;
                    int[] got = ctx.implementation().localSpreadCpus(ctx.kernel(), c.machine(), c.node(), count);
                    for (int i = 0; i < got.length; i++)
                        if (!c.machine().online().contains(got[i]))
                            throw Violation.of("LS-1", "localSpread(i=" + i + ", node=" + c.node() + ")",
                                    "an online CPU (online " + c.machine().online() + ")", cpu(c.machine(), got[i]))
                                    .hint("is the spread taken over the possible or present CPUs instead of the online ones?").on(c.machine());
                });
            }),
            Check.of("LS-2", Routine.LOCAL_SPREAD, "LS_2_indexWrapsModuloOnlineCpus", ctx -> {
                if (housekeeping(ctx.kernel())) return;
                // One try in ten asks past a 16-bit index (i is an unsigned int): an index kept in a
                // byte or a short wraps at 256 or 65536 before it wraps modulo the online CPUs.
                ctx.forAll(Gen.zip(gen, Gen.weighted(9, 1), WrapCase::new), w -> {
                    Case c = w.c();
                    int n = c.machine().numOnlineCpus();
                    if (modelPlan(ctx.kernel(), c, 1) == null) return;
                    int count = w.pastShortIndex() == 1 ? (1 << 16) + n + 1 : 3 * n + 1;
                    int[] got = ctx.implementation().localSpreadCpus(ctx.kernel(), c.machine(), c.node(), count);
                    for (int i = n; i < got.length; i++)
                        if (got[i] != got[i % n])
                            throw Violation.of("LS-2", "localSpread(i=" + i + ", node=" + c.node() + ")",
                                    "the CPU of i=" + (i % n) + " (" + n + " online CPUs): cpu " + got[i % n], cpu(c.machine(), got[i]))
                                    .hint("does the index wrap modulo num_online_cpus(), and only there?").on(c.machine());
                });
            }),
            Check.of("LS-3", Routine.LOCAL_SPREAD, "LS_3_localCpusComeFirst", ctx -> ctx.forAll(gen, c -> {
                if (c.node() == Numa.NUMA_NO_NODE || modelPlan(ctx.kernel(), c, 1) == null) return;
                CpuSet local = housekeeping(ctx.kernel()) ? c.machine().cpusOf(c.node()) : c.machine().onlineCpusOf(c.node());
                if (local.isEmpty()) return;
                int[] got = ctx.implementation().localSpreadCpus(ctx.kernel(), c.machine(), c.node(), local.size());
                if (!CpuSet.of(got).equals(local))
                    throw Violation.of("LS-3", call(c, local.size()), "the CPUs of node " + c.node() + " (" + local + ")",
                            plan(got)).hint("are nodes visited by distance from node " + c.node() + ", or by node id?").on(c.machine());
            })),
            Check.of("LS-4", Routine.LOCAL_SPREAD, "LS_4_ringsComeInOrderOfDistance", ctx -> {
                if (ctx.kernel().before(6, 3)) return;
                java.util.function.Consumer<Case> ringsInOrder = c -> {
                    Topology m = c.machine();
                    if (c.node() == Numa.NUMA_NO_NODE || modelPlan(ctx.kernel(), c, 1) == null) return;
                    int[] got = ctx.implementation().localSpreadCpus(ctx.kernel(), m, c.node(), m.numOnlineCpus());
                    for (int i = 0; i < got.length; i++)
                        if (!m.online().contains(got[i])) throw new NotApplicable("an offline or impossible CPU in the answer: LS-1's business");
                    // A CPU-less node's "nearest node with CPUs" may be any of the nodes tied at the smallest
                    // distance (which one is LS-9's and HOP-8's matter): the plan passes if it follows one of them.
                    Violation first = null;
                    for (int from : nearestNodesWithCpus(m, c.node())) {
                        Violation v = ringOrderBroken(ctx.kernel(), m, c.node(), from, got);
                        if (v == null) return;
                        if (first == null) first = v;
                    }
                    if (first != null) throw first;
                };
                ctx.forAll(gen, ringsInOrder);
                onSnc(ctx, sncCases(), ringsInOrder);
            }),
            Check.of("LS-5", Routine.LOCAL_SPREAD, "LS_5_eachOnlineCpuOncePerPeriod", ctx -> {
                if (housekeeping(ctx.kernel())) return;
                ctx.forAll(gen, c -> {
                    if (modelPlan(ctx.kernel(), c, 1) == null) return;
                    int n = c.machine().numOnlineCpus();
                    int[] got = ctx.implementation().localSpreadCpus(ctx.kernel(), c.machine(), c.node(), n);
                    int[] sorted = got.clone();
                    Arrays.sort(sorted);
                    if (!Arrays.equals(sorted, c.machine().online().toArray()))
                        throw Violation.of("LS-5", call(c, n), "each online CPU once (" + c.machine().online() + ")", plan(got))
                                .hint("is a CPU skipped or repeated before the wrap?").on(c.machine());
                });
            }),
            exact("LS-6", "LS_6_ringOrderIsExact", k -> k.atLeast(6, 3), c -> c.node() < 0 || !c.machine().isCpuless(c.node()),
                    "are equidistant nodes interleaved by CPU id, ring by ring (from 6.19 by the scheduler's distance, LVL-6)?", true),
            exact("LS-7", "LS_7_classicOrderIsExact", k -> k.before(6, 3) && !housekeeping(k), c -> true,
                    "local online CPUs ascending, then all others ascending, distance ignored?"),
            exactOn("LS-8", "LS_8_noNodeGivesTheIthOnlineCpu", k -> !housekeeping(k), noNodeCases(),
                    "NUMA_NO_NODE gives the i-th online CPU"),
            exact("LS-9", "LS_9_cpulessNodePerRelease", k -> true, c -> c.node() >= 0 && c.machine().isCpuless(c.node()),
                    "classic: as NUMA_NO_NODE; 6.3-6.6: oops; 6.7+: the nearest node with CPUs, ties to the lowest id, distances from it"),
            Check.of("LS-10", Routine.LOCAL_SPREAD_NEAREST_NODE, "LS_10_proposalGoesNodeByNode", ctx -> ctx.forAll(gen, c -> {
                int count = 2 * c.machine().numOnlineCpus() + 1;
                int[] want = LocalSpreadNearestNode.localSpreadNearestNodeCpus(ctx.kernel(), c.machine(), c.node(), count);
                int[] got = ctx.implementation().localSpreadNearestNodeCpus(ctx.kernel(), c.machine(), c.node(), count);
                if (!Arrays.equals(want, got))
                    throw Violation.of("LS-10", "localSpreadNearestNode(node=" + c.node() + ", i=0.." + (count - 1) + ")", plan(want), plan(got))
                            .hint("whole nodes by distance, ties to the lower node id, node by node?").on(c.machine());
            })),
            exact("LS-11", "LS_11_housekeepingSpreadsOverPossible", LocalSpreadChecks::housekeeping, c -> true,
                    "5.9 spreads over the possible CPUs and wraps modulo their count"),
            Check.of("LS-12", Routine.LOCAL_SPREAD, "LS_12_planIsPrefixOfLongerPlan", ctx -> ctx.forAll(gen, c -> {
                if (modelPlan(ctx.kernel(), c, 1) == null) return;
                int n = 2 * c.machine().possible().size() + 1;
                int[] full = ctx.implementation().localSpreadCpus(ctx.kernel(), c.machine(), c.node(), n);
                for (int k : new int[]{1, c.machine().numOnlineCpus(), n - 1}) {
                    int[] part = ctx.implementation().localSpreadCpus(ctx.kernel(), c.machine(), c.node(), k);
                    if (!Arrays.equals(part, Arrays.copyOf(full, k)))
                        throw Violation.of("LS-12", call(c, k), "the first " + k + " entries of the " + n + "-queue plan: "
                                + plan(Arrays.copyOf(full, k)), plan(part)).hint("does a queue's CPU depend on the queue count?").on(c.machine());
                }
            })),
            Check.of("LS-7", Routine.LOCAL_SPREAD, "LS_7_kunpengNode2Seed003", ctx -> kunpeng(ctx, "LS-7")),
            Check.of("LS-6", Routine.LOCAL_SPREAD, "LS_6_kunpengNode2Rings", ctx -> kunpeng(ctx, "LS-6"))
        );
    }

    /** {@code node} if it has online CPUs; otherwise every node with CPUs at the smallest distance along its row. */
    static List<Integer> nearestNodesWithCpus(Topology m, int node) {
        if (!m.isCpuless(node)) return List.of(node);
        List<Integer> out = new java.util.ArrayList<>();
        int best = Integer.MAX_VALUE;
        for (int n : m.nodeIds()) {
            if (m.isCpuless(n)) continue;
            int d = m.distance(node, n);
            if (d < best) { best = d; out.clear(); }
            if (d == best) out.add(n);
        }
        return out;
    }

    /** The LS-4 violation of {@code got} (one period) measured from node {@code from}, or null when distances never decrease. */
    static Violation ringOrderBroken(KernelRelease k, Topology m, int node, int from, int[] got) {
        ArchSchedNodeDistance d = ArchSchedNodeDistance.of(k, m);
        for (int i = 1; i < got.length; i++) {
            int before = d.distance(from, m.nodeOf(got[i - 1])), now = d.distance(from, m.nodeOf(got[i]));
            if (now < before)
                return Violation.of("LS-4", "localSpread(i=" + (i - 1) + ".." + i + ", node=" + node + ")",
                                "distances from node " + from + " that never decrease",
                                cpu(m, got[i - 1]) + " at " + before + ", then " + cpu(m, got[i]) + " at " + now)
                        .quoting("Over one period, `node_distance(node', nodeOf(cpu))` never decreases with the index, where `node'` is"
                                + " `node` (or, for a CPU-less node, its nearest node with CPUs); from 6.19 the distance is the"
                                + " scheduler's (LVL-6), which differs only on the machines of LVL-8.")
                        .hint("are rings ordered by distance from the node, and is a ring's boundary at <= level?").on(m);
        }
        return null;
    }

    /** An exact rule: on the inputs {@code which} selects, the plan (or the kernel bug) equals the model's. */
    static Check exact(String rule, String name, java.util.function.Predicate<KernelRelease> kernels,
                       java.util.function.Predicate<Case> which, String hint) {
        return exact(rule, name, kernels, which, hint, false);
    }

    /** {@link #exact}, and with {@code snc} also on {@link #sncCases()} after its own cases. */
    static Check exact(String rule, String name, java.util.function.Predicate<KernelRelease> kernels,
                       java.util.function.Predicate<Case> which, String hint, boolean snc) {
        // Drawn until one is of the kind the rule judges: every try judges.
        return exactOn(rule, name, kernels, exactCases().filter(which), snc ? java.util.Optional.of(sncCases().filter(which)) : java.util.Optional.empty(), hint);
    }

    /** An exact rule: on the inputs {@code cases} draws, the plan (or the kernel bug) equals the model's. */
    static Check exactOn(String rule, String name, java.util.function.Predicate<KernelRelease> kernels, Gen<Case> cases, String hint) {
        return exactOn(rule, name, kernels, cases, java.util.Optional.empty(), hint);
    }

    /** {@link #exactOn}, then on {@code snc}'s cases with the SNC tries ({@link #onSncMachines}). */
    static Check exactOn(String rule, String name, java.util.function.Predicate<KernelRelease> kernels, Gen<Case> cases,
                         java.util.Optional<Gen<Case>> snc, String hint) {
        return Check.of(rule, Routine.LOCAL_SPREAD, name, ctx -> {
            if (!kernels.test(ctx.kernel())) return;
            java.util.function.Consumer<Case> planIsExact = c -> {
                int count = 2 * c.machine().possible().size() + 1;
                Outcome want = Outcome.of(() -> LocalSpread.localSpreadCpus(ctx.kernel(), c.machine(), c.node(), count), SpreadText::plan);
                Outcome got = Outcome.of(() -> ctx.implementation().localSpreadCpus(ctx.kernel(), c.machine(), c.node(), count), SpreadText::plan);
                if (!want.equals(got))
                    throw Violation.of(rule, call(c, count), want.text(), got.text()).hint(hint).on(c.machine());
            };
            ctx.forAll(cases, planIsExact);
            snc.ifPresent(g -> onSnc(ctx, g, planIsExact));
        });
    }

    /** Seed 003's Kunpeng 920 with the NIC on node 2: queues 24..47 on 0..23 (classic) or 72..95 (6.3+). */
    static void kunpeng(CheckContext ctx, String rule) {
        KernelRelease k = ctx.kernel();
        boolean rings = k.atLeast(6, 3);
        if (rule.equals("LS-6") != rings || housekeeping(k)) return;
        Topology m = Fixtures.topology("kunpeng920-4node");
        int[] got = ctx.implementation().localSpreadCpus(k, m, 2, 97);
        int[] want = new int[97];
        for (int i = 0; i < 24; i++) {
            want[i] = 48 + i;
            want[24 + i] = rings ? 72 + i : i;
            want[48 + i] = 24 + i;
            want[72 + i] = rings ? i : 72 + i;
        }
        want[96] = 48;
        if (!Arrays.equals(want, got))
            throw Violation.of(rule, "localSpreadCpus(node=2, i=0..96)", plan(want), plan(got))
                    .hint(rings ? "seed 003: from node 2 the next nearest is node 3 (16), then node 1 (25), then node 0 (32)"
                            : "classic local spread ignores distance: node 2, then 0..47, then 72..95").on(m);
    }
}
