package dev.numaspread.kernel.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A program run on this machine (apt-get, dpkg-deb, make, cpio): its output is kept in files, so a
 * chatty program never blocks on a full pipe, and it is killed, with its children, when it runs
 * longer than its timeout or when this JVM exits.
 */
public final class HostCommand {

    private final List<String> argv;
    private Optional<Path> directory = Optional.empty();
    private Duration timeout = Duration.ofMinutes(10);
    private final Map<String, String> environment = new java.util.TreeMap<>();

    private HostCommand(List<String> argv) {
        this.argv = List.copyOf(argv);
    }

    public static HostCommand of(String... argv) {
        return new HostCommand(List.of(argv));
    }

    public static HostCommand of(List<String> argv) {
        return new HostCommand(argv);
    }

    public HostCommand in(Path dir) {
        directory = Optional.of(dir);
        return this;
    }

    public HostCommand timeout(Duration t) {
        timeout = t;
        return this;
    }

    public HostCommand env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    public List<String> argv() {
        return argv;
    }

    /** What a finished program left: its exit status and its two outputs. */
    public record Output(HostCommand command, int exit, String out, String err) {
        public boolean ok() {
            return exit == 0;
        }

        /** The last {@code n} non-empty lines of stderr, then of stdout when stderr is empty, joined by " | ". */
        public String tail(int n) {
            String text = err.isBlank() ? out : err;
            List<String> lines = new ArrayList<>(text.lines().filter(l -> !l.isBlank()).map(String::strip).toList());
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        }

        /** This output, or a {@link HostCommandException} naming the program and its last lines when it failed. */
        public Output orThrow(String doing) {
            if (!ok())
                throw new HostCommandException(doing + ": " + command.argv.get(0) + " exited with status " + exit
                        + (tail(4).isEmpty() ? "" : ": " + tail(4)));
            return this;
        }
    }

    /**
     * Runs the program to its end.
     *
     * @throws HostCommandException when it cannot start (not installed) or outlives its timeout
     */
    public Output run() {
        Path out = null, err = null;
        Process p = null;
        try {
            out = Files.createTempFile("numaspread-cmd", ".out");
            err = Files.createTempFile("numaspread-cmd", ".err");
            ProcessBuilder pb = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            directory.ifPresent(d -> pb.directory(d.toFile()));
            pb.environment().putAll(environment);
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new HostCommandException(argv.get(0) + ": cannot run it (" + reason(e) + "); expected it installed and on PATH");
            }
            Process started = p;
            Thread reaper = new Thread(() -> kill(started));
            try {
                Runtime.getRuntime().addShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                kill(p);
                throw new HostCommandException(argv.get(0) + ": not started, the JVM is shutting down");
            }
            try {
                if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    kill(p);
                    throw new HostCommandException(String.join(" ", argv.subList(0, Math.min(3, argv.size())))
                            + ": still running after " + timeout.toSeconds() + " s; killed");
                }
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(reaper);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs anyway
                }
            }
            return new Output(this, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            if (p != null) kill(p);
            Thread.currentThread().interrupt();
            throw new HostCommandException(argv.get(0) + ": interrupted");
        } catch (IOException e) {
            throw new HostCommandException(argv.get(0) + ": " + reason(e));
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    /** Kills {@code p} and every process it started. */
    public static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    private static void deleteQuietly(Path p) {
        if (p == null) return;
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a temporary file left behind is harmless
        }
    }

    static String reason(IOException e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.contains(", error=") ? m.substring(m.indexOf(", error=") + 2) : m;
    }

    /** Whether {@code program} is found on PATH (or is an executable path). */
    public static boolean installed(String program) {
        if (program.contains("/")) return Files.isExecutable(Path.of(program));
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin");
        for (String dir : path.split(":"))
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return true;
        for (String dir : List.of("/usr/sbin", "/sbin"))
            if (Files.isExecutable(Path.of(dir, program))) return true;
        return false;
    }
}
