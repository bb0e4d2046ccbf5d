package dev.numaspread.cli.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/**
 * The {@code json} text of every kind of plan (a routine's, a NIC's, a page pool's): what was
 * asked first, then the plan. Its own class, so that the ObjectMapper and the some 400 Jackson
 * classes it loads come only with a json render (the other formats never touch them).
 */
final class JsonText {
    private JsonText() {}

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** {@code {"routine": ..., "kernel": ..., "topology": ...}}: what every plan's JSON starts with. */
    static ObjectNode asked(String routine, KernelRelease kernel, Topology machine) {
        ObjectNode o = JSON.createObjectNode();
        o.put("routine", routine);
        o.put("kernel", kernel.toString());
        o.put("topology", machine.name());
        return o;
    }

    /** A routine's plan ({@link PlanFormat#JSON}). */
    static ObjectNode plan(Planned p) {
        PlanRequest r = p.request();
        ObjectNode o = asked(r.routine().id(), r.kernel(), r.machine());
        o.put("node", r.node());
        o.put("count", r.count());
        o.put("nrCpuIds", r.machine().nrCpuIds());
        if (p.plan() instanceof Plan.QueueMap map) {
            o.put("offset", map.offset());
            ArrayNode a = o.putArray("map");
            for (int v : map.queueOfCpu()) a.add(v);
        } else {
            ArrayNode a = o.putArray(p.plan().word() + "s");
            List<CpuSet> slots = p.plan().slots();
            for (int i = 0; i < slots.size(); i++)
                a.addObject().put(p.plan().word(), i).put("cpus", slots.get(i).toList()).put("mask", slots.get(i).toMask(r.machine().nrCpuIds()));
        }
        return o;
    }

    /** An empty array, for a plan of several releases. */
    static ArrayNode array() {
        return JSON.createArrayNode();
    }

    /** {@code node} indented, with a final newline. */
    static String of(JsonNode node) {
        try {
            return JSON.writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a plan did not serialise as JSON", e);
        }
    }
}
