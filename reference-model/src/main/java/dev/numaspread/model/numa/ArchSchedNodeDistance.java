package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.CpuPackage;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code arch_sched_node_distance(from, to)}: the distance the scheduler builds its NUMA levels
 * and level masks from (spec/numa-levels.md LVL-6, LVL-7, LVL-8). Before 6.19 there is no such
 * hook and the scheduler reads {@code node_distance()}. From 6.19 (commit 06f2c90885e9 "sched:
 * Create architecture specific sched domain distances") the default is {@code node_distance()},
 * and x86 supplies its own on Intel Granite Rapids-X and Clearwater Forest-X
 * ({@link dev.numaspread.model.topology.CpuModel#isSncDistanceModel}):
 * <ul>
 *   <li>6.19 (4d6dd05d07d0 "sched/topology: Fix sched domain build error for GNR, CWF in SNC-3
 *       mode"): with a package holding CPUs of two nodes and more than one package, every raw
 *       distance of 20 ({@code REMOTE_DISTANCE}) or more becomes one machine-wide value, the
 *       integer mean of the raw distances of 20 or more between nodes with CPUs;</li>
 *   <li>7.0 (528d89a4707e "x86/topo: Fix SNC topology mess"): only with more than one package and
 *       3 or more nodes per package (SNC-3), and only when the table has the SNC form: two nodes
 *       in different blocks of {@code u} consecutive node ids get the integer mean of the two
 *       {@code u x u} blocks between their packages; everything else keeps the raw distance.</li>
 * </ul>
 * The kernel works both values out once, at its first call during boot; the model takes the
 * machine it is given as that boot state.
 *
 * <p>Not affected: {@code node_distance()} itself, {@code numa_nearest_node()} and everything
 * else that reads the raw table (the NUMA balancing distances are kept apart in
 * {@code sched_numa_node_distance}).
 */
public final class ArchSchedNodeDistance {

    static final KernelRelease SINCE = KernelRelease.of(6, 19);
    static final KernelRelease PER_PACKAGE_PAIR = KernelRelease.of(7, 0);

    private enum Kind { RAW, MACHINE_WIDE_AVERAGE, PACKAGE_PAIR_AVERAGE }

    private final Topology machine;
    private final Kind kind;
    private final int average;                // MACHINE_WIDE_AVERAGE: sched_avg_remote_distance
    private final int nodesPerPackage;        // PACKAGE_PAIR_AVERAGE: u

    private ArchSchedNodeDistance(Topology machine, Kind kind, int average, int nodesPerPackage) {
        this.machine = machine;
        this.kind = kind;
        this.average = average;
        this.nodesPerPackage = nodesPerPackage;
    }

    /**
     * The scheduler's distance function of {@code kernel} on {@code machine}: the raw table before
     * 6.19 and on every machine whose model no hook tests; else as the class comment says.
     */
    public static ArchSchedNodeDistance of(KernelRelease kernel, Topology machine) {
        if (kernel.before(6, 19) || !machine.cpuModel().isSncDistanceModel())
            return new ArchSchedNodeDistance(machine, Kind.RAW, 0, 0);
        if (kernel.before(7, 0)) {
            // 4d6dd05d07d0: x86_has_numa_in_package and more than one package, else raw.
            if (!hasNumaInPackage(machine) || machine.maxPackages() == 1) return new ArchSchedNodeDistance(machine, Kind.RAW, 0, 0);
            return new ArchSchedNodeDistance(machine, Kind.MACHINE_WIDE_AVERAGE, averageRemoteDistance(machine), 0);
        }
        int u = machine.numNodesPerPackage();
        // 528d89a4707e: SNC-2 and single-package machines keep the raw table, and so does a table
        // that fails slit_validate() (the kernel then logs a firmware bug).
        if (machine.maxPackages() == 1 || u < 3 || !slitValid(machine, u)) return new ArchSchedNodeDistance(machine, Kind.RAW, 0, 0);
        return new ArchSchedNodeDistance(machine, Kind.PACKAGE_PAIR_AVERAGE, 0, u);
    }

    /** {@code arch_sched_node_distance(from, to)}. */
    public int distance(int from, int to) {
        int d = raw(machine, from, to);
        return switch (kind) {
            case RAW -> d;
            case MACHINE_WIDE_AVERAGE -> d >= Numa.REMOTE_DISTANCE ? average : d;
            case PACKAGE_PAIR_AVERAGE -> from / nodesPerPackage == to / nodesPerPackage ? d : blockPairAverage(from, to);
        };
    }

    /** True when the scheduler's distance differs from {@code node_distance()} somewhere: the hook is in effect. */
    public boolean rewritesDistances() {
        return kind != Kind.RAW;
    }

    /** What the hook does on this machine, one line: {@code raw node_distance()}, or the average taken. */
    public String describe() {
        return switch (kind) {
            case RAW -> "node_distance()";
            case MACHINE_WIDE_AVERAGE -> "node_distance(), but " + average + " for every distance of 20 or more (their mean)";
            case PACKAGE_PAIR_AVERAGE -> "node_distance() inside a package, the mean of the two blocks between two packages ("
                    + nodesPerPackage + " nodes per package)";
        };
    }

    /**
     * What {@code check-topology} says of the scheduler's distances on a machine whose model a hook
     * tests: the levels before 6.19, in 6.19 and from 7.0, and what the hook did; nothing for
     * other machines, whose levels are the distances line's.
     */
    public static List<String> describePerRelease(Topology machine) {
        if (!machine.cpuModel().isSncDistanceModel()) return List.of();
        List<String> out = new ArrayList<>();
        out.add("scheduler distances (arch_sched_node_distance, spec/numa-levels.md LVL-6 to LVL-8):");
        KernelRelease before = KernelRelease.of(6, 18);
        out.add("  6.18      " + levelsOf(before, machine) + " (node_distance())");
        out.add("  6.19      " + levelsOf(SINCE, machine) + " (" + of(SINCE, machine).describe() + ")");
        out.add("  7.0-" + KernelRelease.NEWEST + "   " + levelsOf(PER_PACKAGE_PAIR, machine) + " (" + of(PER_PACKAGE_PAIR, machine).describe() + ")");
        return out;
    }

    private static String levelsOf(KernelRelease kernel, Topology machine) {
        int[] levels = NumaLevels.of(kernel, machine).distances();
        if (levels.length == 0) return "no levels";
        StringBuilder sb = new StringBuilder("levels");
        for (int v : levels) sb.append(' ').append(v);
        return sb.toString();
    }

    // ---------------------------------------------------------------- 6.19

    /**
     * {@code x86_has_numa_in_package}: some package holds CPUs of two nodes. The kernel sets it as
     * CPUs come up ({@code set_cpu_sibling_map()}), so the online CPUs count.
     */
    static boolean hasNumaInPackage(Topology m) {
        for (CpuPackage p : m.packages()) {
            CpuSet on = p.cpus().and(m.online());
            if (!on.isEmpty() && m.nodesOf(on).size() > 1) return true;
        }
        return false;
    }

    /**
     * {@code avg_remote_numa_distance()}: the integer mean of {@code node_distance(i, j) >= 20} over
     * every ordered pair of nodes with CPUs ({@code N_CPU}), or 20 when there is none.
     */
    static int averageRemoteDistance(Topology m) {
        long total = 0;
        int count = 0;
        for (int i : m.nodeIds())
            for (int j : m.nodeIds()) {
                if (m.isCpuless(i) || m.isCpuless(j)) continue;
                int d = m.distance(i, j);
                if (d >= Numa.REMOTE_DISTANCE) {
                    total += d;
                    count++;
                }
            }
        return count == 0 ? Numa.REMOTE_DISTANCE : (int) (total / count);
    }

    // ---------------------------------------------------------------- 7.0

    /**
     * {@code slit_validate()}: for each package index {@code p < topology_max_packages()}, the
     * block of nodes {@code p*u .. p*u+u-1} is symmetric, the online CPUs of its nodes lie in one
     * package (a block without any has none: invalid), and that package differs from the previous
     * block's.
     */
    static boolean slitValid(Topology m, int u) {
        Optional<Integer> previous = Optional.empty();
        for (int p = 0; p < m.maxPackages(); p++) {
            int first = p * u;
            for (int k = 0; k < u; k++)
                for (int l = k; l < u; l++)
                    if (raw(m, first + k, first + l) != raw(m, first + l, first + k)) return false;
            Optional<Integer> pkg = blockPackage(m, first, u);
            if (pkg.isEmpty()) return false;
            if (p > 0 && pkg.equals(previous)) return false;
            previous = pkg;
        }
        return true;
    }

    /** {@code slit_cluster_package()}: the one package of the block's online CPUs; empty when there are none or several. */
    static Optional<Integer> blockPackage(Topology m, int first, int u) {
        Optional<Integer> pkg = Optional.empty();
        for (int n = first; n < first + u; n++)
            for (int cpu : m.onlineCpusOf(n).toArray()) {
                Optional<Integer> id = m.packageOf(cpu).map(CpuPackage::id);
                if (id.isEmpty()) return Optional.empty();
                if (pkg.isEmpty()) pkg = id;
                else if (!pkg.equals(id)) return Optional.empty();
            }
        return pkg;
    }

    /**
     * {@code slit_cluster_distance()} off the diagonal blocks: the sum of {@code d(i, j) + d(j, i)}
     * over the {@code u x u} block pair of {@code from}'s and {@code to}'s blocks, divided by
     * {@code 2u²} (integer division). Both directions count, so the result is symmetric.
     */
    int blockPairAverage(int from, int to) {
        int u = nodesPerPackage;
        int x = from - from % u, y = to - to % u;
        long sum = 0;
        for (int i = x; i < x + u; i++)
            for (int j = y; j < y + u; j++)
                sum += raw(machine, i, j) + raw(machine, j, i);
        return (int) (sum / (2L * u * u));
    }

    /** {@code node_distance(from, to)}, with x86's 10/20 for a node outside the table. */
    static int raw(Topology m, int from, int to) {
        if (m.distances().hasNode(from) && m.distances().hasNode(to)) return m.distance(from, to);
        return from == to ? Numa.LOCAL_DISTANCE : Numa.REMOTE_DISTANCE;
    }
}
