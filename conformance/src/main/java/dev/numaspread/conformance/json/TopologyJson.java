package dev.numaspread.conformance.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.HasId;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.topology.Arch;
import dev.numaspread.model.topology.CpuModel;
import dev.numaspread.model.topology.CpuPackage;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.SmtLayout;
import dev.numaspread.model.topology.SourcePosition;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.TopoDraft;
import dev.numaspread.model.topology.NodeMask;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The JSON form of a topology (spec/formats.md FMT-12): what the process protocol's {@code topology} op carries and what
 * {@code check-topology --format json} prints. Same semantics as {@code .topo}: both fill one
 * {@link TopoDraft}, so defaults, validation and messages agree. CPU sets are kernel list strings.
 *
 * <pre>
 * {"name": "xeon-silver4108-2s", "source": "...", "notes": [], "expect": [],
 *  "cpus": {"possible": "0-111", "present": "0-31", "online": "0-31"},
 *  "smt": {"numbering": "stride", "width": 2, "stride": 16},
 *  "cpuModel": "intel-graniterapids-x",   (optional; FMT-20)
 *  "arch": "arm64",                       (optional, x86 when absent; FMT-12)
 *  "packages": [{"id": 0, "cpus": "0-7,16-23"}, ...], "clusters": [],
 *  "nodes": [{"id": 0, "cpus": "0-7,16-23", "memMiB": 46802}, ...],
 *  "nodeOf": [{"cpus": "32-111", "node": 0}],
 *  "distances": {"order": [0, 1], "rows": [[10, 21], [21, 10]]}}
 * </pre>
 *
 * <p>{@code nodes[].cpus} lists online CPUs, as a {@code node N cpus:} line does; offline CPUs of a
 * node go in {@code nodeOf}. Positions in messages are JSON pointers: {@code t.json:/nodes/2/cpus}.
 */
public final class TopologyJson {

    private TopologyJson() {}

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final Set<String> KEYS = Set.of("name", "source", "notes", "expect", "cpus", "smt", "packages", "clusters",
            "cpuModel", "arch", "llc", "nodes", "nodeOf", "distances");

    /** Reads a JSON file in the mode its {@code expect} list asks for. */
    public static TopoDocument read(Path file) {
        return read(file, Optional.empty());
    }

    /** Reads a JSON file; kernel rules in {@code mode} when given, else as its {@code expect} list asks. */
    public static TopoDocument read(Path file, Optional<Mode> mode) {
        JsonNode root;
        try {
            root = JsonInput.read(file, EXPECTED);
        } catch (InvalidInputException e) {
            throw InvalidTopologyException.of(e);
        }
        return fromTree(root, file.toString(), mode);
    }

    private static final String EXPECTED = "a topology in the JSON form (spec/formats.md FMT-12)";

    /** Reads JSON text, naming {@code fileName} in messages, in the mode its {@code expect} list asks for. */
    public static TopoDocument read(String json, String fileName) {
        return read(json, fileName, Optional.empty());
    }

    /** Reads JSON text; kernel rules in {@code mode} when given. */
    public static TopoDocument read(String json, String fileName, Optional<Mode> mode) {
        JsonNode root;
        try {
            root = JsonInput.read(json, fileName, EXPECTED);
        } catch (InvalidInputException e) {
            throw InvalidTopologyException.of(e);
        }
        return fromTree(root, fileName, mode);
    }

    /** Reads an already parsed JSON object (a protocol request's {@code topology} member). */
    public static TopoDocument fromTree(JsonNode root, String where, Optional<Mode> mode) {
        if (root == null || !root.isObject()) throw new InvalidTopologyException(where, "found " + kind(root) + "; expected a JSON object");
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!KEYS.contains(k))
                throw new InvalidTopologyException(where + ":/" + Printable.of(Printable.cut(k)), "unknown key " + Printable.quote(k) + "; expected one of " + String.join(", ", KEYS.stream().sorted().toList()));
        }
        TopoDraft d = new TopoDraft(where);
        Reader r = new Reader(where);
        if (root.has("name")) d.name(r.text(root, "name", "/name"), r.at("/name"));
        if (root.has("source")) d.source(r.text(root, "source", "/source"));
        for (JsonNode n : r.array(root, "notes", "/notes")) d.note(n.asText());
        List<String> tags = new ArrayList<>();
        for (JsonNode n : r.array(root, "expect", "/expect")) tags.add(n.asText());
        d.expect(tags);
        JsonNode cpus = root.get("cpus");
        if (cpus != null) {
            if (cpus.has("possible")) d.possible(r.list(cpus, "possible", "/cpus/possible"), r.at("/cpus/possible"));
            if (cpus.has("present")) d.present(r.list(cpus, "present", "/cpus/present"), r.at("/cpus/present"));
            if (cpus.has("online")) d.online(r.list(cpus, "online", "/cpus/online"), r.at("/cpus/online"));
            if (cpus.has("isolated")) r.list(cpus, "isolated", "/cpus/isolated");
        }
        JsonNode smt = root.get("smt");
        if (smt != null) {
            SourcePosition at = r.at("/smt");
            String numbering = r.text(smt, "numbering", "/smt/numbering");
            switch (numbering) {
                case "none" -> d.smtNone(at);
                case "adjacent" -> d.smtAdjacent(r.integer(smt, "width", "/smt/width"), at);
                case "stride" -> d.smtStride(r.integer(smt, "width", "/smt/width"), r.integer(smt, "stride", "/smt/stride"), at);
                case "siblings" -> {
                    List<CpuSet> groups = new ArrayList<>();
                    int i = 0;
                    for (JsonNode g : r.array(smt, "groups", "/smt/groups")) groups.add(r.list(g, "/smt/groups/" + i++));
                    d.siblings(groups, at);
                }
                default -> throw new InvalidTopologyException(at.where() + "/numbering", "numbering " + Printable.quote(numbering)
                        + "; expected none, adjacent, stride or siblings");
            }
        }
        if (root.has("cpuModel")) {
            String word = r.text(root, "cpuModel", "/cpuModel");
            d.cpuModel(HasId.byId(CpuModel.class, word).orElseThrow(() -> new InvalidTopologyException(where + ":/cpuModel", "cpuModel "
                    + Printable.quote(word) + "; expected " + CpuModel.words())), r.at("/cpuModel"));
        }
        if (root.has("arch")) {
            String word = r.text(root, "arch", "/arch");
            d.arch(HasId.byId(Arch.class, word).orElseThrow(() -> new InvalidTopologyException(where + ":/arch", "arch "
                    + Printable.quote(word) + "; expected " + Arch.words())), r.at("/arch"));
        }
        int i = 0;
        for (JsonNode p : r.array(root, "packages", "/packages")) {
            String ptr = "/packages/" + i++;
            d.pkg(r.integer(p, "id", ptr + "/id"), r.list(p, "cpus", ptr + "/cpus"), r.at(ptr));
        }
        i = 0;
        for (JsonNode c : r.array(root, "clusters", "/clusters")) {
            String ptr = "/clusters/" + i++;
            d.cluster(r.list(c, ptr), r.at(ptr));
        }
        i = 0;
        List<JsonNode> nodes = r.array(root, "nodes", "/nodes");
        List<Integer> ids = new ArrayList<>();
        for (JsonNode n : nodes) {
            String ptr = "/nodes/" + i++;
            int id = r.integer(n, "id", ptr + "/id");
            ids.add(id);
            d.nodeCpus(id, n.has("cpus") ? r.list(n, "cpus", ptr + "/cpus") : CpuSet.EMPTY, r.at(ptr));
            if (n.has("memMiB") && !n.get("memMiB").isNull()) d.nodeSize(id, r.mebibytes(n.get("memMiB"), ptr + "/memMiB"), r.at(ptr + "/memMiB"));
            if (n.has("memless") && n.get("memless").asBoolean()) d.memless(NodeMask.of(id), r.at(ptr + "/memless"));
        }
        NodeMask available = NodeMask.ofStream(ids.stream().mapToInt(Integer::intValue));
        if (!nodes.isEmpty()) d.available(available, available.size(), r.at("/nodes"));
        i = 0;
        for (JsonNode o : r.array(root, "nodeOf", "/nodeOf")) {
            String ptr = "/nodeOf/" + i++;
            d.nodeOf(r.list(o, "cpus", ptr + "/cpus"), r.integer(o, "node", ptr + "/node"), r.at(ptr));
        }
        JsonNode dist = root.get("distances");
        if (dist != null && !dist.isNull()) {
            List<JsonNode> order = r.array(dist, "order", "/distances/order");
            int[] header = new int[order.size()];
            for (int k = 0; k < header.length; k++) header[k] = r.integer(order.get(k), "/distances/order/" + k);
            d.distanceHeader(header, r.at("/distances/order"));
            List<JsonNode> rows = r.array(dist, "rows", "/distances/rows");
            if (rows.size() != header.length)
                throw new InvalidTopologyException(where + ":/distances/rows", "the table has " + rows.size() + " rows, the order lists "
                        + header.length + " nodes; expected one row per node");
            for (int k = 0; k < header.length; k++) {
                String ptr = "/distances/rows/" + k;
                if (!rows.get(k).isArray()) throw new InvalidTopologyException(where + ":" + ptr, "found " + kind(rows.get(k)) + "; expected an array of distances");
                int[] values = new int[rows.get(k).size()];
                for (int v = 0; v < values.length; v++) values[v] = r.integer(rows.get(k).get(v), ptr + "/" + v);
                d.distanceRow(header[k], values, r.at(ptr));
            }
        }
        return d.build(mode);
    }

    /** Field access with JSON-pointer messages. */
    private record Reader(String file) {
        SourcePosition at(String ptr) {
            return SourcePosition.at(file + ":" + ptr);
        }

        String text(JsonNode o, String key, String ptr) {
            JsonNode v = o.get(key);
            if (v == null || !v.isTextual()) throw new InvalidTopologyException(file + ":" + ptr, "found " + kind(v) + "; expected a string");
            return v.asText();
        }

        int integer(JsonNode o, String key, String ptr) {
            return integer(o.get(key), ptr);
        }

        int integer(JsonNode v, String ptr) {
            if (v == null || !v.canConvertToInt() || !v.isIntegralNumber())
                throw new InvalidTopologyException(file + ":" + ptr, "found " + kind(v) + "; expected an integer");
            return v.asInt();
        }

        /** A memory size: a whole number of MiB, 0 to {@link Node#MAX_SIZE_MIB}. */
        long mebibytes(JsonNode v, String ptr) {
            if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0 || v.asLong() > Node.MAX_SIZE_MIB)
                throw new InvalidTopologyException(file + ":" + ptr, "found " + kind(v) + "; expected a size in MiB, 0 to " + Node.MAX_SIZE_MIB);
            return v.asLong();
        }

        CpuSet list(JsonNode o, String key, String ptr) {
            return list(o.get(key), ptr);
        }

        CpuSet list(JsonNode v, String ptr) {
            if (v == null || !v.isTextual()) throw new InvalidTopologyException(file + ":" + ptr, "found " + kind(v) + "; expected a CPU list string such as \"0-7,128-135\"");
            try {
                return CpuSet.parseList(v.asText());
            } catch (IllegalArgumentException e) {
                throw new InvalidTopologyException(file + ":" + ptr, e.getMessage());
            }
        }

        List<JsonNode> array(JsonNode o, String key, String ptr) {
            JsonNode v = o.get(key);
            if (v == null || v.isNull()) return List.of();
            if (!v.isArray()) throw new InvalidTopologyException(file + ":" + ptr, "found " + kind(v) + "; expected an array");
            List<JsonNode> out = new ArrayList<>();
            v.forEach(out::add);
            return out;
        }
    }

    private static String kind(JsonNode v) {
        if (v == null || v.isMissingNode()) return "nothing";
        if (v.isTextual()) return "the string \"" + Printable.of(Printable.cut(v.asText())) + "\"";
        if (v.isNumber()) return "the number " + Printable.cut(v.asText());
        return v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    // ------------------------------------------------------------------ writing

    /** The canonical JSON text of a machine. */
    public static String write(Topology t) {
        return write(TopoDocument.of(t));
    }

    /** The canonical JSON text: every set explicit, keys in a fixed order, two-space indent. */
    public static String write(TopoDocument doc) {
        try {
            return MAPPER.writeValueAsString(toTree(doc)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("model invariant broken: a topology tree did not serialise", e);
        }
    }

    /** The JSON object of a document, for embedding in protocol messages and reports. */
    public static ObjectNode toTree(TopoDocument doc) {
        Topology t = doc.topology();
        ObjectNode o = MAPPER.createObjectNode();
        o.put("name", t.name());
        o.put("source", t.source());
        o.set("notes", MAPPER.valueToTree(doc.notes()));
        o.set("expect", MAPPER.valueToTree(doc.expect()));
        ObjectNode cpus = o.putObject("cpus");
        cpus.put("possible", t.possible().toList());
        cpus.put("present", t.present().toList());
        cpus.put("online", t.online().toList());
        SmtLayout smt = SmtLayout.of(t);
        ObjectNode s = o.putObject("smt");
        s.put("numbering", smt.kind().name().toLowerCase(java.util.Locale.ROOT));
        if (smt.kind() == SmtLayout.Kind.ADJACENT || smt.kind() == SmtLayout.Kind.STRIDE) s.put("width", smt.width());
        if (smt.kind() == SmtLayout.Kind.STRIDE) s.put("stride", smt.stride());
        if (smt.kind() == SmtLayout.Kind.SIBLINGS) {
            ArrayNode g = s.putArray("groups");
            smt.groups().forEach(c -> g.add(c.toList()));
        }
        if (t.cpuModel() != CpuModel.OTHER) o.put("cpuModel", t.cpuModel().id());
        if (t.arch() != Arch.X86) o.put("arch", t.arch().id());
        ArrayNode pk = o.putArray("packages");
        for (CpuPackage p : t.packages()) pk.addObject().put("id", p.id()).put("cpus", p.cpus().toList());
        ArrayNode cl = o.putArray("clusters");
        if (!t.clustersAssumed()) t.clusters().forEach(c -> cl.add(c.toList()));   // empty: each SMT core its own cluster
        ArrayNode nodes = o.putArray("nodes");
        ArrayNode nodeOf = o.putArray("nodeOf");
        for (Node n : t.nodes()) {
            ObjectNode jn = nodes.addObject();
            jn.put("id", n.id());
            jn.put("cpus", t.onlineCpusOf(n.id()).toList());
            if (n.sizeMiB() >= 0) jn.put("memMiB", n.sizeMiB());
            if (!n.hasMemory() && n.sizeMiB() != 0) jn.put("memless", true);
            CpuSet offline = n.cpus().andNot(t.online());
            if (!offline.isEmpty()) nodeOf.addObject().put("cpus", offline.toList()).put("node", n.id());
        }
        ObjectNode dist = o.putObject("distances");
        ArrayNode order = dist.putArray("order");
        int[] ids = t.nodeIds();
        for (int id : ids) order.add(id);
        ArrayNode rows = dist.putArray("rows");
        for (int a : ids) {
            ArrayNode row = rows.addArray();
            for (int b : ids) row.add(t.distance(a, b));
        }
        return o;
    }
}
