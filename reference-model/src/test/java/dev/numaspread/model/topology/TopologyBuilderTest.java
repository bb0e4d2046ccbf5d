package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A machine written in code is the machine of the {@code .topo} file its calls describe: the same
 * defaults (FMT-6), the same SMT numbering (FMT-7), the same strictness (FMT-9).
 */
class TopologyBuilderTest {

    static Topology read(String text) {
        return TopoFormat.read(text, "t.topo").topology();
    }

    /**
     * CPU 2 is missing: under {@code smt 2 adjacent} CPU 3 is thread 1 of core 1, whose thread 0 is
     * not possible, so it is a core alone and 4-5 is core 2. Pairing the possible CPUs by position
     * would give 0-1, 3-4, 5: another machine than the file's.
     */
    @Test
    void FMT_7_adjacentSmtOnSparseCpus_numbersCoresByCpuId() {
        Topology built = TopologyBuilder.machine("sparse").node(0, "0-1,3-5").smtAdjacent(2).build();
        assertEquals(List.of(CpuSet.range(0, 1), CpuSet.of(3), CpuSet.range(4, 5)), built.smtSiblings());
        assertEquals(SmtLayout.adjacentGroups(CpuSet.parseList("0-1,3-5"), 2), built.smtSiblings());
        assertEquals(read("""
                topology sparse
                source built in code
                smt 2 adjacent
                node 0 cpus: 0-1,3-5
                """), built);
    }

    @Test
    void FMT_6_defaultsAreTheFileDefaults() {
        Topology built = TopologyBuilder.machine("two").node(0, "0-3").node(1, "4-7").build();
        Topology read = read("""
                topology two
                source built in code
                node 0 cpus: 0-3
                node 1 cpus: 4-7
                """);
        assertEquals(read, built);
        assertEquals(CpuSet.range(0, 7), built.possible());
        assertEquals(CpuSet.range(0, 7), built.online());
        assertEquals(20, built.distance(0, 1));
        assertEquals(-1, built.nodes().get(0).sizeMiB());
    }

    /** {@code node()} takes a node's offline CPUs too; the file lists them with {@code node-of}. */
    @Test
    void FMT_6_offlineCpusOfANodeAreNodeOf() {
        Topology built = TopologyBuilder.machine("off").node(0, "0-3").node(1, "4-7").online("0-2,4-7").nodeSize(1, 0).build();
        assertEquals(read("""
                topology off
                source built in code
                online 0-2,4-7
                node-of 3 0
                node 0 cpus: 0-2
                node 1 cpus: 4-7
                node 1 size: 0 MB
                """), built);
        assertEquals(CpuSet.range(0, 3), built.cpusOf(0));
        assertEquals(CpuSet.range(0, 7), built.present());
        assertEquals(true, built.isMemoryless(1));
    }

    @Test
    void FMT_9_strictUnlessExpectSaysOtherwise() {
        TopologyBuilder bad = TopologyBuilder.machine("bad").node(0, "0").node(1, "1").distances(new int[] {10, 9}, new int[] {9, 10});
        assertEquals("bad: distance from node 0 to node 1 is 9; expected 11..255 (firmware tables with other values are discarded by the kernel)"
                        + " (strict mode; tag the file with 'expect slit-invalid' to load it leniently)",
                assertThrows(InvalidTopologyException.class, bad::build).getMessage());
        TopoDocument lenient = bad.expect(TopologyValidation.SLIT_INVALID).document();
        assertEquals(Set.of("slit-invalid"), lenient.expect());
        assertEquals(9, lenient.topology().distance(0, 1));
        assertEquals(lenient.expect(), TopoDocument.of(lenient.topology()).expect());
    }
}
