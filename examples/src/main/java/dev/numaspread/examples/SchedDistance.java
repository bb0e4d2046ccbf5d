package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelRelease;

/**
 * {@code arch_sched_node_distance(from, to)} for every pair of node ids, as spec/numa-levels.md
 * LVL-6 and LVL-8 describe it: {@code node_distance()} before 6.19 and on every CPU model x86
 * does not single out; from 6.19 (6.19.7's backport of 528d89a4707e, and 7.0) on Granite
 * Rapids-X and Clearwater Forest-X with 3 or more nodes per package, one mean per pair of
 * packages, on a table of the SNC form.
 */
final class SchedDistance {
    private SchedDistance() {}

    /** The table the scheduler's levels and masks read for {@code kernel}. */
    static int[][] of(KernelRelease kernel, KernelView k) {
        if (kernel.before(6, 19) || !k.sncModel || k.maxPackages < 2) return k.distance;
        int u = k.nodesPerPackage;
        if (u < 3 || !sncForm(k, u)) return k.distance;
        int[][] out = new int[k.nrNodeIds][k.nrNodeIds];
        for (int i = 0; i < k.nrNodeIds; i++)
            for (int j = 0; j < k.nrNodeIds; j++)
                out[i][j] = i / u == j / u ? k.distance[i][j] : blockPairMean(k, i - i % u, j - j % u, u);
        return out;
    }

    /** Each block of {@code u} node ids symmetric, its online CPUs in one package, unlike the block before. */
    private static boolean sncForm(KernelView k, int u) {
        long previous = Long.MIN_VALUE;
        for (int p = 0; p < k.maxPackages; p++) {
            int first = p * u;
            for (int a = first; a < first + u; a++)
                for (int b = first; b < first + u; b++)
                    if (d(k, a, b) != d(k, b, a)) return false;
            long pkg = Long.MIN_VALUE;
            for (int n = first; n < first + u && n < k.nrNodeIds; n++)
                for (int cpu = 0; cpu < k.nrCpuIds; cpu++) {
                    if (!Cpumask.test(k.nodeOnline[n], cpu)) continue;
                    if (k.packageOfCpu[cpu] == Integer.MIN_VALUE) return false;
                    if (pkg == Long.MIN_VALUE) pkg = k.packageOfCpu[cpu];
                    else if (pkg != k.packageOfCpu[cpu]) return false;
                }
            if (pkg == Long.MIN_VALUE || (p > 0 && pkg == previous)) return false;
            previous = pkg;
        }
        return true;
    }

    private static int blockPairMean(KernelView k, int x, int y, int u) {
        long sum = 0;
        for (int a = x; a < x + u; a++)
            for (int b = y; b < y + u; b++) sum += d(k, a, b) + d(k, b, a);
        return (int) (sum / (2L * u * u));
    }

    /** {@code node_distance()}, 10/20 for an id past the table. */
    private static int d(KernelView k, int a, int b) {
        if (a < k.nrNodeIds && b < k.nrNodeIds) return k.distance[a][b];
        return a == b ? KernelView.LOCAL_DISTANCE : KernelView.REMOTE_DISTANCE;
    }
}
