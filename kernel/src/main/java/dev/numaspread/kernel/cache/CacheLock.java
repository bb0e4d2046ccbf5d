package dev.numaspread.kernel.cache;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One builder at a time for one thing in the cache, whoever else wants it: the threads of this JVM
 * wait on a monitor kept per lock file, other processes (kernel-it's second surefire fork, a second
 * {@code numaspread}) on a file lock. Both are needed: a {@link FileLock} keeps out other processes
 * only, and a second lock on the same file from this JVM throws
 * {@link java.nio.channels.OverlappingFileLockException} instead of waiting.
 *
 * <p>Whoever waited finds the thing built when its turn comes, so the work should begin by looking
 * for it. Every build into the cache goes through here: on a new machine (CI starts on one every
 * time) two forks once built the same program at once, and the second could not move its copy in.
 */
public final class CacheLock {
    private CacheLock() {}

    /** What is done under the lock. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws IOException;
    }

    private static final ConcurrentHashMap<Path, Object> MONITORS = new ConcurrentHashMap<>();

    /**
     * Runs {@code work} holding {@code lockFile} (created, with its folder, when missing; never
     * deleted, so that every process locks the same file).
     *
     * @throws IOException when the lock file cannot be created or locked, or from {@code work}
     */
    public static <T> T holding(Path lockFile, Work<T> work) throws IOException {
        Path file = lockFile.toAbsolutePath().normalize();
        synchronized (MONITORS.computeIfAbsent(file, f -> new Object())) {
            Files.createDirectories(file.getParent());
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock lock = ch.lock()) {
                return work.run();
            }
        }
    }
}
