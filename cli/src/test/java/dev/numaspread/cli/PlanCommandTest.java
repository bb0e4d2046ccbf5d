package dev.numaspread.cli;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Plan formats on a two-node machine of eight CPUs (node 0 = 0-3, node 1 = 4-7, SMT pairs 0-1,
 * 2-3, ...). The routine is a fake answering the classic order, derived by hand: for node 1,
 * 4 5 6 7 then 0 1 2 3. Expected masks are derived by hand from nr_cpu_ids 8 (two hex digits).
 */
class PlanCommandTest {

    static final String TOPO = String.join("\n",
            "topology two-nodes",
            "possible 0-7",
            "siblings 0-1 2-3 4-5 6-7",
            "available: 2 nodes (0-1)",
            "node 0 cpus: 0 1 2 3",
            "node 1 cpus: 4 5 6 7",
            "node distances:",
            "node   0   1",
            "  0:  10  20",
            "  1:  20  10",
            "");

    static final class Classic implements Implementation {
        @Override public String name() { return "classic"; }
        @Override public List<Claim> claims() { return List.of(); }
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            int[] order = node == 1 ? new int[]{4, 5, 6, 7, 0, 1, 2, 3} : new int[]{0, 1, 2, 3, 4, 5, 6, 7};
            int[] out = new int[count];
            for (int i = 0; i < count; i++) out[i] = order[i % 8];
            return out;
        }
        @Override public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
            return Optional.of(List.of(CpuSet.parseList("0-3"), CpuSet.parseList("4-7")));
        }
        @Override public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
            return new int[]{0, 0, 0, 0, 1, 1, 1, 1};
        }
        @Override public List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
            throw new KernelBug("oops", "NULL masks");
        }
    }

    record Run(int exit, String out, String err) {}

    static Run plan(Path dir, String... args) throws Exception {
        Path topo = dir.resolve("two-nodes.topo");
        Files.writeString(topo, TOPO);
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand(new Classic()));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 2];
        all[0] = "--topology";
        all[1] = topo.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return new Run(cl.execute(all), out.toString(), err.toString());
    }

    /** Runs plan with exactly {@code args}: the machine is not added. */
    static Run planWithout(Path dir, String... args) throws Exception {
        Files.writeString(dir.resolve("two-nodes.topo"), TOPO);
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand(new Classic()));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void machineMayBeGivenWithoutTheOption(@TempDir Path dir) throws Exception {
        String topo = dir.resolve("two-nodes.topo").toString();
        Run r = planWithout(dir, topo, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "5");
        assertEquals(0, r.exit(), r.err());
        assertEquals("4\n5\n6\n7\n0\n", r.out());
    }

    @Test
    void noMachineIsAUsageErrorThatSaysHowToGiveOne(@TempDir Path dir) throws Exception {
        Run r = planWithout(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "5");
        assertEquals(2, r.exit());
        assertEquals("numaspread plan: no machine given; expected FILE or --topology FILE (a .topo, .json, snapshot archive or sysfs copy)\n",
                r.err());
    }

    @Test
    void twoDifferentMachinesAreAUsageError(@TempDir Path dir) throws Exception {
        String topo = dir.resolve("two-nodes.topo").toString();
        Run r = planWithout(dir, "other.topo", "--topology", topo, "--routine", "local-spread", "--kernel", "6.1", "--node", "1");
        assertEquals(2, r.exit());
        assertEquals("numaspread plan: two machines given, other.topo and --topology " + topo + "; expected one\n", r.err());
    }

    @Test
    void listFormatIsOneCpuListPerQueue(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "5");
        assertEquals(0, r.exit(), r.err());
        assertEquals("4\n5\n6\n7\n0\n", r.out());
    }

    @Test
    void smpAffinityFormatPrintsHexMasksWithIrqNumbers(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "5",
                "--format", "smp_affinity", "--first-irq", "331");
        assertEquals(0, r.exit(), r.err());
        assertEquals("331: 10\n332: 20\n333: 40\n334: 80\n335: 01\n", r.out());
    }

    @Test
    void smpAffinityWithoutFirstIrqIsBareMasks(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.12", "--node", "0", "--count", "2", "--format", "smp_affinity");
        assertEquals("01\n02\n", r.out());
    }

    @Test
    void tableShowsNodeDistanceAndCore(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "5", "--format", "table");
        assertEquals(String.join("\n",
                "queue  cpu          node  distance core",
                "0      4            1     10       4-5",
                "1      5            1     10       4-5",
                "2      6            1     10       6-7",
                "3      7            1     10       6-7",
                "4      0            0     20       0-1",
                ""), r.out());
    }

    @Test
    void groupCpusIsOneGroupPerLine(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "group-cpus", "--kernel", "6.12", "--count", "2");
        assertEquals("0-3\n4-7\n", r.out());
    }

    @Test
    void blkMqMapPrintsCpuQueuePairsOrSysfsCpuLists(@TempDir Path dir) throws Exception {
        assertEquals("0 0\n1 0\n2 0\n3 0\n4 1\n5 1\n6 1\n7 1\n",
                plan(dir, "--routine", "blk-mq-map", "--kernel", "6.12", "--count", "2").out());
        assertEquals("0, 1, 2, 3\n4, 5, 6, 7\n",
                plan(dir, "--routine", "blk-mq-map", "--kernel", "6.12", "--count", "2", "--format", "cpu_list").out());
    }

    @Test
    void jsonCarriesTheRequestAndEveryQueue(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.12", "--node", "-1", "--count", "1", "--format", "json");
        assertEquals(0, r.exit(), r.err());
        com.fasterxml.jackson.databind.JsonNode j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        assertEquals(-1, j.get("node").asInt());
        assertEquals("0", j.get("queues").get(0).get("cpus").asText());
        assertEquals("01", j.get("queues").get(0).get("mask").asText());
    }

    @Test
    void unknownRoutineIsOneLineAndExit2(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "spread-it", "--kernel", "6.12", "--node", "1", "--count", "2");
        assertEquals(2, r.exit());
        assertEquals("numaspread plan: --routine 'spread-it': unknown routine; expected one of local-spread, "
                + "local-spread-nearest-node, mlx5-numa-distance, mlx5-comp-irqs, hop-masks, numa-closest, group-cpus, blk-mq-map, "
                + "irq-setup, mana-setup-irqs, page-pool, virtio-net-irqs, ena-irqs, gve-irqs, ice-irqs, i40e-irqs, bnxt-irqs\n", r.err());
    }

    @Test
    void unknownNodeIsOneLineAndExit2(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.12", "--node", "7", "--count", "2");
        assertEquals(2, r.exit());
        assertEquals(1, r.err().split("\n").length, r.err());
        assertEquals(true, r.err().endsWith("has no node 7 (nodes 0-1); expected one of them or -1 (NUMA_NO_NODE)\n"), r.err());
    }

    @Test
    void unknownReleaseIsOneLineAndExit2(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "7.9", "--node", "1", "--count", "2");
        assertEquals(2, r.exit());
        assertEquals("numaspread plan: --kernel: kernel release '7.9' is not modelled yet; expected 4.1 to 7.3"
                + " (the newest modelled release is 7.3)\n", r.err());
        Run never = plan(dir, "--routine", "local-spread", "--kernel", "6.20", "--node", "1", "--count", "2");
        assertEquals(2, never.exit());
        assertEquals("numaspread plan: --kernel: kernel release '6.20' never existed (6.19 was the last 6.x; 7.0 followed);"
                + " expected 4.1 to 7.3 (the newest modelled release is 7.3)\n", never.err());
        Run bad = plan(dir, "--routine", "local-spread", "--kernel", "latest", "--node", "1", "--count", "2");
        assertEquals(2, bad.exit());
        assertEquals("numaspread plan: --kernel: kernel release 'latest': expected MAJOR.MINOR such as 6.12\n", bad.err());
    }

    @Test
    void aPointReleaseMeansItsSeriesWithANote(@TempDir Path dir) throws Exception {
        Run point = plan(dir, "--routine", "local-spread", "--kernel", "6.12.3", "--node", "1", "--count", "2");
        Run series = plan(dir, "--routine", "local-spread", "--kernel", "6.12", "--node", "1", "--count", "2");
        assertEquals(0, point.exit(), point.err());
        assertEquals(series.out(), point.out());
        assertEquals("numaspread plan: note: --kernel 6.12.3 means the series 6.12, modelled as its current stable point release\n",
                point.err());
        assertEquals("", series.err());
    }

    @Test
    void routineTheImplementationLacksIsExit2(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "mlx5-comp-irqs", "--kernel", "6.12", "--node", "1", "--count", "2");
        assertEquals(2, r.exit());
        assertEquals("numaspread plan: --routine mlx5-comp-irqs --kernel 6.12: the reference model does not model it yet\n", r.err());
    }

    @Test
    void modelledKernelBugIsExit1(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "hop-masks", "--kernel", "6.12", "--node", "1");
        assertEquals(1, r.exit());
        assertEquals("numaspread plan: Linux 6.12 would fail here: oops: NULL masks\n", r.err());
    }

    /** FMT-13: --topology takes a sysfs snapshot directory; node 1 (CPUs 2-3) is served from itself first. */
    @Test
    void FMT_13_topologyMayBeASysfsSnapshot(@TempDir Path dir) throws Exception {
        Path snap = CheckTopologyCommandTest.snapshot(dir);
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute("--topology", snap.toString(), "--routine", "local-spread", "--kernel", "6.12", "--node", "1", "--count", "2");
        assertEquals(0, exit, err.toString());
        assertEquals("2\n3\n", out.toString());
    }

    // ---------------------------------------------------------------- a strict command line (issues 12 and 16)

    @Test
    void firstIrqBelowZeroOrPastTheLastIrqIsAUsageError(@TempDir Path dir) throws Exception {
        Run below = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "2", "--format", "smp_affinity",
                "--first-irq", "-5");
        assertEquals(2, below.exit());
        assertEquals("numaspread plan: --first-irq -5: out of range; expected 0 to 2147483647\n", below.err());
        Run past = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "2", "--format", "smp_affinity",
                "--first-irq", "2147483647");
        assertEquals(2, past.exit());
        assertEquals("numaspread plan: --first-irq 2147483647: the last of 2 lines would be IRQ 2147483648; expected at most 2147483647\n",
                past.err());
        assertEquals("", past.out());
    }

    @Test
    void aCountPastItsBoundIsAUsageErrorBeforeAnythingIsAllocated(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "1000000000");
        assertEquals(2, r.exit());
        assertEquals("numaspread plan: --count 1000000000: out of range; expected 1 to 65536\n", r.err());
        assertEquals(2, plan(dir, "--routine", "group-cpus", "--kernel", "6.12", "--count", "0").exit());
    }

    @Test
    void anOptionTheRoutineDoesNotTakeIsAUsageError(@TempDir Path dir) throws Exception {
        Run offset = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "2", "--offset", "3");
        assertEquals(2, offset.exit());
        assertEquals("numaspread plan: --offset does not apply to --routine local-spread (it takes --node, --count); leave it out\n",
                offset.err());
        Run node = plan(dir, "--routine", "group-cpus", "--kernel", "6.12", "--count", "2", "--node", "0");
        assertEquals("numaspread plan: --node does not apply to --routine group-cpus (it takes --count); leave it out\n", node.err());
        Run firstIrq = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "2", "--first-irq", "7");
        assertEquals("numaspread plan: --first-irq applies to --format smp_affinity only (not list); leave it out\n", firstIrq.err());
    }

    @Test
    void aDefaultTheRoutineTakesIsNotedNotSilent(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1");
        assertEquals(0, r.exit(), r.err());
        assertEquals("4\n", r.out());
        assertEquals("numaspread plan: note: --count not given: 1\n", r.err());
        Run noNode = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--count", "1");
        assertEquals("numaspread plan: note: --node not given: the device has no node (NUMA_NO_NODE, -1)\n", noNode.err());
    }

    /** A third party's local spread: the classic order with the first two CPUs swapped. */
    public static class Swapped implements Implementation {
        @Override public String name() { return "acme"; }
        @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.1")); }
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            int[] out = new Classic().localSpreadCpus(kernel, machine, node, count);
            if (count > 1) {
                int t = out[0];
                out[0] = out[1];
                out[1] = t;
            }
            return out;
        }
    }

    /** The same as the model of these tests. */
    public static class Same extends Swapped {
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            return new Classic().localSpreadCpus(kernel, machine, node, count);
        }
    }

    @Test
    void implPrintsAThirdPartysAnswerBesideTheModelsDifferencesMarked(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "3", "--impl", "java:" + Swapped.class.getName());
        assertEquals(1, r.exit(), r.err());
        assertEquals(String.join("\n",
                "queue  model  acme",
                "0      4      5     <> differs",
                "1      5      4     <> differs",
                "2      6      6",
                "2 of 3 queues differ between model and acme",
                ""), r.out());
        Run same = plan(dir, "--routine", "local-spread", "--kernel", "6.1", "--node", "1", "--count", "3", "--impl", "java:" + Same.class.getName());
        assertEquals(0, same.exit(), same.err());
        assertEquals("every queue is the same in model and acme", same.out().lines().reduce((a, b) -> b).orElseThrow());
    }

    @Test
    void implThatDoesNotClaimTheRoutineIsAUsageError(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.12", "--node", "1", "--count", "3", "--impl", "java:" + Swapped.class.getName());
        assertEquals(2, r.exit());
        assertEquals("numaspread plan: --impl java:" + Swapped.class.getName() + ": \"acme\" does not claim local-spread@6.12"
                + " (it claims local-spread@6.1); expected a claimed routine and release\n", r.err());
    }

    @Test
    void implThatCannotBeStartedIsAUsageError(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "--routine", "local-spread", "--kernel", "6.12", "--node", "1", "--count", "3", "--impl", "process:/nonexistent/spread");
        assertEquals(2, r.exit(), r.err());
        org.junit.jupiter.api.Assertions.assertTrue(r.err().startsWith("numaspread plan: --impl process:/nonexistent/spread: cannot start the program: the shell found"
                + " no such command (exit status 127)"), r.err());
    }
}
