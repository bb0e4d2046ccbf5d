package dev.numaspread.conformance.topogen;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Arch;
import dev.numaspread.model.topology.CpuPackage;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The builder's whole path ({@link TopologyBuilder#whole()}: the sets straight into a
 * {@link Topology}) builds what its draft builds, the path of a {@code .topo} file, on every kind
 * of generated machine, given all its sets as the generators give them; a machine that is not whole
 * is left to the draft, with its repairs and messages.
 */
class WholeBuildTest {

    /** A builder that says all of {@code m}: its masks, nodes with sizes, distances, siblings, packages, clusters, model. */
    static TopologyBuilder builderOf(Topology m, Set<String> expect) {
        TopologyBuilder b = TopologyBuilder.machine(m.name()).source(m.source()).expect(expect.toArray(String[]::new))
                .possible(m.possible()).present(m.present()).online(m.online()).siblings(m.smtSiblings()).cpuModel(m.cpuModel()).arch(m.arch());
        int[] ids = m.nodeIds();
        int[][] rows = new int[ids.length][ids.length];
        for (int i = 0; i < ids.length; i++) for (int j = 0; j < ids.length; j++) rows[i][j] = m.distance(ids[i], ids[j]);
        for (Node n : m.nodes()) {
            b.node(n.id(), n.cpus());
            if (n.sizeMiB() >= 0) b.nodeSize(n.id(), n.sizeMiB());
            else if (!n.hasMemory()) b.nodeSize(n.id(), 0);
        }
        b.distances(rows);
        for (CpuPackage p : m.packages()) b.pkg(p.id(), p.cpus());
        if (!m.clustersAssumed()) m.clusters().forEach(b::cluster);
        return b;
    }

    @Test
    void everyGeneratedMachineIsBuiltWhole_andAsTheDraftBuildsIt() {
        for (MachineGen g : List.of(Machines.realistic(), Machines.edgeCases(), Machines.any())) {
            for (long seed = 0; seed < 700; seed++) {
                Topology m = g.sample(seed);
                TopologyBuilder b = builderOf(m, TopoDocument.of(m).expect());
                long s = seed;
                Topology whole = b.whole().orElseThrow(() -> new AssertionError("seed " + s + ": not whole: " + m));
                assertEquals(b.document().topology(), whole, "seed " + s);
                assertEquals(m, whole, "seed " + s);
            }
        }
    }

    @Test
    void anArm64MachineIsBuiltWholeAsArm64() {
        // No generator draws arm64: a machine that states its architecture keeps it on the whole path too.
        TopologyBuilder arm = TopologyBuilder.machine("arm").arch(Arch.ARM64).possible(CpuSet.range(0, 3)).present(CpuSet.range(0, 3))
                .online(CpuSet.range(0, 2)).node(0, "0-1").node(1, "2-3").cluster("0-1").cluster("2").cluster("3");
        Topology whole = arm.whole().orElseThrow(() -> new AssertionError("not whole: " + arm.document().topology()));
        assertEquals(Arch.ARM64, whole.arch());
        assertEquals(arm.document().topology(), whole);
    }

    @Test
    void aMachineThatIsNotWholeIsLeftToTheDraft() {
        // A possible CPU in no node: the draft places it with a sibling (x86's numa_init_array()).
        TopologyBuilder unplaced = TopologyBuilder.machine("unplaced").possible(CpuSet.range(0, 3)).present(CpuSet.range(0, 3))
                .online(CpuSet.range(0, 3)).node(0, "0-2").siblings("0-1", "2-3");
        assertTrue(unplaced.whole().isEmpty());
        assertEquals(CpuSet.range(0, 3), unplaced.build().nodes().get(0).cpus());
        // No masks: the draft's defaults (online the nodes' CPUs, present online, possible present).
        TopologyBuilder defaults = TopologyBuilder.machine("defaults").node(0, "0-3");
        assertTrue(defaults.whole().isEmpty());
        assertEquals(CpuSet.range(0, 3), defaults.build().possible());
        // A kernel rule broken without its expect tag (TOPO-4: a diagonal of 11) is refused as the draft refuses it.
        TopologyBuilder diagonal = TopologyBuilder.machine("diagonal").possible(CpuSet.range(0, 1)).present(CpuSet.range(0, 1))
                .online(CpuSet.range(0, 1)).node(0, "0").node(1, "1").distances(new int[]{11, 20}, new int[]{20, 10});
        assertTrue(diagonal.whole().isEmpty());
        assertEquals(assertThrows(InvalidTopologyException.class, diagonal::document).getMessage(),
                assertThrows(InvalidTopologyException.class, diagonal::build).getMessage());
    }
}
