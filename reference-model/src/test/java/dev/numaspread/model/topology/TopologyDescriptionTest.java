package dev.numaspread.model.topology;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code check-topology} says of a machine: the NUMA levels over the nodes with CPUs. */
class TopologyDescriptionTest {

    /**
     * FMT-16: no step is worse than O(nodes² + cpus log cpus). Issue 16 saw a 1024-node machine
     * with a full table take 30 s: the levels intersected two node masks per pair of nodes, 2
     * million masks of 8192 bits. Counted in bytes allocated, not in time (2 shared cores).
     */
    @Test
    void FMT_16_distanceLevelsLooksAtEachNodesCpusOnce() {
        int n = 1024;
        TopologyBuilder b = TopologyBuilder.machine("n1024");
        int[][] rows = new int[n][n];
        for (int i = 0; i < n; i++) {
            b.node(i, (8 * i) + "-" + (8 * i + 7));
            for (int j = 0; j < n; j++) rows[i][j] = i == j ? 10 : 20 + (i + j) % 2;
        }
        Topology t = b.distances(rows).build();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        int[] levels = TopologyDescription.distanceLevels(t);
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertArrayEquals(new int[]{10, 20, 21}, levels);
        assertTrue(allocated < 64L << 20, "distanceLevels allocated " + (allocated >> 20) + " MiB on 1024 nodes; expected under 64 MiB");
    }
}
