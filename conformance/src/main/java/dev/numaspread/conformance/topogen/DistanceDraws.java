package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.kernel.Numa;

import java.util.List;
import java.util.TreeSet;

/**
 * The distance table of a planned machine: tiers by relation or random levels, then, sometimes, a
 * non-uniform tier, a triangle-inequality violation and one asymmetric pair; and those edits on
 * their own, for the edge cases that need exactly one.
 */
final class DistanceDraws {
    private DistanceDraws() {}

    private static final List<Integer> NEAR = List.of(12, 11, 16, 15, 17, 20);           // same package
    private static final List<Integer> FAR = List.of(20, 21, 32, 40, 22, 25, 30, 16);    // other package
    private static final List<Integer> SUPER_FAR = List.of(50, 40, 65, 79, 80);          // other blade / chassis
    private static final List<Integer> MEM_NEAR = List.of(13, 14, 17, 15, 80);           // CPU-less node, owner package
    private static final List<Integer> MEM_FAR = List.of(21, 28, 24, 26, 120, 255);      // CPU-less node, elsewhere

    /**
     * Draws the distance table over the plan's nodes (ascending id): tiers by relation (same
     * package, other package, other blade, CPU-less owner, CPU-less elsewhere) or random levels;
     * then, sometimes, a non-uniform tier, a triangle-inequality violation and one asymmetric pair.
     * Every value stays in 11..255 off the diagonal; the table has at most 7 distinct values.
     */
    static void draw(Choices c, MachinePlan plan, boolean allowOdd) {
        int n = plan.nodes.size();
        if (n == 1) {
            plan.distances = new int[][] {{Numa.LOCAL_DISTANCE}};
            return;
        }
        c.startSpan("distances");
        int[][] d = new int[n][n];
        boolean anyCpuless = plan.cpuNodeCount() < n;
        if (c.chance(80)) {
            int near = NEAR.get(Gen.weighted(40, 20, 15, 10, 10, 5).generate(c));
            int far = FAR.get(Gen.weighted(35, 20, 15, 10, 5, 5, 5, 5).generate(c));
            int packages = 0;
            for (MachinePlan.NodePlan p : plan.nodes) packages = Math.max(packages, p.pkg + 1);
            int superFar = packages >= 4 && c.chance(40) ? SUPER_FAR.get(c.choose(0, SUPER_FAR.size() - 1)) : 0;
            int memNear = anyCpuless ? MEM_NEAR.get(c.choose(0, MEM_NEAR.size() - 1)) : 0;
            int memFar = anyCpuless ? MEM_FAR.get(c.choose(0, MEM_FAR.size() - 1)) : 0;
            boolean nonUniform = c.chance(20);
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    MachinePlan.NodePlan a = plan.nodes.get(i), b = plan.nodes.get(j);
                    int v;
                    if (a.cores == 0 || b.cores == 0) v = a.pkg == b.pkg ? memNear : memFar;
                    else if (a.pkg == b.pkg) v = near;
                    else if (superFar > 0 && a.pkg / 2 != b.pkg / 2) v = superFar;
                    else v = far + (nonUniform ? c.choose(0, 3) : 0);
                    d[i][j] = d[j][i] = Math.min(255, v);
                }
            }
        } else {
            int levels = 2 + c.choose(0, 5);   // distinct values, 10 included
            int[] values = new int[levels];
            values[0] = Numa.LOCAL_DISTANCE;
            for (int k = 1; k < levels; k++) values[k] = values[k - 1] + 1 + c.choose(0, 19);
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++) d[i][j] = d[j][i] = values[1 + c.choose(0, levels - 2)];
        }
        for (int i = 0; i < n; i++) d[i][i] = Numa.LOCAL_DISTANCE;
        boolean nonMetric = allowOdd && n >= 3 && c.chance(12);
        boolean asymmetric = allowOdd && c.chance(20);
        mergeValues(d, 7 - (nonMetric ? 2 : 0) - (asymmetric ? 1 : 0));
        if (nonMetric) breakTriangle(c, d);
        if (asymmetric) makeAsymmetric(c, d);
        plan.distances = d;
        c.endSpan();
    }

    /** Sets d(a,c) = d(c,b) = 11 and d(a,b) >= 23 > 22, both directions: a-c-b is a shortcut. */
    static void breakTriangle(Choices c, int[][] d) {
        int n = d.length;
        int a = c.choose(0, n - 1);
        int b = other(c, n, a);
        int m = c.choose(0, n - 3);   // the m-th node that is neither a nor b
        int via = -1;
        for (int k = 0, seen = 0; k < n; k++) if (k != a && k != b && seen++ == m) via = k;
        d[a][via] = d[via][a] = d[via][b] = d[b][via] = 11;
        d[a][b] = d[b][a] = Math.max(d[a][b], 23 + c.choose(0, 30));
    }

    /** Raises one direction of one pair, so d(a,b) != d(b,a). */
    static void makeAsymmetric(Choices c, int[][] d) {
        int n = d.length;
        int a = c.choose(0, n - 1);
        int b = other(c, n, a);
        int raised = d[a][b] + 1 + c.choose(0, 9);
        // d(b,a) >= 11, so either direction of the change stays in 11..255 and differs from d(b,a)
        d[a][b] = raised <= 255 ? raised : d[b][a] - 1 > 10 ? d[b][a] - 1 : d[b][a] + 1;
    }

    /** A node index other than {@code a}, among {@code n}. */
    private static int other(Choices c, int n, int a) {
        int b = c.choose(0, n - 2);
        return b >= a ? b + 1 : b;
    }

    /**
     * Merges the two closest distinct off-diagonal values (into the smaller) until the table has at
     * most {@code maxValues} distinct values, 10 included. Keeps symmetry and the range 11..255.
     */
    static void mergeValues(int[][] d, int maxValues) {
        while (true) {
            TreeSet<Integer> values = new TreeSet<>();
            for (int i = 0; i < d.length; i++) for (int j = 0; j < d.length; j++) if (i != j) values.add(d[i][j]);
            if (values.size() + 1 <= maxValues || values.size() < 2) return;
            int bestLo = -1, bestHi = -1;
            Integer prev = null;
            for (int v : values) {
                if (prev != null && (bestLo < 0 || v - prev < bestHi - bestLo)) {
                    bestLo = prev;
                    bestHi = v;
                }
                prev = v;
            }
            for (int[] row : d) for (int j = 0; j < row.length; j++) if (row[j] == bestHi) row[j] = bestLo;
        }
    }
}
