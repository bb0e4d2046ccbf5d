package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.TopologyValidation.Mode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Kernel rules (strict errors, lenient warnings) and the warnings of every mode (spec/topology.md). */
class TopologyValidationTest {

    static TopoDocument fixture(String name) {
        return TopoFormat.read(Path.of("..", "fixtures", "topologies", name + ".topo"));
    }

    static List<TopologyWarning> warnings(String text) {
        return TopoFormat.read(text, "w.topo").warnings();
    }

    static final String TWO = "available: 2 nodes (0-1)\nnode 0 cpus: 0 1\nnode 1 cpus: 2 3\nnode distances:\nnode 0 1\n";

    @Test
    void TOPO_4_diagonalMustBeLocalDistance() {
        String text = TWO + "0: 20 20\n1: 20 10\n";
        assertEquals("w.topo:6: distance from node 0 to itself is 20; expected 10 (LOCAL_DISTANCE) (strict mode; tag the file with"
                + " 'expect slit-invalid' to load it leniently)",
                assertThrows(InvalidTopologyException.class, () -> TopoFormat.read(text, "w.topo")).getMessage());
    }

    @Test
    void TOPO_4_offDiagonalMustBeElevenTo255() {
        for (String bad : List.of("0: 10 10\n1: 10 10\n", "0: 10 256\n1: 256 10\n", "0: 10 5\n1: 5 10\n"))
            assertThrows(InvalidTopologyException.class, () -> TopoFormat.read(TWO + bad, "w.topo"), bad);
        assertEquals(255, TopoFormat.read(TWO + "0: 10 255\n1: 11 10\n", "w.topo").topology().distance(0, 1));
    }

    @Test
    void TOPO_4_lenientModeReportsAndLoads() {
        TopoDocument d = fixture("patho-slit-invalid");
        assertEquals(new TopologyWarning(11, "slit-invalid", "distance from node 0 to node 1 is 10; expected 11..255"
                + " (firmware tables with other values are discarded by the kernel)"), d.warnings().get(0));
        assertEquals(10, d.topology().distance(0, 1));
        assertThrows(InvalidTopologyException.class, () -> TopoFormat.read(Path.of("..", "fixtures", "topologies", "patho-slit-invalid.topo"), Optional.of(Mode.STRICT)));
    }

    @Test
    void TOPO_1_onlineMustBePresent() {
        String text = "present 0-2\nonline 0-3\n" + TWO.replace("node distances:\nnode 0 1\n", "");
        assertEquals("w.topo:2: online CPUs 3 are not present (present 0-2); expected online ⊆ present (strict mode; tag the file"
                + " with 'expect online-not-present' to load it leniently)",
                assertThrows(InvalidTopologyException.class, () -> TopoFormat.read(text, "w.topo")).getMessage());
        TopoDocument lenient = TopoFormat.read(text, "w.topo", Optional.of(Mode.LENIENT));
        assertEquals(CpuSet.range(0, 3), lenient.topology().present());
        assertTrue(lenient.warns("online-not-present"));
    }

    @Test
    void TOPO_3_siblingsShareANode() {
        TopoDocument d = fixture("patho-siblings-span-nodes");
        assertEquals(List.of(CpuSet.of(0), CpuSet.of(1), CpuSet.of(2), CpuSet.of(3)), d.topology().smtSiblings());
        assertEquals("SMT siblings 0,2 span nodes 0-1; x86 splits the core at the node boundary (topology_sane): each node's"
                + " threads are siblings of each other only", d.warnings().get(0).message());
    }

    @Test
    void TOPO_3_aCoreAcrossNodesLoadsInStrictModeSplitByNode() {
        // QEMU can put the threads of one core into two nodes; the kernel runs such a machine.
        String text = "siblings 0-1 2,4 3,5 6-7\navailable: 2 nodes (0-1)\nnode 0 cpus: 0 1 2 3\nnode 1 cpus: 4 5 6 7\n";
        TopoDocument d = TopoFormat.read(text, "w.topo", Optional.of(Mode.STRICT));
        assertEquals(List.of(CpuSet.range(0, 1), CpuSet.of(2), CpuSet.of(3), CpuSet.of(4), CpuSet.of(5), CpuSet.range(6, 7)),
                d.topology().smtSiblings());
        assertEquals(List.of("siblings-span-nodes", "siblings-span-nodes"), d.warnings().stream().map(TopologyWarning::code).toList());
    }

    @Test
    void TOPO_2_aCpuInTwoNodesIsRejectedEvenLeniently() {
        String text = "expect whatever\navailable: 2 nodes (0-1)\nnode 0 cpus: 0 1\nnode 1 cpus: 1 2\n";
        assertEquals("w.topo:4: cpu 1 is in node 1 and in node 0 (w.topo:3); expected each CPU in exactly one node",
                assertThrows(InvalidTopologyException.class, () -> TopoFormat.read(text, "w.topo")).getMessage());
    }

    @Test
    void TOPO_6_asymmetricTablesLoadWithAWarning() {
        TopoDocument d = fixture("patho-asymmetric");
        assertEquals(List.of(new TopologyWarning(13, "asymmetric", "the distance table is asymmetric: distance(0,1) = 12 but distance(1,0) = 15")),
                d.warnings().stream().filter(w -> w.code().equals("asymmetric")).toList());
        assertEquals(15, d.topology().distance(1, 0));
    }

    @Test
    void TOPO_7_nonMetricTablesLoadWithAWarning() {
        TopoDocument d = fixture("patho-non-metric");
        assertEquals(List.of(new TopologyWarning(12, "non-metric", "the distance table breaks the triangle inequality: distance(0,2) = 40"
                + " > distance(0,1) + distance(1,2) = 24 (and 1 more)")), d.warnings());
    }

    @Test
    void TOPO_8_cpulessAndMemorylessNodes() {
        TopoDocument cxl = fixture("spr-2s-cxl");
        assertEquals(List.of(new TopologyWarning(17, "cpuless-nodes", "nodes 2-3 have no online CPUs (CPU-less)")), cxl.warnings().stream()
                .filter(w -> w.code().equals("cpuless-nodes")).toList());
        TopoDocument memless = fixture("epyc7551-2s-memless");
        assertEquals("nodes 0,2-4,6-7 have no memory (memory-less)", memless.warnings().stream()
                .filter(w -> w.code().equals("memless-nodes")).findFirst().orElseThrow().message());
        assertTrue(memless.topology().isMemoryless(6));
        assertTrue(!memless.topology().isMemoryless(5));
    }

    /** A node whose CPUs are all offline is CPU-less for the kernel (no N_CPU), though it has CPUs. */
    @Test
    void TOPO_8_aNodeWithOnlyOfflineCpusIsCpuless() {
        TopoDocument d = TopoFormat.read("online 0-1\nnode-of 2-3 1\n" + TWO.replace("node 1 cpus: 2 3", "node 1 cpus:") + "0: 10 20\n1: 20 10\n", "w.topo");
        assertTrue(d.topology().isCpuless(1));
        assertEquals(CpuSet.of(2, 3), d.topology().cpusOf(1));
        assertTrue(d.warns("cpuless-nodes"));
    }

    @Test
    void TOPO_9_node0NotRepresentative() {
        TopoDocument d = TopoFormat.read(TopoFormatTest.KUNPENG, "k.topo");
        assertEquals(List.of(new TopologyWarning(10, "node0-not-representative",
                "node 0's distances {10,16,32,33} miss {25} of the table over the nodes with CPUs {10,16,25,32,33}")), d.warnings());
    }

    /** CPU-less nodes do not count: their distances are not NUMA levels since 0fb3978b0aac. */
    @Test
    void TOPO_9_ignoresCpulessNodes() {
        assertTrue(fixture("clx-2s-optane-kmem").warnings().stream().noneMatch(w -> w.code().equals("node0-not-representative")));
    }

    @Test
    void TOPO_10_sparseNodeIds() {
        TopoDocument d = fixture("patho-sparse-node-ids");
        assertEquals(List.of(new TopologyWarning(1, "sparse-node-ids", "node ids 0,4,9 are sparse (not 0-2); nr_node_ids is 10")), d.warnings());
    }

    @Test
    void TOPO_5_offlineCpusGoInNodeOf() {
        Topology t = fixture("patho-offline-cpus").topology();
        assertEquals(CpuSet.parseList("0-2"), t.onlineCpusOf(0));
        assertEquals(CpuSet.parseList("0-3"), t.cpusOf(0));
        assertEquals(CpuSet.of(2), t.onlineSiblingsOf(2));
        assertEquals(CpuSet.of(2, 3), t.siblingsOf(2));
    }

    @Test
    void TOPO_1_possibleMayExceedPresent() {
        Topology t = fixture("patho-possible-gt-present").topology();
        assertEquals(32, t.nrCpuIds());
        assertEquals(CpuSet.range(0, 7), t.present());
        assertEquals(1, t.nodeOf(25));
    }

    @Test
    void TOPO_11_validateWorksOnBuiltTopologies() {
        Topology t = TopologyBuilder.machine("b").node(0, "0-1").node(2, "2-3")
                .distances(new int[] {10, 40}, new int[] {40, 10}).build();
        assertEquals(List.of(new TopologyWarning(0, "sparse-node-ids", "node ids 0,2 are sparse (not 0-1); nr_node_ids is 3")),
                TopologyValidation.validate(t, Mode.STRICT));
        Topology bad = TopologyBuilder.machine("b").expect("slit-invalid").node(0, "0-1").node(1, "2-3")
                .distances(new int[] {10, 9}, new int[] {9, 10}).build();
        assertEquals("b: distance from node 0 to node 1 is 9; expected 11..255 (firmware tables with other values are discarded by the kernel)"
                + " (strict mode; tag the file with 'expect slit-invalid' to load it leniently)",
                assertThrows(InvalidTopologyException.class, () -> TopologyValidation.validate(bad, Mode.STRICT)).getMessage());
        assertEquals(2, TopologyValidation.validate(bad, Mode.LENIENT).size());
    }
}
