package dev.numaspread.conformance.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's Chromium, headless, driven over the DevTools protocol on loopback: open a page, ask the
 * rendered DOM with JavaScript, take a screenshot. Started with the flags that work on this
 * project's machines (no sandbox as root, no GPU, no background networking, a fresh profile).
 */
final class HeadlessChromium implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://[^\\s]+)");

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<JsonNode>> awaited = new ConcurrentHashMap<>();
    private final List<String> log = new ArrayList<>();

    /** The browser to use: {@code $NUMASPREAD_CHROMIUM}, else the first of chromium, chromium-browser, google-chrome on the PATH. */
    static Optional<Path> find() {
        String env = System.getenv("NUMASPREAD_CHROMIUM");
        if (env != null && !env.isBlank()) return Optional.of(Path.of(env));
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":"))
            for (String name : new String[]{"chromium", "chromium-browser", "google-chrome"}) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) return Optional.of(p);
            }
        return Optional.empty();
    }

    HeadlessChromium(Path executable) throws Exception {
        profile = Files.createTempDirectory("numaspread-chromium");
        process = new ProcessBuilder(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1280,900", "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0", "--remote-allow-origins=*", "--user-data-dir=" + profile, "about:blank")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        CompletableFuture<String> browserUrl = new CompletableFuture<>();
        Thread drain = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (log) {
                        if (log.size() < 200) log.add(line);
                    }
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) browserUrl.complete(m.group(1));
                }
            } catch (IOException e) {
                browserUrl.completeExceptionally(e);
            }
            browserUrl.completeExceptionally(new IOException("chromium exited before it listened"));
        }, "chromium-stderr");
        drain.setDaemon(true);
        drain.start();
        String ws;
        try {
            ws = browserUrl.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw new IOException(executable + " did not start its DevTools endpoint: " + e + "; its stderr: " + log(), e);
        }
        URI browser = URI.create(ws);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        String list = http.send(HttpRequest.newBuilder(URI.create("http://" + browser.getHost() + ":" + browser.getPort() + "/json/list")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        String page = null;
        for (JsonNode t : JSON.readTree(list)) if (t.path("type").asText().equals("page")) page = t.path("webSocketDebuggerUrl").asText();
        if (page == null) throw new IOException("chromium shows no page target: " + list);
        socket = http.newWebSocketBuilder().buildAsync(URI.create(page), new Listener()).join();
        send("Page.enable", JSON.createObjectNode());
        send("Runtime.enable", JSON.createObjectNode());
    }

    /** Opens {@code url} and waits for its load event. */
    void open(String url) throws Exception {
        CompletableFuture<JsonNode> loaded = new CompletableFuture<>();
        awaited.put("Page.loadEventFired", loaded);
        ObjectNode p = JSON.createObjectNode().put("url", url);
        JsonNode r = send("Page.navigate", p);
        if (r.has("errorText")) throw new IOException(url + ": " + r.get("errorText").asText());
        loaded.get(30, TimeUnit.SECONDS);
    }

    /** The value of a JavaScript expression evaluated in the page (JSON-serialisable values only). */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode r = send("Runtime.evaluate", JSON.createObjectNode().put("expression", expression).put("returnByValue", true));
        if (r.has("exceptionDetails")) throw new IllegalStateException(expression + ": " + r.get("exceptionDetails"));
        return r.path("result").path("value");
    }

    /** A PNG of the viewport. */
    byte[] screenshot() throws Exception {
        JsonNode r = send("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
        return Base64.getDecoder().decode(r.get("data").asText());
    }

    private JsonNode send(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params);
        socket.sendText(JSON.writeValueAsString(msg), true).join();
        JsonNode reply = f.get(30, TimeUnit.SECONDS);
        if (reply.has("error")) throw new IOException(method + ": " + reply.get("error"));
        return reply.path("result");
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    JsonNode m = JSON.readTree(partial.toString());
                    if (m.has("id")) {
                        CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
                        if (f != null) f.complete(m);
                    } else if (m.has("method")) {
                        CompletableFuture<JsonNode> f = awaited.remove(m.get("method").asText());
                        if (f != null) f.complete(m);
                    }
                } catch (IOException e) {
                    pending.values().forEach(f -> f.completeExceptionally(e));
                }
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }
    }

    String log() {
        synchronized (log) {
            return String.join("\n", log);
        }
    }

    @Override
    public void close() {
        // Chromium's helpers (renderer, GPU, network service) are its children: stopped with it, so
        // none still writes into the profile while it is deleted.
        java.util.List<ProcessHandle> helpers = process.descendants().toList();
        process.destroy();
        helpers.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var s = Files.walk(profile)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException | java.io.UncheckedIOException e) {
            // A profile left in the temp folder harms nothing (a file that a helper removed while the
            // walk went by ends the walk: seen once, NoSuchFileException on ".org.chromium.Chromium.*").
        }
    }
}
