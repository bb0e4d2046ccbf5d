package dev.numaspread.conformance.certify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * An out-of-process implementation of group-cpus for Linux 6.12, run as a real process: it
 * answers {@code group-cpus} as {@code args[0]} says: {@code one-group} (every present CPU in
 * group 0, the other groups empty: well formed, and wrong) or {@code garbage} (a line that is
 * not JSON).
 */
public final class GroupCpusProcess {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        ObjectMapper json = new ObjectMapper();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            JsonNode r = json.readTree(line);
            ObjectNode a = json.createObjectNode();
            a.put("id", r.get("id").asInt());
            a.put("ok", true);
            switch (r.get("op").asText()) {
                case "hello" -> {
                    a.put("protocol", 1);
                    a.put("name", "group-cpus " + mode);
                    a.putArray("claims").addObject().put("routine", "group-cpus").put("kernel", "6.12");
                }
                case "topology" -> { }
                case "bye" -> {
                    System.out.println(json.writeValueAsString(a));
                    return;
                }
                case "group-cpus" -> {
                    if (mode.equals("garbage")) {
                        System.out.println("this is not json");
                        System.out.flush();
                        continue;
                    }
                    var groups = a.putArray("groups");
                    groups.add("0-7");
                    for (int g = 1; g < r.get("groups").asInt(); g++) groups.add("");
                }
                default -> {
                    a.put("ok", false);
                    a.put("error", "unsupported");
                    a.put("message", "only group-cpus");
                }
            }
            System.out.println(json.writeValueAsString(a));
            System.out.flush();
        }
    }
}
