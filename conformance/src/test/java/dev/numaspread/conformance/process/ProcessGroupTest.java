package dev.numaspread.conformance.process;

import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * No process outlives the certification: the program runs in a process group of its own, and
 * stopping it (after a timeout, a crash, or at the end) stops the whole group, SIGKILL included
 * for what ignores SIGTERM. The programs here are shell scripts that start children which would
 * otherwise be orphaned; each test counts the live processes whose command line carries its
 * marker, from {@code /proc}.
 */
@EnabledOnOs(OS.LINUX)
class ProcessGroupTest {

    static final KernelRelease K61 = KernelRelease.of(6, 1);

    static final String HELLO = "{\"id\":1,\"ok\":true,\"protocol\":1,\"name\":\"sh\","
            + "\"claims\":[{\"routine\":\"local-spread\",\"kernel\":\"6.1\"}]}";

    /**
     * A shell program that starts two children that sleep {@code marker} seconds (ignoring
     * SIGTERM when {@code stubborn}), answers hello, then reads requests and never answers.
     */
    static String hangingProgram(String marker, boolean stubborn) {
        String ignore = stubborn ? "trap '' TERM; " : "";
        return ignore + "sleep " + marker + " & sleep " + marker + " & read line; printf '%s\\n' '" + HELLO + "'; "
                + "while read line; do :; done; sleep " + marker;
    }

    /**
     * {@link #alive} once it reaches {@code expected}, or after 5 s. A child the shell has just
     * forked is between fork and exec for a moment, and its {@code /proc/PID/cmdline} may read
     * empty then: counting once under load saw 2 of the 3 processes.
     */
    static long aliveSoon(String marker, long expected) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long n = alive(marker);
        while (n != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
            n = alive(marker);
        }
        return n;
    }

    /** The live processes (zombies aside) whose command line holds {@code marker}. */
    static long alive(String marker) throws IOException {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).filter(p -> {
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                    String stat = Files.readString(p.resolve("stat"));
                    return cmd.contains(marker) && !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
                } catch (IOException e) {
                    return false;
                }
            }).count();
        }
    }

    static String marker() {
        return "99" + (System.nanoTime() % 10_000_000) + ".5";
    }

    @Test
    void timeoutStopsTheProgramAndItsChildren() throws Exception {
        String marker = marker();
        try (ProcessImplementation p = ProcessImplementation.ofShell(hangingProgram(marker, false), Duration.ofSeconds(20))) {
            p.claims();
            assertEquals(3, aliveSoon(marker, 3), "the shell (its script holds the marker) and its two children");
            p.setRequestTimeout(Duration.ofMillis(300));
            ImplementationFailure e = assertThrows(ImplementationFailure.class,
                    () -> p.localSpreadCpus(K61, ProcessImplementationTest.TWO_NODES, 1, 2));
            assertTrue(e.getMessage().contains("request 2 (topology): no answer within 300 ms (per-request timeout)"), e.getMessage());
            assertEquals(0, alive(marker));
        }
    }

    @Test
    void processesThatIgnoreSigtermAreKilled() throws Exception {
        String marker = marker();
        try (ProcessImplementation p = ProcessImplementation.ofShell(hangingProgram(marker, true), Duration.ofSeconds(20))) {
            p.claims();
            p.setRequestTimeout(Duration.ofMillis(300));
            assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, ProcessImplementationTest.TWO_NODES, 1, 2));
            assertEquals(0, alive(marker));
        }
    }

    @Test
    void closeStopsChildrenTheProgramLeftBehind() throws Exception {
        String marker = marker();
        // Answers bye and exits, leaving its sleeping children to be orphaned.
        String program = "sleep " + marker + " & read line; printf '%s\\n' '" + HELLO + "'; read line; "
                + "printf '{\"id\":2,\"ok\":true}\\n'; exit 0";
        ProcessImplementation p = ProcessImplementation.ofShell(program, Duration.ofSeconds(20));
        p.claims();
        assertEquals(2, aliveSoon(marker, 2), "the shell (its script holds the marker) and its child");
        p.close();
        assertEquals(0, alive(marker));
    }

    /**
     * Found by the second campaign (issue 25): a daemon started with setsid left the program's
     * group and outlived the certification, even after a PASS. It carries the run's mark in its
     * environment, and stopping finds it there.
     */
    @Test
    void aDaemonThatLeftTheGroupIsStoppedToo() throws Exception {
        String marker = marker();
        String program = "setsid sh -c 'sleep " + marker + "' & read line; printf '%s\\n' '" + HELLO + "'; read line; "
                + "printf '{\"id\":2,\"ok\":true}\\n'; exit 0";
        ProcessImplementation p = ProcessImplementation.ofShell(program, Duration.ofSeconds(20));
        p.claims();
        assertTrue(aliveSoon(marker, 3) >= 2, "the daemon is running");
        p.close();
        assertEquals(0, aliveSoon(marker, 0), "the daemon outlived the certification");
    }

    @Test
    void groupMembersAreListedFromProc() throws Exception {
        ProcessGroup g = ProcessGroup.start(List.of("/bin/sh", "-c", "sleep 30 & sleep 30 & wait"));
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (ProcessGroup.members(g.id()).size() < 3 && System.nanoTime() < deadline) Thread.sleep(20);
            assertEquals(3, ProcessGroup.members(g.id()).size(), "the shell and its two sleeps");
            assertTrue(ProcessGroup.members(g.id()).contains(g.id()), "the program leads its group");
        } finally {
            g.stop(Duration.ofSeconds(1));
        }
        assertEquals(List.of(), ProcessGroup.members(g.id()));
        assertFalse(g.hasMembers());
    }
}
