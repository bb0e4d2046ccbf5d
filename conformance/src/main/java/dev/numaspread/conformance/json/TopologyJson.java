package dev.numaspread.conformance.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.CpuPackage;
import dev.numaspread.model.topology.DistanceTable;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The JSON mirror of a {@code .topo} (research/topology-anchors.md §6a): CPU sets as list
 * strings, nodes, distances with their order, SMT sibling groups.
 *
 * <p>STUB by the certifier engineer for the process protocol; the formats engineer owns the real
 * one, which replaces this file on merge.
 */
public final class TopologyJson {
    private TopologyJson() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** The JSON form of {@code t}. */
    public static ObjectNode toJson(Topology t) {
        ObjectNode o = F.objectNode();
        o.put("name", t.name());
        o.put("source", t.source());
        ObjectNode cpus = o.putObject("cpus");
        cpus.put("possible", t.possible().toList());
        cpus.put("present", t.present().toList());
        cpus.put("online", t.online().toList());
        ArrayNode sib = o.putArray("siblings");
        for (CpuSet g : t.smtSiblings()) sib.add(g.toList());
        ArrayNode pk = o.putArray("packages");
        for (CpuPackage p : t.packages()) pk.addObject().put("id", p.id()).put("cpus", p.cpus().toList());
        ArrayNode cl = o.putArray("clusters");
        for (CpuSet c : t.clusters()) cl.add(c.toList());
        ArrayNode nodes = o.putArray("nodes");
        for (Node n : t.nodes()) {
            ObjectNode j = nodes.addObject();
            j.put("id", n.id());
            j.put("cpus", n.cpus().toList());
            j.put("memory", n.hasMemory());
            if (n.sizeMiB() >= 0) j.put("memMiB", n.sizeMiB());
        }
        ObjectNode d = o.putObject("distances");
        ArrayNode order = d.putArray("order");
        ArrayNode rows = d.putArray("rows");
        for (int from : t.nodeIds()) {
            order.add(from);
            ArrayNode row = rows.addArray();
            for (int to : t.nodeIds()) row.add(t.distance(from, to));
        }
        return o;
    }

    /** The machine of a JSON form written by {@link #toJson}. */
    public static Topology fromJson(JsonNode o) {
        List<Node> nodes = new ArrayList<>();
        for (JsonNode n : o.get("nodes"))
            nodes.add(new Node(n.get("id").asInt(), CpuSet.parseList(n.get("cpus").asText()),
                    n.path("memory").asBoolean(true), n.path("memMiB").asLong(-1)));
        JsonNode d = o.get("distances");
        int[] ids = new int[d.get("order").size()];
        for (int k = 0; k < ids.length; k++) ids[k] = d.get("order").get(k).asInt();
        int[][] rows = new int[ids.length][ids.length];
        for (int i = 0; i < ids.length; i++)
            for (int j = 0; j < ids.length; j++) rows[i][j] = d.get("rows").get(i).get(j).asInt();
        List<CpuSet> siblings = new ArrayList<>();
        for (JsonNode g : o.path("siblings")) siblings.add(CpuSet.parseList(g.asText()));
        List<CpuPackage> packages = new ArrayList<>();
        for (JsonNode p : o.path("packages")) packages.add(new CpuPackage(p.get("id").asInt(), CpuSet.parseList(p.get("cpus").asText())));
        List<CpuSet> clusters = new ArrayList<>();
        for (JsonNode c : o.path("clusters")) clusters.add(CpuSet.parseList(c.asText()));
        JsonNode cpus = o.get("cpus");
        return new Topology(o.path("name").asText("machine"), o.path("source").asText(""),
                CpuSet.parseList(cpus.get("possible").asText()), CpuSet.parseList(cpus.get("present").asText()),
                CpuSet.parseList(cpus.get("online").asText()), nodes, DistanceTable.of(ids, rows), siblings, packages, clusters);
    }
}
