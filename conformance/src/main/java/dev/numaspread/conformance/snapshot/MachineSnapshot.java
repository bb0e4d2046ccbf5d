package dev.numaspread.conformance.snapshot;

import dev.numaspread.model.input.InputFile;
import dev.numaspread.model.input.InvalidInputException;
import dev.numaspread.model.topology.InvalidTopologyException;
import dev.numaspread.model.topology.SysfsSnapshot;
import dev.numaspread.model.topology.SysfsTree;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What numaspread reads of a machine, from {@code /sys} and {@code /proc}, at one instant
 * (spec/formats.md FMT-15): the CPU and node topology, each IRQ's affinity files,
 * {@code /proc/interrupts}, each block device's {@code mq/N/cpu_list}, each PCI device's
 * {@code numa_node}, MSI IRQs and {@code driver} link, each network interface's link and its
 * transmit queues' {@code xps_cpus}, the nvme module's {@code write_queues} and {@code poll_queues},
 * {@code /proc/sys/kernel/osrelease} and the first processor's block of {@code /proc/cpuinfo} (the CPU model). Paths are kept as on
 * the machine, without the leading {@code /} ({@code proc/irq/45/smp_affinity_list}); symbolic
 * links keep their target text. Immutable.
 *
 * <p>Taken live ({@link #capture}) or read back from the tar archive {@code numaspread snapshot}
 * writes ({@link #read}). A file the machine refuses to give (write-only {@code /sys}
 * attributes, {@code /proc/irq} entries of a chained interrupt) is skipped and counted; the count
 * and the paths travel in the archive as {@code numaspread/skipped}.
 */
public final class MachineSnapshot {

    /** Where the list of skipped files travels inside the archive. */
    static final String SKIPPED = "numaspread/skipped";
    /** The most skipped paths read back from an archive (a real machine skips a few hundred at most). */
    static final int MAX_SKIPPED_KEPT = 10_000;

    private final String name;
    private final TreeMap<String, Tar.Entry> entries;
    private final List<String> skipped;

    private MachineSnapshot(String name, Map<String, Tar.Entry> entries, List<String> skipped) {
        this.name = name;
        this.entries = new TreeMap<>(entries);
        this.entries.remove(SKIPPED);
        this.skipped = List.copyOf(skipped);
    }

    /** A snapshot of the given files (tests, and snapshots built from kernel-run fixtures). */
    public static MachineSnapshot of(String name, List<? extends Tar.Entry> entries) {
        TreeMap<String, Tar.Entry> m = new TreeMap<>();
        for (Tar.Entry e : entries) m.put(e.path(), e);
        return new MachineSnapshot(name, m, List.of());
    }

    // ------------------------------------------------------------ what is captured

    private static final Pattern CPU = Pattern.compile("cpu\\d+");
    private static final Pattern NODE = Pattern.compile("node\\d+");
    private static final Pattern NUMBER = Pattern.compile("\\d+");
    private static final Pattern DRIVER = Pattern.compile("driver");
    private static final Pattern TX_QUEUE = Pattern.compile("tx-\\d+");
    private static final List<String> CPU_FILES = List.of("possible", "present", "online", "offline", "kernel_max");
    private static final List<String> NODE_FILES = List.of("possible", "online", "has_cpu", "has_memory", "has_normal_memory");
    private static final List<String> NODE_DIR_FILES = List.of("cpulist", "distance", "meminfo");
    private static final List<String> IRQ_FILES = List.of("smp_affinity", "smp_affinity_list", "effective_affinity",
            "effective_affinity_list", "affinity_hint", "node");

    /**
     * Takes a snapshot of the machine whose file system starts at {@code root} ({@code /} on the
     * machine itself; a copied tree in tests). Files that cannot be read are skipped and counted.
     */
    public static MachineSnapshot capture(Path root) {
        Capture c = new Capture(root);
        String sys = "sys/devices/system/";
        c.files(sys + "cpu", CPU_FILES);
        for (String cpu : c.dirs(sys + "cpu", CPU)) {
            String d = sys + "cpu/" + cpu;
            c.files(d, List.of("online"));
            c.allFiles(d + "/topology");
            c.links(d, NODE);
        }
        c.files(sys + "node", NODE_FILES);
        for (String node : c.dirs(sys + "node", NODE)) {
            String d = sys + "node/" + node;
            c.files(d, NODE_DIR_FILES);
            c.links(d, CPU);
        }
        c.files("proc", List.of("interrupts"));
        c.firstBlock("proc/cpuinfo");
        c.files("proc/sys/kernel", List.of("osrelease"));
        c.files("proc/irq", List.of("default_smp_affinity"));
        for (String irq : c.dirs("proc/irq", NUMBER)) c.files("proc/irq/" + irq, IRQ_FILES);
        for (String dev : c.dirs("sys/block", Pattern.compile(".+"))) {
            c.links("sys/class/block", Pattern.compile(Pattern.quote(dev)));
            for (String q : c.dirs("sys/block/" + dev + "/mq", NUMBER)) c.files("sys/block/" + dev + "/mq/" + q, List.of("cpu_list"));
        }
        for (String pci : c.dirs("sys/bus/pci/devices", Pattern.compile(".+"))) {
            String d = "sys/bus/pci/devices/" + pci;
            c.files(d, List.of("numa_node"));
            c.allFiles(d + "/msi_irqs");
            c.links(d, DRIVER);
        }
        // A NIC's interface: its device link and each transmit queue's XPS map (spec/nic.md).
        c.links("sys/class/net", Pattern.compile(".+"));
        for (String dev : c.dirs("sys/class/net", Pattern.compile(".+")))
            for (String q : c.dirs("sys/class/net/" + dev + "/queues", TX_QUEUE)) c.files("sys/class/net/" + dev + "/queues/" + q, List.of("xps_cpus"));
        // How nvme splits its I/O queues into write, read and poll queues (spec/audit.md AUD-8).
        c.files("sys/module/nvme/parameters", List.of("write_queues", "poll_queues"));
        return new MachineSnapshot("live " + root, c.entries, c.skipped);
    }

    /** Walks the live tree; every failure to list or read is one skipped path. */
    private static final class Capture {
        final Path root;
        final TreeMap<String, Tar.Entry> entries = new TreeMap<>();
        final List<String> skipped = new ArrayList<>();

        Capture(Path root) {
            this.root = root;
        }

        /** The names under {@code dir} that match (directories or links to them), ascending by number then name. */
        List<String> dirs(String dir, Pattern name) {
            Path p = root.resolve(dir);
            if (!Files.isDirectory(p)) return List.of();
            try (Stream<Path> s = Files.list(p)) {
                return s.filter(Files::isDirectory).map(x -> x.getFileName().toString()).filter(n -> name.matcher(n).matches())
                        .sorted(Comparator.comparingInt((String n) -> n.replaceAll("\\D", "").length()).thenComparing(n -> n)).toList();
            } catch (IOException | UncheckedIOException e) {
                skipped.add(dir + " (" + reason(e) + ")");
                return List.of();
            }
        }

        void files(String dir, List<String> names) {
            for (String n : names) file(dir + "/" + n);
        }

        void allFiles(String dir) {
            Path p = root.resolve(dir);
            if (!Files.isDirectory(p)) return;
            try (Stream<Path> s = Files.list(p)) {
                s.map(x -> x.getFileName().toString()).sorted().forEach(n -> file(dir + "/" + n));
            } catch (IOException | UncheckedIOException e) {
                skipped.add(dir + " (" + reason(e) + ")");
            }
        }

        /**
         * The first processor's block of {@code path} (up to its first blank line): {@code /proc/cpuinfo}
         * repeats it per CPU, and the CPU model is all numaspread reads of it (FMT-15).
         */
        void firstBlock(String path) {
            Path p = root.resolve(path);
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return;
            try (java.io.BufferedReader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
                StringBuilder sb = new StringBuilder();
                for (String line = r.readLine(); line != null && !line.isBlank(); line = r.readLine()) sb.append(line).append('\n');
                entries.put(path, new Tar.File(path, sb.toString().getBytes(StandardCharsets.UTF_8)));
            } catch (IOException | UncheckedIOException e) {
                skipped.add(path + " (" + reason(e) + ")");
            }
        }

        void links(String dir, Pattern name) {
            Path p = root.resolve(dir);
            if (!Files.isDirectory(p)) return;
            try (Stream<Path> s = Files.list(p)) {
                for (Path x : s.filter(Files::isSymbolicLink).sorted().toList()) {
                    String n = x.getFileName().toString();
                    if (name.matcher(n).matches()) entries.put(dir + "/" + n, new Tar.Link(dir + "/" + n, Files.readSymbolicLink(x).toString()));
                }
            } catch (IOException | UncheckedIOException e) {
                skipped.add(dir + " (" + reason(e) + ")");
            }
        }

        void file(String path) {
            Path p = root.resolve(path);
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return;
            try {
                entries.put(path, new Tar.File(path, Files.readAllBytes(p)));
            } catch (IOException | UncheckedIOException e) {
                skipped.add(path + " (" + reason(e) + ")");
            }
        }

        private static String reason(Exception e) {
            String m = e.getMessage();
            String r = e.getClass().getSimpleName();
            if (m != null && !m.isBlank()) r = m.contains(": ") ? m.substring(m.lastIndexOf(": ") + 2) : m;
            return r;
        }
    }

    // ------------------------------------------------------------ archive

    /** Writes the snapshot as a tar archive at {@code tar}, the skipped paths as {@code numaspread/skipped}. */
    public void write(Path tar) {
        List<Tar.Entry> all = new ArrayList<>(entries.values());
        if (!skipped.isEmpty()) all.add(new Tar.File(SKIPPED, (String.join("\n", skipped) + "\n").getBytes(StandardCharsets.UTF_8)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            Tar.write(out, all);
            Files.write(tar, out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(tar + ": cannot write the snapshot (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Reads a snapshot archive.
     *
     * @throws InvalidTopologyException {@code snap.tar:byte 1024: ...} for a file that is no tar archive
     */
    public static MachineSnapshot read(Path tar) {
        String name = tar.toString();
        List<Tar.Entry> read;
        try (InputStream in = InputFile.open(tar, Tar.MAX_ARCHIVE_BYTES, "a snapshot archive written by 'numaspread snapshot FILE.tar'")) {
            read = Tar.read(name, in);
        } catch (InvalidInputException e) {
            throw InvalidTopologyException.of(e);
        } catch (IOException e) {
            throw new InvalidTopologyException(name, "cannot be read (an I/O error); expected a snapshot written by 'numaspread snapshot FILE.tar'");
        }
        TreeMap<String, Tar.Entry> m = new TreeMap<>();
        List<String> skipped = new ArrayList<>();
        for (Tar.Entry e : read) {
            // At most MAX_SKIPPED_KEPT lines are kept: 32 MiB of one-character lines would be 16 million strings.
            if (e.path().equals(SKIPPED) && e instanceof Tar.File f)
                f.text().lines().filter(l -> !l.isBlank()).limit(MAX_SKIPPED_KEPT).forEach(skipped::add);
            else m.put(e.path(), e);
        }
        return new MachineSnapshot(name, m, skipped);
    }

    // ------------------------------------------------------------ contents

    /** {@code snap.tar}, or {@code live /} for a snapshot taken by this process. */
    public String name() {
        return name;
    }

    /** Where a path of the snapshot is, for messages: {@code snap.tar:proc/interrupts}. */
    public String where(String path) {
        return name + ":" + path;
    }

    /** The files the machine refused to give, each with the reason. */
    public List<String> skipped() {
        return skipped;
    }

    /** Every entry, ascending by path. */
    public List<Tar.Entry> entries() {
        return List.copyOf(entries.values());
    }

    /** The text of a file of the snapshot, when it has the file. */
    public Optional<String> text(String path) {
        return entries.get(path) instanceof Tar.File f ? Optional.of(f.text()) : Optional.empty();
    }

    /** The target of a symbolic link of the snapshot, when it has the link. */
    public Optional<String> linkTarget(String path) {
        return entries.get(path) instanceof Tar.Link l ? Optional.of(l.target()) : Optional.empty();
    }

    /** Every path under {@code dir} (files and links at any depth), ascending. */
    public java.util.NavigableSet<String> paths(String dir) {
        String prefix = dir.isEmpty() || dir.endsWith("/") ? dir : dir + "/";
        return java.util.Collections.unmodifiableNavigableSet(entries.subMap(prefix, true, prefix + Character.MAX_VALUE, false).navigableKeySet());
    }

    /** The names directly under {@code dir} (files, links or directories implied by deeper paths), ascending. */
    public SortedSet<String> children(String dir) {
        String prefix = dir.isEmpty() || dir.endsWith("/") ? dir : dir + "/";
        TreeSet<String> out = new TreeSet<>();
        for (String p : entries.subMap(prefix, prefix + Character.MAX_VALUE).keySet()) {
            String rest = p.substring(prefix.length());
            int slash = rest.indexOf('/');
            out.add(slash < 0 ? rest : rest.substring(0, slash));
        }
        return out;
    }

    /** {@code /proc/sys/kernel/osrelease} without its newline, when the snapshot has it. */
    public Optional<String> osrelease() {
        return text("proc/sys/kernel/osrelease").map(String::strip).filter(s -> !s.isEmpty());
    }

    // ------------------------------------------------------------ topology

    /** The machine, read as a sysfs snapshot (spec/formats.md FMT-13, FMT-14) in strict mode. */
    public TopoDocument topology() {
        return topology(Optional.empty());
    }

    /**
     * The machine of {@code sys/devices/system}, read by {@link SysfsSnapshot} from a scratch copy;
     * every position names the snapshot ({@code snap.tar:sys/devices/system/node/node3/distance}).
     *
     * @throws InvalidTopologyException when the files do not describe a machine
     */
    public TopoDocument topology(Optional<Mode> mode) {
        TopoDocument doc = SysfsSnapshot.read(tree(), mode);
        return new TopoDocument(doc.topology().named(baseName(), "numaspread snapshot " + name), doc.notes(), doc.expect(), doc.warnings());
    }

    /** The archive's entries as a copy of sysfs: positions name the archive ({@code snap.tar:sys/devices/system/cpu/possible}). */
    private SysfsTree tree() {
        return new SysfsTree() {
            public String name() {
                return name;
            }

            public String where(String path) {
                return path.isEmpty() ? name : MachineSnapshot.this.where(path);
            }

            public boolean isFile(String path) {
                return entries.get(path) instanceof Tar.File;
            }

            public boolean isDirectory(String path) {
                return !children(path).isEmpty();
            }

            public SortedSet<String> children(String dir) {
                return MachineSnapshot.this.children(dir);
            }

            public byte[] read(String path) {
                if (!(entries.get(path) instanceof Tar.File f))
                    throw new InvalidTopologyException(where(path), "no such file; expected a file of the snapshot");
                // The size first: a 32 MiB entry is not copied to be refused.
                if (f.size() > MAX_FILE_BYTES)
                    throw new InvalidTopologyException(where(path), "a file of " + f.size() + " bytes; expected a sysfs file of at most "
                            + InputFile.sizeText(MAX_FILE_BYTES) + " (spec/formats.md FMT-17)");
                return f.content();
            }
        };
    }

    /** The snapshot's file name without {@code .tar}, as a machine name ({@code snap}). */
    private String baseName() {
        String n = Path.of(name.startsWith("live ") ? "live" : name).getFileName().toString();
        if (n.endsWith(".tar")) n = n.substring(0, n.length() - 4);
        n = n.replaceAll("[^A-Za-z0-9._-]", "-");
        return n.isEmpty() || n.startsWith(".") ? "snapshot" : n;
    }
}
