package dev.numaspread.conformance.topogen;

import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every machine of at most {@code n} possible CPUs (the exhaustive small scope of
 * {@code certify --exhaustive N}), simplest first. One machine per combination of:
 * <ul>
 * <li><b>possible CPUs</b> 1..n, ids 0..p-1;</li>
 * <li><b>SMT layout</b>: 1, 2 or 4 threads per core (where they divide p), the threads of a core
 *     adjacent ({@code 0-1}) or split ({@code 0,2}: thread t of core i is CPU {@code i + t * cores});</li>
 * <li><b>node partition</b>: every partition of the cores into at most {@value #MAX_NODES} nodes
 *     (siblings share a node), the nodes with CPUs numbered in the order of their lowest CPU;</li>
 * <li><b>a CPU-less node</b> or none, at every position among the node ids (at most
 *     {@value #MAX_NODES} nodes in all);</li>
 * <li><b>distance order</b>: every symmetric table up to order isomorphism (the routines compare
 *     distances, so only their order matters: each weak order of the node pairs once, its ranks
 *     as 20, 30, 40, ...); on two nodes also both asymmetric orders ({@code d(0,1) < d(1,0)} and
 *     the reverse);</li>
 * <li><b>cluster layout</b>: each core its own cluster (assumed, as on most x86), or, where a
 *     node has two cores or more, one cluster per node;</li>
 * <li><b>CPU state</b>: each CPU online, present but offline, or not present, at least one online.</li>
 * </ul>
 * Every node has 4096 MiB of memory and one package holds every core. Not covered: node ids in
 * another order than their lowest CPU, sparse node or CPU ids, memory-less nodes, tables of four
 * or more nodes, and values outside the kernel's 10..255 (generators that need those add them
 * to these machines, as {@link DeviceDraws} does).
 */
public final class SmallMachines {
    private SmallMachines() {}

    /** Most nodes of a machine of the small scope, CPU-less ones included. */
    public static final int MAX_NODES = 3;

    /** Largest small scope: 4 CPUs are 62 628 machines; 5 would be millions, more than a run can hold or walk. */
    public static final int MAX_SCOPE = 4;

    /**
     * Every machine of at most {@code maxCpus} possible CPUs, simplest first (fewer CPUs, then
     * fewer threads per core, fewer nodes, symmetric before asymmetric tables, every CPU online
     * before the others).
     *
     * @throws IllegalArgumentException when {@code maxCpus} is outside 1..{@value #MAX_SCOPE}
     */
    public static List<Topology> upTo(int maxCpus) {
        if (maxCpus < 1 || maxCpus > MAX_SCOPE)
            throw new IllegalArgumentException("small scope " + maxCpus + "; expected 1 to " + MAX_SCOPE + " CPUs");
        return BUILT.computeIfAbsent(maxCpus, SmallMachines::build);
    }

    /**
     * The lists built so far, by scope: a table of a pure function of the scope (the same list for
     * every caller, immutable), kept because every case of every check of a walk asks for it and
     * building it costs seconds. No state: a list never changes once in the table.
     */
    private static final java.util.concurrent.ConcurrentHashMap<Integer, List<Topology>> BUILT = new java.util.concurrent.ConcurrentHashMap<>();

    private static List<Topology> build(int maxCpus) {
        List<Topology> out = new ArrayList<>();
        for (int p = 1; p <= maxCpus; p++) withCpus(p, out);
        return List.copyOf(out);
    }

    /** The machines of {@link #upTo(int)} that {@code options} admits. */
    public static List<Topology> upTo(int maxCpus, Machines.Options options) {
        return upTo(maxCpus).stream().filter(options::admits).toList();
    }

    /** Adds every machine of exactly {@code p} possible CPUs. */
    private static void withCpus(int p, List<Topology> out) {
        for (int threads : new int[] {1, 2, 4}) {
            if (p % threads != 0) continue;
            int cores = p / threads;
            boolean[] splits = threads > 1 && cores > 1 ? new boolean[] {false, true} : new boolean[] {false};
            for (boolean split : splits)
                for (int[] nodeOfCore : partitions(cores))
                    withLayout(p, threads, cores, split, nodeOfCore, out);
        }
    }

    private static void withLayout(int p, int threads, int cores, boolean split, int[] nodeOfCore, List<Topology> out) {
        int cpuNodes = 0;
        for (int n : nodeOfCore) cpuNodes = Math.max(cpuNodes, n + 1);
        // the CPU-less node's position among the node ids; -1: none
        for (int cpuless = -1; cpuless <= cpuNodes; cpuless++) {
            int nodes = cpuNodes + (cpuless >= 0 ? 1 : 0);
            if (nodes > MAX_NODES) continue;
            for (int[][] d : distanceOrders(nodes))
                for (boolean perNodeClusters : clusterLayouts(cores, nodeOfCore))
                    for (int[] state : states(p)) {
                        MachineCode.Shape s = shape(p, threads, cores, split, nodeOfCore, cpuless, d, perNodeClusters, state);
                        Optional<Topology> t = MachineCode.build(s);
                        if (t.isEmpty())
                            throw new IllegalStateException("kit invariant broken: a small machine of " + p + " CPUs is not a machine");
                        out.add(t.get());
                    }
        }
    }

    private static MachineCode.Shape shape(int p, int threads, int cores, boolean split, int[] nodeOfCore, int cpuless, int[][] d,
                                           boolean perNodeClusters, int[] state) {
        MachineCode.Shape s = new MachineCode.Shape();
        s.packagesKnown = true;
        s.clustersStated = perNodeClusters;
        int nodes = d.length;
        for (int k = 0; k < nodes; k++) {
            MachineCode.NodeShape n = new MachineCode.NodeShape();
            n.id = k;
            n.to = new int[k];
            n.from = new int[k];
            for (int j = 0; j < k; j++) {
                n.to[j] = d[k][j];
                n.from[j] = d[j][k];
            }
            s.nodes.add(n);
        }
        // CPU id -> (core, thread); core i's thread t is i * threads + t (adjacent) or i + t * cores (split)
        int[] coreOf = new int[p];
        for (int core = 0; core < cores; core++)
            for (int t = 0; t < threads; t++) coreOf[split ? core + t * cores : core * threads + t] = core;
        int[] firstCpuOfCore = new int[cores];
        java.util.Arrays.fill(firstCpuOfCore, -1);
        int[] firstCoreOfNode = new int[nodes];
        java.util.Arrays.fill(firstCoreOfNode, -1);
        for (int cpu = 0; cpu < p; cpu++) {
            int core = coreOf[cpu];
            if (firstCpuOfCore[core] < 0) firstCpuOfCore[core] = cpu;
            int node = nodeOfCore[core];
            int position = cpuless >= 0 && node >= cpuless ? node + 1 : node;   // the CPU-less node takes its id
            if (firstCoreOfNode[position] < 0) firstCoreOfNode[position] = firstCpuOfCore[core];
            MachineCode.CpuShape c = new MachineCode.CpuShape();
            c.id = cpu;
            c.node = position;
            c.core = firstCpuOfCore[core];
            c.cluster = perNodeClusters ? firstCoreOfNode[position] : firstCpuOfCore[core];
            c.state = state[cpu];
            c.pkg = 0;
            s.cpus.add(c);
        }
        return s;
    }

    /**
     * Every partition of {@code n} cores into at most {@value #MAX_NODES} blocks, as the block of
     * each core with blocks numbered in the order of their lowest core (restricted growth strings),
     * fewer blocks first.
     */
    static List<int[]> partitions(int n) {
        List<int[]> all = new ArrayList<>();
        grow(new int[n], 0, 0, all);
        List<int[]> out = new ArrayList<>();
        for (int blocks = 1; blocks <= MAX_NODES; blocks++)
            for (int[] a : all) if (max(a) + 1 == blocks) out.add(a);
        return out;
    }

    private static void grow(int[] a, int i, int blocks, List<int[]> out) {
        if (i == a.length) {
            out.add(a.clone());
            return;
        }
        for (int b = 0; b <= Math.min(blocks, MAX_NODES - 1); b++) {
            a[i] = b;
            grow(a, i + 1, Math.max(blocks, b + 1), out);
        }
    }

    /**
     * The distance tables of {@code nodes} nodes up to order isomorphism: for each weak order of the
     * node pairs (each pair a rank, ranks 0..r-1 all used), the table with {@code d = 20 + 10 * rank}
     * both ways; on two nodes also the two asymmetric orders (20 one way, 30 the other).
     */
    static List<int[][]> distanceOrders(int nodes) {
        List<int[][]> out = new ArrayList<>();
        int pairs = nodes * (nodes - 1) / 2;
        for (int[] rank : weakOrders(pairs)) {
            int[][] d = new int[nodes][nodes];
            int k = 0;
            for (int i = 0; i < nodes; i++) {
                d[i][i] = 10;
                for (int j = i + 1; j < nodes; j++) d[i][j] = d[j][i] = 20 + 10 * rank[k++];
            }
            out.add(d);
        }
        if (nodes == 2) {
            out.add(new int[][] {{10, 20}, {30, 10}});
            out.add(new int[][] {{10, 30}, {20, 10}});
        }
        return out;
    }

    /** Every weak order of {@code m} items as a rank per item (ranks 0..r-1 all used), fewer ranks first. */
    static List<int[]> weakOrders(int m) {
        List<int[]> out = new ArrayList<>();
        for (int ranks = m == 0 ? 0 : 1; ranks <= m; ranks++) {
            int[] a = new int[m];
            while (true) {
                if (m == 0 || usesAll(a, ranks)) out.add(a.clone());
                int i = m - 1;
                while (i >= 0 && a[i] == ranks - 1) a[i--] = 0;
                if (i < 0) break;
                a[i]++;
            }
            if (m == 0) break;
        }
        return out;
    }

    private static boolean usesAll(int[] a, int ranks) {
        boolean[] used = new boolean[ranks];
        for (int r : a) used[r] = true;
        for (boolean u : used) if (!u) return false;
        return true;
    }

    /** Clusters assumed (each core its own), then, where a node has two cores or more, one cluster per node. */
    private static boolean[] clusterLayouts(int cores, int[] nodeOfCore) {
        int[] perNode = new int[MAX_NODES];
        for (int n : nodeOfCore) perNode[n]++;
        for (int c : perNode) if (c >= 2) return new boolean[] {false, true};
        return new boolean[] {false};
    }

    /**
     * The state of each CPU (0 online, 1 present but offline, 2 not present), every combination with
     * at least one CPU online, all online first.
     */
    static List<int[]> states(int p) {
        List<int[]> out = new ArrayList<>();
        int[] a = new int[p];
        while (true) {
            boolean online = false;
            for (int s : a) online |= s == 0;
            if (online) out.add(a.clone());
            int i = p - 1;
            while (i >= 0 && a[i] == 2) a[i--] = 0;
            if (i < 0) break;
            a[i]++;
        }
        return out;
    }

    private static int max(int[] a) {
        int m = -1;
        for (int x : a) m = Math.max(m, x);
        return m;
    }
}
