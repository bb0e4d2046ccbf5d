package dev.numaspread.cli.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.model.cpu.CpuSet;

import java.util.List;

/**
 * {@code json}: the request (routine, kernel, topology, node, count, {@code nrCpuIds}) and the
 * plan: {@code "<word>s": [{"<word>": i, "cpus": LIST, "mask": HEX}, ...]}, or for a queue map
 * its {@code offset} and {@code map} (the queue of every CPU id, -1 for one not possible).
 */
public final class JsonFormat implements PlanFormat {

    // Made by the first render: every plan command lists the formats, and an ObjectMapper loads
    // about 400 Jackson classes that only --format json uses.
    private ObjectMapper json;

    @Override
    public String name() {
        return "json";
    }

    @Override
    public String render(List<Planned> plans) {
        Plan plan = PlanFormat.only(plans).plan();
        PlanRequest r = PlanFormat.only(plans).request();
        if (json == null) json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode o = json.createObjectNode();
        o.put("routine", r.routine().id());
        o.put("kernel", r.kernel().toString());
        o.put("topology", r.machine().name());
        o.put("node", r.node());
        o.put("count", r.count());
        o.put("nrCpuIds", r.machine().nrCpuIds());
        if (plan instanceof Plan.QueueMap map) {
            o.put("offset", map.offset());
            ArrayNode a = o.putArray("map");
            for (int v : map.queueOfCpu()) a.add(v);
        } else {
            ArrayNode a = o.putArray(plan.word() + "s");
            List<CpuSet> slots = plan.slots();
            for (int i = 0; i < slots.size(); i++)
                a.addObject().put(plan.word(), i).put("cpus", slots.get(i).toList()).put("mask", slots.get(i).toMask(r.machine().nrCpuIds()));
        }
        try {
            return json.writeValueAsString(o) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a plan did not serialise as JSON", e);
        }
    }
}
