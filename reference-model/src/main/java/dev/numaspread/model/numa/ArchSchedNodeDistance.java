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
 * and level masks from (spec/numa-levels.md LVL-6, LVL-8). Before 6.19 there is no such
 * hook and the scheduler reads {@code node_distance()}. From 6.19 (commit 06f2c90885e9 "sched:
 * Create architecture specific sched domain distances") the default is {@code node_distance()},
 * and x86 supplies its own on Intel Granite Rapids-X and Clearwater Forest-X
 * ({@link dev.numaspread.model.topology.CpuModel#isSncDistanceModel}): only with more than one
 * package and 3 or more nodes per package (SNC-3), and only when the table has the SNC form, two
 * nodes in different blocks of {@code u} consecutive node ids get the integer mean of the two
 * {@code u x u} blocks between their packages; everything else keeps the raw distance (commit
 * 528d89a4707e "x86/topo: Fix SNC topology mess", 7.0, and in 6.19.y from 6.19.7 as 9e536804bc67).
 * 6.19.0 to 6.19.6 had commit 4d6dd05d07d0 "sched/topology: Fix sched domain build error for
 * GNR, CWF in SNC-3 mode" alone, which replaced every distance of 20 or more by one machine-wide
 * mean on any such machine with nodes inside a package; a profile models a series' latest stable
 * point release (spec/README.md), so that behaviour is not modelled (spec/numa-levels.md, LVL-7
 * retired).
 * The kernel checks the form and works the means out once, at its first call during boot; the
 * model takes the machine it is given as that boot state.
 *
 * <p>Not affected: {@code node_distance()} itself, {@code numa_nearest_node()} and everything
 * else that reads the raw table (the NUMA balancing distances are kept apart in
 * {@code sched_numa_node_distance}).
 */
public final class ArchSchedNodeDistance {

    static final KernelRelease SINCE = KernelRelease.of(6, 19);

    private final Topology machine;
    private final boolean packagePairAverage;
    private final int nodesPerPackage;        // u, when averaging

    private ArchSchedNodeDistance(Topology machine, boolean packagePairAverage, int nodesPerPackage) {
        this.machine = machine;
        this.packagePairAverage = packagePairAverage;
        this.nodesPerPackage = nodesPerPackage;
    }

    /**
     * The scheduler's distance function of {@code kernel} on {@code machine}: the raw table before
     * 6.19 and on every machine whose model no hook tests; else as the class comment says.
     */
    public static ArchSchedNodeDistance of(KernelRelease kernel, Topology machine) {
        if (kernel.before(6, 19) || !machine.cpuModel().isSncDistanceModel()) return new ArchSchedNodeDistance(machine, false, 0);
        int u = machine.numNodesPerPackage();
        // 528d89a4707e: SNC-2 and single-package machines keep the raw table, and so does a table
        // that fails slit_validate() (the kernel then logs a firmware bug).
        if (machine.maxPackages() == 1 || u < 3 || !slitValid(machine, u)) return new ArchSchedNodeDistance(machine, false, 0);
        return new ArchSchedNodeDistance(machine, true, u);
    }

    /** {@code node_distance()} itself, for what reads the raw table in every release (a display of it, HOP-8). */
    public static ArchSchedNodeDistance raw(Topology machine) {
        return new ArchSchedNodeDistance(machine, false, 0);
    }

    /** {@code arch_sched_node_distance(from, to)}. */
    public int distance(int from, int to) {
        int d = raw(machine, from, to);
        if (!packagePairAverage || from / nodesPerPackage == to / nodesPerPackage) return d;
        return blockPairAverage(from, to);
    }

    /** True when the scheduler's distance differs from {@code node_distance()} somewhere: the hook is in effect. */
    public boolean rewritesDistances() {
        return packagePairAverage;
    }

    /** What the hook does on this machine, one line: {@code raw node_distance()}, or the average taken. */
    public String describe() {
        if (!packagePairAverage) return "node_distance()";
        return "node_distance() inside a package, the mean of the two blocks between two packages ("
                + nodesPerPackage + " nodes per package)";
    }

    /**
     * What {@code check-topology} says of the scheduler's distances on a machine whose model a hook
     * tests: the levels before 6.19 and from 6.19, and what the hook did; nothing for other
     * machines, whose levels are the distances line's.
     */
    public static List<String> describePerRelease(Topology machine) {
        if (!machine.cpuModel().isSncDistanceModel()) return List.of();
        List<String> out = new ArrayList<>();
        out.add("scheduler distances (arch_sched_node_distance, spec/numa-levels.md LVL-6 to LVL-8):");
        KernelRelease before = KernelRelease.of(6, 18);
        out.add("  6.18      " + levelsOf(before, machine) + " (node_distance())");
        out.add("  6.19-" + KernelRelease.NEWEST + "  " + levelsOf(SINCE, machine) + " (" + of(SINCE, machine).describe() + ")");
        return out;
    }

    private static String levelsOf(KernelRelease kernel, Topology machine) {
        int[] levels = NumaLevels.of(kernel, machine).distances();
        if (levels.length == 0) return "no levels";
        StringBuilder sb = new StringBuilder("levels");
        for (int v : levels) sb.append(' ').append(v);
        return sb.toString();
    }

    // ---------------------------------------------------------------- the SNC form (528d89a4707e)

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
