package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.json.TopologyJson;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.TopologyDescription;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyValidation.Mode;
import dev.numaspread.model.topology.TopologyWarning;
import io.cucumber.datatable.DataTable;
import io.cucumber.docstring.DocString;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;


/**
 * Glue of features/formats.feature and features/topology.feature: reading CPU lists, hex masks,
 * {@code .topo} and JSON topologies, and what the loader reports. These rules specify the kit's
 * own input formats (the forms every implementation receives its machines in), so the steps call
 * the kit's readers. State is per scenario (Cucumber creates this object per scenario).
 */
public final class FormatSteps {

    private CpuSet cpus;
    private String text;
    private String fileName;
    private TopoDocument document;
    private String error;

    // ---------------------------------------------------------------- CPU sets

    @When("the CPU list {string} is read")
    public void theCpuListIsRead(String list) {
        read(() -> CpuSet.parseList(list));
    }

    @When("the hex mask {string} is read")
    public void theHexMaskIsRead(String mask) {
        read(() -> CpuSet.parseMask(mask));
    }

    // The set a reader gives, or the message it refuses the text with.
    private void read(java.util.function.Supplier<CpuSet> reader) {
        try {
            cpus = reader.get();
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
        }
    }

    @When("the CPU set is {string}")
    public void theCpuSetIs(String list) {
        cpus = CpuSet.parseList(list);
    }

    @Then("the CPUs are {string}")
    public void theCpusAreList(String list) {
        noError();
        assertEquals(list, cpus.toList(), "CPUs in kernel list form");
    }

    @Then("the hex mask for nr_cpu_ids {int} is {string}")
    public void theHexMaskIs(int nrCpuIds, String mask) {
        assertEquals(mask, cpus.toMask(nrCpuIds), "smp_affinity of " + cpus.toList() + " with nr_cpu_ids " + nrCpuIds);
    }

    @Then("the hex mask for nr_cpu_ids {int} cannot be printed")
    public void theHexMaskCannotBePrinted(int nrCpuIds) {
        try {
            cpus.toMask(nrCpuIds);
            fail("printed " + cpus.toList() + " for nr_cpu_ids " + nrCpuIds);
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
        }
    }

    // ---------------------------------------------------------------- topology files

    @When("the file {string} is read:")
    public void theFileIsRead(String name, DocString content) {
        read(name, content.getContent(), Optional.empty());
    }

    @When("the file {string} is read in {word} mode:")
    public void theFileIsReadInMode(String name, String mode, DocString content) {
        read(name, content.getContent(), Optional.of(Mode.valueOf(mode.toUpperCase(java.util.Locale.ROOT))));
    }

    @When("the fixture {string} is read")
    public void theFixtureIsRead(String name) throws IOException {
        String path = "numaspread/fixtures/" + (name.contains("/") ? name : "topologies/" + name) + ".topo";
        try (InputStream in = FormatSteps.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) fail("no fixture " + path + " on the classpath");
            read(name.replaceAll(".*/", "") + ".topo", new String(in.readAllBytes(), StandardCharsets.UTF_8), Optional.empty());
        }
    }

    private void read(String name, String content, Optional<Mode> mode) {
        fileName = name;
        text = content;
        document = null;
        error = null;
        try {
            document = name.endsWith(".json") ? TopologyJson.read(content, name, mode) : TopoFormat.read(content, name, mode);
        } catch (InvalidTopologyException e) {
            error = e.getMessage();
        }
    }

    /**
     * Writes {@code bytes} (a text with {@code \\xNN}, {@code \\r}, {@code \\n} and {@code \\t}
     * escapes, so that a scenario can show any byte) to a file {@code name} in a fresh temporary
     * directory and reads it through the reader every command uses (FMT-17, FMT-18). Messages are
     * shown relative to the temporary directory.
     */
    @When("the file {string} of the bytes {string} is read")
    public void theFileOfTheBytesIsRead(String name, String bytes) throws IOException {
        Path tmp = Files.createTempDirectory("numaspread-bytes");
        try {
            Path f = tmp.resolve(name);
            Files.write(f, unescape(bytes));
            readFromDisk(f, f.getFileName().toString(), tmp + java.io.File.separator);
        } finally {
            try (java.util.stream.Stream<Path> all = Files.walk(tmp)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    /** Reads {@code path} as given, a device or a FIFO included, through the reader every command uses (FMT-17). */
    @When("the path {string} is read as a topology")
    public void thePathIsRead(String path) {
        Path f = Path.of(path);
        readFromDisk(f, f.getFileName() == null ? f.toString() : f.getFileName().toString(), "");
    }

    // Reads f (a file or a copy directory) as the command line does, named name; hidden is left out of its message.
    private void readFromDisk(Path f, String name, String hidden) {
        fileName = name;
        text = null;
        document = null;
        error = null;
        try {
            document = TopologyFiles.read(f, Optional.empty());
        } catch (InvalidTopologyException e) {
            error = hidden.isEmpty() ? e.getMessage() : e.getMessage().replace(hidden, "");
        }
    }

    private static byte[] unescape(String s) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char e = s.charAt(++i);
                switch (e) {
                    case 'x' -> { out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16)); i += 2; }
                    case 'r' -> out.write('\r');
                    case 'n' -> out.write('\n');
                    case 't' -> out.write('\t');
                    default -> { out.write('\\'); out.write(e); }
                }
            } else {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }

    @Then("its description shows the line {string}")
    public void itsDescriptionShowsTheLine(String line) {
        // As check-topology prints it, with the scheduler's distances of a machine whose model a hook tests.
        List<String> lines = TopologyDescription.describe(document(), document().mode(),
                dev.numaspread.model.numa.ArchSchedNodeDistance.describePerRelease(document().topology()));
        assertTrue(lines.contains(line), "no line " + line + " in the description:\n" + String.join("\n", lines));
    }

    /**
     * Writes the {@code path | content} rows under a fresh temporary directory named {@code name}
     * and reads it as a sysfs snapshot (FMT-13) through the reader every command uses. Messages
     * are shown relative to the temporary directory, so they read {@code snap/cpu/possible: ...}.
     */
    @When("the sysfs snapshot {string} is read:")
    public void theSysfsSnapshotIsRead(String name, DataTable files) throws IOException {
        Path tmp = Files.createTempDirectory("numaspread-sysfs");
        try {
            Path dir = tmp.resolve(name);
            Files.createDirectories(dir);
            for (Map<String, String> row : files.asMaps()) {
                Path f = dir.resolve(row.get("path"));
                Files.createDirectories(f.getParent());
                String content = row.get("content");
                Files.writeString(f, (content == null ? "" : content) + "\n");
            }
            readFromDisk(dir, name, tmp + java.io.File.separator);
        } finally {
            try (java.util.stream.Stream<Path> all = Files.walk(tmp)) {
                for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    @Then("it is the same machine as:")
    public void itIsTheSameMachineAs(DocString topo) {
        Topology expected = TopoFormat.read(topo.getContent(), "expected.topo").topology();
        Topology actual = loaded();
        if (!actual.sameMachineAs(expected))
            throw new AssertionError(fileName + " is not the expected machine:\n  expected\n" + TopoFormat.write(expected)
                    + "  actual\n" + TopoFormat.write(actual));
    }

    @Then("it is rejected with:")
    public void itIsRejectedWith(DocString message) {
        itIsRejectedWith(message.getContent().strip());
    }

    @Then("it is rejected with {string}")
    public void itIsRejectedWith(String message) {
        if (error == null) fail("accepted " + (document != null ? document.topology() : cpus) + "; expected the error " + message);
        assertEquals(message, error);
    }

    @Then("it loads without warnings")
    public void itLoadsWithoutWarnings() {
        loaded();
        assertEquals(List.of(), document.warnings());
    }

    @Then("it loads with the warnings:")
    public void itLoadsWithTheWarnings(DataTable expected) {
        loaded();
        List<Map<String, String>> want = expected.asMaps();
        List<String> got = new ArrayList<>();
        for (TopologyWarning w : document.warnings()) got.add(w.line() + " | " + w.code() + " | " + w.message());
        List<String> exp = new ArrayList<>();
        for (Map<String, String> row : want) exp.add(row.get("line") + " | " + row.get("code") + " | " + row.get("message"));
        assertEquals(exp, got);
    }

    @Then("it loads with a {word} warning")
    public void itLoadsWithAWarning(String code) {
        loaded();
        assertTrue(document.warns(code), "warnings " + document.warnings() + " have no " + code);
    }

    @Then("the machine has:")
    public void theMachineHas(DataTable table) {
        Topology t = loaded();
        for (Map.Entry<String, String> e : table.asMap().entrySet()) {
            String actual = switch (e.getKey()) {
                case "possible" -> t.possible().toList();
                case "present" -> t.present().toList();
                case "online" -> t.online().toList();
                case "nodes" -> t.nodeMask().toList();
                case "nr_cpu_ids" -> Integer.toString(t.nrCpuIds());
                case "nr_node_ids" -> Integer.toString(t.nrNodeIds());
                case "name" -> t.name();
                case "expect" -> String.join(" ", document.expect());
                default -> throw new IllegalArgumentException("unknown machine property '" + e.getKey()
                        + "'; expected possible, present, online, nodes, nr_cpu_ids, nr_node_ids, name or expect");
            };
            assertEquals(e.getValue(), actual, e.getKey());
        }
    }

    @Then("the nodes are:")
    public void theNodesAre(DataTable table) {
        Topology t = loaded();
        List<List<String>> rows = table.asLists();
        List<String> header = rows.get(0);
        for (List<String> row : rows.subList(1, rows.size())) {
            int node = Integer.parseInt(row.get(0));
            for (int c = 1; c < header.size(); c++) {
                String actual = switch (header.get(c)) {
                    case "cpus" -> t.cpusOf(node).toList();
                    case "online cpus" -> t.onlineCpusOf(node).toList();
                    case "cpu-less" -> t.isCpuless(node) ? "yes" : "no";
                    case "memory-less" -> t.isMemoryless(node) ? "yes" : "no";
                    default -> throw new IllegalArgumentException("unknown node column '" + header.get(c)
                            + "'; expected cpus, online cpus, cpu-less or memory-less");
                };
                assertEquals(row.get(c) == null ? "" : row.get(c), actual, "node " + node + " " + header.get(c));
            }
        }
    }

    @Then("the distances from node {int} are {string}")
    public void theDistancesFromNodeAre(int node, String row) {
        Topology t = loaded();
        StringBuilder sb = new StringBuilder();
        for (int b : t.nodeIds()) sb.append(sb.length() > 0 ? " " : "").append(t.distance(node, b));
        assertEquals(row, sb.toString(), "row of node " + node);
    }

    @Then("the siblings of CPU {int} are {string}")
    public void theSiblingsOfCpuAre(int cpu, String list) {
        assertEquals(list, loaded().siblingsOf(cpu).toList(), "siblings of cpu " + cpu);
    }

    @Then("the online siblings of CPU {int} are {string}")
    public void theOnlineSiblingsOfCpuAre(int cpu, String list) {
        assertEquals(list, loaded().onlineSiblingsOf(cpu).toList(), "online siblings of cpu " + cpu);
    }

    @Then("the clusters are {string}")
    public void theClustersAre(String clusters) {
        assertEquals(clusters, String.join(" ", loaded().clusters().stream().map(CpuSet::toList).toList()), "clusters");
    }

    @Then("the clusters were assumed")
    public void theClustersWereAssumed() {
        assertTrue(loaded().clustersAssumed(), "clusters assumed (the machine gave none)");
    }

    @Then("the clusters were stated")
    public void theClustersWereStated() {
        assertTrue(!loaded().clustersAssumed(), "clusters stated (the machine gave them)");
    }

    @Then("the cluster masks are:")
    public void theClusterMasksAre(DataTable table) {
        Topology t = loaded();
        List<String> got = new ArrayList<>(), exp = new ArrayList<>();
        for (Map<String, String> row : table.asMaps()) {
            int cpu = Integer.parseInt(row.get("cpu"));
            exp.add(cpu + " | " + row.get("cluster") + " | " + (row.get("live") == null ? "" : row.get("live")));
            got.add(cpu + " | " + t.clusterOf(cpu).toList() + " | " + t.topologyClusterCpumask(cpu).toList());
        }
        assertEquals(exp, got, "cpu | cluster | topology_cluster_cpumask");
    }

    @Then("the packages are:")
    public void thePackagesAre(DataTable table) {
        Topology t = loaded();
        List<String> got = t.packages().stream().map(p -> p.id() + " | " + p.cpus().toList()).toList();
        List<String> exp = table.asMaps().stream().map(r -> r.get("id") + " | " + r.get("cpus")).toList();
        assertEquals(exp, got);
    }

    @Then("CPU {int} is on node {int}")
    public void cpuIsOnNode(int cpu, int node) {
        assertEquals(node, loaded().nodeOf(cpu), "node of cpu " + cpu);
    }

    @Then("the written file is:")
    public void theWrittenFileIs(DocString expected) {
        assertEquals(expected.getContent().strip() + "\n", TopoFormat.write(document()));
    }

    @Then("writing it and reading it back gives the same machine")
    public void writingAndReadingBackGivesTheSameMachine() {
        TopoDocument doc = document();
        String written = TopoFormat.write(doc);
        TopoDocument back = TopoFormat.read(written, "written-" + fileName);
        assertEquals(doc.topology(), back.topology(), written);
        assertEquals(written, TopoFormat.write(back), "writing again changed the text");
        TopoDocument viaJson = TopologyJson.read(TopologyJson.write(doc), fileName + ".json");
        assertEquals(doc.topology(), viaJson.topology(), "through JSON");
    }

    private TopoDocument document() {
        loaded();
        return document;
    }

    private Topology loaded() {
        if (document == null) fail(fileName + " was rejected: " + error);
        return document.topology();
    }

    private void noError() {
        if (error != null) fail("rejected: " + error);
    }

    // Plain assertions: the glue lives in main code, where JUnit is not a dependency.

    private static void assertEquals(Object expected, Object actual) {
        assertEquals(expected, actual, "value");
    }

    private static void assertEquals(Object expected, Object actual, String what) {
        if (!java.util.Objects.equals(expected, actual))
            throw new AssertionError(what + ":\n  expected " + expected + "\n  actual   " + actual);
    }

    private static void assertTrue(boolean ok, String message) {
        if (!ok) throw new AssertionError(message);
    }

    private static void fail(String message) {
        throw new AssertionError(message);
    }
}
