package dev.numaspread.conformance.topogen;

import dev.numaspread.model.input.HasId;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.numa.NumaNearestNode;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The kinds of input that tell implementations of a rule apart: a rule declares the ones it
 * needs in its {@code classes:} line (spec/rules.md, RULE-6), and the build counts how often
 * the rule's checks ask the implementation about each ({@code checks.Census}). A class is read off one
 * call: its machine and its arguments, never from how they were drawn.
 *
 * <pre>
 *   class                            a call is in it when
 *   multi-node                       two or more nodes have CPUs
 *   unequal-nodes                    three or more nodes have CPUs, not all as many
 *   smt                              a core has two or more threads
 *   split-smt                        a core's threads are not numbered next to each other
 *   clusters                         a cluster holds two or more cores
 *   cluster-step                     a cluster holds two or more cores, and a node with present CPUs,
 *                                    all online, has no more clusters than the count gives it groups
 *   clusters-outnumber-groups        a node with present CPUs has more clusters than the count gives
 *                                    it groups (count above the nodes)
 *   offline-in-cluster               a present CPU is offline and its cluster holds two or more cores
 *   asymmetric-distances             d(a,b) != d(b,a) for some nodes
 *   non-metric-distances             d(a,b) > d(a,c) + d(c,b) for some nodes
 *   no-numa-levels                   a distance is outside 10..255: the kernel builds no levels (LVL-4)
 *   cpuless-node                     a node has no online CPU
 *   memoryless-node                  a node with CPUs has no memory
 *   offline-cpus                     a present CPU is offline
 *   offline-siblings                 a core has an online and an offline thread
 *   not-present-cpus                 a possible CPU is not present (possible > present)
 *   sparse-node-ids                  node ids have holes (nr_node_ids above the node count)
 *   zero-count                       the count of queues, groups or vectors is 0 (the NULL paths)
 *   count-above-online               the count exceeds the online CPUs
 *   count-above-possible             the count exceeds the possible CPUs
 *   no-node                          the node argument is NUMA_NO_NODE
 *   cpuless-device-node              the node argument is a CPU-less node
 *   reordering-device-node           ... and its distance row orders the nodes with CPUs otherwise
 *                                    than the row of the node that stands in for it (mlx5 2022)
 *   odd-quota-smt                    with SMT, the count gives a group an odd number of CPUs
 *   empty-cpus                       the CPU set argument is empty
 *   snc2-machine                     the machine's cpu-model is one whose scheduler distances x86
 *                                    rewrites from 6.19, with 2+ packages of 2 nodes each (SNC-2)
 *   snc3-machine                     ... with 2+ packages of 3 or more nodes each (SNC-3, LVL-8)
 *   cpu-ids-past-63                  a possible CPU's id is 64 or more (past one 64-bit word)
 *   possible-ids-with-holes          the possible CPU ids have holes (nr_cpu_ids above the possible CPUs)
 *   cluster-across-nodes             a cluster holds CPUs of two nodes (TOPO-15)
 *   set-larger-than-cpus             an interrupt set has more vectors than the machine has possible CPUs
 * </pre>
 */
public enum InputClass implements HasId {
    MULTI_NODE((c, m) -> cpuNodes(m) >= 2),
    UNEQUAL_NODES((c, m) -> cpuNodes(m) >= 3 && m.nodes().stream().filter(n -> !n.cpus().isEmpty())
            .map(n -> n.cpus().size()).distinct().count() > 1),
    SMT((c, m) -> m.smtSiblings().stream().anyMatch(g -> g.size() > 1)),
    SPLIT_SMT((c, m) -> m.smtSiblings().stream().anyMatch(g -> g.size() > 1 && g.last() - g.first() >= g.size())),
    CLUSTERS((c, m) -> m.clusters().size() < m.smtSiblings().size()),
    CLUSTER_STEP((c, m) -> CLUSTERS.test.test(c, m) && clusterStep(c, m, true)),
    CLUSTERS_OUTNUMBER_GROUPS((c, m) -> clusterStep(c, m, false)),
    OFFLINE_IN_CLUSTER((c, m) -> m.present().andNot(m.online()).stream()
            .anyMatch(cpu -> m.clusterOf(cpu).and(m.present()).size() > m.siblingsOf(cpu).and(m.present()).size())),
    ASYMMETRIC_DISTANCES((c, m) -> !m.distances().isSymmetric()),
    NON_METRIC_DISTANCES((c, m) -> m.distances().firstTriangleViolation().isPresent()),
    NO_NUMA_LEVELS((c, m) -> outOfRange(m)),
    CPULESS_NODE((c, m) -> m.nodes().stream().anyMatch(n -> m.isCpuless(n.id()))),
    MEMORYLESS_NODE((c, m) -> m.nodes().stream().anyMatch(n -> !n.cpus().isEmpty() && !n.hasMemory())),
    OFFLINE_CPUS((c, m) -> !m.online().equals(m.present())),
    OFFLINE_SIBLINGS((c, m) -> m.smtSiblings().stream()
            .anyMatch(g -> g.intersects(m.online()) && !g.and(m.present()).isSubsetOf(m.online()))),
    NOT_PRESENT_CPUS((c, m) -> !m.present().equals(m.possible())),
    SPARSE_NODE_IDS((c, m) -> m.nrNodeIds() > m.nodes().size()),
    ZERO_COUNT((c, m) -> c.count().orElse(-1) == 0),
    COUNT_ABOVE_ONLINE((c, m) -> c.count().orElse(-1) > m.numOnlineCpus()),
    COUNT_ABOVE_POSSIBLE((c, m) -> c.count().orElse(-1) > m.possible().size()),
    NO_NODE((c, m) -> c.node().orElse(0) == -1),
    CPULESS_DEVICE_NODE((c, m) -> deviceNodeIsCpuless(c, m)),
    REORDERING_DEVICE_NODE(InputClass::reordering),
    ODD_QUOTA_SMT(InputClass::oddQuotaWithSmt),
    EMPTY_CPUS((c, m) -> c.arg("cpus", CpuSet.class).map(CpuSet::isEmpty).orElse(false)),
    SNC2_MACHINE((c, m) -> sncMachine(m, 2) && m.numNodesPerPackage() == 2),
    SNC3_MACHINE((c, m) -> sncMachine(m, 3)),
    CPU_IDS_PAST_63((c, m) -> m.possible().last() > 63),
    POSSIBLE_IDS_WITH_HOLES((c, m) -> m.nrCpuIds() > m.possible().size()),
    CLUSTER_ACROSS_NODES((c, m) -> m.clusters().stream().anyMatch(cl -> m.nodesOf(cl).size() > 1)),
    SET_LARGER_THAN_CPUS((c, m) -> c.args().get("setSizes") instanceof List<?> sets
            && sets.stream().anyMatch(n -> n instanceof Integer i && i > m.possible().size()));

    private final Test test;

    InputClass(Test test) {
        this.test = test;
    }

    @FunctionalInterface
    interface Test {
        boolean test(Call call, Topology machine);
    }

    /** True when {@code call} is in this class. */
    public boolean test(Call call) {
        return test.test(call, call.machine());
    }

    /** The class named {@code id} in a {@code classes:} line ({@code zero-count}). */
    public static Optional<InputClass> byId(String id) {
        return HasId.byId(InputClass.class, id);
    }

    /** Every class id, in declaration order: what a {@code classes:} line may name. */
    public static List<String> ids() {
        return Arrays.stream(values()).map(InputClass::id).toList();
    }

    /** The classes of {@code call}, in declaration order. */
    public static List<InputClass> of(Call call) {
        return Arrays.stream(values()).filter(c -> c.test(call)).toList();
    }

    @Override
    public String toString() {
        return id();
    }

    // ---------------------------------------------------------------- predicates

    static long cpuNodes(Topology m) {
        return m.nodes().stream().filter(n -> !n.cpus().isEmpty()).count();
    }

    static boolean sncMachine(Topology m, int nodesPerPackage) {
        return m.cpuModel().isSncDistanceModel() && m.maxPackages() > 1 && m.numNodesPerPackage() >= nodesPerPackage;
    }

    static boolean outOfRange(Topology m) {
        for (int a : m.nodeIds())
            for (int b : m.nodeIds()) {
                int d = m.distance(a, b);
                if (d < 10 || d > 255) return true;
            }
        return false;
    }

    static boolean deviceNodeIsCpuless(Call c, Topology m) {
        OptionalInt node = c.node();
        return node.isPresent() && node.getAsInt() >= 0 && m.hasNode(node.getAsInt()) && m.isCpuless(node.getAsInt());
    }

    /** A CPU-less device node whose row orders the nodes with CPUs otherwise than its stand-in's row. */
    static boolean reordering(Call c, Topology m) {
        if (!deviceNodeIsCpuless(c, m)) return false;
        int node = c.node().getAsInt();
        int[] withCpus = Arrays.stream(m.nodeIds()).filter(n -> !m.isCpuless(n)).toArray();
        if (withCpus.length < 2) return false;
        int standIn = NumaNearestNode.nearestNodeWithCpus(m, node);
        return !Arrays.equals(order(m, node, withCpus), order(m, standIn, withCpus));
    }

    private static int[] order(Topology m, int from, int[] nodes) {
        return Arrays.stream(nodes).boxed()
                .sorted(Comparator.<Integer>comparingInt(n -> m.distance(from, n)).thenComparingInt(n -> n))
                .mapToInt(Integer::intValue).toArray();
    }

    /**
     * True when some node with present CPUs has, in stage 1 of the call's grouping, no more clusters
     * than groups with all its present CPUs online ({@code step}), or more clusters than groups
     * ({@code !step}). A node's group count is read off the grouping the model gives for the count
     * (the same in every release that groups); a count up to the nodes deals whole nodes, no step.
     */
    static boolean clusterStep(Call c, Topology m, boolean step) {
        OptionalInt count = c.count();
        if (count.isEmpty() || count.getAsInt() < 1 || count.getAsInt() > 4 * m.possible().size()) return false;
        CpuSet present = m.present();
        int[] nodes = Arrays.stream(m.nodeIds()).filter(n -> m.cpusOf(n).intersects(present)).toArray();
        if (count.getAsInt() <= nodes.length) return false;
        Optional<List<CpuSet>> groups;
        try {
            groups = GroupCpusEvenly.groupCpusEvenly(dev.numaspread.model.kernel.KernelRelease.of(6, 12), m, count.getAsInt());
        } catch (RuntimeException notGrouped) {
            return false;
        }
        if (groups.isEmpty()) return false;
        for (int n : nodes) {
            CpuSet cpus = m.cpusOf(n).and(present);
            long ngroups = groups.get().stream().filter(g -> g.intersects(cpus)).count();
            long clusters = m.clusters().stream().filter(cl -> cl.intersects(cpus)).count();
            if (step ? clusters <= ngroups && cpus.isSubsetOf(m.online()) : clusters > ngroups) return true;
        }
        return false;
    }

    /** With SMT, the kernel's grouping for the call's count gives some group an odd number of CPUs. */
    static boolean oddQuotaWithSmt(Call c, Topology m) {
        if (!SMT.test.test(c, m)) return false;
        OptionalInt count = c.count();
        if (count.isEmpty() || count.getAsInt() < 1 || count.getAsInt() > 4 * m.possible().size()) return false;
        try {
            Optional<List<CpuSet>> groups = GroupCpusEvenly.groupCpusEvenly(c.kernel().atLeast(6, 3) ? c.kernel()
                    : dev.numaspread.model.kernel.KernelRelease.of(6, 3), m, count.getAsInt());
            return groups.isPresent() && groups.get().stream().anyMatch(g -> g.size() % 2 == 1);
        } catch (RuntimeException notGrouped) {
            return false;
        }
    }
}
