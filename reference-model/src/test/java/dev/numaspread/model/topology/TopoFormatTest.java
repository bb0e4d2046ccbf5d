package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code .topo} reader and writer (spec/formats.md FMT-5 to FMT-11). */
class TopoFormatTest {

    static final String KUNPENG = """
            topology kunpeng
            source seed 003
            available: 4 nodes (0-3)
            node 0 cpus: 0 1 2 3 4 5
            node 1 cpus: 6 7 8 9 10 11
            node 2 cpus: 12 13 14 15 16 17
            node 3 cpus: 18 19 20 21 22 23
            node distances:
            node   0   1   2   3
              0:  10  16  32  33
              1:  16  10  25  32
              2:  32  25  10  16
              3:  33  32  16  10
            """;

    static Topology read(String text) {
        return TopoFormat.read(text, "t.topo").topology();
    }

    static String error(String text, String file) {
        return assertThrows(InvalidTopologyException.class, () -> TopoFormat.read(text, file)).getMessage();
    }

    @Test
    void FMT_5_readsNumactlOutputVerbatim() {
        Topology t = read(KUNPENG);
        assertArrayEquals(new int[] {0, 1, 2, 3}, t.nodeIds());
        assertEquals(CpuSet.range(12, 17), t.cpusOf(2));
        assertEquals(25, t.distance(1, 2));
        assertEquals(33, t.distance(3, 0));
        assertEquals(CpuSet.range(0, 23), t.online());
    }

    /** numactl 2.0.19 widened the columns; the reader splits on white space. */
    @Test
    void FMT_5_readsBothNumactlColumnWidths() {
        String wide = KUNPENG.replace("node   0   1   2   3", "node     0    1    2    3")
                .replace("  0:  10  16  32  33", "   0:   10   16   32   33 ");
        assertEquals(read(KUNPENG).distances(), read(wide).distances());
    }

    @Test
    void FMT_5_readsCompressedNodeLinesAndCounts() {
        Topology t = read("""
                available: 2 nodes (0-1)
                node 0 cpus: 0-3, 8-11 (8)
                node 1 cpus: 4,5,6,7,12-15
                node distances:
                node 0 1
                0: 10 21
                1: 21 10
                """);
        assertEquals(CpuSet.parseList("0-3,8-11"), t.cpusOf(0));
        assertEquals(CpuSet.parseList("4-7,12-15"), t.cpusOf(1));
        assertEquals("t", t.name());
    }

    @Test
    void FMT_5_noDistanceInformationMeansTenAndTwenty() {
        Topology t = read("""
                available: 2 nodes (0-1)
                node 0 cpus: 0 1
                node 1 cpus: 2 3
                No distance information available.
                """);
        assertEquals(10, t.distance(1, 1));
        assertEquals(20, t.distance(0, 1));
    }

    /** POWER9: columns follow the header's sparse ids; CPU-less nodes have empty cpus lines. */
    @Test
    void FMT_5_sparseNodeIdsMapColumnsByTheHeader() {
        Topology t = TopoFormat.read(Path.of("..", "fixtures", "topologies", "power9-v100-gpunodes.topo")).topology();
        assertArrayEquals(new int[] {0, 8, 250, 251, 252, 253, 254, 255}, t.nodeIds());
        assertEquals(40, t.distance(8, 0));
        assertEquals(80, t.distance(250, 8));
        assertEquals(10, t.distance(255, 255));
        assertTrue(t.isCpuless(250));
        assertEquals(0, t.nodeOf(87));
        assertEquals(8, t.nodeOf(104));
        assertEquals(CpuSet.parseList("0-15,88-103"), t.online());
        assertEquals(CpuSet.range(0, 175), t.possible());
        assertEquals(CpuSet.range(4, 7), t.siblingsOf(5));
    }

    @Test
    void FMT_6_defaultsFollowTheNodeLinesAndNodeOf() {
        Topology t = read("""
                node-of 3 0
                available: 2 nodes (0-1)
                node 0 cpus: 0 1 2
                node 1 cpus: 4 5
                node distances:
                node 0 1
                0: 10 20
                1: 20 10
                """);
        assertEquals(CpuSet.parseList("0-2,4-5"), t.online());
        assertEquals(CpuSet.range(0, 5).without(3).with(3), t.present());
        assertEquals(CpuSet.parseList("0-5"), t.present());
        assertEquals(t.present(), t.possible());
        assertEquals(0, t.nodeOf(3));
    }

    /** Kernel runs put node-of after the numactl lines and give siblings as groups. */
    @Test
    void FMT_7_readsTheKernelRunDialect() {
        Topology t = TopoFormat.read(Path.of("..", "fixtures", "kernel-runs", "c-epyc-4node-smt-split-linux-6.12-offline.topo")).topology();
        assertEquals(CpuSet.of(1, 9), t.siblingsOf(9));
        assertEquals(CpuSet.of(1), t.onlineSiblingsOf(1));
        assertEquals(0, t.nodeOf(9));
        assertEquals(CpuSet.parseList("0-1,8"), t.onlineCpusOf(0));
    }

    @Test
    void FMT_7_smtNumberings() {
        String nodes = "available: 1 nodes (0)\nnode 0 cpus: 0-7\n";
        assertEquals(CpuSet.of(2, 3), read("smt 2 adjacent\n" + nodes).siblingsOf(3));
        assertEquals(CpuSet.of(3, 7), read("smt 2 stride 4\n" + nodes).siblingsOf(3));
        assertEquals(CpuSet.of(1, 3, 5, 7), read("smt 4 stride 2\n" + nodes).siblingsOf(5));
        assertEquals(CpuSet.of(0, 6), read("siblings 0,6 1-2\n" + nodes).siblingsOf(6));
        assertEquals(CpuSet.of(3), read("siblings 0,6 1-2\n" + nodes).siblingsOf(3));
        assertEquals(CpuSet.of(3), read("smt none\n" + nodes).siblingsOf(3));
    }

    @Test
    void FMT_7_packagesAndClusters() {
        String nodes = "available: 2 nodes (0-1)\nnode 0 cpus: 0-3\nnode 1 cpus: 4-7\n";
        Topology perNode = read("smt 2 adjacent\npackages per-node\ncluster every 1 cores\n" + nodes);
        assertEquals(List.of(new CpuPackage(0, CpuSet.range(0, 3)), new CpuPackage(1, CpuSet.range(4, 7))), perNode.packages());
        assertEquals(List.of(CpuSet.of(0, 1), CpuSet.of(2, 3), CpuSet.of(4, 5), CpuSet.of(6, 7)), perNode.clusters());
        Topology every = read("smt 2 stride 4\npackages every 2 cores\n" + nodes.replace("0-3", "0-1,4-5").replace("4-7", "2-3,6-7"));
        assertEquals(List.of(new CpuPackage(0, CpuSet.of(0, 1, 4, 5)), new CpuPackage(1, CpuSet.of(2, 3, 6, 7))), every.packages());
        Topology raw = read("package 36 cpus 0-3\npackage 8442 cpus 4-7\n" + nodes);
        assertEquals(8442, raw.packageOf(5).orElseThrow().id());
    }

    @Test
    void FMT_8_readsAnLscpuBlock() {
        Topology t = TopoFormat.read(Path.of("..", "fixtures", "topologies", "patho-lscpu-only.topo")).topology();
        assertEquals(CpuSet.of(1, 5), t.siblingsOf(1));
        assertEquals(List.of(new CpuPackage(0, CpuSet.parseList("0-1,4-5")), new CpuPackage(1, CpuSet.parseList("2-3,6-7"))), t.packages());
        assertEquals(1, t.nodeOf(6));
        assertEquals(20, t.distance(0, 1));
    }

    @Test
    void FMT_8_lscpuOnlineColumnMarksOfflineCpus() {
        Topology t = read("""
                lscpu-p:
                # CPU,Core,Socket,Node,Online
                0,0,0,0,Y
                1,0,0,0,N
                2,1,0,1,Y
                3,1,0,1,Y
                """);
        assertEquals(CpuSet.of(0, 2, 3), t.online());
        assertEquals(CpuSet.of(0, 1), t.siblingsOf(1));
        assertEquals(0, t.nodeOf(1));
    }

    @Test
    void FMT_9_notesAndExpectTagsAreKept() {
        TopoDocument d = TopoFormat.read("note two # not a comment\nexpect b a\nexpect c\n" + KUNPENG.replace("topology kunpeng\n", ""), "x.topo");
        assertEquals(List.of("two # not a comment"), d.notes());
        assertEquals(Set.of("a", "b", "c"), d.expect());
        assertEquals(List.of("a", "b", "c"), List.copyOf(d.expect()));
    }

    // ---------------------------------------------------------------- FMT-10 messages

    @Test
    void FMT_10_shortDistanceRowNamesFileLineAndCounts() {
        String bad = KUNPENG.replace("  3:  33  32  16  10", "  3:  33  32  16");
        assertEquals("kunpeng.topo:13: distance row for node 3 has 3 values, the header lists 4 nodes", error(bad, "kunpeng.topo"));
    }

    @Test
    void FMT_10_cpuInTwoNodesIsRejectedInEveryMode() {
        String bad = KUNPENG.replace("source seed 003", "source seed 003\nexpect anything").replace("node 2 cpus: 12", "node 2 cpus: 5 12");
        assertEquals("k.topo:7: cpu 5 is in node 2 and in node 0 (k.topo:5); expected each CPU in exactly one node", error(bad, "k.topo"));
    }

    @Test
    void FMT_10_unknownLine() {
        assertEquals("u.topo:2: unknown line 'sockets 2'; expected numactl -H output or a directive (topology, source, note, possible,"
                + " present, online, isolated, smt, siblings, package, packages, cluster, cpu-model, arch, llc, die, node-of, memless, expect, numactl:, lscpu-p:)",
                error("topology u\nsockets 2\n", "u.topo"));
    }

    @Test
    void FMT_10_badCpuList() {
        assertEquals("b.topo:1: cpu list piece 'x' in '0-3,x': 'x' is not a CPU id; expected a list such as 0-7,128-135",
                error("possible 0-3,x\n", "b.topo"));
    }

    @Test
    void FMT_10_otherShapes() {
        assertEquals("a.topo:1: available: says 3 nodes but lists 2 (0-1); expected the count to match the list",
                error("available: 3 nodes (0-1)\n", "a.topo"));
        assertEquals("a.topo:2: 'smt 2'; expected 'smt none', 'smt W adjacent' or 'smt W stride S'",
                error("node 0 cpus: 0\nsmt 2\n", "a.topo"));
        assertEquals("a.topo:2: 'topology' after other lines; expected it as the first directive",
                error("smt none\ntopology a\n", "a.topo"));
        assertEquals("a.topo:1: no NUMA nodes; expected numactl -H lines such as 'node 0 cpus: 0-3' or an lscpu-p: block with a Node column",
                error("topology a\n", "a.topo"));
        assertEquals("a.topo:3: distance row for node 1 before the header; expected a 'node 0 1 ...' line first",
                error("node 0 cpus: 0\nnode 1 cpus: 1\n1: 20 10\n", "a.topo"));
        assertEquals("a.topo:3: node 1 has no row in the distance table (header at a.topo:3 lists 0-1); expected a row for every node",
                error("node 0 cpus: 0\nnode 1 cpus: 1\nnode 0 1\n0: 10 20\n", "a.topo"));
        assertEquals("a.topo:3: cpu 9 of node 0 is not possible (possible 0-7); expected node CPUs within the possible CPUs",
                error("possible 0-7\npresent 0-7\nnode-of 9 0\nnode 0 cpus: 0-7\n", "a.topo"));
        assertEquals("a.topo:1: present CPUs 9 are not possible (possible 0-7); expected present ⊆ possible (strict mode; tag the file with"
                + " 'expect present-not-possible' to load it leniently)", error("possible 0-7\nnode-of 9 0\nnode 0 cpus: 0-7\n", "a.topo"));
    }

    @Test
    void FMT_10_strictModeNamesTheRuleAndTheWayOut() {
        String bad = "online 0-3\nnode 0 cpus: 0-4\n";
        assertEquals("s.topo:2: node 0 cpus: lists 4, not online (online 0-3); expected online CPUs only (numactl prints those), with"
                + " 'node-of 4 0' for the others (strict mode; tag the file with 'expect offline-cpu-in-node-line' to load it leniently)",
                error(bad, "s.topo"));
    }

    @Test
    void FMT_10_unreadableFile() {
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> TopoFormat.read(Path.of("no-such.topo")));
        assertEquals("no-such.topo: no such file; expected a .topo file", e.getMessage());
    }

    // ---------------------------------------------------------------- FMT-11 round trip

    @Test
    void FMT_11_writerOutputForKunpeng() {
        assertEquals("""
                topology kunpeng
                source seed 003
                possible 0-23
                present 0-23
                online 0-23
                smt none
                numactl:
                available: 4 nodes (0-3)
                node 0 cpus: 0-5
                node 1 cpus: 6-11
                node 2 cpus: 12-17
                node 3 cpus: 18-23
                node distances:
                node   0   1   2   3
                  0:  10  16  32  33
                  1:  16  10  25  32
                  2:  32  25  10  16
                  3:  33  32  16  10
                """, TopoFormat.write(read(KUNPENG)));
    }

    @Test
    void FMT_11_sparseOfflineMemlessMachineRoundTrips() {
        String text = """
                topology rt
                source hand
                possible 0-11
                present 0-9
                online 0-2,4-7
                siblings 0-1 4-5 8-9
                package 3 cpus 0-3,8-11
                package 4 cpus 4-7
                cluster cpus 0-1,4-5
                cluster cpus 2-3,6-11
                node-of 3,8-11 0
                memless 9
                numactl:
                available: 3 nodes (0,5,9)
                node 0 cpus: 0-2
                node 5 cpus: 4-7
                node 5 size: 0 MB
                node 9 cpus:
                node distances:
                node   0   5   9
                  0:  10  12  30
                  5:  15  10  30
                  9:  30  30  10
                """;
        TopoDocument d = TopoFormat.read(text, "rt.topo");
        Topology t = d.topology();
        assertFalse(t.node(9).orElseThrow().hasMemory());
        assertFalse(t.node(5).orElseThrow().hasMemory());
        assertEquals(0, t.node(5).orElseThrow().sizeMiB());
        assertEquals(text, TopoFormat.write(d));
        assertEquals(t, TopoFormat.read(TopoFormat.write(t), "again.topo").topology());
    }

    /** A machine that breaks a kernel rule is written with the expect tag it needs to load again as itself. */
    @Test
    void FMT_11_machineBreakingAKernelRuleIsWrittenWithItsTag() {
        Topology t = TopoFormat.read("""
                topology flat
                expect slit-invalid
                node 0 cpus: 0
                node 1 cpus: 1
                node distances:
                node   0   1
                  0:  10  10
                  1:  10  10
                """, "flat.topo").topology();
        String text = TopoFormat.write(t);
        assertTrue(text.contains("\nexpect slit-invalid\n"), text);
        assertEquals(t, TopoFormat.read(text, "again.topo").topology());
        assertEquals(Set.of("slit-invalid"), TopoDocument.of(t).expect());
        assertEquals(Set.of(), TopoDocument.of(read(KUNPENG)).expect());
    }

    // ---------------------------------------------------------------- FMT-16 limits (issue 16's inputs)

    static final String TWO_NODES = "node 0 cpus: 0-1\nnode 1 cpus: 2-3\n";

    /** Each of these once ran forever or out of memory; each is refused at its token. */
    @Test
    void FMT_16_refusesNumbersPastTheKernelsLimitsAtTheirToken() {
        assertEquals("t.topo:1:6: node id 2147483647; expected 0-1023 (MAX_NUMNODES 1024, spec/formats.md FMT-16)",
                error("node 2147483647 cpus: 0-3", "t.topo"));
        assertEquals("t.topo:1: cpu list piece '2147483646' in '2147483646': 2147483646 is past NR_CPUS; expected CPU ids 0-8191"
                + " (spec/formats.md FMT-16)", error("node 0 cpus: 2147483646", "t.topo"));
        assertEquals("t.topo:1:12: node count 2147483647; expected 0-1024 (MAX_NUMNODES 1024, spec/formats.md FMT-16)",
                error("available: 2147483647 nodes", "t.topo"));
        assertEquals("t.topo:1: cpu list piece '0-99999999' in '0-99999999': 99999999 is past NR_CPUS; expected CPU ids 0-8191"
                + " (spec/formats.md FMT-16)", error("possible 0-99999999", "t.topo"));
        assertEquals("t.topo:1: cpu list piece '0-99999' in '0-99999': 99999 is past NR_CPUS; expected CPU ids 0-8191 (spec/formats.md FMT-16)",
                error("node 0 cpus: 0-99999", "t.topo"));
        assertEquals("t.topo:1:6: node id 99999999999999999999999; expected 0-1023 (MAX_NUMNODES 1024, spec/formats.md FMT-16)",
                error("node 99999999999999999999999 size: 1 MB", "t.topo"));
        assertEquals("t.topo:2:14: smt stride 8193; expected 1-8192 (NR_CPUS 8192, spec/formats.md FMT-16)",
                error(TWO_NODES.replace("node 1", "smt 2 stride 8193\nnode 1"), "t.topo"));
    }

    @Test
    void FMT_16_refusesTablesPastMaxNumnodes() {
        StringBuilder header = new StringBuilder("node");
        int col1025 = 0;
        for (int i = 0; i < 1500; i++) {
            if (i == 1024) col1025 = header.length() + 2;   // the 1025th id, 1-based column after its space
            header.append(' ').append(i % 1024);
        }
        assertEquals("t.topo:4:" + col1025 + ": a distance header of more than 1024 nodes; expected at most 1024 (MAX_NUMNODES, spec/formats.md FMT-16)",
                error(TWO_NODES + "node distances:\n" + header + "\n", "t.topo"));
        StringBuilder row = new StringBuilder("0:");
        for (int i = 0; i < 1025; i++) row.append(" 10");
        assertTrue(error(TWO_NODES + "node 0 1\n" + row + "\n", "t.topo")
                .endsWith(": a distance row of more than 1024 values; expected at most 1024 (MAX_NUMNODES, spec/formats.md FMT-16)"));
        assertEquals("t.topo:4:7: distance 1000; expected 0-999", error(TWO_NODES + "node 0 1\n0: 10 1000\n1: 20 10\n", "t.topo"));
        assertEquals("t.topo:4:7: distance '-20'; expected a whole number", error(TWO_NODES + "node 0 1\n0: 10 -20\n1: 20 10\n", "t.topo"));
    }

    @Test
    void FMT_16_refusesFullWidthAndArabicIndicDigits() {
        assertEquals("t.topo:1:6: node id '３'; expected a whole number", error("node ３ cpus: 0", "t.topo"));
        assertEquals("t.topo:1: cpu list piece '٣' in '٣': '٣' is not a CPU id; expected a list such as 0-7,128-135", error("node 0 cpus: ٣", "t.topo"));
    }

    @Test
    void FMT_16_refusesAMemorySizePastA64BitAddressSpace() {
        assertEquals(2147483648L, read("node 0 cpus: 0\nnode 0 size: 2147483648 MB\n").nodes().get(0).sizeMiB());
        assertEquals("t.topo:2:14: node size 17592186044417 MB; expected 0-17592186044416 MB (a 64-bit physical address space, spec/formats.md FMT-16)",
                error("node 0 cpus: 0\nnode 0 size: 17592186044417 MB\n", "t.topo"));
    }

    /** A line that says again what an earlier line said would cost NR_CPUS per line; it is refused. */
    @Test
    void FMT_16_refusesACpuNamedTwiceByOneKindOfLine() {
        assertEquals("t.topo:2: cpu 2 is in two node-of lines (t.topo:1); expected each CPU in one node-of",
                error("node-of 2-3 0\nnode-of 0-2 0\n" + TWO_NODES, "t.topo"));
        assertEquals("t.topo:2: cpu 1 is in two package lines (t.topo:1); expected each CPU in one package",
                error("package 0 cpus 0-1\npackage 1 cpus 1-3\n" + TWO_NODES, "t.topo"));
        assertEquals("t.topo:2: cpu 1 is in two cluster lines (t.topo:1); expected each CPU in one cluster",
                error("cluster cpus 0-1\ncluster cpus 1-3\n" + TWO_NODES, "t.topo"));
        assertEquals("t.topo:3: cpu 0 has a second lscpu -p row; expected one row per CPU", error("lscpu-p:\n0,0,0,0\n0,0,0,0\n", "t.topo"));
    }

    /** Tabs separate words as spaces do; CRLF ends a line as LF does (FMT-18). */
    @Test
    void FMT_18_readsTabsAndCrlf() {
        Topology lf = read(KUNPENG);
        Topology crlf = read(KUNPENG.replace("\n", "\r\n").replace("  ", "\t"));
        assertEquals(lf, crlf);
    }

    @Test
    void FMT_18_refusesControlCharactersWithTheirColumn() {
        assertEquals("t.topo:2:6: byte 0x1b (ESC); expected text (tabs and line ends are the only control characters read)",
                error(TWO_NODES.replace("\nnode 1", "\nnote \u001b[31mred\nnode 1"), "t.topo"));
        assertEquals("t.topo:1:2: byte 0x00 (NUL); expected text (tabs and line ends are the only control characters read)",
                error("n\0ode 0 cpus: 0", "t.topo"));
    }

    @Test
    void FMT_18_quotesAtMostSixtyCharactersOfAnUnknownLine() {
        assertEquals("t.topo:1: unknown line '" + "x".repeat(60) + "...'; expected numactl -H output or a directive (topology, source, note,"
                + " possible, present, online, isolated, smt, siblings, package, packages, cluster, cpu-model, arch, llc, die, node-of, memless, expect, numactl:, lscpu-p:)",
                error("x".repeat(100), "t.topo"));
    }

    /** Found by the fuzz campaign (ReaderFuzzTest): a long topology name was quoted whole, 135,748 characters. */
    @Test
    void FMT_18_quotesAtMostSixtyCharactersOfATopologyName() {
        assertEquals("t.topo:1: topology name '" + "X".repeat(60) + "...'; expected lower-case letters, digits, '.', '_' or '-'",
                error("topology " + "X".repeat(100_000) + "\nnode 0 cpus: 0\n", "t.topo"));
    }

    /** Found by the fuzz campaign: a JSON source of 300,000 characters was written as a .topo line too long to read back. */
    @Test
    void FMT_17_refusesNamesSourcesNotesAndTagsPast4096Characters() {
        assertEquals("t.topo:1: topology name '" + "x".repeat(60) + "...' of 4097 characters; expected at most 4096 (spec/formats.md FMT-17)",
                error("topology " + "x".repeat(4097) + "\nnode 0 cpus: 0\n", "t.topo"));
        assertEquals("t.topo: source '" + "s".repeat(60) + "...' of 5000 characters; expected at most 4096 (spec/formats.md FMT-17)",
                error("source " + "s".repeat(5000) + "\nnode 0 cpus: 0\n", "t.topo"));
        assertEquals("t.topo: note '" + "n".repeat(60) + "...' of 4097 characters; expected at most 4096 (spec/formats.md FMT-17)",
                error("note " + "n".repeat(4097) + "\nnode 0 cpus: 0\n", "t.topo"));
        assertEquals(4096, TopoFormat.read("note " + "n".repeat(4096) + "\nnode 0 cpus: 0\n", "t.topo").notes().get(0).length());
    }

    /** {@code arch arm64} reads, writes back and changes the live cluster mask of an offline CPU (TOPO-13); x86 is the default. */
    @Test
    void FMT_6_archDirectiveStatesTheArchitecture() {
        String text = "arch arm64\nonline 0-2\ncluster cpus 0-3\nnode 0 cpus: 0 1 2\nnode-of 3 0\n";
        Topology arm = TopoFormat.read(text, "a.topo").topology();
        assertEquals(Arch.ARM64, arm.arch());
        assertEquals(CpuSet.of(3), arm.topologyClusterCpumask(3));
        assertEquals(CpuSet.parseList("0-2"), arm.topologyClusterCpumask(0));
        Topology x86 = TopoFormat.read(text.replace("arch arm64\n", ""), "x.topo").topology();
        assertEquals(Arch.X86, x86.arch());
        assertEquals(CpuSet.EMPTY, x86.topologyClusterCpumask(3));
        String written = TopoFormat.write(new TopoDocument(arm, List.of(), Set.of(), List.of()));
        assertTrue(written.contains("\narch arm64\n"), written);
        assertEquals(arm.named("x", ""), TopoFormat.read(written, "w.topo").topology().named("x", ""));
        assertFalse(TopoFormat.write(new TopoDocument(x86, List.of(), Set.of(), List.of())).contains("arch"));
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class, () -> TopoFormat.read("arch sparc\n" + text, "s.topo"));
        assertEquals("s.topo:1: arch 'sparc'; expected x86 or arm64 (the architecture decides an offline CPU's cluster mask; x86 is the default)",
                e.getMessage());
    }
}
