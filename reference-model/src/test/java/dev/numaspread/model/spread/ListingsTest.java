package dev.numaspread.model.spread;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The model prints what the sources printed (fixtures/listings): seed 000's 127 affinity hints of
 * the EPYC 7763 NIC on node 14 (IRQs 331..457), and seed 003's Kunpeng smp_affinity_list values.
 */
class ListingsTest {

    static final Path LISTINGS = Path.of("..", "fixtures", "listings");

    static List<String> hints(int[] plan, int firstIrq, int nrCpuIds) {
        List<String> out = new ArrayList<>();
        for (int q = 0; q < plan.length; q++) out.add((firstIrq + q) + ": " + CpuSet.of(plan[q]).toMask(nrCpuIds));
        return out;
    }

    @Test
    void LS_1_classicPlanPrintsTheBeforeHintsOfSeed000() throws IOException {
        Topology epyc = SourceMachines.epyc7763();
        int[] plan = LocalSpread.localSpreadCpus(KernelRelease.of(6, 1), epyc, 14, 127);
        assertEquals(Files.readAllLines(LISTINGS.resolve("epyc7763-node14-before.txt")), hints(plan, 331, 256));
    }

    @Test
    void LS_4_ringPlanPrintsTheAfterHintsOfSeed000() throws IOException {
        Topology epyc = SourceMachines.epyc7763();
        int[] plan = LocalSpread.localSpreadCpus(KernelRelease.of(6, 12), epyc, 14, 127);
        assertEquals(Files.readAllLines(LISTINGS.resolve("epyc7763-node14-after.txt")), hints(plan, 331, 256));
    }

    @Test
    void MLX_2_distancePatchPrintsTheAfterHintsOfSeed000() throws IOException {
        Topology epyc = SourceMachines.epyc7763();
        int[] plan = Mlx5.mlx5NumaDistanceCpus(KernelRelease.of(6, 0), epyc, 14, 127);
        assertEquals(Files.readAllLines(LISTINGS.resolve("epyc7763-node14-after.txt")), hints(plan, 331, 256));
    }

    @Test
    void LS_10_proposalAndClassicMatchSeed003() throws IOException {
        // IRQs 369..392 are queues 24..47: "before" is classic local spread, "after" the proposal.
        Topology kunpeng = SourceMachines.kunpeng920();
        KernelRelease k = KernelRelease.of(5, 4);
        String section = "";
        int checked = 0;
        for (String line : Files.readAllLines(LISTINGS.resolve("kunpeng920-node2-smp_affinity_list.txt"))) {
            if (line.startsWith("#") || line.equals("...")) continue;
            if (!line.contains(":")) { section = line; continue; }
            int queue = Integer.parseInt(line.substring(0, line.indexOf(':'))) - 369 + 24;
            CpuSet want = CpuSet.parseList(line.substring(line.indexOf(':') + 1));
            int got = section.equals("before") ? LocalSpread.localSpread(k, kunpeng, queue, 2)
                    : LocalSpreadNearestNode.localSpreadNearestNode(k, kunpeng, queue, 2);
            assertEquals(want, CpuSet.of(got), section + " queue " + queue);
            checked++;
        }
        assertEquals(8, checked);
    }
}
