package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A fake out-of-process implementation for the driver's tests, run as a real process:
 * {@code FakeProcess MODE [PROTOCOL [RUNS-FILE]]}. It answers hello with protocol PROTOCOL
 * ({@code 1} by default; {@code none} leaves it out, {@code string} sends {@code "1"}), appends a
 * line to RUNS-FILE when it starts (so a test can count runs), and answers local-spread as MODE
 * says: {@code good} (classic order on the two-node test machine: node 1 gives 2,3,0,1),
 * {@code garbage}, {@code crash}, {@code crash-after-hello} (exits on the first request after
 * hello, saying which run it was on stderr), {@code hang}, {@code wrong-id}, {@code string-id},
 * {@code internal}, {@code oops}, {@code flaky} (a different answer each time), {@code swap}
 * (answers a pair of requests newest first), {@code tell-name} (an internal error naming the
 * machine it was sent), {@code escapes} (control characters in its name, message and stderr),
 * {@code long-line} (a 17 MiB stdout line); for page-pool, {@code good} or {@code pool-garbage}; for
 * irq-affinity-masks, {@code good} or {@code irq-garbage}. Tests start it through
 * {@link FakeProcessJvm#command}, in a small JVM of its own.
 */
public final class FakeProcess {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String protocol = args.length > 1 ? args[1] : "1";
        int run = 0;
        if (args.length > 2) {
            Path runs = Path.of(args[2]);
            Files.writeString(runs, "run\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            run = Files.readAllLines(runs).size();
        }
        ObjectMapper json = new ObjectMapper();
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int topologies = 0;
        int calls = 0;
        ObjectNode held = null;
        JsonNode machine = null;
        for (String line; (line = in.readLine()) != null; ) {
            JsonNode r = json.readTree(line);
            ObjectNode a = json.createObjectNode();
            a.put("id", r.get("id").asInt());
            a.put("ok", true);
            String op = r.get("op").asText();
            if (mode.equals("crash-after-hello") && !op.equals("hello")) {
                System.err.println("panic in run " + run);
                System.exit(4);
            }
            switch (op) {
                case "hello" -> {
                    switch (protocol) {
                        case "none" -> { }
                        case "string" -> a.put("protocol", "1");
                        default -> a.put("protocol", Integer.parseInt(protocol));
                    }
                    a.put("name", mode.equals("escapes") ? "fake \u001b[31mred\u001b[0m \u202egnp.exe" : "fake " + mode);
                    a.putArray("claims").addObject().put("routine", "local-spread").put("kernel", "6.1");
                }
                case "topology" -> {
                    topologies++;
                    machine = r.get("topology");
                }
                case "bye" -> {
                    out.println(json.writeValueAsString(a));
                    out.flush();
                    return;
                }
                case "local-spread" -> {
                    calls++;
                    switch (mode) {
                        case "garbage" -> {
                            out.println("this is not json");
                            out.flush();
                            continue;
                        }
                        case "crash" -> {
                            System.err.println("panic: masks");
                            System.exit(3);
                        }
                        case "hang" -> Thread.sleep(60_000);
                        case "wrong-id" -> a.put("id", r.get("id").asInt() + 1);
                        case "string-id" -> a.put("id", r.get("id").asText());
                        case "internal" -> {
                            a.put("ok", false);
                            a.put("error", "internal");
                            a.put("message", "index out of range");
                        }
                        case "tell-name" -> {
                            a.put("ok", false);
                            a.put("error", "internal");
                            a.put("message", "name=" + machine.get("name").asText() + " source=" + machine.get("source").asText()
                                    + " notes=" + machine.get("notes") + " expect=" + machine.get("expect"));
                        }
                        case "escapes" -> {
                            if (r.get("node").asInt() == 0) {
                                System.err.println("log \u001b]0;owned\u0007 line");
                                System.exit(5);
                            }
                            a.put("ok", false);
                            a.put("error", "internal");
                            a.put("message", "bad \u001b[2J\r\nthing \u202e");
                        }
                        case "long-line" -> {
                            byte[] x = new byte[1 << 20];
                            java.util.Arrays.fill(x, (byte) 'x');
                            for (int k = 0; k < 17; k++) out.write(x);
                            out.println();
                            out.flush();
                            continue;
                        }
                        case "oops" -> a.putObject("kernelBug").put("kind", "oops").put("message", "NULL masks");
                        default -> { }
                    }
                    if (a.has("error") || a.has("kernelBug")) break;
                    int node = r.get("node").asInt();
                    int[] order = node == 1 ? new int[]{2, 3, 0, 1} : new int[]{0, 1, 2, 3};
                    var cpus = a.putArray("cpus");
                    for (JsonNode i : r.get("i")) cpus.add(order[(i.asInt() + (mode.equals("flaky") ? calls : 0)) % 4]);
                    a.put("topologies", topologies);
                    if (mode.equals("swap")) {
                        if (held == null) {
                            held = a;
                            continue;
                        }
                        out.println(json.writeValueAsString(a));
                        a = held;
                        held = null;
                    }
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
                case "irq-affinity-masks" -> {
                    // Mode good: the default affinity for a pre-vector, then one managed vector per
                    // spread vector on CPU 0 (a fake, not the kernel); null when nothing is spread;
                    // mode irq-garbage: a mask that is no CPU list.
                    int nvecs = r.get("nvecs").asInt(), pre = r.get("preVectors").asInt();
                    if (nvecs <= pre) {
                        a.putNull("vectors");
                        break;
                    }
                    var vectors = a.putArray("vectors");
                    for (int v = 0; v < nvecs; v++)
                        vectors.addObject().put("mask", mode.equals("irq-garbage") ? "0-" : v < pre ? "0-3" : "0").put("managed", v >= pre);
                }
                default -> {
                    a.put("ok", false);
                    a.put("error", "unsupported");
                    a.put("message", "only local-spread");
                }
            }
            out.println(json.writeValueAsString(a));
            out.flush();
        }
    }
}
