package dev.numaspread.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code plan --kernel A,B,C}, {@code plan --format svg} and {@code plan --explain} as the README
 * runs them. Expected values come from the kernel runs (blk-mq maps 6.1 and 6.12 printed for 3
 * queues) and from seed 003's Kunpeng 920 distances, not from the model.
 */
class PlanPlacementsTest {

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    static final String A612 = "../fixtures/kernel-runs/a-2node-2s2c2t-linux-6.12-boot.topo", KUNPENG = "../fixtures/topologies/kunpeng920-4node.topo";

    @Test
    void releasesSideBySideMarkTheRowsThatDiffer() {
        Run r = run("plan", "--routine", "blk-mq-map", "--kernel", "6.1,6.12", "--topology", A612, "--count", "3");
        assertEquals(0, r.code(), r.err());
        assertEquals(String.join("\n",
                "queue  6.1    6.12",
                "0      0,4-5  4-7   <> differs",
                "1      1,6-7  0-1   <> differs",
                "2      2-3    2-3",
                "2 of 3 queues differ between 6.1 and 6.12", ""), r.out());
    }

    /** A profile is a series: 6.12 and 6.12.3 name one column, printed once, with one note line saying so. */
    @Test
    void aSeriesNamedTwiceIsOneColumnWithANote() {
        Run r = run("plan", "--routine", "blk-mq-map", "--kernel", "6.1,6.12,6.12.3,6.1", "--topology", A612, "--count", "3");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("queue  6.1    6.12\n"), r.out());
        assertTrue(r.out().endsWith("\n2 of 3 queues differ between 6.1 and 6.12\n"), r.out());
        assertEquals(List.of("numaspread plan: note: --kernel 6.12.3 means the series 6.12, modelled as its current stable point release",
                "numaspread plan: note: --kernel 6.1,6.12,6.12.3,6.1 names the series 6.12, 6.1 more than once; each is printed once"),
                r.err().lines().toList());
        // One release left: what takes one release only takes it.
        Run one = run("plan", "--routine", "blk-mq-map", "--kernel", "6.12,6.12", "--topology", A612, "--count", "3", "--format", "json");
        assertEquals(0, one.code(), one.err());
        assertEquals("numaspread plan: note: --kernel 6.12,6.12 names the series 6.12 more than once; it is printed once\n", one.err());
    }

    @Test
    void svgDrawsReleasesNextToEachOther() {
        Run r = run("plan", "--routine", "local-spread", "--kernel", "6.1,6.12", "--topology", KUNPENG, "--node", "2", "--count", "48", "--format", "svg");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"placement\""), r.out());
        assertEquals(List.of("Linux 6.1", "Linux 6.12"), r.out().lines().filter(l -> l.startsWith("<g class=\"panel\""))
                .map(l -> l.replaceAll(".*data-title=\"([^\"]*)\".*", "$1")).toList());
        // Queues 24-47: CPUs 0-23 (node 0) in 6.1, 72-95 (node 3, distance 16) in 6.12; so 48 CPU cells differ, in both panels.
        assertEquals(96, r.out().lines().filter(l -> l.startsWith("<g class=\"cpu differs\"")).count());
        assertTrue(r.out().contains("<g id=\"legend\" class=\"legend\">"), r.out());
        int node2 = r.out().indexOf("data-node=\"2\""), node3 = r.out().indexOf("data-node=\"3\""), node1 = r.out().indexOf("data-node=\"1\""),
                node0 = r.out().indexOf("data-node=\"0\"");
        assertTrue(node2 < node3 && node3 < node1 && node1 < node0, "nodes by distance from node 2: 2, 3 (16), 1 (25), 0 (32)");
    }

    @Test
    void explainGivesRingDistanceAndRules() {
        Run r = run("plan", "--routine", "local-spread", "--kernel", "6.12", "--topology", KUNPENG, "--node", "2", "--count", "25", "--explain");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(1).matches("0 +48 +ring 0: node 2 itself \\(distance 10\\), ascending CPU id across the ring +LS-3 LS-4 LS-6"), lines.get(1));
        assertTrue(lines.get(25).matches("24 +72 +ring 1: distance 16 from node 2 \\(node 3\\), ascending CPU id across the ring +LS-4 LS-6"), lines.get(25));
    }

    static final String GNR = "../fixtures/topologies/gnr-2s-snc3-24cpu.topo";

    /**
     * LVL-8 on the SNC-3 example, node 4 (CPUs 16-19), whose row is 23 26 23 15 10 15: 6.18 places
     * by node_distance(), 7.3 by the scheduler's distance, the other package at 434 / 18 = 24
     * (values from the SLIT of commit 528d89a4707e's message). The displays show the distance that
     * placed each CPU, and say when it is the scheduler's.
     */
    @Test
    @dev.numaspread.conformance.rules.Proves("LVL-8")
    void LVL_8_tableShowsTheSchedulersDistanceAndSaysSo() {
        Run r = run("plan", "--routine", "local-spread", "--kernel", "7.3", "--topology", GNR, "--node", "4", "--count", "24", "--format", "table");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("queue  cpu          node  distance core", lines.get(0));
        assertTrue(lines.get(1).matches("0 +16 +4 +10 +16"), lines.get(1));
        assertTrue(lines.get(5).matches("4 +12 +3 +15 +12"), lines.get(5));
        assertTrue(lines.get(13).matches("12 +0 +0 +24 +0"), lines.get(13));      // node_distance(4, 0) is 23
        assertTrue(lines.get(17).matches("16 +4 +1 +24 +4"), lines.get(17));      // node_distance(4, 1) is 26
        assertEquals("distance: the scheduler's, arch_sched_node_distance(), which Linux 7.3 builds the NUMA levels from on this"
                + " machine; node_distance() differs (spec/numa-levels.md LVL-8)", lines.get(25));
        Run raw = run("plan", "--routine", "local-spread", "--kernel", "6.18", "--topology", GNR, "--node", "4", "--count", "24", "--format", "table");
        List<String> rawLines = raw.out().lines().toList();
        assertTrue(rawLines.get(13).matches("12 +0 +0 +23 +0"), rawLines.get(13));
        assertTrue(rawLines.get(21).matches("20 +4 +1 +26 +4"), rawLines.get(21));
        assertEquals(25, rawLines.size(), raw.out());
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("LVL-8")
    void LVL_8_svgAndExplainNameTheSchedulersDistance() {
        Run svg = run("plan", "--routine", "local-spread", "--kernel", "6.18,7.3", "--topology", GNR, "--node", "4", "--count", "24", "--format", "svg");
        assertEquals(0, svg.code(), svg.err());
        assertTrue(svg.out().contains("node 0 · distance 23 · CPUs"), "6.18's header: node_distance()");
        assertTrue(svg.out().contains("node 0 · distance 24 (sched; raw 23) · CPUs"), "7.3's header: the scheduler's distance");
        assertTrue(svg.out().contains("sched: arch_sched_node_distance(), the distance this release&#39;s NUMA levels use here (LVL-8);"
                + " raw: node_distance()."), "the legend says what it is");
        Run hops = run("plan", "--routine", "hop-masks", "--kernel", "7.3", "--topology", GNR, "--node", "4", "--explain");
        assertEquals(0, hops.code(), hops.err());
        assertTrue(hops.out().contains("adds nodes 0-2, scheduler's distance 24 (node_distance 23)"), hops.out());
        Run spread = run("plan", "--routine", "local-spread", "--kernel", "7.3", "--topology", GNR, "--node", "4", "--count", "13", "--explain");
        assertTrue(spread.out().lines().toList().get(13).matches(
                "12 +0 +ring 3: scheduler's distance 24 \\(node_distance 23\\) from node 4 \\(node 0\\), ascending CPU id across the ring .*LVL-8.*"),
                spread.out());
    }

    @Test
    void severalReleasesTakeOnlyColumnsOrSvg() {
        Run r = run("plan", "--routine", "local-spread", "--kernel", "6.1,6.12", "--topology", KUNPENG, "--node", "2", "--format", "json");
        assertEquals(2, r.code());
        assertEquals("numaspread plan: --kernel 6.1,6.12: several releases print one column each (the default) or --format svg;"
                + " expected one release for --format json\n", r.err());
    }

    @Test
    @dev.numaspread.conformance.rules.Proves("FMT-15")
    void FMT_15_planAndRacesTakeASnapshotArchive() {
        String tar = "../fixtures/snapshots/a-2node-2s2c2t-linux-6.12-boot.tar";
        Run plan = run("plan", "--routine", "local-spread", "--kernel", "6.12", "--topology", tar, "--node", "1", "--count", "5");
        assertEquals(0, plan.code(), plan.err());
        assertEquals("4\n5\n6\n7\n0\n", plan.out());   // the kernel run: cpumask_local_spread(i, 1) = 4 5 6 7 0
        Run races = run("races", "--routine", "mana-setup-irqs", "--kernel", "6.9", "--topology", tar, "--node", "0");
        assertEquals(0, races.code(), races.err());
        assertTrue(races.out().endsWith("no forbidden outcome\n"), races.out());
    }
}
