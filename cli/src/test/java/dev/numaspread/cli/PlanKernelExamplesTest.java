package dev.numaspread.cli;

import dev.numaspread.conformance.rules.Proves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The "Done when" examples of the issues, through the whole command line on the reference model.
 * Expected values come from the sources: the seed 000 listings in fixtures/listings, the seed 003
 * Kunpeng values, the seed 002 legacy map, the seed 004 MANA table and the kernel comment of
 * commit 4607617af1b4 "net: mana: explain irq_setup() algorithm", or are derived by hand as the
 * comments say.
 */
class PlanKernelExamplesTest {

    static final Path TOPOLOGIES = Path.of("..", "fixtures", "topologies");
    static final Path LISTINGS = Path.of("..", "fixtures", "listings");
    static final String EPYC = TOPOLOGIES.resolve("epyc7763-2s-16node.topo").toString();
    static final String KUNPENG = TOPOLOGIES.resolve("kunpeng920-4node.topo").toString();
    static final String MANA = TOPOLOGIES.resolve("mana-2node-32c-smt2.topo").toString();
    static final String ARM64 = TOPOLOGIES.resolve("arm64-2node-160cpu.topo").toString();

    /** The 2-node, 4-core, 8-CPU machine of the irq_setup() kernel comment (siblings adjacent). */
    static final String SMALL = String.join("\n",
            "topology 2node-4core-8cpu",
            "smt      2 adjacent",
            "available: 2 nodes (0-1)",
            "node 0 cpus: 0 1 2 3",
            "node 1 cpus: 4 5 6 7",
            "node distances:",
            "node   0   1",
            "  0:  10  20",
            "  1:  20  10",
            "");

    record Run(int code, String out, String err) {
        List<String> lines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n", -1)).subList(0, out.split("\n", -1).length - 1);
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    static Run ok(String... args) {
        Run r = run(args);
        assertEquals(0, r.code(), r.err());
        return r;
    }

    static String small(Path dir) throws IOException {
        Path p = dir.resolve("2node-4core-8cpu.topo");
        Files.writeString(p, SMALL);
        return p.toString();
    }

    // ---------------------------------------------------------------- issue 3: local spread

    @Test
    @Proves({"LS-3", "LS-7"})
    void LS_7_epycNode14On61PrintsTheBeforeListingOfSeed000() throws IOException {
        Run r = ok("plan", "--routine", "local-spread", "--kernel", "6.1", "--topology", EPYC, "--node", "14",
                "--count", "127", "--format", "smp_affinity", "--first-irq", "331");
        assertEquals(Files.readString(LISTINGS.resolve("epyc7763-node14-before.txt")), r.out());
    }

    @Test
    @Proves({"LS-4", "LS-6"})
    void LS_6_epycNode14On612PrintsTheAfterListingOfSeed000() throws IOException {
        Run r = ok("plan", "--routine", "local-spread", "--kernel", "6.12", "--topology", EPYC, "--node", "14",
                "--count", "127", "--format", "smp_affinity", "--first-irq", "331");
        assertEquals(Files.readString(LISTINGS.resolve("epyc7763-node14-after.txt")), r.out());
    }

    @Test
    @Proves("LS-7")
    void LS_7_kunpengNode2On61SendsQueues24To47ToCpus0To23() {
        List<String> q = ok("plan", "--routine", "local-spread", "--kernel", "6.1", "--topology", KUNPENG, "--node", "2",
                "--count", "48").lines();
        for (int i = 0; i < 24; i++) assertEquals(String.valueOf(48 + i), q.get(i), "queue " + i);
        for (int i = 24; i < 48; i++) assertEquals(String.valueOf(i - 24), q.get(i), "queue " + i);
    }

    @Test
    @Proves({"LS-4", "LS-2"})
    void LS_4_kunpengNode2On612GoesRingByRingAndWrapsAt96() {
        List<String> q = ok("plan", "--routine", "local-spread", "--kernel", "6.12", "--topology", KUNPENG, "--node", "2",
                "--count", "97").lines();
        assertEquals(97, q.size());
        for (int i = 0; i < 24; i++) assertEquals(String.valueOf(48 + i), q.get(i), "queue " + i);
        for (int i = 24; i < 48; i++) assertEquals(String.valueOf(72 + i - 24), q.get(i), "queue " + i);
        for (int i = 48; i < 72; i++) assertEquals(String.valueOf(24 + i - 48), q.get(i), "queue " + i);
        for (int i = 72; i < 96; i++) assertEquals(String.valueOf(i - 72), q.get(i), "queue " + i);
        assertEquals("48", q.get(96));
    }

    @Test
    @Proves("LS-10")
    void LS_10_kunpengNode2WithThe2020ProposalSendsQueues24To47ToCpus72To95() {
        List<String> q = ok("plan", "--routine", "local-spread-nearest-node", "--kernel", "6.1", "--topology", KUNPENG,
                "--node", "2", "--count", "48").lines();
        for (int i = 0; i < 24; i++) assertEquals(String.valueOf(48 + i), q.get(i), "queue " + i);
        for (int i = 24; i < 48; i++) assertEquals(String.valueOf(72 + i - 24), q.get(i), "queue " + i);
    }

    // ---------------------------------------------------------------- issue 4: hops and mlx5

    @Test
    @Proves("MLX-2")
    void MLX_2_epycNode14PrintsTheAfterListingOfSeed000() throws IOException {
        Run r = ok("plan", "--routine", "mlx5-numa-distance", "--kernel", "6.1", "--topology", EPYC, "--node", "14",
                "--count", "127", "--format", "smp_affinity", "--first-irq", "331");
        assertEquals(Files.readString(LISTINGS.resolve("epyc7763-node14-after.txt")), r.out());
    }

    @Test
    @Proves("MLX-3")
    void MLX_3_300QueuesOnTheEpycAreClassicLocalSpreadWithWraparound() {
        List<String> q = ok("plan", "--routine", "mlx5-numa-distance", "--kernel", "6.1", "--topology", EPYC, "--node", "14",
                "--count", "300").lines();
        assertEquals(300, q.size());
        // Node 14 is cores 112-119 and their SMT siblings 240-247 (stride 128); the classic order is
        // those 16 ascending, then every other CPU ascending, repeated every 256 queues.
        List<Integer> classic = new ArrayList<>();
        for (int c = 112; c <= 119; c++) classic.add(c);
        for (int c = 240; c <= 247; c++) classic.add(c);
        for (int c = 0; c < 256; c++) if (!classic.contains(c)) classic.add(c);
        for (int i = 0; i < 300; i++) assertEquals(String.valueOf(classic.get(i % 256)), q.get(i), "queue " + i);
        assertEquals("112", q.get(0));
        assertEquals("247", q.get(15));
        assertEquals("0", q.get(16));
        assertEquals("111", q.get(127));
        assertEquals("112", q.get(256));
    }

    @Test
    @Proves({"HOP-1", "HOP-2"})
    void HOP_1_kunpengNode2HopMasksAreCumulativeOnePerLine() {
        Run r = ok("plan", "--routine", "hop-masks", "--kernel", "6.12", "--topology", KUNPENG, "--node", "2");
        assertEquals("48-71\n48-95\n24-95\n0-95\n0-95\n", r.out());
    }

    // ---------------------------------------------------------------- issue 5: MANA

    @Test
    @Proves({"SIB-1", "SIB-2", "SIB-5"})
    void SIB_5_manaMachine64IrqsOnNode0GetEveryCoreTwice() {
        Run r = ok("plan", "--routine", "irq-setup", "--kernel", "6.9", "--topology", MANA, "--node", "0",
                "--count", "64", "--format", "list");
        StringBuilder want = new StringBuilder();
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < 32; k++) want.append(2 * k).append('-').append(2 * k + 1).append('\n');
        assertEquals(want.toString(), r.out());
    }

    @Test
    @Proves("SIB-5")
    void SIB_5_theKernelCommentExampleOnTwoNodesOfFourCpus(@TempDir Path dir) throws IOException {
        Run r = ok("plan", "--routine", "irq-setup", "--kernel", "6.9", "--topology", small(dir), "--node", "0", "--count", "8");
        assertEquals("0-1\n2-3\n0-1\n2-3\n4-5\n6-7\n4-5\n6-7\n", r.out());
    }

    @Test
    @Proves("SIB-8")
    void SIB_8_irqsPastTheHopsAreUntouchedInEveryFormat(@TempDir Path dir) throws IOException {
        String topo = small(dir);
        // Two hops of four CPUs, two cores each, two passes: 8 IRQs; IRQs 8 and 9 keep no affinity.
        Run list = ok("plan", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--node", "0", "--count", "10");
        assertEquals("0-1\n2-3\n0-1\n2-3\n4-5\n6-7\n4-5\n6-7\n\n\n", list.out());
        Run mask = ok("plan", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--node", "0", "--count", "10",
                "--format", "smp_affinity", "--first-irq", "40");
        assertEquals("40: 03\n41: 0c\n42: 03\n43: 0c\n44: 30\n45: c0\n46: 30\n47: c0\n48: 00\n49: 00\n", mask.out());
        Run table = ok("plan", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--node", "0", "--count", "10",
                "--format", "table");
        List<String> t = table.lines();
        assertEquals("irq    cpu          node  distance core", t.get(0));
        assertEquals("0      0-1          0     10       0-1", t.get(1));
        assertEquals("4      4-5          1     20       4-5", t.get(5));
        assertEquals("8      untouched    -     -        -", t.get(9));
        assertEquals("9      untouched    -     -        -", t.get(10));
    }

    @Test
    @Proves("SIB-7")
    void SIB_7_skipFirstCpuOnlyFrom617(@TempDir Path dir) throws IOException {
        String topo = small(dir);
        // 6.17: core 0-1 is skipped once but still counted, so hop 0 takes 3 IRQs, then hop 1.
        Run r = ok("plan", "--routine", "irq-setup", "--kernel", "6.17", "--topology", topo, "--node", "0", "--count", "4",
                "--skip-first-cpu");
        assertEquals("2-3\n0-1\n2-3\n4-5\n", r.out());
        Run old = run("plan", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--node", "0", "--skip-first-cpu");
        assertEquals(2, old.code());
        assertEquals(1, old.err().split("\n").length, old.err());
        assertTrue(old.err().startsWith("numaspread plan: --skip-first-cpu: Linux 6.9 has no skip_first_cpu"), old.err());
    }

    @Test
    @Proves("SIB-9")
    void SIB_9_theHwcSharesCore0WithQueue1WhenVectorsExceedOnlineCpus(@TempDir Path dir) throws IOException {
        String topo = small(dir);
        // 8 online CPUs: min(8, 64) + 1 = 9 vectors > 8, so vector 0 (the HWC) gets CPU 0 alone and
        // vectors 1..8 go through irq_setup as in the kernel comment.
        Run r = ok("plan", "--routine", "mana-setup-irqs", "--kernel", "6.9", "--topology", topo, "--node", "0");
        assertEquals("0\n0-1\n2-3\n0-1\n2-3\n4-5\n6-7\n4-5\n6-7\n", r.out());
        // 3 vectors granted: no more than the online CPUs, all three through irq_setup.
        Run granted = ok("plan", "--routine", "mana-setup-irqs", "--kernel", "6.9", "--topology", topo, "--node", "0",
                "--granted", "3", "--format", "table");
        assertEquals(List.of("vector cpu          node  distance core",
                "0      0-1          0     10       0-1",
                "1      2-3          0     10       2-3",
                "2      0-1          0     10       0-1"), granted.lines());
        Run none = run("plan", "--routine", "mana-setup-irqs", "--kernel", "6.9", "--topology", topo, "--node", "0",
                "--granted", "1");
        assertEquals(1, none.code());
        assertTrue(none.err().startsWith("numaspread plan: Linux 6.9 would fail here: -ENOSPC: "), none.err());
    }

    // ---------------------------------------------------------------- issue 6: groups and blk-mq

    @Test
    @Proves("GRP-10")
    void GRP_10_seed002MachineTwoGroupsAreTheTwoNodes() {
        assertEquals("0-79\n80-159\n",
                ok("plan", "--routine", "group-cpus", "--kernel", "6.12", "--topology", ARM64, "--count", "2").out());
    }

    @Test
    @Proves({"MQ-3", "MQ-8"})
    void MQ_3_seed002MachineQueue0IsNode0AndQueue1Node1InSysfsForm() {
        Run r = ok("plan", "--routine", "blk-mq-map", "--kernel", "6.12", "--topology", ARM64, "--count", "2",
                "--format", "cpu_list");
        assertEquals(sysfs(0, 80, 1) + "\n" + sysfs(80, 160, 1) + "\n", r.out());
    }

    @Test
    @Proves({"MQ-2", "MQ-4"})
    void MQ_4_seed002LegacyMapAlternatesQueuesAcrossBothNodes() {
        // Before the patch: CPUs 0 and 1 take queues 0 and 1, then (no SMT) every next CPU takes the
        // next queue modulo 2: even CPUs on queue 0, odd CPUs on queue 1, on both nodes.
        Run r = ok("plan", "--routine", "blk-mq-map", "--kernel", "6.1", "--topology", ARM64, "--count", "2",
                "--format", "cpu_list");
        assertEquals(sysfs(0, 160, 2) + "\n" + sysfs(1, 160, 2) + "\n", r.out());
        List<String> pairs = ok("plan", "--routine", "blk-mq-map", "--kernel", "6.1", "--topology", ARM64, "--count", "2").lines();
        assertEquals(160, pairs.size());
        for (int c = 0; c < 160; c++) assertEquals(c + " " + (c % 2), pairs.get(c));
    }

    @Test
    @Proves("GRP-10")
    void GRP_10_fourEqualNodesStartAtNode1WithThePre2024Sort(@TempDir Path dir) throws IOException {
        StringBuilder topo = new StringBuilder();
        for (int n = 0; n < 4; n++) {
            topo.append("node ").append(n).append(" cpus:");
            for (int c = 32 * n; c < 32 * n + 32; c++) topo.append(' ').append(c);
            topo.append('\n');
        }
        Path p = dir.resolve("4node-32cpu.topo");
        Files.writeString(p, topo.toString());
        Run r = ok("plan", "--routine", "group-cpus", "--kernel", "6.1", "--topology", p.toString(), "--count", "16");
        // 4 groups of 8 CPUs per node, nodes in the order 1, 2, 3, 0 (the 2019 report).
        StringBuilder want = new StringBuilder();
        for (int node : new int[]{1, 2, 3, 0})
            for (int g = 0; g < 4; g++) want.append(32 * node + 8 * g).append('-').append(32 * node + 8 * g + 7).append('\n');
        assertEquals(want.toString(), r.out());
        assertTrue(r.out().startsWith("32-39\n"), r.out());
    }

    private static String sysfs(int from, int to, int step) {
        StringBuilder sb = new StringBuilder();
        for (int c = from; c < to; c += step) sb.append(sb.length() == 0 ? "" : ", ").append(c);
        return sb.toString();
    }

    // ---------------------------------------------------------------- usage errors

    @Test
    void unknownRoutineNodeOrKernelIsOneLineAndExit2() {
        Run routine = run("plan", "--routine", "spread-it", "--kernel", "6.12", "--topology", KUNPENG, "--node", "2");
        Run node = run("plan", "--routine", "local-spread", "--kernel", "6.12", "--topology", KUNPENG, "--node", "9");
        Run kernel = run("plan", "--routine", "local-spread", "--kernel", "3.0", "--topology", KUNPENG, "--node", "2");
        for (Run r : List.of(routine, node, kernel)) {
            assertEquals(2, r.code(), r.err());
            assertEquals("", r.out());
            assertEquals(1, r.err().split("\n").length, r.err());
        }
        assertTrue(routine.err().startsWith("numaspread plan: --routine 'spread-it': unknown routine; expected one of "), routine.err());
        assertTrue(node.err().endsWith("has no node 9 (nodes 0-3); expected one of them or -1 (NUMA_NO_NODE)\n"), node.err());
        assertEquals("numaspread plan: --kernel: kernel release '3.0' is before 4.1, where cpumask_local_spread appeared;"
                + " expected 4.1 to 7.3 (the newest modelled release is 7.3)\n", kernel.err());
    }
}
