package dev.numaspread.kernel.cache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One builder at a time for one thing in the cache: threads of one JVM take turns (where a bare
 * file lock would throw), and another process waits for the lock to be released. On a new cache,
 * kernel-it's two surefire forks once compiled the same kernel-src program at once and the second
 * could not move its copy in.
 */
class CacheLockTest {

    @Test
    void threadsOfOneJvmTakeTurns(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("sub/x.lock");
        AtomicInteger inside = new AtomicInteger(), most = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 20; i++)
                        CacheLock.holding(file, () -> {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.onSpinWait();
                            inside.decrementAndGet();
                            return null;
                        });
                } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(30));
        assertNull(failed.get(), "a thread failed to take the lock");
        assertEquals(1, most.get(), "threads inside the lock at once");
    }

    @Test
    void anotherProcessHoldingItMakesThisOneWait(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("x.lock");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), Holder.class.getName(), file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
             OutputStream in = holder.getOutputStream()) {
            assertEquals("held", out.readLine(), "the other process took the lock");
            CountDownLatch entered = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                try {
                    CacheLock.holding(file, () -> {
                        entered.countDown();
                        return null;
                    });
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            waiter.start();
            assertFalse(entered.await(300, TimeUnit.MILLISECONDS), "entered while another process held the lock");
            in.write('\n');
            in.flush();
            assertTrue(entered.await(30, TimeUnit.SECONDS), "never entered after the other process let go");
            waiter.join();
        } finally {
            holder.destroyForcibly();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The other process: takes the lock, says "held", keeps it until a line comes on stdin. */
    public static final class Holder {
        public static void main(String[] args) throws IOException {
            CacheLock.holding(Path.of(args[0]), () -> {
                System.out.println("held");
                System.out.flush();
                return System.in.read();
            });
        }
    }
}
