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

/** {@code numaspread check-topology} (FMT-10 messages, exit codes). */
class CheckTopologyCommandTest {

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new CheckTopologyCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static final Path FIXTURES = Path.of("..", "fixtures", "topologies");

    @Test
    void FMT_10_describesKunpeng() {
        Run r = run(FIXTURES.resolve("kunpeng920-4node.topo").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("kunpeng920-4node: valid (strict mode)\n"), r.out());
        assertTrue(r.out().contains("  node 2: cpus 48-71 (24 online), 64509 MB\n"), r.out());
        assertTrue(r.out().contains("distances 5 levels over the nodes with CPUs: 10 16 25 32 33\n"), r.out());
        assertTrue(r.out().contains("node0-not-representative"), r.out());
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("TOPO-12")
    void TOPO_12_showsClustersAndSaysWhenTheyWereAssumed(@TempDir Path dir) throws Exception {
        Run assumed = run(FIXTURES.resolve("kunpeng920-4node.topo").toString());
        assertTrue(assumed.out().contains("clusters  assumed: each SMT core is its own cluster (96); no cluster lines were given\n"), assumed.out());
        assertTrue(assumed.out().contains("  clusters-assumed: no clusters given: each SMT core is taken as its own cluster"), assumed.out());
        Path modules = dir.resolve("modules.topo");
        Files.writeString(modules, "smt 2 adjacent\ncluster every 2 cores\nnode 0 cpus: 0-15\n");
        Run stated = run(modules.toString());
        assertEquals(0, stated.code(), stated.err());
        assertTrue(stated.out().contains("clusters  4 of 4 CPUs: 0-3 4-7 8-11 12-15\n"), stated.out());
        assertTrue(stated.out().contains("warnings  none\n"), stated.out());
        assertTrue(!stated.out().contains("empty cluster mask"), stated.out());
        // Kernel run cl2, offline phase: CPU 3 offline, so node 0 (0-7) loses the cluster step from 7.0 (GRP-13).
        Run offline = run(Path.of("..", "fixtures", "kernel-runs", "cl2-2node-2cl-2c-2t-linux-7.3-offline.topo").toString());
        assertTrue(offline.out().contains("clusters  4 of 4 CPUs: 0-3 4-7 8-11 12-15\n"
                + "  empty cluster mask: 3 (offline); from 7.0 node 0 grouped node-wide (GRP-13)\n"), offline.out());
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("FMT-20")
    void FMT_20_describesTheCpuModelAndTheSchedulersDistancesPerRelease() {
        Run r = run(FIXTURES.resolve("gnr-2s-snc2-16cpu.topo").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("cpu model intel-graniterapids-x (INTEL_GRANITERAPIDS_X), 2 packages, 2 nodes per package\n"), r.out());
        assertTrue(r.out().contains("scheduler distances (arch_sched_node_distance, spec/numa-levels.md LVL-6 to LVL-8):\n"
                + "  6.18      levels 10 12 20 24 (node_distance())\n"
                + "  6.19-7.3  levels 10 12 20 24 (node_distance())\n"), r.out());
        Run json = run("--format", "json", FIXTURES.resolve("gnr-2s-snc2-16cpu.topo").toString());
        assertTrue(json.out().contains("\"cpuModel\" : \"intel-graniterapids-x\""), json.out());
        Run plain = run(FIXTURES.resolve("kunpeng920-4node.topo").toString());
        assertTrue(!plain.out().contains("cpu model") && !plain.out().contains("scheduler distances"), plain.out());
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("LVL-8")
    void LVL_8_planFollowsTheDirectiveReleaseByRelease() {
        // SNC-2 keeps node_distance() from 6.19 (6.19.7 took the 7.0 fix); SNC-3's other package is one level from 6.19.
        String snc2 = FIXTURES.resolve("gnr-2s-snc2-16cpu.topo").toString();
        assertEquals("4-7\n0-7\n0-7,12-15\n0-15\n", plan(snc2, "6.19"));
        assertEquals("4-7\n0-7\n0-7,12-15\n0-15\n", plan(snc2, "7.3"));
        String snc3 = FIXTURES.resolve("gnr-2s-snc3-24cpu.topo").toString();
        assertEquals("4-7\n0-11\n0-11\n0-11\n0-15,20-23\n0-23\n0-23\n", plan(snc3, "6.18"));
        assertEquals("4-7\n0-11\n0-11\n0-23\n", plan(snc3, "6.19"));
        assertEquals("4-7\n0-11\n0-11\n0-23\n", plan(snc3, "7.3"));
    }

    /** The hop masks of node 1 as {@code plan --routine hop-masks} lists them. */
    static String plan(String topo, String kernel) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        CommandLine cl = new CommandLine(new PlanCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("--routine", "hop-masks", "--kernel", kernel, "--topology", topo, "--node", "1");
        assertEquals(0, code, err.toString());
        return out.toString();
    }

    @Test
    void FMT_10_everyFixtureExitsZero() throws Exception {
        try (var s = Files.walk(Path.of("..", "fixtures"))) {
            for (Path p : s.filter(p -> p.toString().endsWith(".topo")).toList())
                assertEquals(0, run(p.toString()).code(), p.toString());
        }
    }

    @Test
    void FMT_10_malformedFileExitsOneWithFileLine(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("kunpeng.topo");
        Files.writeString(bad, Files.readString(FIXTURES.resolve("kunpeng920-4node.topo")).replace("  3:  33  32  16  10", "  3:  33  32  16"));
        Run r = run(bad.toString());
        assertEquals(1, r.code());
        assertEquals(bad + ":27: distance row for node 3 has 3 values, the header lists 4 nodes\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void FMT_10_strictOverridesExpect() {
        Run r = run("--strict", FIXTURES.resolve("patho-slit-invalid.topo").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("patho-slit-invalid.topo:11: distance from node 0 to node 1 is 10; expected 11..255"), r.err());
        assertEquals(0, run(FIXTURES.resolve("patho-slit-invalid.topo").toString()).code());
    }

    @Test
    void FMT_12_jsonOutputReadsBack(@TempDir Path dir) throws Exception {
        Run r = run("--format", "json", FIXTURES.resolve("power9-v100-gpunodes.topo").toString());
        assertEquals(0, r.code());
        Path json = dir.resolve("p9.json");
        Files.writeString(json, r.out());
        Run again = run(json.toString());
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().startsWith("power9-v100-gpunodes: valid (lenient mode, expect cpuless-nodes sparse-node-ids)"), again.out());
    }

    @Test
    void FMT_11_topoOutputOfASnapshotReadsBackToTheSameMachine(@TempDir Path dir) throws Exception {
        Path snap = snapshot(dir);
        Run r = run("--format", "topo", snap.toString());
        assertEquals(0, r.code(), r.err());
        Path topo = dir.resolve("snap.topo");
        Files.writeString(topo, r.out());
        assertTrue(dev.numaspread.model.topology.TopoFormat.read(topo).topology()
                .sameMachineAs(dev.numaspread.conformance.fixtures.TopologyFiles.read(snap, java.util.Optional.empty()).topology()), r.out());
        assertTrue(r.out().contains("node 1 cpus: 2 3") || r.out().contains("node 1 cpus: 2-3"), r.out());
    }

    /** A two-node snapshot, as {@code cp -r /sys/devices/system/{cpu,node} snap/} leaves it. */
    static Path snapshot(Path dir) throws Exception {
        Path snap = dir.resolve("snap");
        String[][] files = {
                {"cpu/possible", "0-3"}, {"cpu/present", "0-3"}, {"cpu/online", "0-3"},
                {"cpu/cpu0/topology/thread_siblings_list", "0-1"}, {"cpu/cpu1/topology/thread_siblings_list", "0-1"},
                {"cpu/cpu2/topology/thread_siblings_list", "2-3"}, {"cpu/cpu3/topology/thread_siblings_list", "2-3"},
                {"node/node0/cpulist", "0-1"}, {"node/node0/distance", "10 21"}, {"node/node0/meminfo", "Node 0 MemTotal: 2097152 kB"},
                {"node/node1/cpulist", "2-3"}, {"node/node1/distance", "21 10"}, {"node/node1/meminfo", "Node 1 MemTotal: 2097152 kB"}};
        for (String[] f : files) {
            Path p = snap.resolve(f[0]);
            Files.createDirectories(p.getParent());
            Files.writeString(p, f[1] + "\n");
        }
        return snap;
    }

    @Test
    void FMT_13_describesASysfsSnapshot(@TempDir Path dir) throws Exception {
        Run r = run(snapshot(dir).toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("snap: valid (strict mode)\n"), r.out());
        assertTrue(r.out().contains("  node 1: cpus 2-3 (2 online), 2048 MB\n"), r.out());
    }

    @Test
    void FMT_14_aBrokenSnapshotExitsOneNamingTheFile(@TempDir Path dir) throws Exception {
        Path snap = snapshot(dir);
        Files.writeString(snap.resolve("node/node1/distance"), "21\n");
        Run r = run(snap.toString());
        assertEquals(1, r.code());
        assertEquals(snap.resolve("node/node1/distance") + ": found 1 value; expected 2, one per online node\n", r.err());
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, run().code());
        assertEquals(2, run("--strict", "--lenient", "x.topo").code());
        Run help = run("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("Exit codes:"), help.out());
    }

    // ---------------------------------------------------------------- issue 16's inputs, whole command

    @Test
    @dev.numaspread.conformance.rules.Proves("FMT-16")
    void FMT_16_theIssuesTopologiesEndInOneLineAndExitOne(@TempDir Path dir) throws Exception {
        String[][] cases = {
                {"node 2147483647 cpus: 0-3", "1:6: node id 2147483647; expected 0-1023 (MAX_NUMNODES 1024, spec/formats.md FMT-16)"},
                {"node 0 cpus: 2147483646", "1: cpu list piece '2147483646' in '2147483646': 2147483646 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)"},
                {"available: 2147483647 nodes", "1:12: node count 2147483647; expected 0-1024 (MAX_NUMNODES 1024, spec/formats.md FMT-16)"},
                {"possible 0-99999999", "1: cpu list piece '0-99999999' in '0-99999999': 99999999 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)"},
                {"node 0 cpus: 0-99999", "1: cpu list piece '0-99999' in '0-99999': 99999 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)"},
        };
        for (String[] c : cases) {
            Path f = dir.resolve("t.topo");
            Files.writeString(f, c[0]);
            Run r = run(f.toString());
            assertEquals(new Run(1, "", f + ":" + c[1] + "\n"), r, c[0]);
        }
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("FMT-17")
    void FMT_17_devicesFifosAndHugeFilesAreRefusedUnread(@TempDir Path dir) throws Exception {
        assertEquals(new Run(1, "", "/dev/zero: not a regular file (a FIFO, a device or a socket); expected a .topo file\n"), run("/dev/zero"));
        Path fifo = dir.resolve("fifo.topo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        assertEquals(new Run(1, "", fifo + ": not a regular file (a FIFO, a device or a socket); expected a .topo file\n"), run(fifo.toString()));
        Path big = dir.resolve("big.topo");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(50L << 20);
        }
        assertEquals(new Run(1, "", big + ": a file of 52428800 bytes; expected a .topo file of at most 16 MiB (spec/formats.md FMT-17)\n"),
                run(big.toString()));
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("FMT-18")
    void FMT_18_aByteThatIsNoTextIsNamedWithoutAClassName(@TempDir Path dir) throws Exception {
        Path latin1 = dir.resolve("latin1.topo");
        Files.write(latin1, new byte[] {'n', 'o', 't', 'e', ' ', 'c', 'a', 'f', (byte) 0xe9, '\n'});
        assertEquals(new Run(1, "", latin1 + ":1:9: byte 0xe9 is not UTF-8; expected UTF-8 text\n"), run(latin1.toString()));
    }

    /** The size numactl printed past 2^31 MB: its own --format json reads back (FMT-19). */
    @Test
    @dev.numaspread.conformance.rules.Proves("FMT-19")
    void FMT_19_itsOwnJsonReadsBack(@TempDir Path dir) throws Exception {
        Path topo = dir.resolve("big-memory.topo");
        Files.writeString(topo, "node 0 cpus: 0-3\nnode 0 size: 2147483648 MB\n");
        Run json = run("--format", "json", topo.toString());
        assertEquals(0, json.code(), json.err());
        Path back = dir.resolve("big-memory.json");
        Files.writeString(back, json.out());
        Run again = run("--format", "json", back.toString());
        assertEquals(new Run(0, json.out(), ""), again);
        assertTrue(json.out().contains("\"memMiB\" : 2147483648"), json.out());
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("FMT-19")
    void FMT_19_notesPrintEscaped(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("n.json");
        Files.writeString(json, "{\"source\": \"evil\\u202etxt\", \"nodes\": [{\"id\": 0, \"cpus\": \"0\"}]}");
        Run r = run(json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("source    evil\\u{202e}txt\n"), r.out());
        assertTrue(r.out().chars().noneMatch(c -> c == 0x202e), r.out());
    }
}
