package dev.numaspread.kernel.guest;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Arch;
import dev.numaspread.model.topology.CpuModel;
import dev.numaspread.model.topology.CpuPackage;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A machine as QEMU builds it (x86, {@code q35}): the {@code -smp}, {@code -numa} and {@code -cpu}
 * options that make Linux see {@link #requested()}, or a {@link CannotBuild} that names the feature
 * QEMU 7.2 and Linux cannot give together.
 *
 * <p>How Linux numbers what QEMU builds, and so what a buildable machine looks like:
 * <ul>
 * <li>CPU ids follow QEMU's CPU index (socket, then core, then thread): the possible CPUs are
 *     {@code 0..P-1}, the present ones the first N of them (QEMU brings up {@code cpus=N} of
 *     {@code maxcpus=P}), and a core's threads are adjacent (2k, 2k+1).</li>
 * <li>Split numbering (the threads of core c are c, c+S, c+2S... for S cores, as on EPYC and Xeon
 *     servers) is built by CPU hot-add: QEMU starts with the first thread of every core (Linux
 *     numbers them 0..S-1 in core order), then the guest's QMP socket hot-adds the second threads
 *     of every core, in core order (Linux gives them the next free ids, S..2S-1), then the third,
 *     and the agent brings them online ({@link #hotAddLevels()}). Every CPU is present then.</li>
 * <li>Node ids are given by ACPI's SRAT in the order Linux meets proximity domains: the processor
 *     entries first, in CPU order, then the memory entries ({@code acpi_map_pxm_to_node()} takes the
 *     next free id). So the nodes with CPUs must be numbered in the order of their first CPU, and the
 *     memory-only nodes after them; ids are dense, and a node with neither CPUs nor memory does not exist.</li>
 * <li>Distances go to the SLIT as given; Linux drops a SLIT whose diagonal is not 10 or whose
 *     other values are not above 10 ({@code slit_valid()}), and QEMU takes at most 255.</li>
 * <li>Every core is its own L2 cluster (QEMU 7.2 has no {@code smp-cache}); a cluster of several
 *     cores is not built.</li>
 * <li>Packages are QEMU sockets: contiguous CPU ranges of one size. A machine that states none
 *     gets one socket, or, when some CPUs are not present, sockets that keep them apart from the
 *     present ones ({@link #socketsFor}).</li>
 * <li>x86 cannot take CPU 0 offline; QEMU 7.2's TCG boots at most 255 vCPUs.</li>
 * </ul>
 *
 * <p>Memory: the lowest node with memory gets {@value #FIRST_NODE_MIB} MiB (the kernel and the
 * initramfs load there), every other node with memory {@value #NODE_MIB} MiB. A node without
 * memory has no {@code memdev}. The CPU is {@code qemu64} with the Intel vendor (and no hypervisor
 * bit, for the VMware detection {@link #VMWARE_SERIAL} explains): Linux reads an
 * Intel CPU's threads and cores from CPUID leaf 0xB, while with qemu64's own AMD vendor (and no
 * {@code topoext}, which TCG lacks) 6.1 sees every thread as a core of its own. A machine whose
 * {@code cpu-model} a kernel hook tests gets that family and model too (Linux matches
 * {@code x86_vfm} only).
 */
public final class QemuMachine {

    /** The most vCPUs QEMU 7.2's TCG boots on q35. */
    public static final int MAX_VCPUS = 255;
    /** The most NUMA nodes QEMU builds ({@code MAX_NODES}). */
    public static final int MAX_NODES = 128;
    static final int FIRST_NODE_MIB = 384;

    /**
     * The DMI serial that, with no hypervisor CPUID bit and QEMU's VMware backdoor port (vmport),
     * makes Linux detect a VMware hypervisor ({@code vmware_platform()}). Linux counts the disabled
     * MADT entries of not-present CPUs as hot-pluggable only under a hypervisor since the 2025 fix
     * of {@code acpi_is_processor_usable()} (Yazen Ghannam, "QEMU expects legacy Enabled=0 LAPIC
     * entries to be counted as usable", in 6.12.117 and 7.x); TCG alone is no hypervisor Linux knows.
     */
    static final String VMWARE_SERIAL = "VMware-numaspread";
    static final int NODE_MIB = 64;

    private final Topology requested;
    private final int possible, present, sockets, cores, threads;
    private final boolean split;

    private QemuMachine(Topology t, int possible, int present, int sockets, int cores, int threads, boolean split) {
        this.requested = t;
        this.possible = possible;
        this.present = present;
        this.sockets = sockets;
        this.cores = cores;
        this.threads = threads;
        this.split = split;
    }

    /**
     * The QEMU machine for {@code t}.
     *
     * @throws CannotBuild naming the first feature that cannot be built, and why
     */
    public static QemuMachine of(Topology t) {
        // An arm64 machine keeps other cluster masks than x86 (TOPO-13): an x86 guest would answer for another machine.
        if (t.arch() != Arch.X86)
            throw new CannotBuild("arch " + t.arch().id() + ": the guest is an x86-64 kernel under qemu-system-x86_64");
        CpuSet possible = t.possible();
        int p = possible.size();
        if (p > MAX_VCPUS)
            throw new CannotBuild(p + " possible CPUs: QEMU 7.2's TCG boots at most " + MAX_VCPUS + " vCPUs on q35");
        if (!possible.equals(CpuSet.range(0, p - 1)))
            throw new CannotBuild("possible CPUs " + possible + " have gaps: QEMU and Linux number CPUs 0-" + (p - 1) + " without gaps");
        int n = t.present().size();
        if (!t.present().equals(CpuSet.range(0, n - 1)))
            throw new CannotBuild("present CPUs " + t.present() + " are not the first " + n + " possible CPUs: QEMU brings up CPUs 0-"
                    + (n - 1) + " at boot (hot-adding others is not implemented)");
        if (!t.online().contains(0))
            throw new CannotBuild("cpu 0 offline: x86 Linux cannot take CPU 0 offline");

        int threads = t.smtSiblings().get(0).size();
        int coreCount = p / threads;
        boolean split = threads > 1 && !t.smtSiblings().get(0).equals(CpuSet.range(0, threads - 1));
        for (CpuSet g : t.smtSiblings()) {
            if (g.size() != threads)
                throw new CannotBuild("SMT sibling groups of " + threads + " and " + g.size() + " threads (" + t.smtSiblings().get(0)
                        + " and " + g + "): QEMU gives every core the same number of threads");
            boolean adjacent = g.equals(CpuSet.range(g.first(), g.first() + threads - 1)) && g.first() % threads == 0;
            boolean spread = g.first() < coreCount && g.equals(CpuSet.ofStream(java.util.stream.IntStream.range(0, threads)
                    .map(j -> g.first() + j * coreCount)));
            if (split ? !spread : !adjacent)
                throw new CannotBuild("SMT siblings " + g + " are neither adjacent (2k, 2k+1) nor split by the core count"
                        + " (c, c+" + coreCount + "): QEMU and CPU hot-add number threads one of these two ways");
        }
        if (split && n != p)
            throw new CannotBuild("split SMT numbering with CPUs that are not present (" + t.possible().andNot(t.present()) + "):"
                    + " split numbering is built by hot-adding every second thread, which makes every CPU present");
        if (!t.clustersAssumed())
            for (CpuSet c : t.clusters())
                if (c.size() > threads)
                    throw new CannotBuild("an L2 cluster of several cores (cpus " + c + " share an L2): QEMU 7.2 has no smp-cache;"
                            + " a cluster of cores needs QEMU 10 (modules and smp-cache.N.topology=module)");

        int sockets = socketsFor(p, n, threads);
        if (!t.packages().isEmpty()) {
            sockets = t.packages().size();
            int size = t.packages().get(0).cpus().size();
            if (size % threads != 0 || coreCount % sockets != 0)
                throw new CannotBuild("packages of " + size + " CPUs do not hold whole cores of " + threads + " threads");
            int perSocket = coreCount / sockets;
            for (CpuPackage pk : t.packages()) {
                CpuSet c = pk.cpus();
                int first = split ? c.first() : c.first() / threads;
                CpuSet expected = CpuSet.EMPTY;
                for (int core = first; core < first + perSocket; core++)
                    for (int j = 0; j < threads; j++) expected = expected.with(split ? core + j * coreCount : core * threads + j);
                if (c.size() != size || first % perSocket != 0 || !c.equals(expected))
                    throw new CannotBuild("package " + c + " is not " + (size / threads) + " whole cores in CPU order (" + expected
                            + "): QEMU sockets hold consecutive cores, all sockets of one size");
            }
        }
        int cores = p / sockets / threads;

        List<Node> nodes = t.nodes();
        if (nodes.size() > MAX_NODES)
            throw new CannotBuild(nodes.size() + " nodes: QEMU builds at most " + MAX_NODES + " NUMA nodes");
        for (int i = 0; i < nodes.size(); i++)
            if (nodes.get(i).id() != i)
                throw new CannotBuild("node ids " + ids(nodes) + " have gaps: Linux numbers the ACPI proximity domains it meets 0, 1, 2, ...");
        // Walking the CPUs in order, each new node must be the next id; a node without CPUs is met only after them all.
        int expected = 0;
        for (int cpu = 0; cpu < p; cpu++) {
            int node = t.nodeOf(cpu);
            if (node > expected) {
                int skipped = expected;
                throw new CannotBuild(t.cpusOf(skipped).isEmpty()
                        ? "node " + skipped + " has no CPUs but comes before node " + node + ", which has: Linux numbers the nodes with"
                          + " CPUs first, in the order of their first CPU, then the memory-only ones"
                        : "node " + node + " holds cpu " + cpu + " before any CPU of node " + skipped + ": Linux numbers nodes in the"
                          + " order of their first CPU (node " + skipped + " would be named " + node + ")");
            }
            if (node == expected) expected++;
        }
        for (Node node : nodes)
            if (node.cpus().isEmpty() && !node.hasMemory())
                throw new CannotBuild("node " + node.id() + " has neither CPUs nor memory: Linux does not create such a node");
        if (nodes.stream().noneMatch(Node::hasMemory))
            throw new CannotBuild("no node has memory: a machine needs memory to boot");
        for (Node a : nodes)
            for (Node b : nodes) {
                int d = t.distance(a.id(), b.id());
                if (a.id() == b.id() && d != 10)
                    throw new CannotBuild("distance " + d + " from node " + a.id() + " to itself: Linux drops a SLIT whose diagonal is not 10");
                if (a.id() != b.id() && (d <= 10 || d > 255))
                    throw new CannotBuild("distance " + d + " from node " + a.id() + " to node " + b.id() + ": QEMU takes 11 to 255 between"
                            + " two nodes (Linux drops a SLIT with 10 or less there)");
            }
        return new QemuMachine(t, p, n, sockets, cores, threads, split);
    }

    /**
     * The sockets of a machine that states no packages: one, unless some CPUs are not present; then
     * sockets of {@code s} CPUs, the largest {@code s} (whole cores) that divides both the present and
     * the possible count, so that the not-present CPUs fill sockets of their own. Linux 6.9+ ignores
     * a not-present CPU in a package that has present ones (f0551af02130 "x86/topology: Ignore
     * non-present APIC IDs in a present package").
     */
    static int socketsFor(int possible, int present, int threads) {
        if (present == possible) return 1;
        for (int s = gcd(possible, present); s >= threads; s--)
            if (possible % s == 0 && present % s == 0 && s % threads == 0) return possible / s;
        return 1;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    private static String ids(List<Node> nodes) {
        return String.join(",", nodes.stream().map(n -> Integer.toString(n.id())).toList());
    }

    /**
     * How the machine Linux booted on ({@code seen}, read back from its sysfs) differs from the one
     * asked for, as one sentence; empty when it is the same machine (names, memory sizes and package
     * ids aside). Linux decides some things itself: it spreads the CPUs that are not present over the
     * online nodes round-robin ({@code numa_init_array()}: such a CPU has no APIC id yet, so SRAT
     * cannot place it), and it may drop a node or a table.
     */
    public static Optional<String> difference(Topology asked, Topology seen, String release) {
        String linux = "Linux " + release;
        if (!asked.possible().equals(seen.possible()))
            return Optional.of(linux + " sees possible CPUs " + seen.possible() + ", not " + asked.possible());
        if (!asked.present().equals(seen.present()))
            return Optional.of(linux + " sees present CPUs " + seen.present() + ", not " + asked.present());
        if (!asked.online().equals(seen.online()))
            return Optional.of(linux + " has CPUs " + seen.online() + " online, not " + asked.online());
        for (int cpu : asked.possible().toArray())
            if (asked.nodeOf(cpu) != seen.nodeOf(cpu))
                return Optional.of(linux + " puts cpu " + cpu + " in node " + seen.nodeOf(cpu) + ", not " + asked.nodeOf(cpu)
                        + (asked.present().contains(cpu) ? "" : ": it spreads the CPUs that are not present over the online nodes"
                        + " round-robin (numa_init_array(); such a CPU has no APIC id for SRAT to place until it is hot-added)"));
        List<Integer> askedIds = asked.nodes().stream().map(Node::id).toList();
        List<Integer> seenIds = seen.nodes().stream().map(Node::id).toList();
        if (!askedIds.equals(seenIds))
            return Optional.of(linux + " has nodes " + seenIds + ", not " + askedIds);
        for (Node n : asked.nodes())
            if (n.hasMemory() != seen.node(n.id()).orElseThrow().hasMemory())
                return Optional.of(linux + " sees node " + n.id() + (n.hasMemory() ? " without" : " with") + " memory");
        for (Node a : asked.nodes())
            for (Node b : asked.nodes())
                if (asked.distance(a.id(), b.id()) != seen.distance(a.id(), b.id()))
                    return Optional.of(linux + " has distance " + seen.distance(a.id(), b.id()) + " from node " + a.id() + " to node "
                            + b.id() + ", not " + asked.distance(a.id(), b.id()));
        for (int cpu : asked.present().and(seen.online()).toArray())
            if (!asked.siblingsOf(cpu).and(asked.present()).equals(seen.siblingsOf(cpu).and(asked.present())))
                return Optional.of(linux + " gives cpu " + cpu + " the SMT siblings " + seen.siblingsOf(cpu) + ", not " + asked.siblingsOf(cpu));
        if (!asked.packages().isEmpty())
            for (int cpu : asked.present().and(seen.online()).toArray()) {
                CpuSet a = asked.packageOf(cpu).map(CpuPackage::cpus).orElse(CpuSet.EMPTY).and(asked.present());
                CpuSet b = seen.packageOf(cpu).map(CpuPackage::cpus).orElse(CpuSet.EMPTY).and(asked.present());
                if (!a.equals(b)) return Optional.of(linux + " puts cpu " + cpu + " in a package with " + b + ", not " + a);
            }
        if (asked.cpuModel() != seen.cpuModel())
            return Optional.of(linux + " sees the CPU model " + seen.cpuModel().id() + ", not " + asked.cpuModel().id());
        return Optional.empty();
    }

    /** The machine asked for. */
    public Topology requested() {
        return requested;
    }

    public int vcpus() {
        return possible;
    }

    /** Whether the machine is built by CPU hot-add (split SMT numbering). */
    public boolean isSplit() {
        return split;
    }

    /** Where QEMU puts a CPU: its socket, core (in the socket) and thread. */
    public record Slot(int cpu, int socket, int core, int thread) {}

    /** The slot of {@code cpu}: adjacent threads share a core (2k, 2k+1); split ones are c, c+S, c+2S for S cores. */
    public Slot slot(int cpu) {
        int coreCount = possible / threads;
        int core = split ? cpu % coreCount : cpu / threads;
        int thread = split ? cpu / coreCount : cpu % threads;
        return new Slot(cpu, core / cores, core % cores, thread);
    }

    /**
     * The CPUs to hot-add after boot, level by level: the second threads of every core in core order,
     * then the third threads, ...; empty unless {@link #isSplit()}. Linux gives each level the next
     * free CPU ids, in the order its ACPI scan meets them (QEMU's CPU index order, which within one
     * level is core order): so a level is added whole, and the next only once the guest has it.
     */
    public List<List<Slot>> hotAddLevels() {
        List<List<Slot>> levels = new ArrayList<>();
        if (!split) return levels;
        int coreCount = possible / threads;
        for (int j = 1; j < threads; j++) {
            List<Slot> level = new ArrayList<>();
            for (int c = 0; c < coreCount; c++) level.add(slot(c + j * coreCount));
            levels.add(level);
        }
        return levels;
    }

    /** The QEMU device type of a CPU of this machine (the {@code -cpu} model's): what {@code device_add} adds. */
    static final String CPU_DEVICE = "qemu64-x86_64-cpu";

    /** How the guest is run: the files it boots, the channel's socket, and whether KVM is used. */
    public record Boot(String qemu, Path kernel, Path initramfs, Path socket, String append, boolean kvm) {
        public Boot {
            Objects.requireNonNull(qemu);
            Objects.requireNonNull(kernel);
            Objects.requireNonNull(initramfs);
            Objects.requireNonNull(socket);
            Objects.requireNonNull(append);
        }
    }

    /** Whether this machine can use KVM: {@code /dev/kvm} exists and is readable and writable. */
    public static boolean kvmAvailable() {
        Path kvm = Path.of("/dev/kvm");
        return Files.exists(kvm) && Files.isReadable(kvm) && Files.isWritable(kvm);
    }

    /** The memory of each node in MiB (0 for a node without memory), by node id. */
    public int[] memoryMib() {
        int[] mib = new int[requested.nodes().size()];
        boolean first = true;
        for (Node n : requested.nodes()) {
            if (!n.hasMemory()) continue;
            mib[n.id()] = first ? FIRST_NODE_MIB + 2 * possible : NODE_MIB;
            first = false;
        }
        return mib;
    }

    /** The {@code -cpu} value. */
    public String cpu() {
        CpuModel m = requested.cpuModel();
        return switch (m) {
            case INTEL_GRANITERAPIDS_X -> "qemu64,vendor=GenuineIntel,family=6,model=173,-hypervisor";
            case INTEL_ATOM_DARKMONT_X -> "qemu64,vendor=GenuineIntel,family=6,model=221,-hypervisor";
            case OTHER -> "qemu64,vendor=GenuineIntel,-hypervisor";
        };
    }

    /** The whole command line, program first. */
    public List<String> arguments(Boot boot) {
        List<String> a = new ArrayList<>(List.of(boot.qemu(), "-machine", "q35", "-nodefaults", "-no-user-config",
                "-accel", boot.kvm() ? "kvm" : "tcg,thread=single", "-cpu", cpu()));
        int[] mib = memoryMib();
        int total = 0;
        for (int m : mib) total += m;
        a.addAll(List.of("-m", total + "M", "-smbios", "type=1,serial=" + VMWARE_SERIAL));
        // Split numbering: QEMU starts with CPU index 0 (-smp cpus=1) and the first thread of every other core (-device).
        a.addAll(List.of("-smp", "cpus=" + (split ? 1 : present) + ",maxcpus=" + possible + ",sockets=" + sockets + ",cores=" + cores
                + ",threads=" + threads));
        for (Node n : requested.nodes()) {
            if (mib[n.id()] > 0) {
                a.addAll(List.of("-object", "memory-backend-ram,id=mem" + n.id() + ",size=" + mib[n.id()] + "M"));
                a.addAll(List.of("-numa", "node,nodeid=" + n.id() + ",memdev=mem" + n.id()));
            } else {
                a.addAll(List.of("-numa", "node,nodeid=" + n.id()));
            }
        }
        for (int cpu = 0; cpu < possible; cpu++) {
            Slot s = slot(cpu);
            a.addAll(List.of("-numa", "cpu,node-id=" + requested.nodeOf(cpu) + ",socket-id=" + s.socket() + ",core-id=" + s.core()
                    + ",thread-id=" + s.thread()));
        }
        if (split)
            for (int cpu = 1; cpu < possible / threads; cpu++) {
                Slot s = slot(cpu);
                a.addAll(List.of("-device", CPU_DEVICE + ",id=cpu" + cpu + ",socket-id=" + s.socket() + ",core-id=" + s.core()
                        + ",thread-id=0"));
            }
        boolean symmetric = requested.distances().isSymmetric();
        for (Node x : requested.nodes())
            for (Node y : requested.nodes())
                if (x.id() != y.id() && (!symmetric || x.id() < y.id()))
                    a.addAll(List.of("-numa", "dist,src=" + x.id() + ",dst=" + y.id() + ",val=" + requested.distance(x.id(), y.id())));
        a.addAll(List.of("-kernel", boot.kernel().toString(), "-initrd", boot.initramfs().toString(), "-append", boot.append()));
        a.addAll(List.of("-display", "none", "-monitor", "none", "-no-reboot", "-serial", "stdio"));
        a.addAll(List.of("-device", "virtio-serial-pci,id=vs", "-chardev", "socket,id=ch,path=" + boot.socket() + ",server=on,wait=off",
                "-device", "virtserialport,bus=vs.0,chardev=ch,name=numaspread"));
        if (split) a.addAll(qmpArguments(boot.socket()));
        return a;
    }

    /** QEMU's machine protocol on a unix socket beside the channel's ({@link #qmpSocket}). */
    static List<String> qmpArguments(Path channelSocket) {
        return List.of("-qmp", "unix:" + qmpSocket(channelSocket) + ",server=on,wait=off");
    }

    /** The QMP socket of a guest: beside the channel's socket. */
    static Path qmpSocket(Path channelSocket) {
        return channelSocket.resolveSibling("qmp");
    }

    /** The command line as a shell takes it (arguments with spaces or quotes quoted). */
    public static String shellLine(List<String> argv) {
        StringBuilder sb = new StringBuilder();
        for (String s : argv) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(s.matches("[A-Za-z0-9_./=,:+@%-]+") ? s : "'" + s.replace("'", "'\\''") + "'");
        }
        return sb.toString();
    }
}
