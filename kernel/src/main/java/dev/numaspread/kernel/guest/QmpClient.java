package dev.numaspread.kernel.guest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * QEMU's machine protocol (QMP, JSON lines over a unix socket), as much as hot-adding a CPU needs:
 * the greeting, {@code qmp_capabilities}, then commands whose {@code return} or {@code error} is
 * read past any event lines.
 */
final class QmpClient implements AutoCloseable {

    private final SocketChannel channel;
    private final BufferedReader in;
    private final ObjectMapper json = new ObjectMapper();

    private QmpClient(SocketChannel channel) {
        this.channel = channel;
        this.in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
    }

    /** Connects, reads the greeting and leaves capabilities negotiation. */
    static QmpClient connect(Path socket) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(socket));
        QmpClient q = new QmpClient(ch);
        if (q.in.readLine() == null) throw new IOException("QMP closed before its greeting");
        q.execute("qmp_capabilities", Map.of());
        return q;
    }

    /**
     * Runs {@code command} with {@code arguments}.
     *
     * @throws IOException with QEMU's error description when it refuses
     */
    JsonNode execute(String command, Map<String, Object> arguments) throws IOException {
        ObjectNode m = json.createObjectNode();
        m.put("execute", command);
        if (!arguments.isEmpty()) m.set("arguments", json.valueToTree(arguments));
        ByteBuffer out = ByteBuffer.wrap((json.writeValueAsString(m) + "\n").getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) channel.write(out);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            JsonNode r = json.readTree(line);
            if (r.has("return")) return r.get("return");
            if (r.has("error")) throw new IOException(command + ": " + r.get("error").path("desc").asText(r.get("error").toString()));
        }
        throw new IOException("QMP closed during " + command);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
