package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A set of node ids prints and reads as the kernel's nodemask lists do, and is never a CpuSet. */
class NodeMaskTest {

    @Test
    void printsAndReadsTheKernelListForm() {
        NodeMask m = NodeMask.parseList("0-3,8");
        assertArrayEquals(new int[] {0, 1, 2, 3, 8}, m.toArray());
        assertEquals("0-3,8", m.toList());
        assertEquals(NodeMask.of(0, 1, 2, 3, 8), m);
        assertEquals(NodeMask.parseList("0 1 2 3 8"), m, "numactl's spaced form");
        assertEquals("", NodeMask.EMPTY.toList());
        assertEquals("none", NodeMask.EMPTY.toText());
        assertEquals(NodeMask.of(0, 8), m.andNot(NodeMask.range(1, 3)));
        assertEquals(5, m.size());
        assertEquals(0, m.first());
        assertEquals(-1, NodeMask.EMPTY.first());
        assertNotEquals(CpuSet.of(0, 1), NodeMask.of(0, 1), "node ids are not CPU ids");
    }

    @Test
    void aMachineGivesItsNodesAndTheNodesOfCpus() {
        Topology t = TopologyBuilder.machine("sparse").node(0, "0-1").node(8, "2-3").node(250, "").build();
        assertEquals(NodeMask.of(0, 8, 250), t.nodeMask());
        assertEquals(NodeMask.of(0, 8), t.nodesOf(CpuSet.of(1, 2)));
        assertEquals(NodeMask.EMPTY, t.nodesOf(CpuSet.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> t.nodesOf(CpuSet.of(4)));
    }
}
