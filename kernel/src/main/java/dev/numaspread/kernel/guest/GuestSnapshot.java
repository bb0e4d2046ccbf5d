package dev.numaspread.kernel.guest;

import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.model.topology.Topology;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A clean guest kept in a file: QEMU's migration stream of the guest right after it booted (probe
 * loaded, agent answering, its online CPUs as booted, no call made), and what the boot read of it.
 * Starting QEMU on the file gives the same clean guest again in about a second, where a boot takes
 * 10-120 s under TCG: what an oops costs (issue 21: Linux 6.1 oopses on {@code group_cpus_evenly(0)}
 * and on {@code blk_mq_map_queues} with 0 queues, and each oops is judged only once the call alone on a
 * clean guest gives it again).
 *
 * <p>Save ({@link #save}): over QMP, {@code stop}, {@code migrate} to {@code exec:cat > FILE},
 * {@code query-migrate} until it completed, {@code cont}. The guest has no disk, so the stream is the
 * whole guest (memory, CPUs, devices); QEMU 7.2 has no {@code file:} migration. Restore
 * ({@link #incomingArguments}, {@link #resume}): the boot's command line with the CPUs the boot
 * hot-added as {@code -device} (a machine of split SMT numbering: QEMU's CPU slots must be the
 * stream's) and {@code -incoming exec:cat FILE}; the loaded guest waits paused, as it was saved, and
 * {@code cont} runs it. The agent keeps its end of the channel open meanwhile and answers the host
 * that connects to the new QEMU.
 */
record GuestSnapshot(Path file, String release, ProbeAnswers.Have have, Topology booted, Topology current, List<Tar.Entry> sysfs) {

    /**
     * Saves the guest QMP drives ({@code qmp}) into a new file in {@code dir}; the guest runs again
     * afterwards, as before.
     *
     * @throws IOException when QMP refuses, the migration fails, or the deadline ({@link System#nanoTime()}) passes
     */
    static Path save(QmpClient qmp, Path dir, long deadline) throws IOException {
        Path file = Files.createTempFile(dir, "numaspread-guest", ".state");
        file.toFile().deleteOnExit();
        try {
            // QEMU 7.2 limits a migration to 32 MiB/s by default; the stream goes to a local file.
            qmp.execute("migrate-set-parameters", Map.of("max-bandwidth", 1L << 40));
            qmp.execute("stop", Map.of());
            try {
                qmp.execute("migrate", Map.of("uri", "exec:cat > '" + file + "'"));
                for (; ; ) {
                    JsonNode r = qmp.execute("query-migrate", Map.of());
                    String status = r.path("status").asText();
                    if (status.equals("completed")) break;
                    if (status.equals("failed") || status.equals("cancelled"))
                        throw new IOException("the migration to " + file + " " + status + ": " + r.path("error-desc").asText(r.toString()));
                    if (System.nanoTime() > deadline) throw new IOException("the migration to " + file + " did not complete in time (" + status + ")");
                    sleep(20);
                }
            } finally {
                qmp.execute("cont", Map.of());
            }
            return file;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** What the restoring QEMU takes besides the boot's command line: the hot-added CPUs, then the stream. */
    List<String> incomingArguments(QemuMachine machine) {
        List<String> a = new ArrayList<>();
        for (List<QemuMachine.Slot> level : machine.hotAddLevels())
            for (QemuMachine.Slot s : level)
                a.addAll(List.of("-device", QemuMachine.CPU_DEVICE + ",id=cpu" + s.cpu() + ",socket-id=" + s.socket() + ",core-id=" + s.core()
                        + ",thread-id=" + s.thread()));
        a.addAll(List.of("-incoming", "exec:cat '" + file + "'"));
        return a;
    }

    /**
     * Runs the guest once QEMU has loaded the stream: waits while QEMU says {@code inmigrate}, then
     * {@code cont}.
     *
     * @throws IOException when the load failed or the deadline passes first
     */
    static void resume(QmpClient qmp, long deadline) throws IOException {
        for (; ; ) {
            String status = qmp.execute("query-status", Map.of()).path("status").asText();
            if (status.equals("running")) return;
            if (status.equals("paused") || status.equals("postmigrate")) {
                qmp.execute("cont", Map.of());
                return;
            }
            if (!status.equals("inmigrate") && !status.equals("prelaunch"))
                throw new IOException("QEMU is '" + status + "' after loading the guest's snapshot");
            if (System.nanoTime() > deadline) throw new IOException("QEMU did not load the guest's snapshot in time");
            sleep(10);
        }
    }

    /** Deletes the file; a file that cannot be deleted is left in the temporary folder (and deleted when the JVM exits). */
    void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // left for deleteOnExit
        }
    }

    private static void sleep(long ms) throws IOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
