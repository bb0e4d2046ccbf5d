package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.checks.LocalSpreadChecks.Case;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.spread.Mlx5;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.List;

import static dev.numaspread.conformance.checks.SpreadText.plan;

/** The checks of spec/mlx5.md. */
public final class Mlx5Checks implements CheckFamily {

    record Vectors(Topology machine, int node, int count) {}

    static Gen<Vectors> vectors() {
        return c -> {
            Case k = LocalSpreadChecks.cases().generate(c);
            int online = k.machine().numOnlineCpus();
            return new Vectors(k.machine(), k.node(), c.choose(1, 2 * online + 1));
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

    @Override
    public List<Check> checks() {
        Gen<Vectors> gen = vectors();
        return List.of(
            Check.of("MLX-1", Routine.MLX5_NUMA_DISTANCE, "MLX_1_distancePassGivesDistinctOnlineCpus", ctx -> ctx.forAll(gen, v -> {
                if (v.count() > v.machine().numOnlineCpus()) return;
                int[] got = ctx.implementation().mlx5NumaDistance(ctx.kernel(), v.machine(), v.node(), v.count());
                CpuSet set = CpuSet.of(got);
                if (got.length != v.count() || set.size() != v.count() || !set.isSubsetOf(v.machine().online()))
                    throw Violation.of("MLX-1", call("mlx5NumaDistance", v), v.count() + " distinct online CPUs (online "
                            + v.machine().online() + ")", plan(got)).on(v.machine());
            })),
            Check.of("MLX-2", Routine.MLX5_NUMA_DISTANCE, "MLX_2_closestToFirstFromFirstsNode", ctx -> ctx.forAll(gen, v -> {
                if (v.count() > v.machine().numOnlineCpus()) return;
                int[] want = Mlx5.mlx5NumaDistance(ctx.kernel(), v.machine(), v.node(), v.count());
                int[] got = ctx.implementation().mlx5NumaDistance(ctx.kernel(), v.machine(), v.node(), v.count());
                if (!Arrays.equals(want, got))
                    throw Violation.of("MLX-2", call("mlx5NumaDistance", v), plan(want), plan(got))
                            .hint("closest by NUMA level from first's node (not from node, not by node id), lowest id first?").on(v.machine());
            })),
            Check.of("MLX-3", Routine.MLX5_NUMA_DISTANCE, "MLX_3_moreVectorsThanOnlineCpusFallBackForAll", ctx -> ctx.forAll(gen, v -> {
                int online = v.machine().numOnlineCpus();
                if (v.count() < online) return;
                int[] want = v.count() > online ? classic(v.machine(), v.node(), v.count())
                        : Mlx5.mlx5NumaDistance(ctx.kernel(), v.machine(), v.node(), v.count());
                int[] got = ctx.implementation().mlx5NumaDistance(ctx.kernel(), v.machine(), v.node(), v.count());
                if (!Arrays.equals(want, got))
                    throw Violation.of("MLX-3", call("mlx5NumaDistance", v), (v.count() > online ? "classic local spread with wraparound for all "
                            + v.count() + " vectors: " : "the distance pass (" + online + " online CPUs suffice): ") + plan(want), plan(got))
                            .hint("the pass fails exactly when count > num_online_cpus(), and then every vector is recomputed").on(v.machine());
            })),
            compIrqs("MLX-4", "MLX_4_localSpreadOfTheRelease", k -> k.before(6, 3) || k.atLeast(6, 12), "6.12+ is cpumask_local_spread() of the release"),
            compIrqs("MLX-5", "MLX_5_hopWalkWithoutWraparound", k -> k.between(KernelRelease.of(6, 3), KernelRelease.of(6, 11)),
                    "past the walk, or on a CPU-less node, a vector keeps CPU 0"),
            Check.of("MLX-6", Routine.MLX5_COMP_IRQS, "MLX_6_hopWalkEqualsRingOrder", ctx -> {
                if (!ctx.kernel().between(KernelRelease.of(6, 3), KernelRelease.of(6, 11))) return;
                ctx.forAll(gen, v -> {
                    if (v.node() < 0 || v.machine().isCpuless(v.node())) return;
                    int count = Math.min(v.count(), v.machine().numOnlineCpus());
                    int[] want = LocalSpread.plan(KernelRelease.of(6, 7), v.machine(), v.node(), count);
                    int[] got = ctx.implementation().mlx5CompIrqs(ctx.kernel(), v.machine(), v.node(), count);
                    if (!Arrays.equals(want, got))
                        throw Violation.of("MLX-6", call("mlx5CompIrqs", v), plan(want), plan(got)).on(v.machine());
                });
            })
        );
    }

    static Check compIrqs(String rule, String name, java.util.function.Predicate<KernelRelease> kernels, String hint) {
        return Check.of(rule, Routine.MLX5_COMP_IRQS, name, ctx -> {
            if (!kernels.test(ctx.kernel())) return;
            ctx.forAll(vectors(), v -> {
                String want, got;
                try { want = plan(Mlx5.mlx5CompIrqs(ctx.kernel(), v.machine(), v.node(), v.count())); }
                catch (KernelBug b) { want = "KernelBug " + b.kind(); }
                try { got = plan(ctx.implementation().mlx5CompIrqs(ctx.kernel(), v.machine(), v.node(), v.count())); }
                catch (KernelBug b) { got = "KernelBug " + b.kind(); }
                if (!want.equals(got))
                    throw Violation.of(rule, call("mlx5CompIrqs", v), want, got).hint(hint).on(v.machine());
            });
        });
    }
}
