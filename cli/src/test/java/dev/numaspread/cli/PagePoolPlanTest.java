package dev.numaspread.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code plan --routine page-pool}: an action script replayed on the reference model, on the
 * two-node machine of {@link PlanCommandTest} (node 0 = 0-3, node 1 = 4-7). Expected steps worked
 * out by hand from spec/page-pool.md (6.12: the slow path takes two pages, serves the second).
 */
class PagePoolPlanTest {

    static final String SCRIPT = String.join("\n",
            "# the NAPI moves from node 0 to node 1",
            "create nid 0 cpu 0 cache 4 refill 2 pool_size 4",
            "alloc",
            "free 1",
            "poll 5",
            "alloc",
            "");

    record Run(int exit, String out, String err) {}

    static Run plan(Path dir, String script, String... args) throws Exception {
        Path topo = dir.resolve("two-nodes.topo");
        Files.writeString(topo, PlanCommandTest.TOPO);
        Path pp = dir.resolve("moves.pp");
        Files.writeString(pp, script);
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 8];
        System.arraycopy(new String[]{"--routine", "page-pool", "--kernel", "6.12", "--topology", topo.toString(), "--script", pp.toString()},
                0, all, 0, 8);
        System.arraycopy(args, 0, all, 8, args.length);
        return new Run(cl.execute(all), out.toString(), err.toString());
    }

    @Test
    void listPrintsWhatThePoolDidAndThePoolAfterEachAction(@TempDir Path dir) throws Exception {
        Run r = plan(dir, SCRIPT);
        assertEquals(0, r.exit(), r.err());
        assertEquals(String.join("\n",
                "create nid 0 cpu 0 cache 4 refill 2 pool_size 4",
                "alloc: served page 1 (node 0) from the page allocator",
                "  nid 0 cpu 0 | alloc cache 0:0 | ptr_ring - | in use 1:0 | page allocator -",
                "free 1: put page 1 (node 0) in the ptr_ring",
                "  nid 0 cpu 0 | alloc cache 0:0 | ptr_ring 1:0 | in use - | page allocator -",
                "poll 5: updated the node from 0 to 1; released page 0 (node 0)",
                "  nid 1 cpu 5 | alloc cache - | ptr_ring 1:0 | in use - | page allocator 0:0",
                "alloc: served page 3 (node 1) from the page allocator; released page 1 (node 0)",
                "  nid 1 cpu 5 | alloc cache 2:1 | ptr_ring - | in use 3:1 | page allocator 0:0 1:0",
                ""), r.out());
    }

    @Test
    void tableIsOneRowPerAction(@TempDir Path dir) throws Exception {
        Run r = plan(dir, SCRIPT, "--format", "table");
        assertEquals(0, r.exit(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals(5, lines.length, r.out());
        assertTrue(lines[0].startsWith("step action"), lines[0]);
        assertTrue(lines[3].startsWith("3    poll 5             1     5    -              1:0"), lines[3]);
    }

    @Test
    void jsonNamesTheScriptLineOfEachStep(@TempDir Path dir) throws Exception {
        Run r = plan(dir, SCRIPT, "--format", "json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\"line\" : 5"), r.out());
        assertTrue(r.out().contains("\"did\" : \"updated the node from 0 to 1; released page 0 (node 0)\""), r.out());
    }

    @Test
    void anActionThatCannotHappenNamesItsLine(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "create nid 0 cpu 0\nalloc\nrecycle 70\n");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("numaspread plan: "), r.err());
        assertTrue(r.err().contains("moves.pp:3: action 'recycle 70': recycle page 70: the page is not allocated yet (pages 0..63 exist)"), r.err());
    }

    @Test
    void aMalformedScriptNamesItsLine(@TempDir Path dir) throws Exception {
        Run r = plan(dir, "create nid 0 cpu 0\njump\n");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("moves.pp:2: found 'jump'; expected an action: poll, alloc, recycle, free or update-nid"), r.err());
    }

    @Test
    void scriptIsRequiredAndOnlyItsFormatsAreKnown(@TempDir Path dir) throws Exception {
        Path topo = dir.resolve("t.topo");
        Files.writeString(topo, PlanCommandTest.TOPO);
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        assertEquals(2, cl.execute("--routine", "page-pool", "--kernel", "6.12", "--topology", topo.toString()));
        assertEquals("numaspread plan: --routine page-pool needs --script FILE: the actions to replay\n", err.toString());
        Run r = plan(dir, SCRIPT, "--format", "smp_affinity");
        assertEquals(2, r.exit());
        assertEquals("numaspread plan: --format 'smp_affinity': page-pool prints list, table or json\n", r.err());
    }

    @Test
    void releasesBeforeTheFixAreRefused(@TempDir Path dir) throws Exception {
        Path topo = dir.resolve("t.topo");
        Files.writeString(topo, PlanCommandTest.TOPO);
        Path pp = dir.resolve("s.pp");
        Files.writeString(pp, SCRIPT);
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        assertEquals(2, cl.execute("--routine", "page-pool", "--kernel", "5.4", "--topology", topo.toString(), "--script", pp.toString()));
        assertTrue(err.toString().contains("page-pool is modelled for 5.6.."), err.toString());
    }

    /** Issue 16, FMT-17, FMT-18: a device filled the heap (exit 3), a byte that is not UTF-8 named a Java class. */
    @Test
    @dev.numaspread.conformance.rules.Proves({"FMT-17", "FMT-18"})
    void FMT_17_aScriptThatIsNoRegularFileOrNoTextIsAOneLineUsageError(@TempDir Path dir) throws Exception {
        Path topo = dir.resolve("t.topo");
        Files.writeString(topo, PlanCommandTest.TOPO);
        Path bad = dir.resolve("bad.pp");
        Files.write(bad, new byte[]{'a', 'l', 'l', 'o', 'c', (byte) 0xff, '\n'});
        for (String[] c : new String[][]{
                {"/dev/zero", "numaspread plan: /dev/zero: not a regular file (a FIFO, a device or a socket); expected a page-pool script\n"},
                {bad.toString(), "numaspread plan: " + bad + ":1:6: byte 0xff is not UTF-8; expected UTF-8 text\n"}}) {
            StringWriter out = new StringWriter(), err = new StringWriter();
            CommandLine cl = new CommandLine(new PlanCommand());
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            assertEquals(2, cl.execute("--routine", "page-pool", "--kernel", "6.12", "--topology", topo.toString(), "--script", c[0]), err.toString());
            assertEquals(c[1], err.toString());
        }
    }
}
