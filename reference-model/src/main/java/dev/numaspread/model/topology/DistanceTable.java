package dev.numaspread.model.topology;

import java.util.Arrays;
import java.util.Optional;

/**
 * The node distance table ({@code node_distance(from, to)}), kept raw: asymmetric tables, values
 * that break the triangle inequality and values the kernel would reject are all legal input here;
 * validation reports them separately. Rows and columns follow {@link #nodeIds()}, ascending.
 */
public final class DistanceTable {

    /**
     * The largest distance a table may hold: {@value}. The kernel's own table is a {@code u8}
     * (strict mode holds values to 10..255, TOPO-4), but a lenient file may show what the scheduler
     * does with a value past 255 (LVL-4); past three digits, nothing is modelled (spec/formats.md FMT-16).
     */
    public static final int MAX_VALUE = 999;

    private final int[] nodeIds;   // ascending
    private final int[][] rows;    // rows[i][j] = distance(nodeIds[i], nodeIds[j])

    private DistanceTable(int[] nodeIds, int[][] rows) {
        this.nodeIds = nodeIds;
        this.rows = rows;
    }

    /**
     * A table over {@code nodeIds} (ascending, distinct) with {@code rows[i][j]} the distance from the
     * i-th to the j-th node.
     *
     * @throws IllegalArgumentException when the ids are not ascending or the table is not square
     */
    public static DistanceTable of(int[] nodeIds, int[][] rows) {
        int[] ids = nodeIds.clone();
        for (int i = 1; i < ids.length; i++)
            if (ids[i] <= ids[i - 1])
                throw new IllegalArgumentException("distance table node ids " + Arrays.toString(ids)
                        + " are not ascending and distinct");
        if (rows.length != ids.length)
            throw new IllegalArgumentException("distance table has " + rows.length + " rows for " + ids.length + " nodes");
        int[][] copy = new int[ids.length][];
        for (int i = 0; i < ids.length; i++) {
            if (rows[i].length != ids.length)
                throw new IllegalArgumentException("distance row for node " + ids[i] + " has " + rows[i].length
                        + " values, the table lists " + ids.length + " nodes");
            copy[i] = rows[i].clone();
            for (int v : copy[i])
                if (v < 0 || v > MAX_VALUE)
                    throw new IllegalArgumentException("distance " + v + " from node " + ids[i] + "; expected 0-" + MAX_VALUE);
        }
        return new DistanceTable(ids, copy);
    }

    /**
     * The table firmware implies when it gives none: 10 on the diagonal, 20 elsewhere
     * ({@code LOCAL_DISTANCE}, {@code REMOTE_DISTANCE}).
     */
    public static DistanceTable defaults(int[] nodeIds) {
        int[][] rows = new int[nodeIds.length][nodeIds.length];
        for (int i = 0; i < nodeIds.length; i++)
            for (int j = 0; j < nodeIds.length; j++) rows[i][j] = i == j ? 10 : 20;
        return of(nodeIds, rows);
    }

    public int[] nodeIds() {
        return nodeIds.clone();
    }

    public int size() {
        return nodeIds.length;
    }

    public boolean hasNode(int node) {
        return Arrays.binarySearch(nodeIds, node) >= 0;
    }

    /**
     * {@code node_distance(from, to)}.
     *
     * @throws IllegalArgumentException if a node is not in the table
     */
    public int distance(int from, int to) {
        return rows[index(from)][index(to)];
    }

    /** The distances from {@code from} to every node, in {@link #nodeIds()} order. */
    public int[] row(int from) {
        return rows[index(from)].clone();
    }

    private int index(int node) {
        int i = Arrays.binarySearch(nodeIds, node);
        if (i < 0) throw new IllegalArgumentException("node " + node + " is not in the distance table " + Arrays.toString(nodeIds));
        return i;
    }

    /** True when {@code distance(a, b) == distance(b, a)} for every pair. */
    public boolean isSymmetric() {
        for (int i = 0; i < rows.length; i++)
            for (int j = 0; j < i; j++) if (rows[i][j] != rows[j][i]) return false;
        return true;
    }

    /**
     * A detour shorter than the direct distance: {@code d(a,b) > d(a,c) + d(c,b)}, the first in
     * order of {@code a}, then {@code b}, then {@code c}, with the number of pairs {@code (a, b)}
     * that have one.
     */
    public record TriangleViolation(int a, int c, int b, int pairs) {}

    /**
     * The first triangle violation (TOPO-7), or empty for a metric table.
     *
     * <p>Cost: for each node {@code a}, one pass over {@code a}'s row per detour node {@code c}
     * that could matter, each pass a loop of additions the JIT vectorises. Node {@code c} cannot
     * shorten any path from {@code a} when {@code d(a,c)} plus the least distance out of {@code c}
     * reaches the longest distance out of {@code a}; on machines built of levels (10/12/20/30)
     * that leaves only the nodes of {@code a}'s own socket, so the check is O(n^2 * k) with k the
     * socket size, and n^3 additions (10^9 at MAX_NUMNODES, well under a second) at worst.
     */
    public Optional<TriangleViolation> firstTriangleViolation() {
        int n = rows.length;
        int[] minOut = new int[n];   // least distance from c to another node
        for (int c = 0; c < n; c++) {
            int m = Integer.MAX_VALUE;
            for (int b = 0; b < n; b++) if (b != c) m = Math.min(m, rows[c][b]);
            minOut[c] = m;
        }
        int first = -1, pairs = 0;
        int[] acc = new int[n];
        for (int a = 0; a < n; a++) {
            int[] ra = rows[a];
            int maxOut = 0;
            for (int b = 0; b < n; b++) if (b != a) maxOut = Math.max(maxOut, ra[b]);
            java.util.Arrays.fill(acc, 0);
            boolean any = false;
            for (int c = 0; c < n; c++) {
                if (c == a || ra[c] + minOut[c] >= maxOut) continue;
                int[] rc = rows[c];
                int dac = ra[c];
                // acc[b] turns negative when d(a,c) + d(c,b) < d(a,b) for some c; b == c never does (values >= 0).
                for (int b = 0; b < n; b++) acc[b] |= dac + rc[b] - ra[b];
                any = true;
            }
            if (!any) continue;
            for (int b = 0; b < n; b++)
                if (b != a && acc[b] < 0) {
                    pairs++;
                    if (first < 0) first = a * n + b;
                }
        }
        if (first < 0) return Optional.empty();
        int a = first / n, b = first % n;
        for (int c = 0; c < n; c++)
            if (c != a && c != b && rows[a][b] > rows[a][c] + rows[c][b])
                return Optional.of(new TriangleViolation(nodeIds[a], nodeIds[c], nodeIds[b], pairs));
        throw new IllegalStateException("model invariant broken: pair (" + nodeIds[a] + ", " + nodeIds[b] + ") has no detour");
    }

    /** Every distinct value of the table, ascending. */
    public int[] distinctValues() {
        boolean[] seen = new boolean[MAX_VALUE + 1];
        int count = 0;
        for (int[] r : rows) for (int v : r) if (!seen[v]) { seen[v] = true; count++; }
        int[] out = new int[count];
        for (int v = 0, k = 0; v <= MAX_VALUE; v++) if (seen[v]) out[k++] = v;
        return out;
    }

    /**
     * The square table of {@code nodes}: entry {@code [i][j]} is {@code distance(nodes[i], nodes[j])}.
     * O(nodes²), where asking pair by pair costs a search per pair.
     *
     * @throws IllegalArgumentException if a node is not in the table
     */
    public int[][] among(int[] nodes) {
        int[] at = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) at[i] = index(nodes[i]);
        int[][] out = new int[nodes.length][nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            int[] r = rows[at[i]];
            for (int j = 0; j < nodes.length; j++) out[i][j] = r[at[j]];
        }
        return out;
    }

    /**
     * The distinct values of {@code distance(a, b)} for {@code a} and {@code b} among {@code nodes},
     * ascending. O(nodes²): each row is read once by index, not node pair by node pair.
     *
     * @throws IllegalArgumentException if a node is not in the table
     */
    public int[] distinctValuesAmong(int[] nodes) {
        int[] at = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) at[i] = index(nodes[i]);
        // One bit per value 0..MAX_VALUE: the walk over them afterwards reads 16 words, not 1,000
        // flags (the walk was most of a small machine's NUMA levels, computed on every call).
        long[] seen = new long[(MAX_VALUE >> 6) + 1];
        for (int a : at) {
            int[] r = rows[a];
            for (int b : at) seen[r[b] >> 6] |= 1L << r[b];
        }
        int count = 0;
        for (long w : seen) count += Long.bitCount(w);
        int[] out = new int[count];
        int k = 0;
        for (int w = 0; w < seen.length; w++)
            for (long bits = seen[w]; bits != 0; bits &= bits - 1) out[k++] = (w << 6) + Long.numberOfTrailingZeros(bits);
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DistanceTable t && Arrays.equals(nodeIds, t.nodeIds) && Arrays.deepEquals(rows, t.rows);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(nodeIds) + Arrays.deepHashCode(rows);
    }

    /** numactl's layout: a header of node ids, then one row per node. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("node");
        for (int id : nodeIds) sb.append(String.format(" %3d", id));
        for (int i = 0; i < nodeIds.length; i++) {
            sb.append(String.format("%n%3d:", nodeIds[i]));
            for (int v : rows[i]) sb.append(String.format(" %3d", v));
        }
        return sb.toString();
    }
}
