package dev.numaspread.conformance.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A program started in a session and process group of its own ({@code setsid}), so that stopping
 * it stops everything it started: its shell, its children, their children. Stopping sends SIGTERM
 * to the whole group, and SIGKILL to whatever is left after a grace period; a JVM shutdown hook
 * does the same if the kit exits first, so no process outlives the certification.
 *
 * <p>A process that leaves the group ({@code setsid} in a daemon) is still found: the program
 * starts with {@value #MARK}{@code =TOKEN} in its environment, a token of this start alone, which
 * its children inherit; stopping also signals every process whose {@code /proc/PID/environ}
 * holds it. Only a process that leaves the group and clears its environment escapes (Linux's
 * PR_SET_CHILD_SUBREAPER would catch it too, but it is not reachable from Java).
 *
 * <p>Without {@code setsid} (not Linux) the program runs in the kit's group and stopping reaches
 * only the process and the descendants it still has.
 */
final class ProcessGroup {

    private static final Optional<Path> SETSID = executable("setsid");
    private static final Optional<Path> KILL = executable("kill");

    /** The environment variable that marks every process of one start, its descendants included. */
    static final String MARK = "NUMASPREAD_RUN";
    private static final java.util.concurrent.atomic.AtomicLong STARTS = new java.util.concurrent.atomic.AtomicLong();

    private final Process process;
    private final boolean ownGroup;
    private final String mark;
    /** When the program started, in clock ticks since boot ({@code /proc/PID/stat}): an older process cannot carry its mark. */
    private final long since;
    private final Thread shutdownHook;

    private ProcessGroup(Process process, boolean ownGroup, String mark) {
        this.process = process;
        this.ownGroup = ownGroup;
        this.mark = mark;
        this.since = startTime(process.pid()).orElse(0L);
        this.shutdownHook = new Thread(() -> signal("KILL"), "numaspread-stop-" + process.pid());
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the caller stops the program at once
        }
    }

    /** Starts {@code command} as the leader of a new process group. */
    static ProcessGroup start(List<String> command) throws IOException {
        // setsid reports a program it cannot run only as exit status 127: look first, as execvp would.
        if (findExecutable(command.get(0)).isEmpty())
            throw new IOException("no executable " + command.get(0) + (command.get(0).contains("/") ? "" : " on the PATH"));
        List<String> argv = new ArrayList<>();
        SETSID.ifPresent(s -> argv.add(s.toString()));
        argv.addAll(command);
        String mark = MARK + "=" + ProcessHandle.current().pid() + "-" + STARTS.incrementAndGet() + "-" + System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().put(MARK, mark.substring(MARK.length() + 1));
        return new ProcessGroup(pb.start(), SETSID.isPresent(), mark);
    }

    Process process() {
        return process;
    }

    /** The group's id: the leader's pid ({@code setsid} runs the program in place, as the leader). */
    long id() {
        return process.pid();
    }

    /**
     * Stops every process of the group: SIGTERM, then SIGKILL after {@code grace} to what is left.
     * Returns when the group is empty or, where that cannot be seen, after the SIGKILL.
     */
    void stop(Duration grace) {
        try {
            if (!hasMembers()) return;
            signal("TERM");
            long deadline = System.nanoTime() + grace.toNanos();
            while (hasMembers() && System.nanoTime() - deadline < 0) Thread.sleep(10);
            if (hasMembers()) signal("KILL");
            deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (hasMembers() && System.nanoTime() - deadline < 0) Thread.sleep(10);
        } catch (InterruptedException e) {
            signal("KILL");
            Thread.currentThread().interrupt();
        } finally {
            forget();
        }
    }

    /** Whether the leader, another live process of its group, or a process of its mark is left. */
    boolean hasMembers() {
        if (process.isAlive()) return true;
        return ownGroup && !marked(mark, since, id()).isEmpty();
    }

    private void forget() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // shutting down: the hook runs anyway, and finds nothing to stop
        }
    }

    private void signal(String signal) {
        if (ownGroup) signalMarked(signal);
        if (ownGroup && KILL.isPresent()) {
            try {
                Process kill = new ProcessBuilder(KILL.get().toString(), "-s", signal, "--", "-" + id())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (kill.waitFor(2, TimeUnit.SECONDS)) return;
                kill.destroyForcibly();
            } catch (IOException e) {
                // fall back to what Java can reach
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<ProcessHandle> all = new ArrayList<>();
        process.descendants().forEach(all::add);
        all.add(process.toHandle());
        for (ProcessHandle p : all) {
            if (signal.equals("KILL")) p.destroyForcibly();
            else p.destroy();
        }
    }

    /** Signals the processes that left the group but carry its mark (a daemon started with setsid). */
    private void signalMarked(String signal) {
        for (long pid : marked(mark, since, -1))
            ProcessHandle.of(pid).ifPresent(p -> {
                if (signal.equals("KILL")) p.destroyForcibly();
                else p.destroy();
            });
    }

    /**
     * The pids of the live processes started at {@code since} or later (clock ticks since boot)
     * whose environment holds {@code mark} ({@code NAME=VALUE}), read from {@code /proc/PID/environ}
     * (readable for this user's processes; empty where there is no {@code /proc}). Only processes
     * younger than the program are read: the mark is inherited, so no older one has it. The
     * environment a process started with: one that clears its own is not found.
     */
    static List<Long> marked(String mark, long since) {
        return marked(mark, since, -1);
    }

    /**
     * The pids of {@link #marked(String, long)}, and of the live processes of group {@code pgid}
     * (none when -1): one pass over {@code /proc} for both, as stopping asks for both every 10 ms.
     */
    private static List<Long> marked(String mark, long since, long pgid) {
        List<Long> out = new ArrayList<>();
        Path proc = Path.of("/proc");
        if (!Files.isDirectory(proc)) return out;
        byte[] want = (mark + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        try (Stream<Path> entries = Files.list(proc)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String pid = p.getFileName().toString();
                if (pid.isEmpty() || !pid.chars().allMatch(c -> c >= '0' && c <= '9') || pid.length() > 18) continue;
                if (Long.parseLong(pid) == self) continue;
                String[] f = statFields(p);
                if (f.length < 20 || f[0].equals("Z") || f[0].equals("X")) continue;
                if (pgid >= 0 && f[2].equals(Long.toString(pgid))) {
                    out.add(Long.parseLong(pid));
                    continue;
                }
                if (!f[19].matches("[0-9]{1,19}") || Long.parseLong(f[19]) < since) continue;
                byte[] env;
                try {
                    env = Files.readAllBytes(p.resolve("environ"));
                } catch (IOException | RuntimeException e) {
                    continue;   // another user's, or it ended while we looked
                }
                if (contains(env, want)) out.add(Long.parseLong(pid));
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** The fields of {@code /proc/PID/stat} after the command name (state first), or none when it cannot be read. */
    private static String[] statFields(Path procPid) {
        try {
            String stat = Files.readString(procPid.resolve("stat"));
            // pid (comm) state ...: comm may hold spaces and parentheses, so split after the last ')'.
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return new String[0];
        }
    }

    /** When process {@code pid} started, in clock ticks since boot; empty where it cannot be read. */
    private static java.util.Optional<Long> startTime(long pid) {
        String[] f = statFields(Path.of("/proc", Long.toString(pid)));
        return f.length >= 20 && f[19].matches("[0-9]{1,19}") ? java.util.Optional.of(Long.parseLong(f[19])) : java.util.Optional.empty();
    }

    /** True when {@code env} (NUL-separated entries) holds the entry {@code want} (NUL-ended). */
    private static boolean contains(byte[] env, byte[] want) {
        outer:
        for (int i = 0; i + want.length <= env.length; i++) {
            if (i > 0 && env[i - 1] != 0) continue;
            for (int k = 0; k < want.length; k++) if (env[i + k] != want[k]) continue outer;
            return true;
        }
        return false;
    }

    /**
     * The pids of the live processes of group {@code pgid}, read from {@code /proc} (empty where
     * there is no {@code /proc}). Zombies are not counted: they hold no resources but their pid.
     */
    static List<Long> members(long pgid) {
        List<Long> out = new ArrayList<>();
        Path proc = Path.of("/proc");
        if (!Files.isDirectory(proc)) return out;
        try (Stream<Path> entries = Files.list(proc)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String pid = p.getFileName().toString();
                if (pid.isEmpty() || !pid.chars().allMatch(Character::isDigit)) continue;
                String stat;
                try {
                    stat = Files.readString(p.resolve("stat"));
                } catch (IOException e) {
                    continue;   // it ended while we looked
                }
                // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'.
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                if (f.length > 2 && !f[0].equals("Z") && !f[0].equals("X") && f[2].equals(Long.toString(pgid)))
                    out.add(Long.parseLong(pid));
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    private static Optional<Path> findExecutable(String program) {
        if (program.contains("/")) return Files.isExecutable(Path.of(program)) ? Optional.of(Path.of(program)) : Optional.empty();
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) return Optional.of(p);
        }
        return Optional.empty();
    }

    private static Optional<Path> executable(String name) {
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) return Optional.of(p);
        }
        return Optional.empty();
    }
}
