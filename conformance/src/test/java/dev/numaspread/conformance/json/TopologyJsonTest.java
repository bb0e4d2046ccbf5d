package dev.numaspread.conformance.json;

import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JSON form of a topology (spec/formats.md FMT-12). */
class TopologyJsonTest {

    /** The 2 x Xeon Silver 4108 of hwloc's test corpus (32intel64-2p8co2t+8ve), in JSON. */
    static final String XEON = """
            {
              "name": "xeon-silver4108-2s",
              "source": "hwloc tests/hwloc/linux/32intel64-2p8co2t+8ve.tar.bz2",
              "cpus": { "possible": "0-111", "present": "0-31", "online": "0-31", "isolated": "" },
              "smt": { "width": 2, "numbering": "stride", "stride": 16 },
              "packages": [ { "id": 0, "cpus": "0-7,16-23" }, { "id": 1, "cpus": "8-15,24-31" } ],
              "clusters": [], "llc": "per-package",
              "nodes": [
                { "id": 0, "cpus": "0-7,16-23", "memMiB": 46802 },
                { "id": 1, "cpus": "8-15,24-31", "memMiB": 48359 }
              ],
              "nodeOf": [],
              "distances": { "order": [0, 1], "rows": [[10, 21], [21, 10]] },
              "expect": []
            }
            """;

    @Test
    @Proves("FMT-12")
    void FMT_12_readsTheXeonSilverExampleLikeItsTopoForm() {
        Topology fromJson = TopologyJson.read(XEON, "xeon.json").topology();
        Topology fromTopo = TopoFormat.read(Path.of("..", "fixtures", "topologies", "xeon-silver4108-2s.topo")).topology();
        assertEquals(fromTopo.named("x", "y"), fromJson.named("x", "y"));
        assertEquals(CpuSet.of(3, 19), fromJson.siblingsOf(19));
        assertEquals(21, fromJson.distance(1, 0));
        assertEquals(46802, fromJson.node(0).orElseThrow().sizeMiB());
    }

    @Test
    @Proves("FMT-12")
    void FMT_12_messagesUseJsonPointers() {
        String shortRow = XEON.replace("[21, 10]", "[21]");
        assertEquals("x.json:/distances/rows/1: distance row for node 1 has 1 values, the header lists 2 nodes",
                assertThrows(InvalidTopologyException.class, () -> TopologyJson.read(shortRow, "x.json")).getMessage());
        String badList = XEON.replace("\"0-7,16-23\", \"memMiB\"", "\"0-7,x\", \"memMiB\"");
        assertEquals("x.json:/nodes/0/cpus: cpu list piece 'x' in '0-7,x': 'x' is not a CPU id; expected a list such as 0-7,128-135",
                assertThrows(InvalidTopologyException.class, () -> TopologyJson.read(badList, "x.json")).getMessage());
        String unknown = XEON.replace("\"nodeOf\"", "\"nodeof\"");
        assertTrue(assertThrows(InvalidTopologyException.class, () -> TopologyJson.read(unknown, "x.json")).getMessage()
                .startsWith("x.json:/nodeof: unknown key 'nodeof'; expected one of arch, clusters, cpuModel, cpus, distances, expect,"));
        // Found by the fuzz campaign (ReaderFuzzTest): a lone surrogate, which JSON can escape and UTF-8 cannot carry,
        // made a machine whose own JSON did not read back.
        assertEquals("x.json: source 'hwloc\\u{d800}' holds a lone surrogate (U+D800); expected text",
                assertThrows(InvalidTopologyException.class, () -> TopologyJson.read(XEON.replace(
                        "\"hwloc tests/hwloc/linux/32intel64-2p8co2t+8ve.tar.bz2\"", "\"hwloc\\ud800\""), "x.json")).getMessage());
        // Found by the fuzz campaign (ReaderFuzzTest): the pointer showed the key raw, U+FEFF and all.
        assertTrue(assertThrows(InvalidTopologyException.class, () -> TopologyJson.read(XEON.replace("\"nodeOf\"", "\"node\ufeffOf\""), "x.json"))
                .getMessage().startsWith("x.json:/node\\u{feff}Of: unknown key 'node\\u{feff}Of'; expected one of"));
        assertEquals("x.json:/nodes/1/id: found the string \"1\"; expected an integer",
                assertThrows(InvalidTopologyException.class, () -> TopologyJson.read(XEON.replace("{ \"id\": 1, \"cpus\": \"8-15,24-31\", \"memMiB\"", "{ \"id\": \"1\", \"cpus\": \"8-15,24-31\", \"memMiB\""), "x.json")).getMessage());
    }

    @Test
    @Proves("FMT-12")
    void FMT_12_brokenJsonNamesTheLine() {
        String broken = XEON.replace("\"nodeOf\": [],", "\"nodeOf\": [,");
        String m = assertThrows(InvalidTopologyException.class, () -> TopologyJson.read(broken, "x.json")).getMessage();
        assertEquals("x.json:12:14: invalid JSON (Unexpected character (',' (code 44)): expected a valid value (JSON String, Number, Array,"
                + " Object or token 'null', 'true' or 'false')); expected a topology in the JSON form (spec/formats.md FMT-12)", m);
    }

    static List<Path> fixtures() throws IOException {
        try (Stream<Path> s = Files.walk(Path.of("..", "fixtures"))) {
            return s.filter(p -> p.toString().endsWith(".topo")).sorted().toList();
        }
    }

    /** Every fixture: .topo → JSON → same document; JSON → JSON is stable. */
    @TestFactory
    @Proves({"FMT-11", "FMT-12"})
    Stream<DynamicTest> FMT_12_everyFixtureRoundTripsThroughJson() throws IOException {
        return fixtures().stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            TopoDocument doc = TopoFormat.read(p);
            String json = TopologyJson.write(doc);
            TopoDocument back = TopologyJson.read(json, p.getFileName() + ".json");
            assertEquals(doc.topology(), back.topology(), json);
            assertEquals(doc.expect(), back.expect());
            assertEquals(doc.notes(), back.notes());
            // Repairs (lenient splits, placed CPUs) are written out explicitly, so their warnings do not come back.
            assertTrue(doc.warnings().stream().map(w -> w.code()).toList()
                    .containsAll(back.warnings().stream().map(w -> w.code()).toList()));
            assertEquals(json, TopologyJson.write(back));
        }));
    }
}
