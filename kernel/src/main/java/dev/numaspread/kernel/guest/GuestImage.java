package dev.numaspread.kernel.guest;

import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.cache.KernelFiles;
import dev.numaspread.kernel.cache.KernelFolder;
import dev.numaspread.kernel.debian.DebianArchive;
import dev.numaspread.kernel.debian.DebianKernels;
import dev.numaspread.kernel.debian.KernelSource;
import dev.numaspread.kernel.host.HostCommand;
import dev.numaspread.kernel.probe.ProbeBuild;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What a guest boots: the kernel image and an initramfs holding busybox (static), the agent, the
 * probe module and the modules the channel needs when the kernel has them as modules (6.1 builds
 * virtio-pci and virtio-console as modules; 6.12 and 7.x build them in). The initramfs is kept
 * beside the probe module it holds, named after the agent it holds (each is built from sources hashed).
 *
 * <p>The guest's {@code /init} mounts proc, sysfs and devtmpfs, loads the modules and the probe,
 * and runs the agent; when the agent ends, it powers the guest off.
 */
public record GuestImage(String release, Path kernel, Path initramfs, List<String> modules) {

    public GuestImage {
        modules = List.copyOf(modules);
    }

    /** The modules the channel needs, by name as modules.builtin and modinfo write them. */
    static final List<String> CHANNEL_MODULES = List.of("virtio_pci", "virtio_console");

    /**
     * The image for {@code kernel:SOURCE}: a Debian kernel fetched into the cache when it is not
     * there (a series is resolved against the archive), or a folder the user built; then
     * {@link #prepare}.
     *
     * @throws dev.numaspread.kernel.debian.FetchFailure when the source names no kernel or cannot be fetched
     * @throws IllegalArgumentException for a folder without what a guest needs
     * @throws dev.numaspread.kernel.probe.ProbeBuildFailure when the probe cannot be built
     */
    public static GuestImage of(String source, KernelCache cache, Consumer<String> progress) {
        return prepare(files(source, cache, progress), cache, progress);
    }

    /** The kernel files {@code kernel:SOURCE} names, fetched when needed (as {@link #of} does, without building anything). */
    public static KernelFiles files(String source, KernelCache cache, Consumer<String> progress) {
        KernelSource s = KernelSource.parse(source);
        if (s instanceof KernelSource.Folder f) return KernelFolder.files(f.dir(), cache);
        return new DebianKernels(new DebianArchive(cache, progress), progress).fetch(s);
    }

    /**
     * The image for {@code k}, built now when missing (the probe, the agent, the initramfs).
     *
     * @throws GuestFailure when busybox-static or a module the channel needs is missing
     */
    public static GuestImage prepare(KernelFiles k, KernelCache cache, Consumer<String> progress) {
        return prepare(k, cache, progress, List.of());
    }

    /**
     * The image for {@code k} that also loads the modules {@code devices} name (with their
     * dependencies; those the kernel builds in are left out): a guest booted with devices
     * ({@link GuestDevices}). An entry is a module's name, then the parameters insmod gives it
     * ({@code nvme write_queues=2}). Kept beside the plain image, named after the entries.
     *
     * @throws GuestFailure when busybox-static or a module is missing
     */
    public static GuestImage prepare(KernelFiles k, KernelCache cache, Consumer<String> progress, List<String> devices) {
        // Boots run side by side: one thread builds, the others wait for its files (file locks guard other processes).
        synchronized (GuestImage.class) {
            return prepareOnce(k, cache, progress, devices);
        }
    }

    private static GuestImage prepareOnce(KernelFiles k, KernelCache cache, Consumer<String> progress, List<String> devices) {
        ProbeBuild build = new ProbeBuild(cache, progress);
        Path probe = build.module(k);
        Path agent = build.agent();
        if (!Files.isRegularFile(k.image()))
            throw new GuestFailure(k.image() + ": no such file; expected the kernel image of " + k.release());
        Path dir = probe.getParent();
        // The agent is built apart from the module: the initramfs is named after both (and the device modules it loads).
        String agentName = agent.getFileName().toString();
        String suffix = devices.isEmpty() ? "" : "-" + String.join("-", devices).replaceAll("[^A-Za-z0-9_=-]+", "-");
        Path initramfs = dir.resolve("initramfs-" + agentName + suffix + ".cpio.gz");
        Path listing = dir.resolve("initramfs-" + agentName + suffix + ".modules");
        try {
            if (Files.isRegularFile(initramfs) && Files.isRegularFile(listing))
                return new GuestImage(k.release(), k.image(), initramfs, Files.readAllLines(listing));
            Path busybox = staticBusybox();
            Map<String, String> parameters = new TreeMap<>();
            List<String> deviceModules = new ArrayList<>();
            for (String d : devices) {
                String[] w = d.trim().split("\\s+", 2);
                deviceModules.add(w[0]);
                if (w.length > 1) parameters.put(w[0], w[1]);
            }
            List<Path> modules = channelModules(k, deviceModules);
            Initramfs ird = new Initramfs();
            for (String d : List.of("bin", "dev", "proc", "sys", "tmp", "lib", "lib/modules")) ird.directory(d);
            ird.file("bin/busybox", Files.readAllBytes(busybox), true);
            ird.file("agent", Files.readAllBytes(agent), true);
            ird.file("numaspread_probe.ko", Files.readAllBytes(probe), false);
            List<String> names = new ArrayList<>();
            for (Path m : modules) {
                String name = moduleName(m);
                ird.file("lib/modules/" + name + ".ko", moduleBytes(m), false);
                names.add(name);
            }
            ird.file("init", init(names, parameters).getBytes(StandardCharsets.US_ASCII), true);
            // Each process writes its own temporary files and moves them in whole: two JVMs (kernel-it's
            // surefire forks) may build the same image at once on a new cache, with the same bytes.
            Path tmp = Files.createTempFile(dir, initramfs.getFileName().toString(), ".tmp");
            Path tmpListing = Files.createTempFile(dir, listing.getFileName().toString(), ".tmp");
            Files.write(tmp, ird.bytes());
            Files.write(tmpListing, names);
            Files.move(tmpListing, listing, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.move(tmp, initramfs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return new GuestImage(k.release(), k.image(), initramfs, names);
        } catch (IOException e) {
            throw new GuestFailure(dir + ": cannot write the initramfs (" + e.getMessage() + ")");
        }
    }

    static String init(List<String> modules) {
        return init(modules, Map.of());
    }

    /** The guest's /init: loads {@code modules} in order, each with its {@code parameters}, if any. */
    static String init(List<String> modules, Map<String, String> parameters) {
        StringBuilder sb = new StringBuilder("#!/bin/busybox sh\n");
        sb.append("# numaspread guest: mount what the agent reads, load the probe, run the agent.\n");
        sb.append("/bin/busybox mount -t proc proc /proc\n");
        sb.append("/bin/busybox mount -t sysfs sysfs /sys\n");
        sb.append("/bin/busybox mount -t devtmpfs devtmpfs /dev\n");
        for (String m : modules)
            sb.append("/bin/busybox insmod /lib/modules/").append(m).append(".ko")
                    .append(parameters.containsKey(m) ? " " + parameters.get(m) : "").append(" || echo 'numaspread: module ").append(m).append(" not loaded'\n");
        sb.append("/bin/busybox insmod /numaspread_probe.ko || echo 'numaspread: probe not loaded'\n");
        sb.append("/agent\n");
        sb.append("echo \"numaspread: agent exited ($?)\"\n");
        sb.append("/bin/busybox poweroff -f\n");
        return sb.toString();
    }

    /** A busybox that runs without a C library: Debian's busybox-static installs one as /bin/busybox. */
    static Path staticBusybox() throws IOException {
        for (String p : List.of("/bin/busybox", "/usr/bin/busybox", "/usr/lib/busybox-static/busybox")) {
            Path b = Path.of(p);
            if (!Files.isRegularFile(b)) continue;
            byte[] head = Files.readAllBytes(b);
            if (!contains(head, "/lib64/ld-linux".getBytes(StandardCharsets.US_ASCII))) return b;
        }
        throw new GuestFailure("no static busybox (/bin/busybox missing or dynamically linked); the guest's initramfs needs one:"
                + " apt-get install busybox-static");
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= Math.min(hay.length, 1 << 16); i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return true;
        }
        return false;
    }

    /** The module files the channel needs that {@code k} does not build in, dependencies first. */
    static List<Path> channelModules(KernelFiles k) throws IOException {
        return channelModules(k, List.of());
    }

    /** The module files the channel and then {@code devices} need that {@code k} does not build in, dependencies first. */
    static List<Path> channelModules(KernelFiles k, List<String> devices) throws IOException {
        Path builtin = k.modules().resolve("modules.builtin");
        Set<String> builtIn = new java.util.HashSet<>();
        if (Files.isRegularFile(builtin))
            for (String line : Files.readAllLines(builtin)) builtIn.add(moduleName(Path.of(line)));
        LinkedHashSet<Path> ordered = new LinkedHashSet<>();
        for (String m : CHANNEL_MODULES) addWithDependencies(k, m, builtIn, ordered, new LinkedHashSet<>());
        for (String m : devices) addWithDependencies(k, m, builtIn, ordered, new LinkedHashSet<>());
        return new ArrayList<>(ordered);
    }

    private static void addWithDependencies(KernelFiles k, String name, Set<String> builtIn, LinkedHashSet<Path> out, Set<String> visiting)
            throws IOException {
        if (builtIn.contains(name) || !visiting.add(name)) return;
        Path file = findModule(k.modules(), name).orElseThrow(() -> new GuestFailure(k.modules() + ": no module " + name
                + " and the kernel does not build it in; the guest needs it (for its channel, virtio-serial, or a device it boots with)"));
        for (String dep : dependencies(moduleBytes(file)))
            // depends= keeps the module's own spelling (nvme-core); file names and modules.builtin have '_' (nvme_core.ko).
            if (!dep.isEmpty()) addWithDependencies(k, dep.replace('-', '_'), builtIn, out, visiting);
        out.add(file);
    }

    private static Optional<Path> findModule(Path modules, String name) throws IOException {
        if (!Files.isDirectory(modules)) return Optional.empty();
        try (Stream<Path> s = Files.walk(modules)) {
            return s.filter(p -> moduleName(p).equals(name) && p.getFileName().toString().contains(".ko")).findFirst();
        }
    }

    /** {@code virtio_pci} of {@code kernel/drivers/virtio/virtio_pci.ko.xz}; the kernel writes '-' in a file name as '_'. */
    static String moduleName(Path p) {
        String f = p.getFileName().toString();
        int ko = f.indexOf(".ko");
        return (ko < 0 ? f : f.substring(0, ko)).replace('-', '_');
    }

    /** The {@code depends=} of a module's {@code .modinfo}: comma-separated names. */
    static List<String> dependencies(byte[] ko) {
        byte[] key = "depends=".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + key.length < ko.length; i++) {
            boolean match = (i == 0 || ko[i - 1] == 0);
            for (int j = 0; match && j < key.length; j++) match = ko[i + j] == key[j];
            if (!match) continue;
            int end = i + key.length;
            while (end < ko.length && ko[end] != 0) end++;
            String v = new String(ko, i + key.length, end - i - key.length, StandardCharsets.US_ASCII);
            return v.isEmpty() ? List.of() : List.of(v.split(","));
        }
        return List.of();
    }

    /** A module's bytes, decompressed (busybox's insmod takes plain ELF). */
    static byte[] moduleBytes(Path ko) throws IOException {
        String f = ko.getFileName().toString();
        String tool = f.endsWith(".xz") ? "xz" : f.endsWith(".zst") ? "zstd" : f.endsWith(".gz") ? "gzip" : null;
        if (tool == null) return Files.readAllBytes(ko);
        Path out = Files.createTempFile("numaspread-module", ".ko");
        try {
            HostCommand.Output r = HostCommand.of("sh", "-c", tool + " -dc \"$0\" > \"$1\"", ko.toString(), out.toString())
                    .timeout(Duration.ofMinutes(2)).run();
            if (!r.ok()) throw new GuestFailure(ko + ": cannot decompress it with " + tool + ": " + r.tail(2));
            return Files.readAllBytes(out);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
