package dev.numaspread.cli;

import dev.numaspread.conformance.rules.Proves;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code plan --routine numa-closest} as a sequence of calls on one calling CPU (HOP-10), and the
 * README's cluster plan (GRP-15). Expected answers are derived by hand: on the Kunpeng 920 the
 * nearest level of node 0 holding a CPU of 0-47 is node 0 itself, CPUs 0-23; from 6.16 each call
 * returns the first of them above the last answer (above the state for the first call), wrapping.
 */
class PlanNumaClosestTest {

    static final String KUNPENG = Path.of("..", "fixtures", "topologies", "kunpeng920-4node.topo").toString();
    static final String CL1 = Path.of("..", "fixtures", "kernel-runs", "cl1-1node-40cpu-cluster4-linux-7.3-boot.topo").toString();

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    static Run closest(String kernel, String... more) {
        String[] base = {"plan", "--routine", "numa-closest", "--kernel", kernel, "--topology", KUNPENG, "--cpus", "0-47", "--cpu", "0"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return run(all);
    }

    @Test
    @Proves("HOP-10")
    void HOP_10_callsInTurnGoRoundFromTheBootState() {
        Run r = closest("7.3", "--calls", "4");
        assertEquals(0, r.code(), r.err());
        assertEquals("1\n2\n3\n4\n", r.out());
        assertTrue(r.err().contains("note: --prev not given: the calling CPU's distribute_cpu_mask_prev is 0, as at boot (HOP-10)"), r.err());
    }

    @Test
    @Proves("HOP-10")
    void HOP_10_theStateWrapsToTheLowestCpuOfTheLevel() {
        Run r = closest("7.3", "--calls", "3", "--prev", "22", "--calling-cpu", "5");
        assertEquals(0, r.code(), r.err());
        assertEquals("23\n0\n1\n", r.out());
        assertEquals("", r.err());
    }

    @Test
    @Proves("HOP-9")
    void HOP_9_before616EveryCallGivesTheLowestId() {
        Run r = closest("6.15", "--calls", "3", "--prev", "7");
        assertEquals(0, r.code(), r.err());
        assertEquals("0\n0\n0\n", r.out());
    }

    @Test
    void explainNamesTheLevelAndTheStateOfEachCall() {
        Run r = closest("7.3", "--calls", "2", "--prev", "22", "--explain");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        assertTrue(lines.get(0).matches("call +cpus +why +rules"), lines.get(0));
        assertTrue(lines.get(1).matches("0 +23 +level 0: node 0 itself, the nearest holding 0-23 of the set; the first above 22"
                + " \\(cpu 0's distribute_cpu_mask_prev\\) +HOP-5 HOP-10"), lines.get(1));
        assertTrue(lines.get(2).matches("1 +0 +level 0: node 0 itself, the nearest holding 0-23 of the set; none above 23, so its"
                + " lowest \\(cpu 0's distribute_cpu_mask_prev\\) +HOP-5 HOP-10"), lines.get(2));
    }

    @Test
    void releasesSideBySideNameTheLinesCalls() {
        Run r = closest("6.15,7.3", "--calls", "2");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("call  6.15  7.3"), r.out());
        assertTrue(r.out().contains("2 of 2 calls differ between 6.15 and 7.3"), r.out());
    }

    @Test
    void aCallingCpuThatIsNotOnlineOrAStateOutOfRangeIsAUsageError() {
        Run r = closest("7.3", "--calling-cpu", "96");
        assertEquals(2, r.code());
        assertEquals("numaspread plan: --calling-cpu 96: " + KUNPENG + " has online CPUs 0-95; expected one of them (the CPU that executes"
                + " the calls)\n", r.err());
        r = closest("7.3", "--prev", "96");
        assertEquals(2, r.code());
        assertEquals("numaspread plan: --prev 96: expected a CPU id, 0 to nr_cpu_ids - 1 = 95\n", r.err());
        r = closest("7.3", "--calls", "0");
        assertEquals(2, r.code());
        r = run("plan", "--routine", "group-cpus", "--kernel", "7.3", "--topology", KUNPENG, "--count", "2", "--calls", "2");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("numaspread plan: --calls does not apply to --routine group-cpus"), r.err());
    }

    /** The README's plan of 89802ca36c96's machine: 7.3 as the 7.3.4 kernel run printed it, the split cluster last. */
    @Test
    @Proves("GRP-15")
    void GRP_15_theCommitsMachineOn73AsTheKernelRunPrintedIt() {
        Run r = run("plan", "--routine", "group-cpus", "--kernel", "7.3", "--topology", CL1, "--count", "11");
        assertEquals(0, r.code(), r.err());
        assertEquals("4-7\n12-15\n16-19\n20-23\n24-27\n28-31\n32-35\n36-39\n8-11\n0-1\n2-3\n", r.out());
    }
}
