package dev.numaspread.model.pagepool;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** numa_mem_id() and the zonelist's first node with memory (PP-11), worked by hand. */
class NumaMemIdTest {

    /**
     * Node 1 (CPUs 2-3) has no memory; nodes 0 and 2 are both at 20 from it, node 3 (no CPUs,
     * memory only) at {@code d3}. Values from node 1: node 0 = 20 + 1 (below) + 1 (CPUs) = 22,
     * node 2 = 20 + 1 (CPUs) = 21, node 3 = d3.
     */
    static Topology fourNodes(int d3) {
        return TopologyBuilder.machine("4node-memless").node(0, "0-1").memorylessNode(1, "2-3").node(2, "4-5").node(3, "")
                .distances(new int[]{10, 20, 30, 30}, new int[]{20, 10, 20, d3}, new int[]{30, 20, 10, 30}, new int[]{30, d3, 30, 10})
                .build();
    }

    @Test
    void PP_11_aNodeWithMemoryIsItsOwnMemoryNode() {
        Topology t = fourNodes(40);
        assertEquals(0, NumaMemId.numaMemId(t, 0, true));
        assertEquals(2, NumaMemId.numaMemId(t, 4, false));
    }

    @Test
    void PP_11_theNextNodeUpWinsAnEqualDistance() {
        Topology t = fourNodes(40);
        assertEquals(2, NumaMemId.localMemoryNode(t, 1));
        assertEquals(2, NumaMemId.numaMemId(t, 2, true));
        assertFalse(NumaMemId.localMemoryNodeIsTied(t, 1));
    }

    @Test
    void PP_11_withoutArchSupportACpuKeepsItsMemorylessNode() {
        assertEquals(1, NumaMemId.numaMemId(fourNodes(40), 3, false));
    }

    @Test
    void PP_11_aNodeWithoutCpusWinsOneUnitOfDistance() {
        // node 3 at 20: value 20 < 21 (node 2)
        assertEquals(3, NumaMemId.localMemoryNode(fourNodes(20), 1));
        // node 3 at 21: value 21 = node 2's 21, a tie the model gives to the lower id
        assertEquals(2, NumaMemId.localMemoryNode(fourNodes(21), 1));
        assertTrue(NumaMemId.localMemoryNodeIsTied(fourNodes(21), 1));
        // node 3 at 22: node 2
        assertEquals(2, NumaMemId.localMemoryNode(fourNodes(22), 1));
    }

    @Test
    void PP_11_noNodeWithMemoryLeavesTheNodeItself() {
        Topology t = new Topology("no-memory", "test", CpuSet.parseList("0-1"), CpuSet.parseList("0-1"), CpuSet.parseList("0-1"),
                List.of(new Node(0, CpuSet.of(0), false, 0), new Node(1, CpuSet.of(1), false, 0)),
                dev.numaspread.model.topology.DistanceTable.defaults(new int[]{0, 1}), List.of(), List.of(), List.of());
        assertEquals(1, NumaMemId.localMemoryNode(t, 1));
    }
}
