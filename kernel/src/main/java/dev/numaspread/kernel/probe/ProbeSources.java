package dev.numaspread.kernel.probe;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sources of the probe module and the guest agent ({@code kernel-probe/} of the repository),
 * as this build of numaspread carries them in its jar. What is built from them is cached under a
 * hash of their text, so a changed probe is rebuilt and an unchanged one never is.
 */
public final class ProbeSources {

    private ProbeSources() {}

    /** The files of the module ({@code Kbuild}, the C file) and of the agent. */
    static final List<String> MODULE = List.of("Kbuild", "numaspread_probe.c");
    static final List<String> AGENT = List.of("agent.c");

    private static final Map<String, byte[]> TEXT = load();

    private static Map<String, byte[]> load() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (String name : List.of("Kbuild", "numaspread_probe.c", "agent.c"))
            try (InputStream in = ProbeSources.class.getResourceAsStream("/kernel-probe/" + name)) {
                if (in == null) throw new IllegalStateException("kernel-probe/" + name + " is missing from numaspread's jar");
                m.put(name, in.readAllBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        return m;
    }

    /** The first 12 hex digits of the SHA-256 of {@code files}. */
    static String hash(List<String> files) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (String f : files) {
                d.update(f.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                d.update(TEXT.get(f));
            }
            return HexFormat.of().formatHex(d.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code files} into {@code dir}. */
    static void write(List<String> files, Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String f : files) Files.write(dir.resolve(f), TEXT.get(f));
    }
}
