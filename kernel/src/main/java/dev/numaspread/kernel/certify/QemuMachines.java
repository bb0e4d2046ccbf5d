package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.Recorder;
import dev.numaspread.kernel.guest.CannotBuild;
import dev.numaspread.kernel.guest.QemuMachine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.CpuModel;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Machines QEMU (7.2, q35, TCG) can build and an x86 kernel keeps as built, drawn for a booted
 * kernel's pool ({@code certify --impl kernel: --machines N}): sockets of equal cores, threads
 * numbered next to each other, cores given to nodes in blocks or interleaved, nodes with and
 * without CPUs or memory (never neither: the kernel would drop it), distance tables of 11..255
 * (symmetric mostly, asymmetric or of several levels sometimes), possible-but-not-present CPUs at
 * the end ({@code -smp cpus=N,maxcpus=M}), CPU ids past 63 through many not-present CPUs, offline
 * CPUs other than 0, and Intel SNC machines (two sockets of 2 or 3 nodes on a Granite Rapids-X CPU
 * model). Present CPUs stay few (at most {@value #MAX_PRESENT}, mostly 16 or fewer): a TCG boot costs
 * seconds per vCPU.
 * <pre>
 *   share  what                                               issue
 *   ~30 %  two or more sockets                                packages, remote tiers
 *   ~50 %  SMT (2 threads, 4 sometimes)                       GRP-15's cluster of a core
 *   ~25 %  not-present CPUs                                   group-cpus stage 2, nr_cpu_ids
 *   ~10 %  CPU ids past 63 (a not-present tail to 72..160)    masks kept in one 64-bit word
 *   ~20 %  one or two offline CPUs (never CPU 0)              online vs present
 *   ~20 %  a memory-only node; ~10 % a memory-less CPU node   CPU-less nodes, LS-6
 *   ~12 %  SNC-2 or SNC-3 on Granite Rapids-X                 LVL-8 (6.19+)
 * </pre>
 */
public final class QemuMachines {
    private QemuMachines() {}

    /** Most present CPUs of a drawn machine (an SNC machine has up to 24). */
    static final int MAX_PRESENT = 24;

    /**
     * The kinds of machine the first draws of a run take, one each, so that even a run of two or
     * four machines meets what the rules are about; later draws take any ({@link #machines()}).
     * <pre>
     *   0  SMT, 2 nodes, every CPU online                    GRP-5, GRP-15 (a core is a cluster)
     *   1  3 or 5 nodes, a memory-only node, 3 tiers, an
     *      offline CPU                                        LS-1, LS-4, LS-9, HOP-3, LVL-1
     *   2  CPU ids past 63: 4-16 present of 72-160 possible,
     *      1 or 2 sockets of 1 or 2 nodes                     GRP-7, masks kept in one 64-bit word (issue 24)
     *   3  SNC-2 or SNC-3 on Granite Rapids-X                 LVL-8
     * </pre>
     */
    static final int FIRST_KINDS = 4;

    /** The generator: an SNC machine one draw in eight, else a plain one of any shape. */
    public static Gen<Topology> machines() {
        return c -> c.chance(12) ? snc(c) : plain(c, Shape.draw(c));
    }

    /** Machines of the first kinds ({@link #FIRST_KINDS}): {@code kind} 0 to 3. */
    static Gen<Topology> ofKind(int kind) {
        return switch (kind) {
            case 0 -> c -> plain(c, Shape.draw(c).notPresent(0).smt(2).nodesPerSocket(2).offline(false));
            case 1 -> c -> plain(c, Shape.draw(c).notPresent(0).smt(1).sockets(c.chance(50) ? 1 : 2).nodesPerSocket(2).memoryOnly(1).levels(true).offline(true));
            case 2 -> c -> plain(c, Shape.draw(c).sockets(1 + (c.chance(50) ? 1 : 0)).nodesPerSocket(1 + c.choose(0, 1)).memoryOnly(0).notPresent(2));
            case 3 -> QemuMachines::snc;
            default -> throw new IllegalArgumentException("kind " + kind + "; expected 0 to " + (FIRST_KINDS - 1));
        };
    }

    /**
     * {@code n} machines drawn from {@code seed}: machine {@code i} from the {@code i}-th seed of a
     * {@link SplittableRandom} seeded with it, as property tries draw, so one seed gives one list
     * and a shard's machines are those of the whole run it owns. The first {@link #FIRST_KINDS} are
     * one of each kind.
     */
    public static List<Topology> draw(long seed, int n) {
        SplittableRandom seeds = new SplittableRandom(seed);
        List<Topology> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // The few draws QEMU would number otherwise (a node whose first CPU, not present, comes late) are drawn again.
            Gen<Topology> g = (i < FIRST_KINDS ? ofKind(i) : machines()).filter(QemuMachines::buildable);
            Topology m = Recorder.random(seeds.nextLong()).draw(g);
            out.add(m.named("qemu-" + (i + 1), "QemuMachines.draw(0x" + Long.toHexString(seed) + ", " + n + ") #" + (i + 1)));
        }
        return out;
    }

    /** True when QEMU builds {@code m} as drawn ({@link QemuMachine#of}). */
    static boolean buildable(Topology m) {
        try {
            QemuMachine.of(m);
            return true;
        } catch (CannotBuild e) {
            return false;
        }
    }

    /**
     * The shape of a plain machine: sockets, threads per core, cores per socket, nodes per socket,
     * whether cores go to nodes interleaved, memory-only nodes, a memory-less CPU node, not-present
     * CPUs (0 none, 1 the last sockets or cores, 2 a tail past CPU 63), offline CPUs, distance tiers.
     */
    record Shape(int sockets, int threads, int cores, int nodesPerSocket, boolean interleaved, int memoryOnly, boolean memorylessCpuNode,
                 int notPresent, boolean offline, boolean levels) {
        static Shape draw(Choices c) {
            int sockets = switch (c.weighted(70, 25, 5)) { case 0 -> 1; case 1 -> 2; default -> 4; };
            int threads = switch (c.weighted(50, 42, 8)) { case 0 -> 1; case 1 -> 2; default -> 4; };
            int cores = 1 + c.choose(0, 7);
            return new Shape(sockets, threads, cores, 1 + c.weighted(45, 40, 10, 5), c.chance(10), c.chance(20) ? 1 + c.choose(0, 1) : 0,
                    c.chance(10), c.weighted(75, 15, 10), c.chance(20), c.chance(30)).fitted();
        }

        /**
         * This shape within {@value #MAX_PRESENT_PLAIN} present CPUs and at least one core per node;
         * one thread per core when some CPUs are not present (their nodes are dealt CPU by CPU, see {@link #plain}).
         */
        Shape fitted() {
            int s = sockets, t = notPresent > 0 ? 1 : threads;
            if (notPresent == 1 && s == 1 && t == 1 && cores == 1) s = 2;
            int maxCores = Math.max(1, MAX_PRESENT_PLAIN / (s * t));
            int k = Math.min(cores, maxCores);
            int nps = Math.max(1, Math.min(nodesPerSocket, k));
            if (nps < nodesPerSocket && k < maxCores) k = Math.min(maxCores, nodesPerSocket);
            nps = Math.max(1, Math.min(nodesPerSocket, k));
            // A memory-less node keeps CPUs only while they are all present (the others go to nodes with memory).
            return new Shape(s, t, k, nps, interleaved && nps > 1, memoryOnly, memorylessCpuNode && s * nps > 1 && notPresent == 0, notPresent,
                    offline, levels);
        }

        Shape smt(int t) { return new Shape(sockets, t, cores, nodesPerSocket, interleaved, memoryOnly, memorylessCpuNode, notPresent, offline, levels).fitted(); }
        Shape sockets(int s) { return new Shape(s, threads, cores, nodesPerSocket, interleaved, memoryOnly, memorylessCpuNode, notPresent, offline, levels).fitted(); }
        Shape nodesPerSocket(int n) { return new Shape(sockets, threads, Math.max(cores, n), n, interleaved, memoryOnly, memorylessCpuNode, notPresent, offline, levels).fitted(); }
        Shape memoryOnly(int n) { return new Shape(sockets, threads, cores, nodesPerSocket, interleaved, n, memorylessCpuNode, notPresent, offline, levels); }
        Shape notPresent(int mode) { return new Shape(sockets, threads, cores, nodesPerSocket, interleaved, memoryOnly, memorylessCpuNode, mode, offline, levels).fitted(); }
        Shape offline(boolean b) { return new Shape(sockets, threads, cores, nodesPerSocket, interleaved, memoryOnly, memorylessCpuNode, notPresent, b, levels); }
        Shape levels(boolean b) { return new Shape(sockets, threads, cores, nodesPerSocket, interleaved, memoryOnly, memorylessCpuNode, notPresent, offline, b); }
    }

    /** Most present CPUs of a plain machine. */
    static final int MAX_PRESENT_PLAIN = 16;

    private static Topology plain(Choices c, Shape shape) {
        int sockets = shape.sockets(), threads = shape.threads(), cores = shape.cores(), nodesPerSocket = shape.nodesPerSocket();
        int perSocket = cores * threads;
        int topologyCpus = sockets * perSocket;
        // Not-present CPUs: the last sockets' CPUs or the last cores, or a long tail past CPU 63
        // (QEMU numbers the possible CPUs of -smp maxcpus in socket order; the present ones come first).
        int present = topologyCpus;
        int possible = topologyCpus;
        int tailSockets = 0;
        if (shape.notPresent() == 1 && sockets > 1) present = perSocket * (1 + c.choose(0, sockets - 2));
        else if (shape.notPresent() == 1) present = threads * (1 + c.choose(0, Math.max(0, cores - 2)));
        if (shape.notPresent() == 2) {
            int want = 72 + c.choose(0, 88);
            tailSockets = (want - topologyCpus + perSocket - 1) / perSocket;
            possible = topologyCpus + tailSockets * perSocket;
        }
        int nodes = sockets * nodesPerSocket;
        int totalNodes = nodes + shape.memoryOnly();
        int memoryless = shape.memorylessCpuNode() ? 1 + c.choose(0, nodes - 2) : -1;   // never node 0: it holds the kernel
        int[] nodeOfCore = new int[(sockets + tailSockets) * cores];
        for (int s = 0; s < sockets + tailSockets; s++)
            for (int k = 0; k < cores; k++)
                nodeOfCore[s * cores + k] = (s % sockets) * nodesPerSocket + (shape.interleaved() ? k % nodesPerSocket : k * nodesPerSocket / cores);
        // A CPU that is not present goes where 6.1 puts it whatever SRAT says: numa_init_array() deals
        // every CPU id to the nodes with memory in turn (CPU c to the (c mod k)-th of them) before the
        // present ones learn their node from SRAT, and a CPU that is not present has no APIC id to
        // look up (seen on 6.1.192). From 6.9 the kernel takes SRAT's placement, which the machine
        // gives the same, so every release boots it as drawn. (One thread per core here.)
        List<Integer> withMemory = new ArrayList<>();
        for (int n = 0; n < totalNodes; n++) if (n != memoryless) withMemory.add(n);
        for (int cpu = present; cpu < possible; cpu++) nodeOfCore[cpu] = withMemory.get(cpu % withMemory.size());
        int[][] d = distances(c, sockets, nodesPerSocket, shape.memoryOnly(), shape.levels());

        TopologyBuilder b = TopologyBuilder.machine("qemu").source("QemuMachines");
        CpuSet[] nodeCpus = new CpuSet[totalNodes];
        java.util.Arrays.fill(nodeCpus, CpuSet.EMPTY);
        for (int core = 0; core < nodeOfCore.length; core++)
            nodeCpus[nodeOfCore[core]] = nodeCpus[nodeOfCore[core]].or(CpuSet.range(core * threads, core * threads + threads - 1));
        for (int n = 0; n < totalNodes; n++) {
            b.node(n, nodeCpus[n]);
            b.nodeSize(n, n == memoryless ? 0 : ModelKernel.NODE_MIB);
        }
        for (int s = 0; s < sockets + tailSockets; s++) b.pkg(s, CpuSet.range(s * perSocket, (s + 1) * perSocket - 1));
        List<String> siblings = new ArrayList<>();
        for (int core = 0; core < possible / threads; core++) siblings.add(CpuSet.range(core * threads, core * threads + threads - 1).toList());
        b.siblings(siblings.toArray(String[]::new));
        CpuSet online = CpuSet.range(0, present - 1);
        if (present > 1 && shape.offline()) {
            int off = 1 + (present > 4 ? c.choose(0, 1) : 0);
            for (int k = 0; k < off; k++) online = online.without(1 + c.choose(0, present - 2));
        }
        return b.possible(CpuSet.range(0, possible - 1)).present(CpuSet.range(0, present - 1)).online(online).distances(d).build();
    }

    /**
     * Distances: 10 on the diagonal; nodes of one socket 11..20 (a level per pair drawn from two or
     * three values), of two sockets 20..40; a memory-only node near one socket. One table in ten
     * asymmetric (each direction drawn apart, both above 10).
     */
    private static int[][] distances(Choices c, int sockets, int perSocket, int memoryOnly, boolean levels) {
        int nodes = sockets * perSocket + memoryOnly;
        int[][] d = new int[nodes][nodes];
        boolean asymmetric = c.chance(10);
        int near = 11 + c.choose(0, 9);
        int far = 20 + c.choose(0, 20);
        for (int i = 0; i < nodes; i++) {
            d[i][i] = 10;
            for (int j = 0; j < i; j++) {
                int si = i < sockets * perSocket ? i / perSocket : c.choose(0, sockets - 1);
                int sj = j < sockets * perSocket ? j / perSocket : c.choose(0, sockets - 1);
                int v = si == sj ? near : far;
                if (levels) v += c.choose(0, 2) * 3;
                d[i][j] = v;
                d[j][i] = asymmetric ? Math.max(11, v + c.choose(0, 4) - 2) : v;
            }
        }
        return d;
    }

    /**
     * An Intel SNC machine: two sockets of 2 or 3 nodes (SNC-2, SNC-3) on a Granite Rapids-X CPU
     * model, nodes numbered socket by socket, symmetric in-package blocks of 11..18, remote 20..32.
     * From 6.19 the kernel may rewrite its scheduler distances (LVL-6 to LVL-8).
     */
    private static Topology snc(Choices c) {
        int perSocket = 2 + c.choose(0, 1);
        int coresPerNode = 1 + c.choose(0, 1);
        int threads = c.chance(50) ? 2 : 1;
        int nodes = 2 * perSocket;
        int cpusPerNode = coresPerNode * threads;
        int[][] d = new int[nodes][nodes];
        for (int i = 0; i < nodes; i++) {
            d[i][i] = 10;
            for (int j = 0; j < i; j++) {
                if (i / perSocket == j / perSocket) d[i][j] = d[j][i] = 11 + c.choose(0, 7);
                else {
                    d[i][j] = 20 + c.choose(0, 12);
                    d[j][i] = c.chance(50) ? d[i][j] : 20 + c.choose(0, 12);
                }
            }
        }
        int cpus = nodes * cpusPerNode;
        TopologyBuilder b = TopologyBuilder.machine("qemu-snc").source("QemuMachines").cpuModel(CpuModel.INTEL_GRANITERAPIDS_X)
                .possible(CpuSet.range(0, cpus - 1)).present(CpuSet.range(0, cpus - 1));
        for (int n = 0; n < nodes; n++) {
            b.node(n, CpuSet.range(n * cpusPerNode, (n + 1) * cpusPerNode - 1));
            b.nodeSize(n, ModelKernel.NODE_MIB);
        }
        for (int p = 0; p < 2; p++) b.pkg(p, CpuSet.range(p * perSocket * cpusPerNode, (p + 1) * perSocket * cpusPerNode - 1));
        List<String> siblings = new ArrayList<>();
        for (int core = 0; core < cpus / threads; core++) siblings.add(CpuSet.range(core * threads, core * threads + threads - 1).toList());
        b.siblings(siblings.toArray(String[]::new));
        CpuSet online = CpuSet.range(0, cpus - 1);
        if (c.chance(12)) online = online.without(1 + c.choose(0, cpus - 2));
        return b.online(online).distances(d).build();
    }
}
