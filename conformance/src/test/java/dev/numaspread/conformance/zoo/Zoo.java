package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.spread.LocalSpreadNearestNode;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The known-bad implementations of the local-spread, NUMA and mlx5 families (the behaviours the
 * kernel fixed, each naming its fix, and plausible slips), one nested class per slip, each overriding one routine of the model.
 */
final class Zoo {
    private Zoo() {}

    static final KernelRelease V5_9 = KernelRelease.of(5, 9);

    /** M1: spread and wrap over the possible CPUs (the 5.9 housekeeping change) in a later release. */
    static final class PossibleMask extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            return LocalSpread.localSpreadCpus(V5_9, m, node, count);
        }
    }

    /** M2: the classic order (local, then ascending id) where 6.3+ rings are expected. */
    static final class ClassicOrderIn63 extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            return LocalSpread.localSpreadCpus(KernelRelease.of(6, 1), m, node, count);
        }
    }

    /** M2b: node by node with ties to the lowest node id (the 2020 proposal) where 6.3+ rings are expected. */
    static final class NodeByNode extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            if (node >= 0 && m.isCpuless(node)) return super.localSpreadCpus(k, m, node, count);
            return LocalSpreadNearestNode.localSpreadNearestNodeCpus(k, m, node, count);
        }
    }

    /** M3: a CPU-less node still oopses in 6.7+. */
    static final class CpulessOops extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            if (node >= 0 && m.isCpuless(node)) throw new KernelBug("oops", "NULL hop mask of node " + node);
            return super.localSpreadCpus(k, m, node, count);
        }
    }

    /** M4: hop_cmp reads masks[h-1] for h = 0 (here: the last level), so ring 0 never matches. */
    static final class HopCmpOutOfBounds extends Delegating {
        @Override public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) {
            if (node < 0 || m.isCpuless(node)) return super.numaNth(k, m, cpus, n, node);
            List<CpuSet> masks = NumaLevels.of(k, m).masksOf(node);
            int first = cpus.and(masks.get(0)).size();
            int prevOfZero = cpus.and(masks.get(masks.size() - 1)).size();
            if (n < first && prevOfZero > n) return m.nrCpuIds();     // went left from level 0: not found
            return super.numaNth(k, m, cpus, n, node);
        }
    }

    /** M5: "not found" dereferences a wild pointer in a release that returns nr_cpu_ids. */
    static final class NotFoundWildPointer extends Delegating {
        @Override public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) {
            int r = super.numaNth(k, m, cpus, n, node);
            if (r >= m.nrCpuIds()) throw new KernelBug("wild-pointer", "bsearch returned NULL");
            return r;
        }
    }

    /** M6: the n-th CPU of cpus without "& cpu_online_mask" on the NUMA_NO_NODE path. */
    static final class NthWithoutOnline extends Delegating {
        @Override public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) {
            if (node == -1) return n < cpus.size() ? cpus.nth(n) : m.nrCpuIds();
            return super.numaNth(k, m, cpus, n, node);
        }
    }

    /** M7: NUMA_NO_NODE not special-cased in sched_numa_find_nth_cpu() in 6.7+. */
    static final class NoNodeNotSpecialCased extends Delegating {
        @Override public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) {
            if (node == -1) throw new KernelBug("oops", "masks[hop][-1]");
            return super.numaNth(k, m, cpus, n, node);
        }
    }

    /** M8: levels from row 0 only in a release that reads the whole table. */
    static final class RowZeroLevels extends Delegating {
        @Override public int[] numaLevels(KernelRelease k, Topology m) {
            return NumaLevels.of(KernelRelease.of(5, 11), m).distances();
        }
    }

    /** M9: CPU-less nodes counted in the levels in 5.18+. */
    static final class CpulessNodesCounted extends Delegating {
        @Override public int[] numaLevels(KernelRelease k, Topology m) {
            return NumaLevels.of(KernelRelease.of(5, 17), m).distances();
        }
    }

    /**
     * Issue 9: SNC averaging applied to SNC-2 in 7.0: the package-pair mean of 528d89a4707e "x86/topo:
     * Fix SNC topology mess" taken from 2 nodes per package instead of 3, so an SNC-2 Granite Rapids
     * keeps 6.19.0's merged remote ring (LVL-8).
     */
    static final class SncAveragingOnSnc2In70 extends Delegating {
        @Override public int[] numaLevels(KernelRelease k, Topology m) {
            int u = m.numNodesPerPackage();
            if (k.before(7, 0) || !m.cpuModel().isSncDistanceModel() || m.maxPackages() == 1 || u != 2) return super.numaLevels(k, m);
            java.util.TreeSet<Integer> levels = new java.util.TreeSet<>();
            for (int i : m.nodeIds())
                for (int j : m.nodeIds()) {
                    if (m.isCpuless(i) || m.isCpuless(j)) continue;
                    if (i / u == j / u) { levels.add(m.distance(i, j)); continue; }
                    int x = i - i % u, y = j - j % u, sum = 0;
                    for (int a = x; a < x + u; a++)
                        for (int b = y; b < y + u; b++) sum += raw(m, a, b) + raw(m, b, a);
                    levels.add(sum / (2 * u * u));
                }
            return levels.stream().mapToInt(Integer::intValue).toArray();
        }

        private static int raw(Topology m, int a, int b) {
            return m.distances().hasNode(a) && m.distances().hasNode(b) ? m.distance(a, b) : a == b ? 10 : 20;
        }
    }

    /**
     * Issue 9: 6.19 as 6.19.0 to 6.19.6 shipped it (4d6dd05d07d0 alone): every distance of 20 or
     * more between nodes with CPUs becomes their machine-wide mean on Granite Rapids / Clearwater
     * Forest with nodes inside a package, where 6.19.y from 6.19.7 has 528d89a4707e (LVL-8; LVL-7
     * retired).
     */
    static final class MachineWideMeanIn619 extends Delegating {
        @Override public int[] numaLevels(KernelRelease k, Topology m) {
            if (!k.equals(KernelRelease.of(6, 19)) || !m.cpuModel().isSncDistanceModel() || m.maxPackages() < 2 || !numaInPackage(m))
                return super.numaLevels(k, m);
            // The levels of the raw table after the mean is written into it (6.18 reads raw distances).
            return super.numaLevels(KernelRelease.of(6, 18), SpreadingOnOtherDistances.machineWideMean(m));
        }

        private static boolean numaInPackage(Topology m) {
            return m.packages().stream().anyMatch(p -> m.nodesOf(p.cpus().and(m.online())).size() > 1);
        }
    }

    /**
     * Issue 9: local spread that measures node_distance() where 6.19+ measures the scheduler's
     * distance (LVL-6): the 6.18 answer in every later release, so on a Granite Rapids SNC-3
     * machine a remote package's nodes stay rings of their own instead of one ring (LS-6).
     */
    static final class SpreadIgnoresArchDistance extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            return super.localSpreadCpus(k.atLeast(6, 19) ? KernelRelease.of(6, 18) : k, m, node, count);
        }
    }

    /** Issue 9: hop masks built from node_distance() where 6.19+ builds them from the scheduler's distance (LVL-6, HOP-4). */
    static final class HopMasksIgnoreArchDistance extends Delegating {
        @Override public List<CpuSet> hopMasks(KernelRelease k, Topology m, int node) {
            return super.hopMasks(k.atLeast(6, 19) ? KernelRelease.of(6, 18) : k, m, node);
        }
    }

    /** M10: numa_nearest_node() with ties to the highest id ("<=" instead of "<"). */
    static final class NearestNodeTiesHighest extends Delegating {
        @Override public int numaNearestNode(KernelRelease k, Topology m, int node) {
            if (node < 0 || !m.isCpuless(node)) return node;
            int best = node, bestD = Integer.MAX_VALUE;
            for (int n : m.nodeIds())
                if (!m.isCpuless(n) && m.distance(node, n) <= bestD) { best = n; bestD = m.distance(node, n); }
            return best;
        }
    }

    /** M19: mlx5 6.3-6.11 hop walk (no wraparound, CPU 0) where 6.12 is expected. */
    static final class Mlx5HopWalkIn612 extends Delegating {
        @Override public int[] mlx5CompIrqCpus(KernelRelease k, Topology m, int node, int count) {
            return super.mlx5CompIrqCpus(KernelRelease.of(6, 11), m, node, count);
        }
    }

    /** M20: the 2022 seed patch (failing, then classic for all) where 6.12 mlx5 is expected. */
    static final class Mlx5SeedPatchIn612 extends Delegating {
        @Override public int[] mlx5CompIrqCpus(KernelRelease k, Topology m, int node, int count) {
            return super.mlx5NumaDistanceCpus(k, m, node, count);
        }
    }

    /** Slip: no wrap; past the online CPUs the answer is nr_cpu_ids. */
    static final class NoWrap extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            int[] out = super.localSpreadCpus(k, m, node, count);
            for (int i = m.numOnlineCpus(); i < count; i++) out[i] = m.nrCpuIds();
            return out;
        }
    }

    /** Slip: the index wraps modulo the possible CPUs, then modulo the online ones. */
    static final class WrapByPossible extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            int n = m.numOnlineCpus();
            int[] period = super.localSpreadCpus(k, m, node, n);
            int[] out = new int[count];
            for (int i = 0; i < count; i++) out[i] = period[(i % m.possible().size()) % n];
            return out;
        }
    }

    /** Slip: the proposal with ties to the highest node id. */
    static final class ProposalTiesHighest extends Delegating {
        @Override public int[] localSpreadNearestNodeCpus(KernelRelease k, Topology m, int node, int count) {
            if (node < 0) return super.localSpreadNearestNodeCpus(k, m, node, count);
            Integer[] cpus = m.online().stream().boxed().toArray(Integer[]::new);
            Arrays.sort(cpus, Comparator.<Integer>comparingInt(c -> m.distance(node, m.nodeOf(c)))
                    .thenComparing(c -> -m.nodeOf(c)).thenComparingInt(c -> c));
            return wrap(Arrays.stream(cpus).mapToInt(Integer::intValue).toArray(), count);
        }
    }

    /** Slip: off by one at a ring boundary: the first CPU of each farther ring comes one place early. */
    static final class RingBoundaryOffByOne extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            int n = m.numOnlineCpus();
            int[] period = super.localSpreadCpus(k, m, node, n);
            if (k.atLeast(6, 3) && node >= 0 && !m.isCpuless(node))
                for (int i = n - 1; i > 0; i--)
                    if (m.distance(node, m.nodeOf(period[i])) != m.distance(node, m.nodeOf(period[i - 1]))) {
                        int t = period[i]; period[i] = period[i - 1]; period[i - 1] = t;
                        i--;
                    }
            return wrap(period, count);
        }
    }

    /** Slip: the node's offline CPUs are served first (cpumask_of_node without "& online"). */
    static final class ReturnsOfflineCpu extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            if (node < 0) return super.localSpreadCpus(k, m, node, count);
            CpuSet offline = m.cpusOf(node).andNot(m.online());
            int[] rest = super.localSpreadCpus(k, m, node, m.numOnlineCpus());
            List<Integer> period = new ArrayList<>();
            for (int c : offline.toArray()) period.add(c);
            for (int c : rest) period.add(c);
            return wrap(period.stream().mapToInt(Integer::intValue).toArray(), count);
        }
    }

    /** Slip: find_closest picks the lowest node id that has a CPU of the set, not the nearest. */
    static final class ClosestByNodeId extends Delegating {
        @Override public int numaClosest(KernelRelease k, Topology m, CpuSet cpus, int cpu) {
            CpuSet usable = cpus.and(m.online());
            TreeSet<Integer> nodes = new TreeSet<>();
            for (int c : usable.toArray()) nodes.add(m.nodeOf(c));
            if (nodes.isEmpty()) return m.nrCpuIds();
            int own = m.nodeOf(cpu);
            int node = usable.and(m.cpusOf(own)).isEmpty() ? nodes.first() : own;
            return usable.and(m.cpusOf(node)).first();
        }
    }

    /** Slip: mlx5 measures distances from node instead of from first's node. */
    static final class Mlx5DistancesFromNode extends Delegating {
        @Override public int[] mlx5NumaDistanceCpus(KernelRelease k, Topology m, int node, int count) {
            if (node < 0 || !m.isCpuless(node) || count > m.numOnlineCpus()) return super.mlx5NumaDistanceCpus(k, m, node, count);
            Integer[] cpus = m.online().stream().boxed().toArray(Integer[]::new);
            Arrays.sort(cpus, Comparator.<Integer>comparingInt(c -> m.distance(node, m.nodeOf(c))).thenComparingInt(c -> c));
            int[] out = new int[count];
            for (int i = 0; i < count; i++) out[i] = cpus[i];
            return out;
        }
    }

    /**
     * Slip: more vectors than online CPUs give the distance order, wrapped, instead of the classic
     * fallback. It wraps as one local spread (MLX-3 holds); only the exact order (MLX-7) tells.
     */
    static final class Mlx5PartialResult extends Delegating {
        @Override public int[] mlx5NumaDistanceCpus(KernelRelease k, Topology m, int node, int count) {
            int n = m.numOnlineCpus();
            if (count <= n) return super.mlx5NumaDistanceCpus(k, m, node, count);
            return wrap(super.mlx5NumaDistanceCpus(k, m, node, n), count);
        }
    }

    /** Slip: the classic fallback only for the vectors past the online count. */
    static final class Mlx5FallbackPastOnline extends Delegating {
        @Override public int[] mlx5NumaDistanceCpus(KernelRelease k, Topology m, int node, int count) {
            int n = m.numOnlineCpus();
            if (count <= n) return super.mlx5NumaDistanceCpus(k, m, node, count);
            int[] out = super.mlx5NumaDistanceCpus(k, m, node, count);   // classic for all
            int[] head = super.mlx5NumaDistanceCpus(k, m, node, n);
            System.arraycopy(head, 0, out, 0, n);
            return out;
        }
    }

    /** Slip: the levels in descending order (a comparator the wrong way round). */
    static final class LevelsDescending extends Delegating {
        @Override public int[] numaLevels(KernelRelease k, Topology m) {
            int[] up = super.numaLevels(k, m);
            int[] down = new int[up.length];
            for (int i = 0; i < up.length; i++) down[i] = up[up.length - 1 - i];
            return down;
        }
    }

    /** Slip: mlx5's 6.3-6.11 hop walk takes the classic order (local, then by CPU id) instead of the rings. */
    static final class Mlx5WalkIgnoresDistance extends Delegating {
        @Override public int[] mlx5CompIrqCpus(KernelRelease k, Topology m, int node, int count) {
            if (!k.between(KernelRelease.of(6, 3), KernelRelease.of(6, 11)) || node < 0 || m.isCpuless(node))
                return super.mlx5CompIrqCpus(k, m, node, count);
            int[] out = super.mlx5CompIrqCpus(k, m, node, count);
            int walked = Math.min(count, m.numOnlineCpus());
            System.arraycopy(LocalSpread.localSpreadCpus(KernelRelease.of(6, 1), m, node, walked), 0, out, 0, walked);
            return out;
        }
    }

    /**
     * Slip, 6.16+: sched_numa_find_closest() keeps answering the lowest id of the nearest level
     * ({@code cpumask_any_and}, HOP-9) where the calling CPU's round robin is expected (HOP-10).
     */
    static final class ClosestLowestId extends Delegating {
        @Override public int numaClosest(KernelRelease k, Topology m, CpuSet cpus, int cpu) {
            return numaClosestCalls(k, m, cpu, 0, List.of(new NumaClosest.Call(cpus, cpu)))[0];
        }
        @Override public int[] numaClosestCalls(KernelRelease k, Topology m, int callingCpu, int prev, List<NumaClosest.Call> calls) {
            if (k.before(6, 16)) return super.numaClosestCalls(k, m, callingCpu, prev, calls);
            int[] out = new int[calls.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = m.nrCpuIds();
                for (CpuSet mask : NumaLevels.of(k, m).masksOf(m.nodeOf(calls.get(i).cpu()))) {
                    CpuSet hit = calls.get(i).cpus().and(mask);
                    if (!hit.isEmpty()) { out[i] = hit.first(); break; }
                }
            }
            return out;
        }
    }
}
