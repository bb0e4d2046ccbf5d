package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Draws against a drawn machine, for check writers: a node, a CPU, a subset of CPUs, a group
 * count or a spread index, each with its simplest value first so failures shrink to it.
 */
public final class MachineDraws {
    private MachineDraws() {}

    /** A node with at least one online CPU (ascending id; the first is the simplest). */
    public static Gen<Integer> nodeWithOnlineCpus(Topology t) {
        List<Integer> ids = new ArrayList<>();
        for (Node n : t.nodes()) if (!t.isCpuless(n.id())) ids.add(n.id());
        return Gen.oneOf(ids);
    }

    /** Any node of the machine, CPU-less ones included (ascending id). */
    public static Gen<Integer> anyNode(Topology t) {
        List<Integer> ids = new ArrayList<>();
        for (Node n : t.nodes()) ids.add(n.id());
        return Gen.oneOf(ids);
    }

    /** Any node, or {@code NUMA_NO_NODE} (one draw in eight); the first node is the simplest. */
    public static Gen<Integer> nodeOrNoNode(Topology t) {
        Gen<Integer> node = anyNode(t);
        return c -> c.chance(12) ? Numa.NUMA_NO_NODE : node.generate(c);
    }

    /**
     * Any node, or {@code NUMA_NO_NODE} as likely as each node: one choice past the last node
     * (ascending id; the first node is the simplest).
     */
    public static Gen<Integer> anyNodeOrNoNode(Topology t) {
        int[] ids = t.nodeIds();
        return c -> {
            int pick = c.choose(0, ids.length);
            return pick == ids.length ? Numa.NUMA_NO_NODE : ids[pick];
        };
    }

    /** An online CPU (ascending; the lowest is the simplest). */
    public static Gen<Integer> onlineCpu(Topology t) {
        return cpuOf(t.online());
    }

    /** A possible CPU (ascending; the lowest is the simplest). */
    public static Gen<Integer> possibleCpu(Topology t) {
        return cpuOf(t.possible());
    }

    private static Gen<Integer> cpuOf(CpuSet cpus) {
        int[] a = cpus.toArray();
        if (a.length == 0) throw new IllegalArgumentException("no CPU to draw from: the set is empty");
        return c -> a[c.choose(0, a.length - 1)];
    }

    /** A subset of {@code cpus}, one in/out choice per CPU (simplest: empty). */
    public static Gen<CpuSet> cpuSubsets(CpuSet cpus) {
        int[] a = cpus.toArray();
        return c -> {
            CpuSet.Builder b = CpuSet.builder();
            for (int cpu : a) if (c.choose(0, 1) == 1) b.add(cpu);
            return b.build();
        };
    }

    /** A subset of the machine's possible CPUs (simplest: empty). */
    public static Gen<CpuSet> cpuSubsets(Topology t) {
        return cpuSubsets(t.possible());
    }

    /** A non-empty subset of {@code cpus}: one CPU surely, then in/out for the others (simplest: the lowest CPU). */
    public static Gen<CpuSet> nonEmptyCpuSubsets(CpuSet cpus) {
        int[] a = cpus.toArray();
        if (a.length == 0) throw new IllegalArgumentException("no CPU to draw from: the set is empty");
        return c -> {
            int first = c.choose(0, a.length - 1);
            CpuSet.Builder b = CpuSet.builder().add(a[first]);
            for (int k = 0; k < a.length; k++) if (k != first && c.choose(0, 1) == 1) b.add(a[k]);
            return b.build();
        };
    }

    /**
     * A group or queue count for spreading: the edge counts (1, nodes - 1, nodes, nodes + 1, online
     * CPUs, possible CPUs, possible + 1) two draws in three, else any count in 1..2 x possible. The
     * simplest is 1.
     */
    public static Gen<Integer> groupCounts(Topology t) {
        int nodes = t.nodes().size();
        TreeSet<Integer> edges = new TreeSet<>(List.of(1, nodes, nodes + 1, t.numOnlineCpus(), t.possible().size(),
                t.possible().size() + 1));
        if (nodes > 1) edges.add(nodes - 1);
        List<Integer> edgeList = List.copyOf(edges);
        int max = 2 * t.possible().size();
        return c -> c.chance(33) ? 1 + c.choose(0, max - 1) : edgeList.get(c.choose(0, edgeList.size() - 1));
    }

    /**
     * A count of queues, groups or vectors in {@code lo..hi} for a call on {@code m}, in span
     * {@code "count"}. Drawn at random, it is one of the edge counts half of the time (lo, 0, 1,
     * nodes - 1, nodes, nodes + 1, 2 x nodes, cores (a whole core per group), the clusters of the
     * present CPUs - 1, + 0 and + 1 (both sides of the cluster step, GRP-11, GRP-13), online - 1, online,
     * online + 1, possible, possible + 1, hi: where
     * implementations tell apart) and any count in {@code lo..hi} otherwise; its literal form, to
     * which the shrinker rewrites it, is the count itself, so lowering that choice removes one
     * queue at a time. Within a small scope every count is one choice. The simplest is {@code lo}.
     *
     * @throws IllegalArgumentException when {@code hi < lo}
     */
    public static Gen<Integer> counts(Topology m, int lo, int hi) {
        if (hi < lo) throw new IllegalArgumentException("counts(" + lo + ", " + hi + "): expected lo <= hi");
        return c -> {
            c.startSpan(COUNT);
            int v;
            if (c.smallScope().isPresent() || c.pinned(0, 1, 1) == 0) {
                v = c.choose(lo, hi);
            } else {
                // The edges only here: a small scope's walk draws a count on millions of leaves and reads none (issue 26).
                int[] edge = edgeCounts(m, lo, hi);
                v = c.weighted(1, 1) == 0 ? edge[c.choose(0, edge.length - 1)] : c.choose(lo, hi);
            }
            if (c.smallScope().isPresent()) {
                c.endSpan();
            } else {
                int literal = v - lo;
                c.endSpan(new dev.numaspread.conformance.gen.Rewrites() {
                    @Override public java.util.Optional<int[]> literalForm() { return java.util.Optional.of(new int[] {0, literal}); }
                    @Override public List<int[]> simplerForms() { return List.of(); }
                });
            }
            return v;
        };
    }

    /** The edge counts of {@link #counts} within {@code lo..hi}, ascending, each once. */
    static int[] edgeCounts(Topology m, int lo, int hi) {
        int nodes = m.nodes().size(), online = m.numOnlineCpus(), possible = m.possible().size(), cores = m.smtSiblings().size();
        int clusters = (int) m.clusters().stream().filter(cl -> cl.intersects(m.present())).count();
        TreeSet<Integer> edges = new TreeSet<>();
        for (int v : new int[] {lo, 0, 1, nodes - 1, nodes, nodes + 1, 2 * nodes, cores, clusters - 1, clusters, clusters + 1,
                online - 1, online, online + 1, possible, possible + 1, hi})
            if (v >= lo && v <= hi) edges.add(v);
        return edges.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The label of the span of one count ({@link #counts}). */
    public static final String COUNT = "count";

    /**
     * An index {@code i} for {@code cpumask_local_spread(i, node)}: below the online count mostly,
     * up to three times it one draw in eight (the kernel wraps i); within a small scope, each index
     * up to three times it. The simplest is 0.
     */
    public static Gen<Integer> spreadIndex(Topology t) {
        int online = t.numOnlineCpus();
        // Within a small scope every index up to 3 x online once: the chance would repeat the first ones.
        return c -> c.smallScope().isPresent() ? c.choose(0, 3 * online - 1)
                : c.chance(12) ? c.choose(0, 3 * online - 1) : c.choose(0, online - 1);
    }
}
