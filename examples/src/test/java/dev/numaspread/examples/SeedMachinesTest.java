package dev.numaspread.examples;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The real machines of the seeds, with the values their mails printed: the AMD EPYC 7763 of seed
 * 000 (NIC on node 14, 127 IRQs, "Before" = classic local spread, "After" = the mlx5 distance
 * patch, which 6.3+ local spread reproduces) and the Kunpeng 920 of seed 003 (NIC on node 2).
 */
class SeedMachinesTest {
    private static final KernelRelease LINUX_6_1 = KernelRelease.of(6, 1);
    private static final KernelRelease LINUX_6_12 = KernelRelease.of(6, 12);
    private final KernelStyleSpread example = new KernelStyleSpread();

    static Path resource(String name) {
        try {
            return Path.of(SeedMachinesTest.class.getResource("/seeds/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Topology epyc() throws IOException {
        return TopoText.read(resource("epyc7763-2s-16node.topo"));
    }

    static Topology kunpeng() throws IOException {
        return TopoText.read(resource("kunpeng920-2s-96c.topo"));
    }

    /** The single CPU of each {@code IRQ: mask} line, as {@code /proc/irq/N/smp_affinity} printed it. */
    static int[] affinityHints(String file) throws IOException {
        List<String> lines = Files.readAllLines(resource(file)).stream().filter(l -> !l.startsWith("#")).toList();
        int[] cpus = new int[lines.size()];
        for (int i = 0; i < cpus.length; i++) {
            String[] parts = lines.get(i).split(":\\s*");
            assertEquals(331 + i, Integer.parseInt(parts[0]), file + " line " + (i + 2));
            BigInteger mask = new BigInteger(parts[1].replace(",", ""), 16);
            assertEquals(1, mask.bitCount(), file + ": IRQ " + parts[0] + " hints one CPU");
            cpus[i] = mask.getLowestSetBit();
        }
        return cpus;
    }

    // ------------------------------------------------------------------ seed 000, EPYC 7763

    @Test
    void seed000_before_isClassicLocalSpreadOnNode14() throws IOException {
        int[] before = affinityHints("epyc7763-node14-before.txt");
        assertEquals(127, before.length);
        assertArrayEquals(before, example.localSpreadCpus(LINUX_6_1, epyc(), 14, 127));
    }

    @Test
    void seed000_after_isLocalSpreadOnNode14In6_12() throws IOException {
        assertArrayEquals(affinityHints("epyc7763-node14-after.txt"), example.localSpreadCpus(LINUX_6_12, epyc(), 14, 127));
    }

    @Test
    void seed000_after_isTheMlx5DistancePatch() throws IOException {
        assertArrayEquals(affinityHints("epyc7763-node14-after.txt"), example.mlx5NumaDistanceCpus(LINUX_6_1, epyc(), 14, 127));
    }

    @Test
    void seed000_after_isMlx5CompIrqsIn6_12() throws IOException {
        assertArrayEquals(affinityHints("epyc7763-node14-after.txt"), example.mlx5CompIrqCpus(LINUX_6_12, epyc(), 14, 127));
    }

    /**
     * More vectors than online CPUs: the distance pass fails (Peter Zijlstra's review of seed 000)
     * and all 300 vectors come from classic local spread: the "Before" order for the first 127,
     * then the remaining CPUs ascending (111, 120-239, 248-255, by hand), then the wrap at 256.
     */
    @Test
    void seed000_moreVectorsThanCpus_fallsBackToClassicForAll() throws IOException {
        int[] before = affinityHints("epyc7763-node14-before.txt");
        int[] got = example.mlx5NumaDistanceCpus(LINUX_6_1, epyc(), 14, 300);
        assertArrayEquals(before, Arrays.copyOf(got, 127));
        assertEquals(111, got[127]);
        assertEquals(120, got[128]);
        assertEquals(239, got[247]);
        assertEquals(248, got[248]);
        assertEquals(255, got[255]);
        for (int i = 256; i < 300; i++) assertEquals(got[i - 256], got[i], "vector " + i + " wraps to " + (i - 256));
    }

    /** A 2-node machine with 4 online CPUs and 6 vectors on node 1: classic local spread 2,3,0,1,2,3 (by hand). */
    @Test
    void mlx5_sixVectorsOnFourCpus_areClassicLocalSpreadWithWraparound() {
        Topology t = TopoText.parse("""
                available: 2 nodes (0-1)
                node 0 cpus: 0 1
                node 1 cpus: 2 3
                node distances:
                node 0 1
                  0: 10 20
                  1: 20 10
                """, "two-by-two.topo");
        assertArrayEquals(new int[] {2, 3, 0, 1, 2, 3}, example.mlx5NumaDistanceCpus(LINUX_6_1, t, 1, 6));
        assertArrayEquals(new int[] {2, 3, 0, 1}, example.mlx5NumaDistanceCpus(LINUX_6_1, t, 1, 4));
    }

    // ------------------------------------------------------------------ seed 003, Kunpeng 920

    private static void assertRange(int[] got, int fromQueue, int firstCpu, int n, String what) {
        for (int q = 0; q < n; q++) assertEquals(firstCpu + q, got[fromQueue + q], what + ": queue " + (fromQueue + q));
    }

    @Test
    void seed003_linux6_1_sendsQueues24to47ToNode0() throws IOException {
        int[] got = example.localSpreadCpus(LINUX_6_1, kunpeng(), 2, 97);
        assertRange(got, 0, 48, 24, "6.1");
        assertRange(got, 24, 0, 24, "6.1 (IRQs 369-392 before the patch: CPUs 0-23)");
        assertRange(got, 48, 24, 24, "6.1");
        assertRange(got, 72, 72, 24, "6.1");
        assertEquals(48, got[96], "6.1: queue 96 wraps to the first CPU");
    }

    @Test
    void seed003_linux6_12_goesByDistance() throws IOException {
        int[] got = example.localSpreadCpus(LINUX_6_12, kunpeng(), 2, 97);
        assertRange(got, 0, 48, 24, "6.12");
        assertRange(got, 24, 72, 24, "6.12 (IRQs 369-392 after the patch: CPUs 72-95)");
        assertRange(got, 48, 24, 24, "6.12");
        assertRange(got, 72, 0, 24, "6.12");
        assertEquals(48, got[96], "6.12: queue 96 wraps to 48");
    }

    @Test
    void kunpeng_levels_areTheUniqueDistances() throws IOException {
        assertArrayEquals(new int[] {10, 16, 25, 32, 33}, example.numaLevels(LINUX_6_12, kunpeng()));
        assertArrayEquals(new int[] {10, 16, 25, 32, 33}, example.numaLevels(LINUX_6_1, kunpeng()));
    }
}
