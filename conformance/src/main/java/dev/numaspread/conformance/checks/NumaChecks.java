package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.checks.LocalSpreadChecks.Case;
import dev.numaspread.conformance.checks.SpreadText.Outcome;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.DeviceDraws;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.conformance.topogen.SncDraws;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.numa.ArchSchedNodeDistance;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.numa.NumaHops;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.numa.NumaNearestNode;
import dev.numaspread.model.numa.NumaNth;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static dev.numaspread.conformance.checks.SpreadText.cpu;

/** The checks of spec/numa-levels.md and spec/numa-hops.md. */
public final class NumaChecks implements CheckFamily {

    /** A machine, a node, a set of CPUs and an index n. */
    record Query(Topology machine, int node, CpuSet cpus, int n) {}

    static Gen<Query> queries() {
        return queries(LocalSpreadChecks.cases());
    }

    /**
     * The queries of {@link #queries()} on the SNC tries' machines ({@link LocalSpreadChecks#sncCases()}),
     * half of them without the CPUs of the package of the CPU the closest search starts from: the
     * scheduler's distance of an SNC-3 machine (LVL-8) orders the other packages' nodes otherwise
     * than the table, and only a search that must leave its package sees it.
     */
    static Gen<Query> sncQueries() {
        Gen<Case> cases = LocalSpreadChecks.sncCases();
        return c -> {
            Case k = cases.generate(c);
            Topology m = k.machine();
            // Node by node, so a counterexample shrinks to one CPU per node: with fewer CPUs per
            // node the same choices still pick the same nodes.
            CpuSet cpus = nodeSubset(c, m);
            int from = firstCpuOfANode(c, m);
            if (c.chance(50)) cpus = cpus.andNot(packageCpus(m, from));
            return new Query(m, k.node(), cpus, m.possible().and(CpuSet.range(0, from)).size() - 1);
        };
    }

    /** The CPUs of some of {@code m}'s nodes, each node in or out (simplest: none). */
    static CpuSet nodeSubset(dev.numaspread.conformance.gen.Choices c, Topology m) {
        CpuSet out = CpuSet.EMPTY;
        for (int id : m.nodeIds()) if (c.choose(0, 1) == 1) out = out.or(m.cpusOf(id));
        return out;
    }

    /** The lowest CPU of one of {@code m}'s nodes with CPUs (simplest: the first such node). */
    static int firstCpuOfANode(dev.numaspread.conformance.gen.Choices c, Topology m) {
        int[] withCpus = java.util.Arrays.stream(m.nodeIds()).filter(id -> !m.cpusOf(id).isEmpty()).toArray();
        return m.cpusOf(withCpus[c.choose(0, withCpus.length - 1)]).first();
    }

    /** The CPUs of the package of {@code cpu}; none when packages are unknown. */
    static CpuSet packageCpus(Topology m, int cpu) {
        return m.packageOf(cpu).map(p -> p.cpus()).orElse(CpuSet.EMPTY);
    }

    static Gen<Query> queries(Gen<Case> cases) {
        return c -> {
            Case k = cases.generate(c);
            CpuSet cpus = MachineDraws.cpuSubsets(k.machine()).generate(c);
            return new Query(k.machine(), k.node(), cpus, c.choose(0, k.machine().possible().size()));
        };
    }

    @Override
    public List<Check> checks() {
        Gen<Topology> machines = LocalSpreadChecks.MACHINES;
        Gen<Case> cases = LocalSpreadChecks.cases();
        Gen<Query> queries = queries();
        return List.of(
            levels("LVL-1", "LVL_1_levelsAreDistinctDistancesOfCpuNodes", k -> k.atLeast(5, 18), "only nodes with CPUs, both directions, ascending?"),
            levels("LVL-2", "LVL_2_rowZeroOnlyBefore5_12", k -> k.before(5, 12), "before 5.12 only node_distance(0, j) counts"),
            levels("LVL-3", "LVL_3_cpulessNodesCountBefore5_18", k -> k.before(5, 18), "before 5.18 CPU-less nodes add their distances"),
            levels("LVL-4", "LVL_4_outOfRangeDistanceBuildsNoLevels", k -> k.atLeast(5, 12), "a distance outside 10..255 means no levels at all"),
            Check.of("LVL-5", Routine.NUMA_LEVELS, "LVL_5_levelsAscendAndCoverTheTable", ctx -> {
                if (ctx.kernel().before(5, 18)) return;
                alsoOnSnc(ctx, machines, LocalSpreadChecks.sncMachines(), m -> {
                    int[] got = ctx.implementation().numaLevels(ctx.kernel(), m);
                    if (got.length > 0 && got[0] != 10)
                        throw Violation.of("LVL-5", "numaLevels()", "levels starting at 10 (LOCAL_DISTANCE)", Arrays.toString(got))
                                .quoting("The levels are strictly ascending; the first is 10 on a valid table; every distance between two nodes with CPUs is one of them (from 6.19, every scheduler distance of LVL-6).").on(m);
                    for (int i = 1; i < got.length; i++)
                        if (got[i] <= got[i - 1])
                            throw Violation.of("LVL-5", "numaLevels()", "strictly ascending levels", Arrays.toString(got)).on(m);
                    ArchSchedNodeDistance d = ArchSchedNodeDistance.of(ctx.kernel(), m);
                    for (int a : m.nodeIds()) for (int b : m.nodeIds())
                        if (!m.isCpuless(a) && !m.isCpuless(b) && Arrays.binarySearch(got, d.distance(a, b)) < 0)
                            throw Violation.of("LVL-5", "numaLevels()", "a level for distance(" + a + ", " + b + ") = " + d.distance(a, b),
                                    Arrays.toString(got)).hint("is a row other than row 0 read?").on(m);
                });
            }),
            levels("LVL-6", "LVL_6_levelsMeasureTheSchedulersDistance", k -> k.atLeast(6, 19),
                    "from 6.19 the levels come from arch_sched_node_distance(), node_distance() but on SNC-3 machines (LVL-8)"),
            levels("LVL-8", "LVL_8_onlySnc3AveragedPerPackagePair", k -> k.atLeast(6, 19),
                    "6.19+ (6.19.7 and 7.0): only 3+ nodes per package, per package pair, on a table of the SNC form; SNC-2 keeps node_distance()"),
            // HOP-1 and HOP-2 meet SNC machines from 6.19 too: the masks follow the scheduler's distance there (LVL-6).
            Check.of("HOP-1", Routine.HOP_MASKS, "HOP_1_hopMasksAreNestedAndOnline", ctx -> alsoOnDrawnSnc(ctx, cases, LocalSpreadChecks.sncCases(), c -> {
                List<CpuSet> got = ctx.implementation().hopMasks(ctx.kernel(), c.machine(), c.node());
                // No mask, nothing nested to judge: how many masks there are is HOP-2's and HOP-3's matter.
                if (got.isEmpty()) throw new NotApplicable("no hop mask in the answer: HOP-2's and HOP-3's matter");
                for (int i = 0; i < got.size(); i++) {
                    if (!got.get(i).isSubsetOf(c.machine().online()) || (i > 0 && !got.get(i - 1).isSubsetOf(got.get(i))))
                        throw Violation.of("HOP-1", "hopMasks(node=" + c.node() + ")", "nested masks of online CPUs (online "
                                + c.machine().online() + ")", CpuSet.toText(got)).on(c.machine());
                }
            })),
            Check.of("HOP-2", Routine.HOP_MASKS, "HOP_2_firstHopIsTheNodeLastIsOnline", ctx -> alsoOnDrawnSnc(ctx, cases, LocalSpreadChecks.sncCases(), c -> {
                Topology m = c.machine();
                if (c.node() < 0 || m.isCpuless(c.node())) return;
                List<CpuSet> got = ctx.implementation().hopMasks(ctx.kernel(), m, c.node());
                if (got.isEmpty() || !m.onlineCpusOf(c.node()).isSubsetOf(got.get(0)) || !got.get(got.size() - 1).equals(m.online()))
                    throw Violation.of("HOP-2", "hopMasks(node=" + c.node() + ")", "first ⊇ " + m.onlineCpusOf(c.node()) + ", last = "
                            + m.online(), CpuSet.toText(got)).on(m);
            })),
            exactHops("HOP-3", "HOP_3_noNodeOnceCpulessNothing", c -> c.node() < 0 || c.machine().isCpuless(c.node())),
            exactHops("HOP-4", "HOP_4_hopMasksFollowTheNodesRow", c -> c.node() >= 0, true),
            Check.of("HOP-5", Routine.NUMA_CLOSEST, "HOP_5_closestIsInTheNearestLevel", ctx -> alsoOnSnc(ctx, queries, sncQueries(), q -> {
                Topology m = q.machine();
                int from = closestFrom(m, q);
                // The CPUs of the set in the nearest level that holds any: where the model found its answer.
                int lowest = NumaClosest.numaClosest(ctx.kernel(), m, q.cpus(), from);
                CpuSet level = lowest >= m.nrCpuIds() ? CpuSet.EMPTY : nearestLevel(ctx.kernel(), m, q.cpus(), from);
                int got = ctx.implementation().numaClosest(ctx.kernel(), m, q.cpus(), from);
                boolean ok = level.isEmpty() ? got >= m.nrCpuIds() : level.contains(got);
                if (!ok)
                    throw Violation.of("HOP-5", "numaClosest(cpus=" + q.cpus() + ", cpu=" + from + ")",
                                    level.isEmpty() ? "none (no level of cpu " + from + "'s node holds an online CPU of the set)"
                                            : "a CPU of " + level.toList() + " (the CPUs of the set in the nearest level)", cpu(m, got))
                            .quoting(HOP_5)
                            .hint("the nearest level from cpu " + from + "'s node, by distance and not by node id?").on(m);
            })),
            Check.of("HOP-6", Routine.NUMA_NTH, "HOP_6_nthFollowsTheRings", ctx -> alsoOnSnc(ctx, queries, sncQueries(), q -> {
                Topology m = q.machine();
                if (q.node() < 0 || m.isCpuless(q.node())) return;
                CpuSet usable = q.cpus().and(m.online());
                CpuSet seen = CpuSet.EMPTY;
                int before = 0;
                for (int n = 0; n < usable.size(); n++) {
                    int got = ctx.implementation().numaNth(ctx.kernel(), m, q.cpus(), n, q.node());
                    String call = "numaNth(cpus=" + q.cpus() + ", n=" + n + ", node=" + q.node() + ")";
                    if (!usable.contains(got) || seen.contains(got))
                        throw Violation.of("HOP-6", call, "a CPU of cpus ∩ online (" + usable.toList() + ")"
                                + (seen.isEmpty() ? "" : " not given for n < " + n + " (" + seen.toList() + ")"), cpu(m, got))
                                .quoting(HOP_6)
                                .hint("is the n-th CPU counted over cpus ∩ online, ring by ring?").on(m);
                    int d = ArchSchedNodeDistance.of(ctx.kernel(), m).distance(q.node(), m.nodeOf(got));
                    if (d < before)
                        throw Violation.of("HOP-6", call, "a CPU at distance " + before + " or more from node " + q.node()
                                + " (n = " + (n - 1) + " was at " + before + ")", cpu(m, got) + " at " + d)
                                .quoting(HOP_6)
                                .hint("ring by ring from the node, nearest first?").on(m);
                    seen = seen.with(got);
                    before = d;
                }
            })),
            Check.of("HOP-7", Routine.NUMA_NTH, "HOP_7_nthPerRelease", ctx -> alsoOnSnc(ctx, queries, sncQueries(), q -> {
                Topology m = q.machine();
                Outcome want = Outcome.of(() -> NumaNth.numaNth(ctx.kernel(), m, q.cpus(), q.n(), q.node()), v -> none(m, v));
                Outcome got = Outcome.of(() -> ctx.implementation().numaNth(ctx.kernel(), m, q.cpus(), q.n(), q.node()), v -> none(m, v));
                if (!want.equals(got))
                    throw Violation.of("HOP-7", "numaNth(cpus=" + q.cpus() + ", n=" + q.n() + ", node=" + q.node() + ")", want.text(), got.text())
                            .hint("NUMA_NO_NODE and CPU-less nodes from 6.7, \"none\" past the end from 6.17 (and 6.12)").on(m);
            })),
            Check.of("HOP-9", Routine.NUMA_CLOSEST, "HOP_9_closestIsTheLowestIdOfTheLevel", ctx -> {
                if (ctx.kernel().atLeast(6, 16)) return;   // from 6.16 HOP-10: round robin on the calling CPU
                ctx.forAll(queries, q -> {
                    Topology m = q.machine();
                    int from = closestFrom(m, q);
                    int want = NumaClosest.numaClosest(ctx.kernel(), m, q.cpus(), from);
                    int got = ctx.implementation().numaClosest(ctx.kernel(), m, q.cpus(), from);
                    boolean same = want >= m.nrCpuIds() ? got >= m.nrCpuIds() : got == want;
                    if (!same)
                        throw Violation.of("HOP-9", "numaClosest(cpus=" + q.cpus() + ", cpu=" + from + ")", cpu(m, want), cpu(m, got))
                                .hint("the lowest id of the nearest level, whichever node it is on?").on(m);
                });
            }),
            Check.of("HOP-10", Routine.NUMA_CLOSEST, "HOP_10_closestGoesRoundOnTheCallingCpu", ctx -> {
                if (ctx.kernel().before(6, 16)) return;   // before 6.16 HOP-9: the lowest id
                alsoOnSnc(ctx, sequences(LocalSpreadChecks.cases(), false), sequences(LocalSpreadChecks.sncCases(), true), q -> {
                    Topology m = q.machine();
                    int[] want = NumaClosest.numaClosestSequence(ctx.kernel(), m, q.calls(), q.prev());
                    int[] got = ctx.implementation().numaClosestCalls(ctx.kernel(), m, q.callingCpu(), q.prev(), q.calls());
                    for (int i = 0; i < want.length; i++) {
                        boolean same = want[i] >= m.nrCpuIds() ? got[i] >= m.nrCpuIds() : got[i] == want[i];
                        if (!same)
                            throw Violation.of("HOP-10", "numaClosestCalls(callingCpu=" + q.callingCpu() + ", prev=" + q.prev() + "), call "
                                            + i + " numaClosest(cpus=" + q.calls().get(i).cpus() + ", cpu=" + q.calls().get(i).cpu() + ")",
                                            "answers " + Arrays.toString(want), "answers " + Arrays.toString(got))
                                    .quoting(HOP_10)
                                    .hint("does each call start after the CPU the previous call returned, not at the lowest id?").on(m);
                    }
                });
            }),
            Check.of("HOP-8", Routine.NUMA_NEAREST_NODE, "HOP_8_nearestNodeTiesToLowestId", ctx -> ctx.forAll(cases, c -> {
                int want = NumaNearestNode.numaNearestNode(ctx.kernel(), c.machine(), c.node());
                int got = ctx.implementation().numaNearestNode(ctx.kernel(), c.machine(), c.node());
                if (want != got)
                    throw Violation.of("HOP-8", "numaNearestNode(node=" + c.node() + ")", "node " + want, "node " + got)
                            .hint("strictly nearer replaces, ties keep the lower id").on(c.machine());
            }))
        );
    }

    /**
     * {@code body} on {@code drawn}'s inputs, then, from 6.19, on {@code snc}'s with the SNC tries
     * ({@link LocalSpreadChecks#onSnc}): the checks of routines that read the scheduler's distance.
     */
    static <T> void alsoOnSnc(CheckContext ctx, Gen<T> drawn, Gen<T> snc, java.util.function.Consumer<T> body) {
        ctx.forAll(drawn, body);
        LocalSpreadChecks.onSnc(ctx, snc, body);
    }

    /**
     * {@link #alsoOnSnc} whose SNC tries are random draws only ({@link SncDraws#outsideSmallScopes}):
     * an exhaustive run walks {@code drawn}'s small scope and adds no case.
     */
    static <T> void alsoOnDrawnSnc(CheckContext ctx, Gen<T> drawn, Gen<T> snc, java.util.function.Consumer<T> body) {
        alsoOnSnc(ctx, drawn, SncDraws.outsideSmallScopes(snc), body);
    }

    /** A machine, a calling CPU with its distribute state, and calls made on it in order (HOP-10). */
    record Sequence(Topology machine, int callingCpu, int prev, List<NumaClosest.Call> calls) {}

    /** Sequences of calls on {@code cases}' machines; {@code leavePackage}: drawn as {@link #sncSequence} draws them. */
    static Gen<Sequence> sequences(Gen<Case> cases, boolean leavePackage) {
        return c -> {
            Topology m = cases.generate(c).machine();
            if (leavePackage) return sncSequence(c, m);
            int callingCpu = m.online().nth(c.choose(0, m.online().size() - 1));
            int prev = c.choose(0, m.nrCpuIds() - 1);
            int n = c.choose(1, c.smallScope().isPresent() ? Math.min(6, c.smallScope().getAsInt()) : 6);   // a small scope bounds every size
            List<NumaClosest.Call> calls = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++)
                calls.add(new NumaClosest.Call(MachineDraws.cpuSubsets(m).generate(c), m.possible().nth(c.choose(0, m.possible().size() - 1))));
            return new Sequence(m, callingCpu, prev, calls);
        };
    }

    /** A sequence on an SNC machine, drawn node by node as {@link #sncQueries()} draws, half of its calls leaving their package. */
    static Sequence sncSequence(dev.numaspread.conformance.gen.Choices c, Topology m) {
        int callingCpu = firstCpuOfANode(c, m);
        if (!m.online().contains(callingCpu)) callingCpu = m.online().first();
        int prev = firstCpuOfANode(c, m);
        int n = c.choose(1, c.smallScope().isPresent() ? Math.min(6, c.smallScope().getAsInt()) : 6);   // a small scope bounds every size
        List<NumaClosest.Call> calls = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            CpuSet cpus = nodeSubset(c, m);
            int cpu = firstCpuOfANode(c, m);
            if (c.chance(50)) cpus = cpus.andNot(packageCpus(m, cpu));
            calls.add(new NumaClosest.Call(cpus, cpu));
        }
        return new Sequence(m, callingCpu, prev, calls);
    }

    /** The sentences of HOP-5, HOP-6 and HOP-10 their failures quote (spec/numa-hops.md). */
    static final String HOP_5 = "`sched_numa_find_closest(cpus, cpu)` returns a CPU of `cpus` in the smallest level of `cpu`'s node"
            + " that contains a CPU of `cpus`; \"none\" (`>= nr_cpu_ids`) when no level does.";
    static final String HOP_6 = "For a node with CPUs, `sched_numa_find_nth_cpu(cpus, n, node)` for `n = 0 .. |cpus ∩ online| - 1`"
            + " gives each CPU of `cpus ∩ online` once, ring by ring: the CPU of `n` is never in a farther ring than the CPU of `n + 1`"
            + " (rings by the scheduler's distance, LVL-6).";
    static final String HOP_10 = "Of the CPUs of `cpus` in the nearest level (HOP-5), `sched_numa_find_closest(cpus, cpu)` returns the"
            + " first one above the CPU it returned last on the *calling* CPU (the CPU that executes the call, not the `cpu` argument),"
            + " wrapping to the lowest, and remembers it.";

    /** The CPU a closest query starts from: possible CPU ids may have holes, so the n-th possible CPU, not CPU n. */
    static int closestFrom(Topology m, Query q) {
        return q.cpus().isEmpty() ? m.possible().first() : m.possible().nth(q.n() % m.possible().size());
    }

    /** The CPUs of {@code cpus} in the smallest level of {@code cpu}'s node that holds any (online ones only). */
    static CpuSet nearestLevel(KernelRelease k, Topology m, CpuSet cpus, int cpu) {
        for (CpuSet mask : NumaLevels.of(k, m).masksOf(m.nodeOf(cpu))) {
            CpuSet hit = cpus.and(mask);
            if (!hit.isEmpty()) return hit;
        }
        return CpuSet.EMPTY;
    }

    static String none(Topology m, int v) {
        return v >= m.nrCpuIds() ? "none (>= nr_cpu_ids)" : "cpu " + v;
    }

    static Check levels(String rule, String name, java.util.function.Predicate<KernelRelease> kernels, String hint) {
        return Check.of(rule, Routine.NUMA_LEVELS, name, ctx -> {
            if (!kernels.test(ctx.kernel())) return;
            java.util.function.Consumer<Topology> levelsAreExact = m -> {
                int[] want = NumaLevels.of(ctx.kernel(), m).distances();
                int[] got = ctx.implementation().numaLevels(ctx.kernel(), m);
                if (!Arrays.equals(want, got))
                    throw Violation.of(rule, "numaLevels()", Arrays.toString(want), Arrays.toString(got)).hint(hint).on(m);
            };
            if (rule.equals("LVL-1")) alsoOnSnc(ctx, outOfRange(rule), LocalSpreadChecks.sncMachines(), levelsAreExact);
            else ctx.forAll(outOfRange(rule), levelsAreExact);
        });
    }

    /** Machines; for LVL-6 and LVL-8 half of them SNC-style (LVL-8); for LVL-4 machines where one distance may be 5 or 256. */
    static Gen<Topology> outOfRange(String rule) {
        if (rule.equals("LVL-6") || rule.equals("LVL-8")) return SncDraws.sometimesSnc(LocalSpreadChecks.MACHINES);
        if (!rule.equals("LVL-4")) return LocalSpreadChecks.MACHINES;
        return c -> {
            Topology m = LocalSpreadChecks.MACHINES.generate(c);
            int[] ids = m.nodeIds();
            if (ids.length < 2) return m;
            return DeviceDraws.withDistance(m, ids[0], ids[1], c.choose(0, 1) == 0 ? 256 : 5);
        };
    }

    static Check exactHops(String rule, String name, java.util.function.Predicate<Case> which) {
        return exactHops(rule, name, which, false);
    }

    /** Hop masks equal the model's on the cases {@code which} selects; with {@code snc} also on SNC-style machines (LVL-6). */
    static Check exactHops(String rule, String name, java.util.function.Predicate<Case> which, boolean snc) {
        return Check.of(rule, Routine.HOP_MASKS, name, ctx -> {
            java.util.function.Consumer<Case> masksAreExact = c -> {
                List<CpuSet> want = NumaHops.hopMasks(ctx.kernel(), c.machine(), c.node());
                List<CpuSet> got = ctx.implementation().hopMasks(ctx.kernel(), c.machine(), c.node());
                if (!want.equals(got))
                    throw Violation.of(rule, "hopMasks(node=" + c.node() + ")", CpuSet.toText(want), CpuSet.toText(got))
                            .hint(c.node() == Numa.NUMA_NO_NODE ? "NUMA_NO_NODE yields the online mask once"
                                    : "hop k = online CPUs of nodes within level k along the node's own row (from 6.19 the scheduler's"
                                    + " distance, LVL-6); CPU-less: nothing").on(c.machine());
            };
            ctx.forAll(LocalSpreadChecks.exactCases().filter(which), masksAreExact);
            if (snc) LocalSpreadChecks.onSnc(ctx, LocalSpreadChecks.sncCases().filter(which), masksAreExact);
        });
    }

}
