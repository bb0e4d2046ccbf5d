package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.checks.LocalSpreadChecks.Case;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.spread.Mlx5;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.List;

import static dev.numaspread.conformance.checks.SpreadText.plan;

/** The checks of spec/mlx5.md. */
public final class Mlx5Checks implements CheckFamily {

    record Vectors(Topology machine, int node, int count) {}

    static Gen<Vectors> vectors() {
        return vectors(LocalSpreadChecks.cases());
    }

    static Gen<Vectors> vectors(Gen<Case> cases) {
        return c -> {
            Case k = cases.generate(c);
            int online = k.machine().numOnlineCpus();
            return new Vectors(k.machine(), k.node(), MachineDraws.counts(k.machine(), 1, 2 * online + 1).generate(c));
        };
    }

    static String call(String routine, Vectors v) {
        return routine + "(node=" + v.node() + ", count=" + v.count() + ")";
    }

    /** Classic local spread with wraparound, written out here rather than asked from the model. */
    static int[] classic(Topology m, int node, int count) {
        CpuSet local = node < 0 ? CpuSet.EMPTY : m.onlineCpusOf(node);
        int[] order = new int[m.numOnlineCpus()];
        int k = 0;
        for (int c : local.toArray()) order[k++] = c;
        for (int c : m.online().andNot(local).toArray()) order[k++] = c;
        int[] out = new int[count];
        for (int i = 0; i < count; i++) out[i] = order[i % order.length];
        return out;
    }

    /**
     * What breaks "one classic local spread, wrapping" in {@code got} (count vectors, more than the
     * online CPUs), or null: vector i = vector i mod online, each online CPU once per period, the
     * node's online CPUs first. The order inside the node's block and inside the rest is free here.
     */
    static String oneWrappingLocalSpread(Topology m, int node, int[] got, int count) {
        int n = m.numOnlineCpus();
        if (got.length != count) return got.length + " vectors, not " + count;
        CpuSet period = CpuSet.of(Arrays.copyOf(got, n));
        if (period.size() != n || !period.equals(m.online())) return "vectors 0.." + (n - 1) + " are not each online CPU once";
        CpuSet local = node < 0 ? CpuSet.EMPTY : m.onlineCpusOf(node);
        if (!CpuSet.of(Arrays.copyOf(got, local.size())).equals(local))
            return "vectors 0.." + (local.size() - 1) + " are not node " + node + "'s online CPUs " + local.toList();
        for (int i = n; i < count; i++)
            if (got[i] != got[i % n]) return "vector " + i + " is cpu " + got[i] + ", not the cpu " + got[i % n] + " of vector " + (i % n);
        return null;
    }

    /** What breaks ring order in {@code got} (at most the online CPUs, from a node with CPUs), or null. */
    static String ringOrder(Topology m, int node, int[] got, int count) {
        if (got.length != count) return got.length + " vectors, not " + count;
        CpuSet seen = CpuSet.EMPTY;
        CpuSet local = m.onlineCpusOf(node);
        int before = 0;
        for (int i = 0; i < count; i++) {
            if (!m.online().contains(got[i]) || seen.contains(got[i])) return "vector " + i + " is cpu " + got[i] + ", offline or given before";
            if (i < local.size() && !local.contains(got[i])) return "vector " + i + " is cpu " + got[i] + ", not of node " + node + " " + local.toList();
            int d = m.distance(node, m.nodeOf(got[i]));
            if (d < before) return "vector " + i + " is cpu " + got[i] + " at distance " + d + " after one at " + before;
            seen = seen.with(got[i]);
            before = d;
        }
        return null;
    }

    @Override
    public List<Check> checks() {
        Gen<Vectors> gen = vectors();
        return List.of(
            Check.of("MLX-1", Routine.MLX5_NUMA_DISTANCE, "MLX_1_distancePassGivesDistinctOnlineCpus", ctx -> ctx.forAll(gen, v -> {
                if (v.count() > v.machine().numOnlineCpus()) return;
                int[] got = ctx.implementation().mlx5NumaDistanceCpus(ctx.kernel(), v.machine(), v.node(), v.count());
                CpuSet set = CpuSet.of(got);
                if (got.length != v.count() || set.size() != v.count() || !set.isSubsetOf(v.machine().online()))
                    throw Violation.of("MLX-1", call("mlx5NumaDistanceCpus", v), v.count() + " distinct online CPUs (online "
                            + v.machine().online() + ")", plan(got)).on(v.machine());
            })),
            Check.of("MLX-2", Routine.MLX5_NUMA_DISTANCE, "MLX_2_closestToFirstFromFirstsNode", ctx -> ctx.forAll(gen, v -> {
                if (v.count() > v.machine().numOnlineCpus()) return;
                int[] want = Mlx5.mlx5NumaDistanceCpus(ctx.kernel(), v.machine(), v.node(), v.count());
                int[] got = ctx.implementation().mlx5NumaDistanceCpus(ctx.kernel(), v.machine(), v.node(), v.count());
                if (!Arrays.equals(want, got))
                    throw Violation.of("MLX-2", call("mlx5NumaDistanceCpus", v), plan(want), plan(got))
                            .hint("closest by NUMA level from first's node (not from node, not by node id), lowest id first?").on(v.machine());
            })),
            Check.of("MLX-3", Routine.MLX5_NUMA_DISTANCE, "MLX_3_moreVectorsThanOnlineCpusFallBackForAll", ctx -> ctx.forAll(gen, v -> {
                Topology m = v.machine();
                int online = m.numOnlineCpus();
                if (v.count() <= online) return;
                int[] got = ctx.implementation().mlx5NumaDistanceCpus(ctx.kernel(), m, v.node(), v.count());
                String broken = oneWrappingLocalSpread(m, v.node(), got, v.count());
                if (broken != null)
                    throw Violation.of("MLX-3", call("mlx5NumaDistanceCpus", v), "one local spread over the " + online + " online CPUs, node "
                                    + v.node() + "'s first, wrapping for all " + v.count() + " vectors", broken + " in " + plan(got))
                            .quoting("So vector `i` gets the CPU of vector `i mod num_online_cpus()`, the first `num_online_cpus()` vectors get each"
                                    + " online CPU once, and the device node's online CPUs come first.")
                            .hint("the pass fails exactly when count > num_online_cpus(), and then every vector is recomputed").on(m);
            })),
            Check.of("MLX-7", Routine.MLX5_NUMA_DISTANCE, "MLX_7_fallbackIsClassicLocalSpread", ctx -> ctx.forAll(gen, v -> {
                if (v.count() <= v.machine().numOnlineCpus()) return;
                int[] want = classic(v.machine(), v.node(), v.count());
                int[] got = ctx.implementation().mlx5NumaDistanceCpus(ctx.kernel(), v.machine(), v.node(), v.count());
                if (!Arrays.equals(want, got))
                    throw Violation.of("MLX-7", call("mlx5NumaDistanceCpus", v), "classic local spread with wraparound for all "
                                    + v.count() + " vectors: " + plan(want), plan(got))
                            .hint("the node's online CPUs ascending, then the others ascending, distance ignored?").on(v.machine());
            })),
            compIrqs("MLX-4", "MLX_4_localSpreadOfTheRelease", k -> k.before(6, 3) || k.atLeast(6, 12), "6.12+ is cpumask_local_spread() of the release"),
            compIrqs("MLX-5", "MLX_5_hopWalkWithoutWraparound", k -> k.between(KernelRelease.of(6, 3), KernelRelease.of(6, 11)),
                    "past the walk, or on a CPU-less node, a vector keeps CPU 0"),
            Check.of("MLX-6", Routine.MLX5_COMP_IRQS, "MLX_6_hopWalkEqualsRingOrder", ctx -> {
                if (!ctx.kernel().between(KernelRelease.of(6, 3), KernelRelease.of(6, 11))) return;
                ctx.forAll(gen, v -> {
                    Topology m = v.machine();
                    if (v.node() < 0 || m.isCpuless(v.node())) return;
                    int count = Math.min(v.count(), m.numOnlineCpus());
                    int[] got = ctx.implementation().mlx5CompIrqCpus(ctx.kernel(), m, v.node(), count);
                    String broken = ringOrder(m, v.node(), got, count);
                    if (broken != null)
                        throw Violation.of("MLX-6", call("mlx5CompIrqs", new Vectors(m, v.node(), count)), "distinct online CPUs, node "
                                        + v.node() + "'s first, distances from it never decreasing", broken + " in " + plan(got))
                                .quoting("For a node with CPUs and `i < num_online_cpus()`, the vectors follow the rings as 6.3+ local spread"
                                        + " does: each online CPU once, the node's online CPUs first, and distances from the node never"
                                        + " decreasing (LS-3, LS-4, LS-5).")
                                .hint("does the hop walk go ring by ring from the node?").on(m);
                });
            })
        );
    }

    static Check compIrqs(String rule, String name, java.util.function.Predicate<KernelRelease> kernels, String hint) {
        return Check.of(rule, Routine.MLX5_COMP_IRQS, name, ctx -> {
            if (!kernels.test(ctx.kernel())) return;
            // From 6.19 the release's local spread follows the scheduler's distance: SNC tries too.
            NumaChecks.alsoOnSnc(ctx, vectors(), vectors(LocalSpreadChecks.sncCases()), v -> {
                String want, got;
                try { want = plan(Mlx5.mlx5CompIrqCpus(ctx.kernel(), v.machine(), v.node(), v.count())); }
                catch (KernelBug b) { want = "KernelBug " + b.kind(); }
                try { got = plan(ctx.implementation().mlx5CompIrqCpus(ctx.kernel(), v.machine(), v.node(), v.count())); }
                catch (KernelBug b) { got = "KernelBug " + b.kind(); }
                if (!want.equals(got))
                    throw Violation.of(rule, call("mlx5CompIrqCpus", v), want, got).hint(hint).on(v.machine());
            });
        });
    }
}
