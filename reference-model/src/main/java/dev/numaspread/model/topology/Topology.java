package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A machine as the kernel sees it at one instant. Immutable. The kernel's live masks (a node's
 * online CPUs, a CPU's online siblings) are derived, not stored.
 *
 * <p>Structural invariants hold for every instance (the constructor checks them): possible ⊇
 * present ⊇ online; every possible CPU belongs to exactly one node; every node of the node list is
 * in the distance table; SMT sibling groups, packages (when known) and clusters partition the
 * possible CPUs; a sibling group lies in one node; a cluster holds whole sibling groups. Kernel value rules (diagonal 10,
 * off-diagonal 11..255, symmetry) are not invariants: real firmware breaks them, and
 * {@code TopologyValidation} reports them.
 *
 * <p>Hardware relations (siblings, packages, clusters) cover the possible CPUs, as firmware gives
 * them; on x86 an offline CPU loses its sysfs topology, so a fixture states it explicitly. Clusters
 * (CPUs sharing an L2, {@code cluster_cpus}) are always known: a machine built without them has
 * each SMT core as its own cluster, as most x86 servers do, and says so ({@link #clustersAssumed()}).
 */
public final class Topology {

    private final String name;
    private final String source;
    private final CpuSet possible;
    private final CpuSet present;
    private final CpuSet online;
    private final List<Node> nodes;            // ascending id
    private final DistanceTable distances;
    private final List<CpuSet> smtSiblings;    // ascending by first CPU; singletons when there is no SMT
    private final List<CpuPackage> packages;   // ascending by first CPU; may be empty (unknown)
    private final List<CpuSet> clusters;       // ascending by first CPU; the SMT cores when none were given
    private final boolean clustersAssumed;     // true when no clusters were given
    private final CpuModel cpuModel;           // OTHER unless the machine states a model a hook tests
    private final Arch arch;                   // X86 unless the machine states another (arch line)

    // Derived indexes: node ids ascending (found by binary search), whether each node has an
    // online CPU, cpu -> node id, cpu -> index of its sibling group. Lookups by node id stay
    // O(log nodes), so a pass over node pairs stays O(nodes^2 log nodes) at MAX_NUMNODES.
    private final int[] nodeIdsAscending;
    private final boolean[] nodeHasOnlineCpu;
    private final int[] nodeOfCpu;
    private final int[] siblingGroupOfCpu;
    private final int[] clusterOfCpu;

    public Topology(String name, String source, CpuSet possible, CpuSet present, CpuSet online,
                    List<Node> nodes, DistanceTable distances, List<CpuSet> smtSiblings,
                    List<CpuPackage> packages, List<CpuSet> clusters) {
        this(name, source, possible, present, online, nodes, distances, smtSiblings, packages, clusters, CpuModel.OTHER);
    }

    /** A machine that states its CPU model (TOPO-16): a model other than {@link CpuModel#OTHER} needs the packages. */
    public Topology(String name, String source, CpuSet possible, CpuSet present, CpuSet online,
                    List<Node> nodes, DistanceTable distances, List<CpuSet> smtSiblings,
                    List<CpuPackage> packages, List<CpuSet> clusters, CpuModel cpuModel) {
        this(name, source, possible, present, online, nodes, distances, smtSiblings, packages, clusters, cpuModel, Arch.X86);
    }

    /** A machine that states its architecture too ({@code arch}, TOPO-13): it decides the live cluster masks. */
    public Topology(String name, String source, CpuSet possible, CpuSet present, CpuSet online,
                    List<Node> nodes, DistanceTable distances, List<CpuSet> smtSiblings,
                    List<CpuPackage> packages, List<CpuSet> clusters, CpuModel cpuModel, Arch arch) {
        this.cpuModel = Objects.requireNonNull(cpuModel, "cpuModel");
        this.arch = Objects.requireNonNull(arch, "arch");
        this.name = Objects.requireNonNull(name, "name");
        this.source = Objects.requireNonNull(source, "source");
        this.possible = Objects.requireNonNull(possible, "possible");
        this.present = Objects.requireNonNull(present, "present");
        this.online = Objects.requireNonNull(online, "online");
        List<Node> sortedNodes = new ArrayList<>(nodes);
        sortedNodes.sort((a, b) -> Integer.compare(a.id(), b.id()));
        this.nodes = List.copyOf(sortedNodes);
        this.distances = Objects.requireNonNull(distances, "distances");
        this.smtSiblings = sortedByFirst(smtSiblings.isEmpty() ? singletons(possible) : smtSiblings);
        List<CpuPackage> sortedPackages = new ArrayList<>(packages);
        sortedPackages.sort((a, b) -> Integer.compare(a.cpus().first(), b.cpus().first()));
        this.packages = List.copyOf(sortedPackages);
        this.clustersAssumed = clusters.isEmpty();
        this.clusters = clustersAssumed ? this.smtSiblings : sortedByFirst(clusters);

        require(!possible.isEmpty(), () -> "a machine has at least one possible CPU");
        require(present.isSubsetOf(possible), () -> "present CPUs " + present.andNot(possible) + " are not possible; expected present ⊆ possible");
        require(online.isSubsetOf(present), () -> "online CPUs " + online.andNot(present) + " are not present; expected online ⊆ present");
        require(!this.nodes.isEmpty(), () -> "a machine has at least one node");

        int nr = possible.last() + 1;
        nodeOfCpu = new int[nr];
        Arrays.fill(nodeOfCpu, -1);
        for (int i = 0; i < this.nodes.size(); i++) {
            Node n = this.nodes.get(i);
            require(i == 0 || this.nodes.get(i - 1).id() != n.id(), () -> "node " + n.id() + " is listed twice");
            require(distances.hasNode(n.id()), () -> "node " + n.id() + " has no row in the distance table");
            for (int c : n.cpus().toArray()) {
                require(possible.contains(c), () -> "cpu " + c + " of node " + n.id() + " is not possible");
                require(nodeOfCpu[c] < 0, () -> "cpu " + c + " is in node " + (nodeOfCpu[c] < 0 ? "?" : nodeOfCpu[c])
                        + " and in node " + n.id() + "; a CPU belongs to exactly one node");
                nodeOfCpu[c] = n.id();
            }
        }
        for (int c : possible.toArray())
            require(nodeOfCpu[c] >= 0, () -> "cpu " + c + " is possible but in no node; expected a node for every possible CPU");
        nodeIdsAscending = this.nodes.stream().mapToInt(Node::id).toArray();
        nodeHasOnlineCpu = nodesWithOnlineCpus(online, nodeIdsAscending, nodeOfCpu);

        siblingGroupOfCpu = new int[nr];
        checkPartition(this.smtSiblings, "SMT sibling group", siblingGroupOfCpu);
        for (CpuSet g : this.smtSiblings) {
            int node = nodeOfCpu[g.first()];
            for (int c : g.toArray())
                require(nodeOfCpu[c] == node, () -> "SMT siblings " + g + " span nodes " + node + " and " + nodeOfCpu[c]
                        + "; siblings share one node");
        }
        if (!this.packages.isEmpty())
            checkPartition(this.packages.stream().map(CpuPackage::cpus).toList(), "package", new int[nr]);
        require(cpuModel == CpuModel.OTHER || !this.packages.isEmpty(), () -> "cpu-model " + cpuModel.id()
                + " without packages; expected package lines (the kernel counts nodes per package, spec/topology.md TOPO-16)");
        clusterOfCpu = new int[nr];
        checkPartition(this.clusters, "cluster", clusterOfCpu);
        for (CpuSet core : this.smtSiblings) {
            CpuSet cluster = this.clusters.get(clusterOfCpu[core.first()]);
            require(core.isSubsetOf(cluster), () -> "cluster " + cluster.toList() + " splits the core " + core.toList()
                    + "; expected clusters of whole SMT cores (the threads of a core share its L2)");
        }
    }

    private void checkPartition(List<CpuSet> groups, String what, int[] index) {
        Arrays.fill(index, -1);
        for (int g = 0; g < groups.size(); g++) {
            CpuSet group = groups.get(g);
            for (int c : group.toArray()) {
                require(possible.contains(c), () -> what + " " + group + " holds cpu " + c + ", which is not possible");
                int earlier = index[c];
                require(earlier < 0, () -> "cpu " + c + " is in " + what + " " + groups.get(earlier)
                        + " and in " + group + "; expected each CPU in one " + what);
                index[c] = g;
            }
        }
        for (int c : possible.toArray())
            require(index[c] >= 0, () -> "cpu " + c + " is in no " + what + "; expected the " + what + "s to cover the possible CPUs");
    }

    private static List<CpuSet> singletons(CpuSet cpus) {
        return cpus.stream().mapToObj(CpuSet::of).toList();
    }

    private static List<CpuSet> sortedByFirst(List<CpuSet> sets) {
        List<CpuSet> s = new ArrayList<>(sets);
        s.sort((a, b) -> Integer.compare(a.first(), b.first()));
        return List.copyOf(s);
    }

    // The message is built only when the check fails: generators build thousands of machines,
    // and formatting CPU lists for checks that hold dominated their cost.
    private static void require(boolean ok, Supplier<String> message) {
        if (!ok) throw new IllegalArgumentException(message.get());
    }

    // ---------------------------------------------------------------- components

    public String name() { return name; }
    public String source() { return source; }
    public CpuSet possible() { return possible; }
    public CpuSet present() { return present; }
    public CpuSet online() { return online; }
    /** The nodes in ascending id order; ids may be sparse. */
    public List<Node> nodes() { return nodes; }
    public DistanceTable distances() { return distances; }
    /** The hardware SMT sibling groups of the possible CPUs (singletons without SMT). */
    public List<CpuSet> smtSiblings() { return smtSiblings; }
    /** The packages, or an empty list when unknown. */
    public List<CpuPackage> packages() { return packages; }
    /**
     * The hardware clusters ({@code cluster_cpus} of an online machine: CPUs sharing an L2 on x86),
     * ascending by first CPU; they partition the possible CPUs. Each SMT core when none were given.
     */
    public List<CpuSet> clusters() { return clusters; }
    /** True when the machine was built without clusters and {@link #clusters()} are its SMT cores (TOPO-12). */
    public boolean clustersAssumed() { return clustersAssumed; }
    /** The CPU model the machine states ({@code cpu-model}, TOPO-16); {@link CpuModel#OTHER} when it states none. */
    public CpuModel cpuModel() { return cpuModel; }

    /** The architecture the machine states ({@code arch}, TOPO-13); {@link Arch#X86} when it states none. */
    public Arch arch() { return arch; }

    // ---------------------------------------------------------------- derived kernel views

    /** {@code nr_cpu_ids}: the highest possible CPU id plus one; "none" results are {@code >= nrCpuIds()}. */
    public int nrCpuIds() { return nodeOfCpu.length; }

    /** {@code nr_node_ids}: the highest node id plus one. */
    public int nrNodeIds() { return nodes.get(nodes.size() - 1).id() + 1; }

    /** {@code num_online_cpus()}. */
    public int numOnlineCpus() { return online.size(); }

    /** The node ids, ascending. */
    public int[] nodeIds() { return nodeIdsAscending.clone(); }

    /** The node ids as a mask: {@code 0-3,8}. */
    public NodeMask nodeMask() { return NodeMask.of(nodeIds()); }

    public boolean hasNode(int node) { return node(node).isPresent(); }

    public Optional<Node> node(int id) {
        int i = Arrays.binarySearch(nodeIdsAscending, id);
        return i >= 0 ? Optional.of(nodes.get(i)) : Optional.empty();
    }

    /**
     * {@code cpu_to_node(cpu)} for a possible CPU.
     *
     * @throws IllegalArgumentException if the CPU is not possible
     */
    public int nodeOf(int cpu) {
        if (cpu < 0 || cpu >= nodeOfCpu.length || nodeOfCpu[cpu] < 0)
            throw new IllegalArgumentException("cpu " + cpu + " is not possible on " + name + " (possible " + possible + ")");
        return nodeOfCpu[cpu];
    }

    /**
     * The nodes of the CPUs of {@code cpus}: {@code cpu_to_node} of each.
     *
     * @throws IllegalArgumentException if a CPU is not possible
     */
    public NodeMask nodesOf(CpuSet cpus) {
        return NodeMask.ofStream(cpus.stream().map(this::nodeOf));
    }

    /** The possible CPUs of {@code node} (empty for a CPU-less or unknown node). */
    public CpuSet cpusOf(int node) {
        return node(node).map(Node::cpus).orElse(CpuSet.EMPTY);
    }

    /** {@code cpumask_of_node(node) ∩ cpu_online_mask}: what {@code nodeN/cpulist} shows. */
    public CpuSet onlineCpusOf(int node) {
        return cpusOf(node).and(online);
    }

    /** The present CPUs of {@code node}. */
    public CpuSet presentCpusOf(int node) {
        return cpusOf(node).and(present);
    }

    /** True when the node has no online CPU (it lacks the kernel's {@code N_CPU} state). */
    public boolean isCpuless(int node) {
        int i = Arrays.binarySearch(nodeIdsAscending, node);
        return i < 0 || !nodeHasOnlineCpu[i];
    }

    /** True when the node has no memory ({@code size: 0 MB}). */
    public boolean isMemoryless(int node) {
        return node(node).map(n -> !n.hasMemory()).orElse(false);
    }

    /** The hardware SMT siblings of a possible CPU, itself included. */
    public CpuSet siblingsOf(int cpu) {
        nodeOf(cpu);
        return smtSiblings.get(siblingGroupOfCpu[cpu]);
    }

    /** {@code topology_sibling_cpumask(cpu)} of an online CPU: its online siblings, itself included. */
    public CpuSet onlineSiblingsOf(int cpu) {
        return siblingsOf(cpu).and(online);
    }

    /** The hardware cluster of a possible CPU, itself included. */
    public CpuSet clusterOf(int cpu) {
        nodeOf(cpu);
        return clusters.get(clusterOfCpu[cpu]);
    }

    /**
     * {@code topology_cluster_cpumask(cpu)} as the machine's architecture keeps it (TOPO-13).
     * x86: for an online CPU, the online CPUs of its cluster in its own node; empty for an offline
     * or never-present CPU. The kernel links two CPUs into each other's L2 mask when the second comes
     * online ({@code set_cpu_sibling_map}, {@code match_l2c}, which refuses CPUs of another node
     * through {@code topology_sane}) and unlinks a CPU that goes offline ({@code remove_siblinginfo}).
     * arm64: for an online CPU, the online CPUs of its cluster (the package and cluster ids match;
     * no node test); for an offline or never-present CPU, the CPU itself: every possible CPU's mask
     * starts as itself ({@code reset_cpu_topology}) and goes back to itself on offline
     * ({@code remove_cpu_topology}), {@code drivers/base/arch_topology.c}.
     *
     * @throws IllegalArgumentException if the CPU is not possible
     */
    public CpuSet topologyClusterCpumask(int cpu) {
        CpuSet cluster = clusterOf(cpu);
        if (arch == Arch.ARM64) return online.contains(cpu) ? cluster.and(online) : CpuSet.of(cpu);
        if (!online.contains(cpu)) return CpuSet.EMPTY;
        return cluster.and(online).and(cpusOf(nodeOfCpu[cpu]));
    }

    /** The package holding {@code cpu}, if packages are known. */
    public Optional<CpuPackage> packageOf(int cpu) {
        for (CpuPackage p : packages) if (p.cpus().contains(cpu)) return Optional.of(p);
        return Optional.empty();
    }

    /**
     * {@code topology_max_packages()}: the packages with a known id (a {@code package -1} of CPUs
     * that are not present does not count); 1 when the packages are unknown.
     */
    public int maxPackages() {
        int n = (int) packages.stream().filter(p -> p.id() >= 0).count();
        return Math.max(1, n);
    }

    /**
     * {@code topology_num_nodes_per_package()} as x86 counts it from 7.0 (TOPO-16): the nodes that
     * own CPUs (SRAT's processor entries, possible CPUs included) divided by the packages, rounded
     * up. Commit ae6730ff42b3 "x86/topo: Add topology_num_nodes_per_package()" and 48084cc153a5
     * "x86/numa: Store extra copy of numa_nodes_parsed".
     */
    public int numNodesPerPackage() {
        int cpuNodes = (int) nodes.stream().filter(n -> !n.cpus().isEmpty()).count();
        int pkgs = maxPackages();
        return Math.max(1, (cpuNodes + pkgs - 1) / pkgs);
    }

    /** {@code node_distance(from, to)}. */
    public int distance(int from, int to) {
        return distances.distance(from, to);
    }

    /**
     * The same machine with another online set (a hotplug event, or a kernel-run phase). Only the
     * online set is new: everything else was checked when this machine was built, so only
     * online &sube; present is checked again (a hotplug walk makes one machine per event).
     */
    public Topology withOnline(CpuSet newOnline) {
        return new Topology(this, newOnline);
    }

    /** {@code base} with {@code online} online; see {@link #withOnline}. */
    private Topology(Topology base, CpuSet online) {
        this.online = Objects.requireNonNull(online, "online");
        require(online.isSubsetOf(base.present), () -> "online CPUs " + online.andNot(base.present) + " are not present; expected online ⊆ present");
        this.cpuModel = base.cpuModel;
        this.arch = base.arch;
        this.name = base.name;
        this.source = base.source;
        this.possible = base.possible;
        this.present = base.present;
        this.nodes = base.nodes;
        this.distances = base.distances;
        this.smtSiblings = base.smtSiblings;
        this.packages = base.packages;
        this.clustersAssumed = base.clustersAssumed;
        this.clusters = base.clusters;
        // The indexes are never handed out (nodeIds() copies), so the two machines share them.
        this.nodeIdsAscending = base.nodeIdsAscending;
        this.nodeOfCpu = base.nodeOfCpu;
        this.siblingGroupOfCpu = base.siblingGroupOfCpu;
        this.clusterOfCpu = base.clusterOfCpu;
        this.nodeHasOnlineCpu = nodesWithOnlineCpus(online, nodeIdsAscending, nodeOfCpu);
    }

    /** For each node (ascending id), whether one of its CPUs is in {@code online}. */
    private static boolean[] nodesWithOnlineCpus(CpuSet online, int[] nodeIdsAscending, int[] nodeOfCpu) {
        boolean[] out = new boolean[nodeIdsAscending.length];
        for (int c = online.first(); c >= 0 && c < nodeOfCpu.length; c = online.next(c + 1))
            out[Arrays.binarySearch(nodeIdsAscending, nodeOfCpu[c])] = true;
        return out;
    }

    /** The same machine under another name and source. */
    public Topology named(String newName, String newSource) {
        return new Topology(newName, newSource, possible, present, online, nodes, distances, smtSiblings, packages, statedClusters(), cpuModel, arch);
    }

    /** The same machine stating another CPU model (TOPO-16). */
    public Topology withCpuModel(CpuModel model) {
        return new Topology(name, source, possible, present, online, nodes, distances, smtSiblings, packages, statedClusters(), model, arch);
    }

    /** The same machine stating another architecture (TOPO-13). */
    public Topology withArch(Arch newArch) {
        return new Topology(name, source, possible, present, online, nodes, distances, smtSiblings, packages, statedClusters(), cpuModel, newArch);
    }

    /** The clusters as given when built: empty when they were assumed, so a copy assumes them too. */
    private List<CpuSet> statedClusters() {
        return clustersAssumed ? List.of() : clusters;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Topology t && name.equals(t.name) && source.equals(t.source)
                && possible.equals(t.possible) && present.equals(t.present) && online.equals(t.online)
                && nodes.equals(t.nodes) && distances.equals(t.distances) && smtSiblings.equals(t.smtSiblings)
                && packages.equals(t.packages) && clusters.equals(t.clusters) && cpuModel == t.cpuModel && arch == t.arch;
    }

    /** True when the two describe the same machine, names and sources aside. */
    public boolean sameMachineAs(Topology t) {
        return equals(t.named(name, source));
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, possible, present, online, nodes, distances, smtSiblings);
    }

    @Override
    public String toString() {
        return "topology " + name + " (" + nodes.size() + " nodes, possible " + possible + ", online " + online + ")";
    }
}
