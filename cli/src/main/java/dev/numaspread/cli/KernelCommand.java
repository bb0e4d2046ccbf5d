package dev.numaspread.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.audit.Audit;
import dev.numaspread.conformance.audit.AuditText;
import dev.numaspread.conformance.audit.Devices;
import dev.numaspread.conformance.fixtures.TopologyFiles;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.cache.KernelFiles;
import dev.numaspread.kernel.debian.DebianArchive;
import dev.numaspread.kernel.debian.DebianKernels;
import dev.numaspread.kernel.debian.FetchFailure;
import dev.numaspread.kernel.guest.CannotBuild;
import dev.numaspread.kernel.guest.DeviceRun;
import dev.numaspread.kernel.guest.Guest;
import dev.numaspread.kernel.guest.GuestDevices;
import dev.numaspread.kernel.guest.GuestFailure;
import dev.numaspread.kernel.guest.GuestImage;
import dev.numaspread.kernel.guest.GuestRun;
import dev.numaspread.kernel.guest.QemuGuest;
import dev.numaspread.kernel.guest.QemuMachine;
import dev.numaspread.kernel.host.HostCommandException;
import dev.numaspread.kernel.probe.ProbeBuild;
import dev.numaspread.kernel.probe.ProbeBuildFailure;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.input.Printable;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code numaspread kernel fetch|list|run}: real Linux kernels, fetched from Debian's archive into
 * the cache ({@code $NUMASPREAD_CACHE}, else {@code ~/.cache/numaspread}) and booted under QEMU on a
 * machine, where a probe module of ours asks the kernel's own routines.
 *
 * <p>Over 450 lines on purpose (issue 26): the {@code kernel} subcommands, each a nested class with
 * its options; their work is the kernel module's.
 */
@Command(name = "kernel", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Fetch Debian kernels, list them, and boot one on a machine to see what its routines answer.",
        description = {"A kernel is debian-6.1, debian-6.12, debian-7.2 or debian-7.3 (the newest build of that series in Debian's"
                + " archive), a Debian release such as 7.3.4+deb13-amd64, or a folder with a kernel you built (its bzImage, modules"
                + " and build tree). Kernels are kept in $NUMASPREAD_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/numaspread; the"
                + " machine's apt sources and /boot are never touched."},
        subcommands = {KernelCommand.Fetch.class, KernelCommand.ListCached.class, KernelCommand.Run.class, KernelTableCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:the kernel could not be fetched, built or booted, or the machine cannot be built (one line says why)",
                "2:usage error"})
public final class KernelCommand implements Runnable {

    @Spec CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The one line a failure of fetching, building or booting prints, and its exit code. */
    static int fail(CommandSpec spec, RuntimeException e) {
        PrintWriter err = spec.commandLine().getErr();
        String what = e instanceof KernelBug ? "the kernel failed: " + e.getMessage()
                : e instanceof CannotBuild ? "QEMU cannot build this machine: " + e.getMessage() : e.getMessage();
        err.println(spec.qualifiedName() + ": " + Printable.of(String.valueOf(what)));
        err.flush();
        return Main.CHECK_FAILED;
    }

    static boolean isOurs(RuntimeException e) {
        return e instanceof FetchFailure || e instanceof ProbeBuildFailure || e instanceof GuestFailure || e instanceof CannotBuild
                || e instanceof KernelBug || e instanceof HostCommandException;
    }

    static Consumer<String> progress(CommandSpec spec) {
        PrintWriter err = spec.commandLine().getErr();
        return line -> {
            err.println(spec.qualifiedName() + ": " + line);
            err.flush();
        };
    }

    /** Where what the probe found in a kernel is kept, beside its module. */
    static Path answersFile(KernelFiles k) {
        return ProbeBuild.modulePath(k).resolveSibling("answers");
    }

    /** The routines the probe answered in {@code k}'s last test boot, as the SPI names them; empty before any. */
    static Optional<String> answers(KernelFiles k) {
        try {
            Path f = answersFile(k);
            return Files.isRegularFile(f) ? Optional.of(Files.readString(f, StandardCharsets.UTF_8).strip()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static String routines(java.util.Set<Guest.Call> calls) {
        return String.join(", ", calls.stream().map(c -> c.routine().id()).toList());
    }

    /** A machine small enough to boot in seconds: one node, two CPUs. */
    static final String TEST_MACHINE = """
            topology kernel-fetch-test
            possible 0-1
            available: 1 nodes (0)
            node 0 cpus: 0 1
            """;

    @Command(name = "fetch", mixinStandardHelpOptions = true, sortOptions = false,
            header = "Bring a kernel into the cache, build the probe module and the guest for it, and boot it once.",
            description = {"Downloads the Debian packages (image, modules, headers, kbuild) through a private apt configuration"
                    + " under the cache, builds the probe module against the headers (Debian 7.x kernels in a Debian trixie or sid"
                    + " chroot made once with debootstrap, which needs root), the static guest agent and the initramfs, then boots"
                    + " the kernel on a two-CPU machine to learn which calls its probe answers. A kernel already cached is not"
                    + " fetched again."},
            footerHeading = "%nExamples:%n",
            footer = {"  numaspread kernel fetch debian-7.3", "  numaspread kernel fetch 6.1.0-57-amd64", "  numaspread kernel fetch ~/src/linux"})
    static final class Fetch implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Mixin
        KernelSourceParameter source = new KernelSourceParameter();

        @Option(names = "--no-boot", description = "do not boot the kernel after building its guest")
        boolean noBoot;

        @Mixin
        QemuOption qemu = new QemuOption();

        @Override
        public Integer call() {
            Optional<Integer> bad = source.usageError(spec);
            if (bad.isPresent()) return bad.get();
            KernelCache cache = KernelCache.fromEnvironment();
            Consumer<String> progress = progress(spec);
            PrintWriter out = spec.commandLine().getOut();
            try {
                if (!noBoot) qemu.options(progress).requireQemu();
                KernelFiles k = GuestImage.files(source.name, cache, progress);
                GuestImage image = GuestImage.prepare(k, cache, progress);
                String answered = "not booted (--no-boot)";
                if (!noBoot) {
                    progress.accept("booting " + k.release() + " on a 2-CPU machine to see what its probe answers");
                    Topology t = TopoFormat.read(TEST_MACHINE, "kernel-fetch-test.topo").topology();
                    try (QemuGuest g = QemuGuest.boot(image, t, qemu.options(progress))) {
                        answered = routines(g.answers());
                        Files.writeString(answersFile(k), answered + "\n");
                        answered = "booted in " + g.bootTime().toMillis() / 100 / 10.0 + " s; the probe answers " + answered;
                    }
                }
                out.println(k.release() + " (" + k.origin() + "): ready in " + k.work() + "; " + answered);
                out.flush();
                return Main.OK;
            } catch (IOException e) {
                return fail(spec, new GuestFailure(e.getMessage()));
            } catch (RuntimeException e) {
                if (isOurs(e) || e instanceof IllegalArgumentException) return fail(spec, e);
                throw e;
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, sortOptions = false,
            header = "List the kernels in the cache: release, series, size, where they came from and what their probe answers.")
    static final class ListCached implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            KernelCache cache = KernelCache.fromEnvironment();
            PrintWriter out = spec.commandLine().getOut();
            DebianKernels debian = new DebianKernels(new DebianArchive(cache, s -> {}), s -> {});
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[]{"RELEASE", "SERIES", "SIZE", "FROM", "PROBE ANSWERS"});
            for (String rel : debian.cachedReleases()) {
                KernelFiles k = debian.cached(rel).orElseThrow();
                var p = debian.properties(rel);
                rows.add(new String[]{rel, p.getProperty("series", "?"), megabytes(size(k.work())),
                        "Debian " + p.getProperty("version", "?") + " (" + p.getProperty("suite", "?") + ")",
                        answers(k).orElse("(not booted yet: numaspread kernel fetch " + rel + ")")});
            }
            if (rows.size() == 1) {
                out.println("no kernel in " + cache.kernels() + "; fetch one: numaspread kernel fetch debian-7.3");
                out.flush();
                return Main.OK;
            }
            int[] w = new int[5];
            for (String[] r : rows) for (int i = 0; i < 4; i++) w[i] = Math.max(w[i], r[i].length());
            for (String[] r : rows)
                out.println(String.format("%-" + w[0] + "s  %-" + w[1] + "s  %" + w[2] + "s  %-" + w[3] + "s  %s", (Object[]) r).stripTrailing());
            out.println("cache: " + cache.root());
            out.flush();
            return Main.OK;
        }

        static long size(Path dir) {
            try (Stream<Path> s = Files.walk(dir)) {
                return s.filter(Files::isRegularFile).mapToLong(p -> {
                    try {
                        return Files.size(p);
                    } catch (IOException e) {
                        return 0;
                    }
                }).sum();
            } catch (IOException | UncheckedIOException e) {
                return 0;
            }
        }

        static String megabytes(long b) {
            return (b + 500_000) / 1_000_000 + " MB";
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
            header = "Boot a kernel on a machine and print what its routines answer.",
            description = {"Boots SOURCE (fetched first if needed) under QEMU on the machine of --topology, with every present"
                    + " CPU online, then takes offline the CPUs the machine has offline. Prints the QEMU command line, the machine"
                    + " as the kernel saw it (.topo) and what each call returned: local spread for every node, NUMA levels, hop"
                    + " masks, the n-th and the closest CPU for several CPU sets, group_cpus_evenly, irq_create_affinity_masks"
                    + " and blk_mq_map_queues for 1 to N+2 groups, each CPU's siblings and cluster.",
                    "",
                    "--write-run DIR writes the run as fixtures/kernel-runs does (NAME-linux-SERIES-boot.json and .topo; with"
                            + " --offline, also the -offline phase), so a real-kernel fixture is one command."},
            footerHeading = "%nExamples:%n",
            footer = {"  numaspread kernel run debian-7.3 --topology fixtures/kernel-runs/a-2node-2s2c2t-linux-7.3-boot.topo",
                    "  numaspread kernel run debian-6.12 --topology box.topo --offline 3 --write-run fixtures/kernel-runs --name e-box"})
    static final class Run implements Callable<Integer> {
        @Spec CommandSpec spec;

        @Mixin
        KernelSourceParameter source = new KernelSourceParameter();

        @Option(names = "--topology", required = true, paramLabel = "FILE", description = MachineOption.WHAT)
        Path topology;

        @Option(names = "--offline", paramLabel = "CPUS", description = "after the boot phase, take these CPUs offline and run again (a CPU list: 3 or 2-3)")
        String offline;

        @Option(names = "--write-run", paramLabel = "DIR", description = "write the run(s) as NAME-linux-SERIES-PHASE.json and .topo into DIR")
        Path writeRun;

        @Option(names = "--name", paramLabel = "NAME", description = "the run's name (default: the topology file's name without its extension)")
        String name;

        @Mixin
        QemuOption qemu = new QemuOption();

        // Alike on purpose (duplicates, issue 26) with the lines below: picocli options, a field each with its description.
        @Option(names = "--virtio-net", paramLabel = "PAIRS",
                description = "also boot with a virtio-net NIC of PAIRS queue pairs (mq=on on a tap backend QEMU makes, which needs root), 1 to "
                        + GuestDevices.MAX_QUEUES)
        Integer virtioNet;

        @Option(names = "--virtio-blk", paramLabel = "QUEUES", description = "also boot with a virtio-blk disk of QUEUES request queues (num-queues)")
        Integer virtioBlk;

        // Alike on purpose (duplicates, issue 26) with PlanCommand: picocli options, a field each with its description.
        @Option(names = "--nvme", paramLabel = "QUEUES", description = "also boot with an NVMe controller offering QUEUES I/O queue pairs (max_ioqpairs)")
        Integer nvme;

        @Option(names = "--nvme-write-queues", paramLabel = "N",
                description = "load nvme with write_queues=N: its I/O queues split into write and read queues, an interrupt set each")
        Integer nvmeWriteQueues;

        @Option(names = "--nvme-poll-queues", paramLabel = "N", description = "load nvme with poll_queues=N: queues without an IRQ")
        Integer nvmePollQueues;

        @Option(names = "--device-node", paramLabel = "N", description = "put the devices on node N, behind a PCI expander bridge (default: no node)")
        Integer deviceNode;

        @Option(names = "--snapshot", paramLabel = "FILE",
                description = "write what the guest shows (its machine and devices) as a numaspread snapshot archive (with --offline, FILE-offline.tar too)")
        Path snapshot;

        /** The device options as given: {@code " --virtio-net 10 --nvme 6"}; empty for none. */
        String deviceOptions() {
            return (virtioNet == null ? "" : " --virtio-net " + virtioNet) + (virtioBlk == null ? "" : " --virtio-blk " + virtioBlk)
                    + (nvme == null ? "" : " --nvme " + nvme) + (nvmeWriteQueues == null ? "" : " --nvme-write-queues " + nvmeWriteQueues)
                    + (nvmePollQueues == null ? "" : " --nvme-poll-queues " + nvmePollQueues) + (deviceNode == null ? "" : " --device-node " + deviceNode);
        }

        /** The devices of the options; {@link GuestDevices#NONE} when none is asked for. */
        GuestDevices devices() {
            return new GuestDevices(virtioNet == null ? 0 : virtioNet, virtioBlk == null ? 0 : virtioBlk, nvme == null ? 0 : nvme,
                    deviceNode == null ? -1 : deviceNode, nvmeWriteQueues == null ? 0 : nvmeWriteQueues, nvmePollQueues == null ? 0 : nvmePollQueues);
        }

        @Override
        public Integer call() {
            Optional<Integer> bad = source.usageError(spec);
            if (bad.isPresent()) return bad.get();
            PrintWriter out = spec.commandLine().getOut();
            Consumer<String> progress = progress(spec);
            KernelCache cache = KernelCache.fromEnvironment();
            Topology machine = TopologyFiles.read(topology).topology();
            QemuGuest.Options options = qemu.options(progress);
            GuestDevices devices;
            try {
                devices = devices();
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("numaspread kernel run: " + e.getMessage());
                return Main.USAGE;
            }
            options = options.withDevices(devices);
            CpuSet toOffline = offline == null ? CpuSet.EMPTY : CpuSet.parseList(offline);
            String runName = name != null ? name : topology.getFileName().toString().replaceFirst("\\.[^.]*$", "");
            try {
                QemuMachine.of(machine);
                options.requireQemu();
                GuestImage image = devices.isEmpty() ? GuestImage.of(source.name, cache, progress)
                        : GuestImage.prepare(GuestImage.files(source.name, cache, progress), cache, progress, devices.modules());
                try (QemuGuest g = QemuGuest.boot(image, machine, options)) {
                    out.println("QEMU command line:");
                    out.println("  " + QemuMachine.shellLine(g.commandLine()));
                    out.println("Linux " + g.release() + " was ready " + g.bootTime().toMillis() / 100 / 10.0 + " s after QEMU started;"
                            + " its probe answers " + routines(g.answers()));
                    phase(g, runName, "boot", out);
                    if (!toOffline.isEmpty()) {
                        g.setOnline(g.machine().online().andNot(toOffline));
                        phase(g, runName, "offline", out);
                    }
                }
                out.flush();
                return Main.OK;
            } catch (IOException e) {
                return fail(spec, new GuestFailure(e.getMessage()));
            } catch (RuntimeException e) {
                if (isOurs(e)) return fail(spec, e);
                throw e;
            }
        }

        private void phase(QemuGuest g, String runName, String phase, PrintWriter out) throws IOException {
            String base = runName + "-linux-" + g.series() + "-" + phase;
            Topology seen = g.machine().named(base, "QEMU-emulated machine, Linux " + g.release());
            String topo = TopoFormat.write(seen);
            String json = GuestRun.json(g, base + ".topo", "numaspread kernel run " + source.name + " --topology " + topology + deviceOptions()
                    + " (" + phase + " phase): QEMU " + "q35, " + g.machine().possible().size() + " vCPUs");
            out.println();
            out.println("The machine as Linux " + g.release() + " saw it (" + phase + "):");
            out.print(topo);
            out.println();
            out.println("What the kernel returned (" + phase + "):");
            summarize(new ObjectMapper().readTree(json).get("results"), out);
            GuestDevices devices = devices();
            if (!devices.isEmpty()) {
                List<Tar.Entry> shown = DeviceRun.settledSnapshot(g, devices, Duration.ofSeconds(60));
                ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
                ObjectNode root = (ObjectNode) m.readTree(json);
                ((ObjectNode) root.get("results")).set("devices", DeviceRun.json(devices, shown));
                json = m.writeValueAsString(root) + "\n";
                MachineSnapshot s = MachineSnapshot.of(base + ".tar", shown);
                Topology t = s.topology().topology();
                out.println();
                out.println("Its devices, audited as Linux " + g.series() + " (spec/audit.md):");
                out.print(AuditText.devices(Audit.audit(t, Devices.find(s, t), g.series())));
                if (snapshot != null) {
                    Path file = phase.equals("boot") ? snapshot : Path.of(snapshot.toString().replaceFirst("(\\.tar)?$", "-" + phase + ".tar"));
                    s.write(file);
                    out.println("wrote " + file);
                }
            }
            if (writeRun != null) {
                Files.createDirectories(writeRun);
                Files.writeString(writeRun.resolve(base + ".topo"), topo);
                Files.writeString(writeRun.resolve(base + ".json"), json);
                out.println("wrote " + writeRun.resolve(base + ".json") + " and " + base + ".topo");
            }
            out.flush();
        }

        /** One line per call and argument: {@code local_spread -1: 0 1 2 ...}. */
        static void summarize(JsonNode results, PrintWriter out) {
            for (Iterator<Map.Entry<String, JsonNode>> it = results.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                lines(e.getKey(), e.getValue(), out);
            }
        }

        private static void lines(String prefix, JsonNode v, PrintWriter out) {
            if (v.isObject() && v.size() > 0 && !allScalars(v)) {
                for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    lines(prefix + " " + e.getKey(), e.getValue(), out);
                }
                return;
            }
            out.println("  " + prefix + ": " + text(v));
        }

        private static boolean allScalars(JsonNode v) {
            for (JsonNode c : v) if (c.isContainerNode()) return false;
            return true;
        }

        private static String text(JsonNode v) {
            if (v.isArray()) {
                List<String> parts = new ArrayList<>();
                boolean masks = false;
                for (JsonNode c : v) {
                    parts.add(c.isTextual() && c.asText().isEmpty() ? "." : c.asText());
                    masks |= c.isTextual();
                }
                return String.join(masks ? " | " : " ", parts);
            }
            if (v.isObject()) {
                List<String> parts = new ArrayList<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    parts.add(e.getKey() + "=" + e.getValue().asText());
                }
                return String.join(" ", parts);
            }
            return v.isNull() ? "NULL" : v.asText();
        }
    }
}
