package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The scheduler's NUMA distance levels ({@code sched_domains_numa_distance[]}) and level masks
 * ({@code sched_domains_numa_masks[level][node]}) as {@code sched_init_numa()} of a release builds
 * them (spec/numa-levels.md, LVL-1..LVL-8). From 6.19 they are built from
 * {@link ArchSchedNodeDistance} rather than {@code node_distance()} (LVL-6).
 *
 * <p>Three release variants (one visible branch each, in {@link #of}):
 * <ul>
 *   <li>before 5.12: the levels are the distinct values of row 0 only, over every node (the
 *       "Node-0 not representative" assumption; fixed by commit 620a6dc40754 "sched/topology:
 *       Make sched_init_numa() use a set for the deduplicating sort");</li>
 *   <li>5.12 - 5.17: the distinct values of the whole table, over every node, CPU-less ones
 *       included; a value outside 10..255 aborts: no levels at all;</li>
 *   <li>5.18+: the same over the nodes with CPUs only (commit 0fb3978b0aac "sched/numa: Fix NUMA
 *       topology for systems with CPU-less nodes"); a CPU-less node has no masks (NULL).</li>
 * </ul>
 * The masks hold online CPUs only: the kernel sets and clears a CPU in them when it is activated
 * and deactivated.
 */
public final class NumaLevels {

    private final int[] distances;          // ascending; empty when the kernel built no levels
    private final int[] nodeIds;            // the topology's node ids, ascending
    private final int[] members;            // the nodes that take part (and have masks), ascending
    private final Topology machine;
    private final ArchSchedNodeDistance schedDistance;   // node_distance() before 6.19

    // The masks are built per node when asked for (masksOf), not here: most callers (a local
    // spread plan, the level checks) need the distances only, and all masks cost levels x nodes x
    // nodes unions of CPU sets, which dominated a 6.3+ plan on a 64-node machine (benchmarks/).
    private NumaLevels(int[] distances, int[] nodeIds, int[] members, Topology machine, ArchSchedNodeDistance schedDistance) {
        this.distances = distances;
        this.nodeIds = nodeIds;
        this.members = members;
        this.machine = machine;
        this.schedDistance = schedDistance;
    }

    /**
     * The levels and masks {@code kernel} builds on {@code machine}.
     *
     * <p>Cost: the levels of the last few machines asked about on this thread are kept, and given
     * again for the same machine (the same instance) and release era ({@link #eraOf}): a walk asks
     * them for every hop mask and local spread, on one machine or, under hotplug, on the two or
     * three online sets a run goes through (issue 26).
     *
     * @throws IllegalArgumentException when the release is not modelled
     */
    public static NumaLevels of(KernelRelease kernel, Topology machine) {
        Releases.requireModelled(kernel, "numa-levels");
        int era = eraOf(kernel);
        Kept kept = KEPT.get();
        for (Memo m : kept.memos)
            if (m != null && m.machine() == machine && m.era() == era) return m.levels();
        NumaLevels levels = build(kernel, machine);
        kept.memos[kept.next] = new Memo(machine, era, levels);
        kept.next = (kept.next + 1) % kept.memos.length;
        return levels;
    }

    /**
     * The levels of the last machines asked about on this thread ({@link #of}), the oldest replaced
     * first. Not a mutable value anyone sees: a memo of a function of (machine, era) over immutable
     * machines, per thread so that no two threads share it.
     */
    private static final ThreadLocal<Kept> KEPT = ThreadLocal.withInitial(Kept::new);

    private static final class Kept {
        final Memo[] memos = new Memo[4];
        int next;
    }

    private record Memo(Topology machine, int era, NumaLevels levels) {}

    /**
     * Which of the release's branches {@link #build} takes: 0 before 5.12, 1 for 5.12 - 5.17, 2
     * for 5.18 - 6.18, 3 from 6.19 ({@link ArchSchedNodeDistance#SINCE}). Two releases of one era
     * build the same levels on every machine, because these three comparisons are all that
     * {@link #build} and {@link ArchSchedNodeDistance#of} read of the release; a new release branch
     * there needs its cut here. It makes the same comparisons {@link #build} makes, so a
     * {@link KernelRelease.Watch} sees the same reads whether the levels are built or kept.
     */
    static int eraOf(KernelRelease kernel) {
        boolean before512 = kernel.before(5, 12), before518 = kernel.before(5, 18), before619 = kernel.before(6, 19);
        return before512 ? 0 : before518 ? 1 : before619 ? 2 : 3;
    }

    /** The levels and masks {@code kernel} builds on {@code machine}, built anew: {@link #of} without its memo. */
    static NumaLevels build(KernelRelease kernel, Topology machine) {
        int[] ids = machine.nodeIds();
        // 5.18+ (0fb3978b0aac): only nodes with CPUs (N_CPU) take part; before, every node did.
        boolean everyNode = kernel.before(5, 18);
        int[] memberIds = new int[ids.length];
        int count = 0;
        for (int n : ids)
            if (everyNode || !machine.isCpuless(n)) memberIds[count++] = n;
        memberIds = Arrays.copyOf(memberIds, count);
        ArchSchedNodeDistance sched = ArchSchedNodeDistance.of(kernel, machine);
        if (kernel.before(5, 12)) {
            // Before 620a6dc40754 the deduplicating sort read node_distance(0, j) only, no range check.
            TreeSet<Integer> values = new TreeSet<>();
            for (int j : ids) values.add(distance(machine, 0, j));
            return new NumaLevels(toArray(values), ids, memberIds, machine, sched);
        }
        // The distinct values ascending: one outside the range is the first or the last of them.
        int[] levels = machine.distances().distinctValuesAmong(memberIds);
        if (levels.length > 0 && (levels[0] < Numa.LOCAL_DISTANCE || levels[levels.length - 1] > Numa.MAX_DISTANCE))
            return new NumaLevels(new int[0], ids, memberIds, machine, sched);   // "Invalid distance value range"
        if (!sched.rewritesDistances()) return new NumaLevels(levels, ids, memberIds, machine, sched);
        // 6.19+ on the machines of LVL-8: the raw table passed its range check (the kernel
        // records it first); the levels are the architecture's distances (06f2c90885e9), checked too.
        TreeSet<Integer> values = new TreeSet<>();
        for (int i : memberIds)
            for (int j : memberIds) {
                int d = sched.distance(i, j);
                if (d < Numa.LOCAL_DISTANCE || d > Numa.MAX_DISTANCE) return new NumaLevels(new int[0], ids, memberIds, machine, sched);
                values.add(d);
            }
        return new NumaLevels(toArray(values), ids, memberIds, machine, sched);
    }

    private static int[] toArray(TreeSet<Integer> values) {
        int[] out = new int[values.size()];
        int k = 0;
        for (int v : values) out[k++] = v;
        return out;
    }

    /** {@code node_distance(from, to)}, with the kernel's 10/20 defaults for a node outside the table. */
    private static int distance(Topology machine, int from, int to) {
        if (machine.distances().hasNode(from) && machine.distances().hasNode(to)) return machine.distance(from, to);
        return from == to ? Numa.LOCAL_DISTANCE : Numa.REMOTE_DISTANCE;
    }

    /** The distance levels, ascending ({@code sched_domains_numa_distance[]}); empty when none were built. */
    public int[] distances() {
        return distances.clone();
    }

    /** {@code sched_domains_numa_levels}: the number of levels; 0 when the kernel built none. */
    public int count() {
        return distances.length;
    }

    /** True when the kernel built no levels (a distance outside 10..255): the masks pointer is NULL. */
    public boolean isEmpty() {
        return distances.length == 0;
    }

    /** True when {@code node} has level masks: it is known, levels exist, and (5.18+) it has CPUs. */
    public boolean hasMasks(int node) {
        // A CPU-less node (5.18+) is no member: its masks are the kernel's NULL.
        return Arrays.binarySearch(nodeIds, node) >= 0 && !isEmpty() && Arrays.binarySearch(members, node) >= 0;
    }

    /**
     * The cumulative level masks of {@code node}, level 0 first: the online CPUs of every node
     * within {@code distances()[level]} of {@code node}, measured along row {@code node}. Empty
     * when the node has no masks (see {@link #hasMasks}).
     */
    public List<CpuSet> masksOf(int node) {
        if (!hasMasks(node)) return List.of();
        List<CpuSet> out = new ArrayList<>(distances.length);
        for (int level : distances) {
            CpuSet.Builder mask = CpuSet.builder();
            for (int m : members)
                if (schedDistance.distance(node, m) <= level) mask.addAll(machine.onlineCpusOf(m));
            out.add(mask.build());
        }
        return List.copyOf(out);
    }

    /**
     * The distance the levels and masks measure from {@code from} to {@code to}: {@code node_distance()},
     * or from 6.19 {@code arch_sched_node_distance()} (LVL-6), which differs on the machines of LVL-8.
     */
    public int schedDistance(int from, int to) {
        return schedDistance.distance(from, to);
    }

    /** The scheduler's distance function these levels were built from (LVL-6). */
    public ArchSchedNodeDistance archSchedNodeDistance() {
        return schedDistance;
    }

    /**
     * The index of the smallest level {@code >= distance}, or {@code count()} when there is none
     * (only possible with the pre-5.12 row-0 levels).
     */
    public int levelOf(int distance) {
        int k = Arrays.binarySearch(distances, distance);
        return k >= 0 ? k : -k - 1;
    }

    @Override
    public String toString() {
        return "levels " + Arrays.toString(distances);
    }
}
