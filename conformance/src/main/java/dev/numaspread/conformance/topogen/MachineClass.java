package dev.numaspread.conformance.topogen;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.EnumSet;
import java.util.function.Predicate;

/**
 * The kinds of machine a property run should meet, each with the least share of
 * {@link Machines#any()} draws it must have; {@link MachineStatistics} counts them so a generator
 * change cannot silently narrow the search. A class is read off the topology itself, never from
 * how it was drawn.
 *
 * <pre>
 *   class                     minimum share of Machines.any()   what it exercises
 *   MULTI_NODE                40%    distances, rings, node order
 *   MULTI_PACKAGE             15%    packages, cross-package tiers
 *   SPARSE_NODE_IDS            5%    nr_node_ids above the node count, missing node 0
 *   SMT2                      20%    sibling pulls in group_cpus_evenly
 *   SMT4                       4%    wide sibling groups
 *   SPLIT_NUMBERING            8%    siblings numbered apart (x86)
 *   ADJACENT_NUMBERING         8%    siblings numbered next to each other
 *   CLUSTERS                   5%    cluster-aware grouping
 *   ASYMMETRIC                 3%    d(a,b) != d(b,a)
 *   NON_METRIC                 3%    d(a,b) > d(a,c) + d(c,b)
 *   FIVE_OR_MORE_LEVELS        3%    deep hop rings
 *   CPULESS_NODE               8%    nearest node with CPUs
 *   MEMORYLESS_NODE            2%    memory-less CPU nodes
 *   OFFLINE_CPUS              10%    live masks differ from hardware ones
 *   NOT_PRESENT_CPUS           8%    possible above present (second pass of grouping)
 *   NODE_WITHOUT_ONLINE_CPUS   1%    a node whose CPUs are all offline
 *   CPU0_OFFLINE               1%    no CPU 0 to fall back on
 *   SINGLE_CPU               0.5%    one possible CPU
 *   UNEQUAL_NODES              5%    node sizes differ (apportionment remainders)
 * </pre>
 */
public enum MachineClass {
    MULTI_NODE(0.40, t -> t.nodes().size() > 1),
    MULTI_PACKAGE(0.15, t -> t.packages().size() > 1),
    SPARSE_NODE_IDS(0.05, t -> t.nrNodeIds() > t.nodes().size()),
    SMT2(0.20, t -> maxSiblings(t) == 2),
    SMT4(0.04, t -> maxSiblings(t) == 4),
    SPLIT_NUMBERING(0.08, t -> t.smtSiblings().stream().anyMatch(g -> g.size() > 1 && g.last() - g.first() >= g.size())),
    ADJACENT_NUMBERING(0.08, t -> t.smtSiblings().stream().anyMatch(g -> g.size() > 1 && g.last() - g.first() == g.size() - 1)),
    CLUSTERS(0.05, t -> t.clusters().size() < t.smtSiblings().size()),   // some cluster holds several cores
    ASYMMETRIC(0.03, t -> !t.distances().isSymmetric()),
    NON_METRIC(0.03, t -> t.distances().firstTriangleViolation().isPresent()),
    FIVE_OR_MORE_LEVELS(0.03, t -> t.distances().distinctValues().length >= 5),
    CPULESS_NODE(0.08, t -> t.nodes().stream().anyMatch(n -> n.cpus().isEmpty())),
    MEMORYLESS_NODE(0.02, t -> t.nodes().stream().anyMatch(n -> !n.hasMemory())),
    OFFLINE_CPUS(0.10, t -> !t.online().equals(t.present())),
    NOT_PRESENT_CPUS(0.08, t -> !t.present().equals(t.possible())),
    NODE_WITHOUT_ONLINE_CPUS(0.01, t -> t.nodes().stream().anyMatch(n -> !n.cpus().isEmpty() && t.isCpuless(n.id()))),
    CPU0_OFFLINE(0.01, t -> !t.online().contains(0)),
    SINGLE_CPU(0.005, t -> t.possible().size() == 1),
    UNEQUAL_NODES(0.05, MachineClass::unequalNodes);

    private final double minimumShare;
    private final Predicate<Topology> test;

    MachineClass(double minimumShare, Predicate<Topology> test) {
        this.minimumShare = minimumShare;
        this.test = test;
    }

    /** The least share of {@link Machines#any()} draws this class must have. */
    public double minimumShare() {
        return minimumShare;
    }

    /** True when {@code t} belongs to this class. */
    public boolean test(Topology t) {
        return test.test(t);
    }

    /** The classes {@code t} belongs to, in declaration order. */
    public static EnumSet<MachineClass> of(Topology t) {
        EnumSet<MachineClass> out = EnumSet.noneOf(MachineClass.class);
        for (MachineClass c : values()) if (c.test(t)) out.add(c);
        return out;
    }

    private static int maxSiblings(Topology t) {
        int m = 1;
        for (CpuSet g : t.smtSiblings()) m = Math.max(m, g.size());
        return m;
    }

    private static boolean unequalNodes(Topology t) {
        int size = -1;
        for (Node n : t.nodes()) {
            if (n.cpus().isEmpty()) continue;
            if (size >= 0 && n.cpus().size() != size) return true;
            size = n.cpus().size();
        }
        return false;
    }
}
