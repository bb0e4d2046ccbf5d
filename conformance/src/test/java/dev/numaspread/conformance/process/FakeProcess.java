package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A fake out-of-process implementation for the driver's tests: it speaks protocol 1 and, for
 * local-spread, answers as {@code args[0]} says: {@code good} (classic order on the two-node
 * test machine: node 1 gives 2,3,0,1), {@code garbage}, {@code crash}, {@code hang},
 * {@code wrong-id}, {@code internal}, {@code oops}; for page-pool, {@code good} or {@code pool-garbage}.
 */
public final class FakeProcess {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        ObjectMapper json = new ObjectMapper();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int topologies = 0;
        for (String line; (line = in.readLine()) != null; ) {
            JsonNode r = json.readTree(line);
            ObjectNode a = json.createObjectNode();
            a.put("id", r.get("id").asInt());
            a.put("ok", true);
            switch (r.get("op").asText()) {
                case "hello" -> {
                    a.put("protocol", 1);
                    a.put("name", "fake " + mode);
                    a.putArray("claims").addObject().put("routine", "local-spread").put("kernel", "6.1");
                }
                case "topology" -> topologies++;
                case "bye" -> {
                    System.out.println(json.writeValueAsString(a));
                    return;
                }
                case "local-spread" -> {
                    switch (mode) {
                        case "garbage" -> {
                            System.out.println("this is not json");
                            continue;
                        }
                        case "crash" -> {
                            System.err.println("panic: masks");
                            System.exit(3);
                        }
                        case "hang" -> Thread.sleep(60_000);
                        case "wrong-id" -> a.put("id", r.get("id").asInt() + 1);
                        case "internal" -> {
                            a.put("ok", false);
                            a.put("error", "internal");
                            a.put("message", "index out of range");
                        }
                        case "oops" -> a.putObject("kernelBug").put("kind", "oops").put("message", "NULL masks");
                        default -> { }
                    }
                    int node = r.get("node").asInt();
                    int[] order = node == 1 ? new int[]{2, 3, 0, 1} : new int[]{0, 1, 2, 3};
                    var cpus = a.putArray("cpus");
                    for (JsonNode i : r.get("i")) cpus.add(order[i.asInt() % 4]);
                    a.put("topologies", topologies);
                }
                case "page-pool" -> {
                    // create: remember nothing; an action: page 0 of node 1 served from the page
                    // allocator (mode good), or a 'did' the kit cannot read (mode pool-garbage).
                    if (r.has("create")) {
                        a.put("echo", r.get("create").toString() + " " + r.get("pool").asText());
                    } else {
                        ObjectNode did = a.putObject("did");
                        did.put("what", mode.equals("pool-garbage") ? "exploded" : "served");
                        did.putObject("page").put("id", 0).put("node", 1);
                        did.put("from", "page allocator");
                        did.putArray("released");
                        ObjectNode state = a.putObject("state");
                        state.put("nid", 1).put("cpu", 2);
                        state.putArray("cache");
                        state.putArray("ptrRing");
                        state.putArray("inUse").addObject().put("id", 0).put("node", 1);
                        state.putArray("released");
                        a.put("action", r.get("action").asText());
                    }
                }
                default -> {
                    a.put("ok", false);
                    a.put("error", "unsupported");
                    a.put("message", "only local-spread");
                }
            }
            System.out.println(json.writeValueAsString(a));
            System.out.flush();
        }
    }
}
