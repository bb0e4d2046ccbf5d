package dev.numaspread.kernel.guest;

import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.kernel.host.HostCommand;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.Topology;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A Linux kernel booted under QEMU on one machine, answering through the probe module and the agent
 * of {@code kernel-probe/} over a virtio-serial port (a unix socket on this side).
 *
 * <p>Boot: QEMU starts with every present CPU online; the guest's agent says {@code ready}; a
 * machine of split SMT numbering gets its other threads hot-added through QMP
 * ({@link QemuMachine#hotAddLevels()}); the machine is read back from the guest's sysfs
 * ({@link MachineSnapshot}, the reader {@code snapshot} and {@code audit} use) and the CPUs the
 * machine wants offline are taken offline. When Linux built another machine than the one asked
 * for, the boot ends in {@link CannotBuild} naming the difference ({@link QemuMachine#difference}).
 * A boot that does not say ready within its timeout, or whose kernel panics, is tried once more;
 * a second failure throws {@link GuestFailure} with the console's last lines.
 *
 * <p>Calls: one request line, one answer line. Several requests may be sent before their answers
 * ({@link #ask(List)}): the agent batches whatever has arrived into one write to the probe. A call
 * during which the console shows an oops, a BUG or a panic throws {@link KernelBug}; every call
 * after it throws {@link GuestFailure}. A call without an answer within the call timeout throws
 * {@link GuestFailure} and the guest is stopped.
 *
 * <p>A clean guest again: {@link #keepClean()} keeps the guest, just booted, as QEMU's migration
 * stream in a file ({@link GuestSnapshot}); {@link #restoreClean()} starts QEMU on that file in place
 * of this guest, a boot's worth of work done in about a second (the agent answers as right after the
 * boot, with the online CPUs it had).
 *
 * <p>The QEMU process is killed on {@link #close()}, on a timeout, and when the JVM exits; the
 * snapshot a guest holds is deleted on {@link #close()}.
 *
 * <p>Over 450 lines (issue 26): the boot (start, ready, CPU hot-add, read-back) and its restore from a
 * kept snapshot, the agent's exchange and the {@code Guest} calls; not split this round: the boot and
 * the restore would be a class of their own (the QMP side of a snapshot is {@link GuestSnapshot}).
 */
public final class QemuGuest implements Guest {

    /** How a guest is booted and asked. */
    public record Options(String qemu, Duration bootTimeout, Duration callTimeout, int retries, Consumer<String> progress,
                          GuestDevices devices, String append) {
        /** The defaults: {@code qemu-system-x86_64}, 60 s plus 3 s per vCPU to boot (TCG), 60 s per call, one retry, no device. */
        public static Options defaults(Consumer<String> progress) {
            return new Options("qemu-system-x86_64", Duration.ZERO, Duration.ofSeconds(60), 1, progress, GuestDevices.NONE, "");
        }

        public Options withBootTimeout(Duration d) {
            return new Options(qemu, d, callTimeout, retries, progress, devices, append);
        }

        public Options withCallTimeout(Duration d) {
            return new Options(qemu, bootTimeout, d, retries, progress, devices, append);
        }

        public Options withRetries(int r) {
            return new Options(qemu, bootTimeout, callTimeout, r, progress, devices, append);
        }

        public Options withQemu(String program) {
            return new Options(program, bootTimeout, callTimeout, retries, progress, devices, append);
        }

        /** The same options, the guest booting with {@code d} too (issue 27); its image must load their modules. */
        public Options withDevices(GuestDevices d) {
            return new Options(qemu, bootTimeout, callTimeout, retries, progress, d, append);
        }

        /**
         * The same options, the kernel command line ending in {@code words} too (a test boots a guest
         * whose kernel panics with {@code rdinit=/nonexistent}).
         */
        public Options withAppend(String words) {
            return new Options(qemu, bootTimeout, callTimeout, retries, progress, devices, words.strip());
        }

        /**
         * That QEMU is installed.
         *
         * @throws GuestFailure naming the package to install
         */
        public void requireQemu() {
            if (!HostCommand.installed(qemu))
                throw new GuestFailure(qemu + " is not installed; booting a kernel needs QEMU (apt-get install --no-install-recommends"
                        + " qemu-system-x86)");
        }

        Duration bootTimeoutFor(QemuMachine m, boolean kvm) {
            if (!bootTimeout.isZero()) return bootTimeout;
            return Duration.ofSeconds(kvm ? 60 : 60 + 3L * m.vcpus());
        }
    }

    /** The kernel command line: the console on the first serial port; a panic ends QEMU (-no-reboot). */
    static final String APPEND = "console=ttyS0 panic=-1 mitigations=off";

    private final QemuMachine machine;
    private final GuestImage image;
    private final Options options;
    private final List<String> argv;
    private final Process qemu;
    private final Console console;
    private final Console errors;
    private final Thread reaper;
    private final Path socketDir;
    private final GuestChannel channel;
    private String release = "";
    private Duration bootTime = Duration.ZERO;
    private ProbeAnswers.Have have;
    private Topology booted;
    private List<dev.numaspread.conformance.snapshot.Tar.Entry> lastSnapshot = List.of();
    private boolean snapshotStale;
    private volatile Topology current;
    private volatile String brokenBy;
    private volatile boolean oopsed;
    private boolean closed;
    private int cachedGroupsFor = -1;
    private ProbeAnswers.Groups cachedGroups;
    /** The snapshot of this machine as a clean guest, kept by {@link #keepClean()} or handed on by {@link #restoreClean()}; deleted on close. */
    private GuestSnapshot clean;
    private boolean restoredFromSnapshot;

    private QemuGuest(QemuMachine machine, GuestImage image, Options options, List<String> argv, Process qemu, Console console,
                      Console errors, Thread reaper, Path socketDir, GuestChannel channel) {
        this.machine = machine;
        this.image = image;
        this.options = options;
        this.argv = argv;
        this.qemu = qemu;
        this.console = console;
        this.errors = errors;
        this.reaper = reaper;
        this.socketDir = socketDir;
        this.channel = channel;
    }

    /**
     * Boots {@code image} on {@code topology}'s machine and reads the machine back.
     *
     * @throws CannotBuild when QEMU cannot build the machine (before anything starts), or the kernel
     *                     refuses its online CPUs
     * @throws GuestFailure when QEMU is missing or the guest does not boot (after the retries)
     */
    public static QemuGuest boot(GuestImage image, Topology topology, Options options) {
        QemuMachine machine = QemuMachine.of(topology);
        options.requireQemu();
        GuestFailure last = null;
        for (int attempt = 0; attempt <= options.retries(); attempt++) {
            try {
                QemuGuest g = start(machine, image, options, null);
                try {
                    g.hotAdd(System.nanoTime() + options.bootTimeoutFor(machine, QemuMachine.kvmAvailable()).toNanos());
                    g.readBack();
                    return g;
                } catch (RuntimeException e) {
                    g.close();
                    throw e;
                }
            } catch (GuestFailure e) {
                last = e;
                if (attempt < options.retries()) options.progress().accept("the guest did not come up (" + e.getMessage() + "); booting again");
            }
        }
        throw last;
    }

    /** Starts QEMU on {@code machine}: booting, or restoring {@code from} when it is not null. */
    private static QemuGuest start(QemuMachine machine, GuestImage image, Options options, GuestSnapshot from) {
        boolean kvm = QemuMachine.kvmAvailable();
        Path dir;
        try {
            // A unix socket path has at most 107 bytes: keep it in /tmp, not in the cache.
            dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "numaspread-guest");
        } catch (IOException e) {
            throw new GuestFailure("cannot make a folder for the guest's channel: " + e.getMessage());
        }
        Path socket = dir.resolve("channel");
        List<String> argv = new ArrayList<>(machine.arguments(new QemuMachine.Boot(options.qemu(), image.kernel(), image.initramfs(), socket,
                options.append().isEmpty() ? APPEND : APPEND + " " + options.append(), kvm)));
        try {
            argv.addAll(options.devices().qemuArguments(dir, dir.getFileName().toString()));
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new GuestFailure("cannot make the guest's disk images in " + dir + ": " + e.getMessage());
        }
        // QMP saves and restores a clean guest (GuestSnapshot); a machine built by hot-add has it already.
        if (!machine.isSplit()) argv.addAll(QemuMachine.qmpArguments(socket));
        if (from != null) argv.addAll(from.incomingArguments(machine));
        long t0 = System.nanoTime();
        Process p;
        try {
            p = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new GuestFailure(options.qemu() + ": cannot start it (" + e.getMessage() + ")");
        }
        Thread reaper = new Thread(() -> HostCommand.kill(p), "numaspread-guest-reaper");
        try {
            Runtime.getRuntime().addShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting (a retry after its hooks killed the first QEMU): nothing may outlive it.
            HostCommand.kill(p);
            deleteQuietly(dir);
            throw new GuestFailure("the JVM is shutting down; the guest was not started");
        }
        Console console = new Console(400);
        Console errors = new Console(40);
        console.follow(p.getInputStream(), "numaspread-guest-console");
        errors.follow(p.getErrorStream(), "numaspread-guest-stderr");
        long deadline = t0 + options.bootTimeoutFor(machine, kvm).toNanos();
        SocketChannel ch = null;
        try {
            while (ch == null) {
                if (!p.isAlive()) throw new GuestFailure(exitMessage(p, console, errors));
                if (System.nanoTime() > deadline)   // a loaded host can be this slow to start QEMU: the same failure for the user
                    throw new GuestFailure("the guest was not ready within " + options.bootTimeoutFor(machine, kvm).toSeconds()
                            + " s: QEMU made no channel socket; its stderr: " + errors.tailText(4));
                if (Files.exists(socket)) {
                    try {
                        SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
                        c.connect(UnixDomainSocketAddress.of(socket));
                        ch = c;
                        continue;
                    } catch (IOException e) {
                        // QEMU has made the file but does not listen yet
                    }
                }
                Thread.sleep(10);
            }
            QemuGuest g;
            try {
                g = new QemuGuest(machine, image, options, argv, p, console, errors, reaper, dir, new GuestChannel(ch));
            } catch (IOException e) {
                throw new GuestFailure("cannot use the guest's channel: " + e.getMessage());
            }
            if (from != null) {
                g.resume(from, deadline);
            } else {
                String ready = g.awaitReady(deadline, options.bootTimeoutFor(machine, kvm));
                String[] w = ready.split(" ");
                if (w.length < 3 || !w[2].equals("probe"))
                    throw new GuestFailure("the guest's probe module did not load (" + ready + "): " + console.tailText(6));
                g.release = w[1];
            }
            g.bootTime = Duration.ofNanos(System.nanoTime() - t0);
            return g;
        } catch (InterruptedException e) {
            HostCommand.kill(p);
            Thread.currentThread().interrupt();
            throw new GuestFailure("interrupted while the guest booted");
        } catch (GuestFailure e) {
            HostCommand.kill(p);
            removeHook(reaper);
            deleteQuietly(dir);
            throw e;
        }
    }

    private String awaitReady(long deadline, Duration budget) {
        Runnable watch = () -> {
            Optional<String> failure = console.failure();
            if (failure.isPresent()) throw new GuestFailure("the kernel failed while booting: " + failure.get() + ": " + console.tailText(8));
            if (!qemu.isAlive()) throw new GuestFailure(exitMessage(qemu, console, errors));
        };
        try {
            String ready = (String) channel.exchange(new byte[0], new boolean[1], deadline, watch).get(0);
            if (!ready.startsWith("ready ")) throw new GuestFailure("the guest said '" + ready + "' before ready");
            return ready;
        } catch (TimeoutException e) {
            throw new GuestFailure("the guest was not ready within " + budget.toSeconds() + " s: " + console.tailText(8));
        } catch (IOException e) {
            watch.run();
            throw new GuestFailure("the guest closed its channel before it was ready: " + console.tailText(8));
        }
    }

    /**
     * Runs the guest QEMU loaded from {@code s} and takes what the boot had read of it; the agent
     * must answer with the online CPUs the snapshot was saved with.
     */
    private void resume(GuestSnapshot s, long deadline) {
        release = s.release();
        try (QmpClient qmp = qmp(deadline)) {
            GuestSnapshot.resume(qmp, deadline);
        } catch (IOException e) {
            if (!qemu.isAlive()) throw new GuestFailure(exitMessage(qemu, console, errors));
            throw new GuestFailure("restoring the guest from " + s.file() + " failed: " + e.getMessage() + "; QEMU's stderr: " + errors.tailText(4));
        }
        CpuSet online = currentCpus()[1];
        if (!online.equals(s.current().online()))
            throw new GuestFailure("the guest restored from " + s.file() + " has CPUs " + online + " online, not " + s.current().online());
        have = s.have();
        booted = s.booted();
        current = s.current();
        lastSnapshot = s.sysfs();
        restoredFromSnapshot = true;
    }

    /** A QMP connection to this guest's QEMU, tried until {@code deadline} while QEMU has not made its socket yet. */
    private QmpClient qmp(long deadline) throws IOException {
        for (; ; ) {
            try {
                return QmpClient.connect(QemuMachine.qmpSocket(socketDir.resolve("channel")));
            } catch (IOException e) {
                if (System.nanoTime() > deadline || !qemu.isAlive()) throw e;
                try {
                    Thread.sleep(10);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
            }
        }
    }

    /**
     * Keeps this guest as it is now, just booted and clean, in a file ({@link GuestSnapshot}): then
     * {@link #restoreClean()} gives a clean guest on this machine in place of a boot. Call it before any
     * call the rules judge. Does nothing when a snapshot is kept already.
     *
     * @throws GuestFailure when QEMU cannot save the guest (it keeps running as before), or the guest
     *                      has devices (their disk images are this guest's own)
     */
    public synchronized void keepClean() {
        if (clean != null) return;
        if (closed || brokenBy != null) throw new GuestFailure("the guest is not clean: it was closed or broken");
        if (!options.devices().equals(GuestDevices.NONE)) throw new GuestFailure("a guest with devices is not kept: its disk images are its own");
        long deadline = System.nanoTime() + options.bootTimeoutFor(machine, QemuMachine.kvmAvailable()).toNanos();
        try (QmpClient qmp = qmp(deadline)) {
            Path file = GuestSnapshot.save(qmp, Path.of(System.getProperty("java.io.tmpdir")), deadline);
            clean = new GuestSnapshot(file, release, have, booted, current, List.copyOf(lastSnapshot));
        } catch (IOException e) {
            throw new GuestFailure("QEMU could not save the guest: " + e.getMessage() + "; its stderr: " + errors.tailText(4));
        }
    }

    /** Whether {@link #keepClean()} kept a snapshot of this machine (or handed on to this guest). */
    public synchronized boolean keepsClean() {
        return clean != null;
    }

    /**
     * A clean guest on this machine, restored from the snapshot {@link #keepClean()} kept, in place of
     * this guest, which is closed; the snapshot passes to the new guest.
     *
     * @throws GuestFailure when no snapshot was kept or QEMU cannot restore it (this guest is closed
     *                      all the same, and the snapshot deleted)
     */
    public QemuGuest restoreClean() {
        GuestSnapshot s;
        synchronized (this) {
            s = clean;
            clean = null;
        }
        close();
        if (s == null) throw new GuestFailure("no snapshot of the clean guest was kept");
        try {
            QemuGuest g = start(machine, image, options, s);
            synchronized (g) {
                g.clean = s;
            }
            return g;
        } catch (RuntimeException e) {
            s.delete();
            throw e;
        }
    }

    @Override
    public boolean restored() {
        return restoredFromSnapshot;
    }

    private static String exitMessage(Process p, Console console, Console errors) {
        String qemuSays = errors.tail(3).isEmpty() ? "" : " (" + String.join(" | ", errors.tail(3)) + ")";
        String exit;
        try {
            exit = "status " + p.exitValue();
        } catch (IllegalThreadStateException e) {
            exit = "no status yet";
        }
        return "QEMU exited (" + exit + ")" + qemuSays + ": " + console.tailText(8);
    }

    /**
     * Builds a machine of split SMT numbering: hot-adds its CPUs level by level through QMP, waits
     * until the guest has each level, then brings them all online.
     */
    private void hotAdd(long deadline) {
        List<List<QemuMachine.Slot>> levels = machine.hotAddLevels();
        if (levels.isEmpty()) return;
        try (QmpClient qmp = QmpClient.connect(QemuMachine.qmpSocket(socketDir.resolve("channel")))) {
            CpuSet present = currentCpus()[0];
            for (List<QemuMachine.Slot> level : levels) {
                CpuSet wanted = present;
                for (QemuMachine.Slot s : level) {
                    qmp.execute("device_add", Map.of("driver", QemuMachine.CPU_DEVICE, "id", "cpu" + s.cpu(), "socket-id", s.socket(),
                            "core-id", s.core(), "thread-id", s.thread()));
                    wanted = wanted.with(s.cpu());
                }
                while (!(present = currentCpus()[0]).equals(wanted)) {
                    if (System.nanoTime() > deadline)
                        throw new GuestFailure("the guest did not take the hot-added CPUs " + wanted.andNot(present) + " in time (it has "
                                + present + "): " + console.tailText(8));
                    Thread.sleep(50);
                }
            }
            call("online " + ProbeAnswers.list(present));
        } catch (IOException e) {
            throw new GuestFailure("hot-adding CPUs through QMP failed: " + e.getMessage() + ": " + console.tailText(6));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GuestFailure("interrupted while hot-adding CPUs");
        }
    }

    /** The guest's present and online CPUs now. */
    private CpuSet[] currentCpus() {
        String[] w = call("cpus").split(" ");
        return new CpuSet[]{ProbeAnswers.parseList(w[0]), ProbeAnswers.parseList(w[1])};
    }

    private void readBack() {
        have = ProbeAnswers.have(ProbeAnswers.body("have", ask(List.of("have")).get(0)));
        byte[] payload = snapshot();
        lastSnapshot = ProbeAnswers.snapshot(payload);
        Topology seen;
        try {
            seen = MachineSnapshot.of("guest " + release, ProbeAnswers.snapshot(payload)).topology().topology();
        } catch (InvalidTopologyException e) {
            throw new GuestFailure("the booted machine does not read as a topology: " + e.getMessage());
        }
        if (have.words().contains("nodes")) seen = withKernelNodes(seen, call("nodes"));
        booted = seen.named(machine.requested().name(), "Linux " + release + " booted by QEMU on " + machine.requested().name());
        current = booted;
        if (!machine.requested().online().equals(booted.online())) setOnline(machine.requested().online());
        Optional<String> differs = QemuMachine.difference(machine.requested(), current, release);
        if (differs.isPresent()) throw new CannotBuild(differs.get());
    }

    /**
     * {@code t} with each CPU that is not online in the node {@code cpu_to_node()} gives it
     * ({@code answer} of the probe's {@code nodes}: {@code CPU:NODE} pairs). sysfs lists a node's
     * online CPUs only, so the snapshot's reader places the others itself; the kernel has placed them
     * already, and before 6.9 not as SRAT says: 6.1 deals CPUs that are not present to the nodes with
     * memory round robin by CPU id ({@code numa_init_array()}), SRAT's word notwithstanding.
     */
    static Topology withKernelNodes(Topology t, String answer) {
        java.util.TreeMap<Integer, CpuSet> moved = new java.util.TreeMap<>();
        CpuSet away = CpuSet.EMPTY;
        for (String pair : answer.strip().split("\\s+")) {
            if (pair.isEmpty()) continue;
            String[] cn = pair.split(":");
            int cpu = Integer.parseInt(cn[0]), node = Integer.parseInt(cn[1]);
            if (!t.possible().contains(cpu) || t.online().contains(cpu) || node < 0 || !t.hasNode(node) || t.nodeOf(cpu) == node) continue;
            moved.merge(node, CpuSet.of(cpu), CpuSet::or);
            away = away.with(cpu);
        }
        if (away.isEmpty()) return t;
        List<dev.numaspread.model.topology.Node> nodes = new ArrayList<>();
        for (dev.numaspread.model.topology.Node n : t.nodes())
            nodes.add(new dev.numaspread.model.topology.Node(n.id(), n.cpus().andNot(away).or(moved.getOrDefault(n.id(), CpuSet.EMPTY)),
                    n.hasMemory(), n.sizeMiB()));
        return new Topology(t.name(), t.source(), t.possible(), t.present(), t.online(), nodes, t.distances(), t.smtSiblings(),
                t.packages(), t.clustersAssumed() ? List.of() : t.clusters(), t.cpuModel());
    }

    /**
     * What the guest shows of its devices now, as {@code numaspread snapshot} reads a machine
     * (spec/formats.md FMT-15): {@code /proc/interrupts}, each IRQ's affinity files, block queues,
     * PCI devices, network interfaces' XPS maps; with the system files of the last snapshot, a whole
     * snapshot (issue 27).
     *
     * @throws GuestFailure when the agent cannot answer
     */
    public List<dev.numaspread.conformance.snapshot.Tar.Entry> deviceSnapshot() {
        Object a = exchange(List.of("devsnap"), true).get(0);
        if (!(a instanceof byte[] b)) throw new GuestFailure("the agent's device snapshot failed: " + a);
        List<dev.numaspread.conformance.snapshot.Tar.Entry> out = new ArrayList<>(lastSnapshot);
        out.addAll(ProbeAnswers.snapshot(b));
        return out;
    }

    private byte[] snapshot() {
        Object a = exchange(List.of("snap"), true).get(0);
        if (a instanceof byte[] b) return b;
        throw new GuestFailure("the agent's snapshot failed: " + a);
    }

    /**
     * Sends {@code requests} in one go and returns their answers, in order: the way to many calls a
     * second (the agent hands all that arrived to the probe in one write).
     *
     * @throws KernelBug when the kernel oopses while they run
     * @throws GuestFailure when the guest hangs, dies, or failed before
     */
    public List<String> ask(List<String> requests) {
        List<Object> raw = exchange(requests, false);
        List<String> out = new ArrayList<>(raw.size());
        for (Object o : raw) out.add((String) o);
        return out;
    }

    private List<Object> exchange(List<String> requests, boolean snap) {
        return exchange(requests, snap, options.callTimeout(), null);
    }

    /**
     * {@code requests} answered within {@code timeout}; {@code hangMeans}, when not null, says what a
     * request left unanswered shows of the kernel: it is then that kernel bug (a "deadlock"), not a
     * guest that stopped answering.
     */
    private synchronized List<Object> exchange(List<String> requests, boolean snap, Duration timeout, String hangMeans) {
        if (closed) throw new GuestFailure("the guest was closed");
        if (brokenBy != null) throw new GuestFailure("the guest is not trusted after " + brokenBy);
        StringBuilder sb = new StringBuilder();
        for (String r : requests) sb.append(r).append('\n');
        boolean[] snaps = new boolean[requests.size()];
        Arrays.fill(snaps, snap);
        int[] answered = {0};
        Runnable watch = () -> {
            Optional<String> failure = console.failure();
            if (failure.isPresent()) throw bug(requests.get(answered[0]), failure.get());
            if (!qemu.isAlive()) {
                brokenBy = "QEMU exited";
                throw new GuestFailure("QEMU exited during '" + requests.get(answered[0]) + "': " + exitMessage(qemu, console, errors));
            }
        };
        try {
            return channel.exchange(sb.toString().getBytes(StandardCharsets.US_ASCII), snaps,
                    System.nanoTime() + timeout.toNanos(), watch);
        } catch (TimeoutException e) {
            brokenBy = "a call that hung";
            HostCommand.kill(qemu);
            if (hangMeans != null) {
                brokenBy = "a deadlock on '" + requests.get(0) + "'";
                oopsed = true;
                throw new KernelBug("deadlock", "Linux " + release + " did not answer '" + requests.get(0) + "' within "
                        + timeout.toSeconds() + " s: " + hangMeans + "; the guest was stopped | console: " + console.tailText(8));
            }
            throw new GuestFailure("no answer to '" + requests.get(0) + (requests.size() > 1 ? "' (and " + (requests.size() - 1) + " more)" : "'")
                    + " within " + options.callTimeout().toSeconds() + " s; the guest was stopped: " + console.tailText(8));
        } catch (IOException e) {
            // The agent died: an oops in the probe kills it; the console says so a moment later.
            long wait = System.nanoTime() + 2_000_000_000L;
            while (console.failure().isEmpty() && System.nanoTime() < wait) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (console.failure().isPresent()) throw bug(requests.get(0), console.failure().get());
            brokenBy = "its channel closed";
            throw new GuestFailure("the guest closed its channel during '" + requests.get(0) + "': " + console.tailText(8));
        }
    }

    private KernelBug bug(String request, String line) {
        brokenBy = "the kernel failed on '" + request + "' (" + line + ")";
        oopsed = true;
        return new KernelBug("oops", "Linux " + release + " failed on '" + request + "': " + line + " | console: " + console.tailText(12));
    }

    private String call(String request) {
        return ProbeAnswers.body(request, ask(List.of(request)).get(0));
    }

    // ------------------------------------------------------------------ Guest

    @Override
    public boolean oopsed() {
        return oopsed;
    }

    @Override
    public String release() {
        return release;
    }

    @Override
    public KernelRelease series() {
        return KernelRelease.parse(release);
    }

    @Override
    public Topology machine() {
        return current;
    }

    /** The machine asked for (before Linux renumbered or dropped anything). */
    public Topology requested() {
        return machine.requested();
    }

    /** The QEMU command line this guest runs. */
    public List<String> commandLine() {
        return argv;
    }

    /** From QEMU's start to the agent's ready line (restored: to the agent's first answer). */
    public Duration bootTime() {
        return bootTime;
    }

    /** The last lines of the console. */
    public List<String> consoleTail(int n) {
        return console.tail(n);
    }

    @Override
    public Set<Call> answers() {
        Set<Call> s = EnumSet.noneOf(Call.class);
        for (Map.Entry<Call, Boolean> e : have.calls().entrySet()) if (e.getValue()) s.add(e.getKey());
        return s;
    }

    @Override
    public Optional<String> whyNot(Call call) {
        if (answers().contains(call)) return Optional.empty();
        return Optional.of(switch (call) {
            case LOCAL_SPREAD -> "cpumask_local_spread is not in Linux " + release + "'s symbol table";
            case NUMA_LEVELS -> "sched_domains_numa_levels and sched_domains_numa_distance are not in Linux " + release + "'s symbol table";
            case HOP_MASKS -> "sched_numa_hop_mask is not in Linux " + release + " (added in 6.3)";
            case NUMA_NTH -> "sched_numa_find_nth_cpu is not in Linux " + release + " (added in 6.3)";
            case NUMA_CLOSEST -> "sched_numa_find_closest is not in Linux " + release + "'s symbol table";
            case NUMA_NEAREST_NODE -> "numa_nearest_node is not in Linux " + release + " (added in 6.7)";
            case GROUP_CPUS -> "group_cpus_evenly is not in Linux " + release + " (include/linux/group_cpus.h; added in 6.3, backported to 6.1.y)";
            case BLK_MQ_MAP -> "blk_mq_map_queues is not in Linux " + release + "'s symbol table";
            case IRQ_AFFINITY_MASKS -> "irq_create_affinity_masks is not in Linux " + release + "'s symbol table";
        });
    }

    @Override
    public void setOnline(CpuSet online) {
        if (!online.isSubsetOf(booted.present()))
            throw new CannotBuild("cpus " + online.andNot(booted.present()) + " are not present; only present CPUs can be brought online");
        if (online.equals(current.online())) return;
        if (!online.contains(0)) throw new CannotBuild("cpu 0 offline: x86 Linux cannot take CPU 0 offline");
        try {
            call("online " + ProbeAnswers.list(online));
        } finally {
            // Whatever the kernel did, read what is online now; sysfs is read again when asked.
            current = booted.withOnline(currentCpus()[1]);
            snapshotStale = true;
        }
    }

    /** A file of the guest's sysfs or procfs as it is now: {@code sys/devices/system/cpu/cpu3/topology/cluster_cpus_list}. */
    public Optional<String> sysfs(String path) {
        if (snapshotStale) {
            lastSnapshot = ProbeAnswers.snapshot(snapshot());
            snapshotStale = false;
        }
        for (var e : lastSnapshot)
            if (e.path().equals(path) && e instanceof dev.numaspread.conformance.snapshot.Tar.File f) return Optional.of(f.text());
        return Optional.empty();
    }

    /** {@code sched_domains_numa_masks[level][node]} for each level; empty when the probe cannot read them. */
    public List<CpuSet> numaLevelMasks(int node) {
        if (!have.words().contains("lvlmask")) return List.of();
        return ProbeAnswers.masks(call("lvlmask " + node));
    }

    /** Whether {@code group_cpus_evenly} takes {@code &nummasks} in this kernel (its header says so). */
    public boolean hasNummasks() {
        return have.words().contains("grp-nummasks");
    }

    /** The words the probe's {@code have} answered: the calls it found, and {@code key=value} facts. */
    public List<String> probeFound() {
        return have.words();
    }

    @Override
    public int[] localSpread(int node, int count) {
        return ProbeAnswers.ints(call("ls " + node + " " + count));
    }

    @Override
    public int[] numaLevels() {
        return ProbeAnswers.ints(call("lvl"));
    }

    @Override
    public List<CpuSet> hopMasks(int node) {
        return ProbeAnswers.masks(call("hop " + node));
    }

    @Override
    public int numaNth(CpuSet cpus, int n, int node) {
        return ProbeAnswers.ints(call("nth " + node + " " + n + " " + ProbeAnswers.list(cpus)))[0];
    }

    @Override
    public int numaClosest(CpuSet cpus, int cpu) {
        return numaClosestCalls(current.online().first(), 0, List.of(new NumaClosest.Call(cpus, cpu)))[0];
    }

    @Override
    public int[] numaClosestCalls(int callingCpu, int prev, List<NumaClosest.Call> calls) {
        StringBuilder sb = new StringBuilder("closest " + callingCpu + " " + prev + " " + calls.size());
        for (NumaClosest.Call c : calls) sb.append(' ').append(c.cpu()).append(' ').append(ProbeAnswers.list(c.cpus()));
        return ProbeAnswers.ints(call(sb.toString()));
    }

    @Override
    public int numaNearestNode(int node) {
        return ProbeAnswers.ints(call("nearest " + node))[0];
    }

    private ProbeAnswers.Groups groups(int numgrps) {
        if (cachedGroupsFor != numgrps || cachedGroups == null) {
            cachedGroups = ProbeAnswers.groups(call("grp " + numgrps));
            cachedGroupsFor = numgrps;
        }
        return cachedGroups;
    }

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(int numgrps) {
        // The next call reads this grouping's nummasks: keep the answer until then, and ask again after.
        ProbeAnswers.Groups g = ProbeAnswers.groups(call("grp " + numgrps));
        cachedGroups = g;
        cachedGroupsFor = numgrps;
        return g.masks();
    }

    @Override
    public OptionalInt groupCpusNummasks(int numgrps) {
        ProbeAnswers.Groups g = groups(numgrps);
        cachedGroups = null;
        return g.nummasks();
    }

    /**
     * How long the online of {@link #groupCpusDuringOnline} may take before it is a deadlock: a CPU
     * comes online in well under a second under TCG on 2 loaded cores, the experiment included.
     */
    static final Duration HOTPLUG_DEADLOCK = Duration.ofSeconds(20);

    /** Whether the probe can call {@code group_cpus_evenly} from a CPU hotplug callback ({@code grp-hotplug}). */
    public boolean callsUnderHotplug() {
        return have.words().contains("grp-hotplug");
    }

    @Override
    public UnderHotplug groupCpusDuringOnline(int numgrps, int cpu) {
        return groupCpusDuringOnline(numgrps, cpu, false, HOTPLUG_DEADLOCK);
    }

    /**
     * {@link #groupCpusDuringOnline(int, int)}, an online not complete within {@code deadlock} being
     * the deadlock; {@code selftestLock}: the probe's callback takes {@code cpus_read_lock()} around
     * the call, as 6.3 to 6.5 did, for the tests that a deadlock is seen as one.
     */
    UnderHotplug groupCpusDuringOnline(int numgrps, int cpu, boolean selftestLock, Duration deadlock) {
        if (!callsUnderHotplug()) return Guest.super.groupCpusDuringOnline(numgrps, cpu);
        String request = "grphp " + numgrps + " " + cpu + (selftestLock ? " selftest-lock" : "");
        String hang = "bringing cpu " + cpu + " online did not complete while group_cpus_evenly(" + numgrps + ") ran in its CPU hotplug"
                + " callback (CPUHP_AP_ONLINE_DYN), the hotplug lock held for writing by the online: the routine waits for that lock";
        String body;
        try {
            body = ProbeAnswers.body(request, (String) exchange(List.of(request), false, deadlock, hang).get(0));
        } finally {
            // The agent leaves the CPU as it found it; what is online is read again all the same (a refused online too).
            if (brokenBy == null) current = booted.withOnline(currentCpus()[1]);
            snapshotStale = true;
        }
        return ProbeAnswers.underHotplug(body);
    }

    @Override
    public int[] blkMqMapQueues(int queues, int offset) {
        return ProbeAnswers.ints(call("mq " + queues + " " + offset));
    }

    @Override
    public Optional<List<AffinityDesc>> irqCreateAffinityMasks(int nvecs, int preVectors, int postVectors, List<Integer> setSizes) {
        return ProbeAnswers.affinity(call(ProbeAnswers.affinityRequest(nvecs, preVectors, postVectors, setSizes)));
    }

    @Override
    public void close() {
        GuestSnapshot kept;
        synchronized (this) {
            if (closed) return;
            closed = true;
            kept = clean;
            clean = null;
        }
        if (kept != null) kept.delete();
        try {
            if (qemu.isAlive() && brokenBy == null) {
                channel.exchange("quit\n".getBytes(StandardCharsets.US_ASCII), new boolean[1], System.nanoTime() + 2_000_000_000L, () -> {});
                qemu.waitFor(2, TimeUnit.SECONDS);
            }
        } catch (IOException | TimeoutException | RuntimeException ignored) {
            // killed below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            HostCommand.kill(qemu);
            try {
                qemu.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing a dead channel
            }
            removeHook(reaper);
            deleteQuietly(socketDir);
        }
    }

    private static void removeHook(Thread t) {
        try {
            Runtime.getRuntime().removeShutdownHook(t);
        } catch (IllegalStateException shuttingDown) {
            // the hook kills QEMU anyway
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a temporary folder left in /tmp
        }
    }
}
