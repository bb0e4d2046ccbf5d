package dev.numaspread.model.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The node distance table ({@code node_distance(from, to)}), kept raw: asymmetric tables, values
 * that break the triangle inequality and values the kernel would reject are all legal input here;
 * validation reports them separately. Rows and columns follow {@link #nodeIds()}, ascending.
 */
public final class DistanceTable {

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

    /** The pairs (a, b) with {@code d(a,b) > d(a,c) + d(c,b)}, as "a-c-b" texts; empty for a metric table. */
    public List<String> triangleViolations() {
        List<String> out = new ArrayList<>();
        int n = rows.length;
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++)
                for (int c = 0; c < n; c++)
                    if (a != b && c != a && c != b && rows[a][b] > rows[a][c] + rows[c][b])
                        out.add(nodeIds[a] + "-" + nodeIds[c] + "-" + nodeIds[b]);
        return out;
    }

    /** Every distinct value of the table, ascending. */
    public int[] distinctValues() {
        TreeSet<Integer> s = new TreeSet<>();
        for (int[] r : rows) for (int v : r) s.add(v);
        return s.stream().mapToInt(Integer::intValue).toArray();
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
