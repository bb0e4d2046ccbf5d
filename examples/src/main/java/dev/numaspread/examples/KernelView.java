package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.CpuPackage;
import dev.numaspread.model.topology.Topology;

import java.util.Arrays;

/**
 * What the kernel keeps about a machine, as the example's routines read it: the possible, present
 * and online bitmaps, {@code cpu_to_node()}, the node masks, {@code node_distance()} and
 * {@code topology_sibling_cpumask()} and {@code topology_cluster_cpumask()}. Built once per machine from the {@link Topology} handed in
 * ({@code KernelStyleSpread} keeps the last one); everything after that works on these arrays only, and reads them: a routine
 * that changes a mask works on its own copy.
 */
final class KernelView {
    static final int NUMA_NO_NODE = -1;
    static final int LOCAL_DISTANCE = 10;
    static final int REMOTE_DISTANCE = 20;

    final int nrCpuIds;
    final int nrNodeIds;
    final long[] possible;
    final long[] present;
    final long[] online;
    /** {@code cpu_to_node()} of each possible CPU, {@code NUMA_NO_NODE} for an id that is not possible. */
    final int[] cpuToNode;
    /** The possible CPUs of each node id (what {@code build_node_to_cpumask()} collects); empty for unknown ids. */
    final long[][] nodePossible;
    /** {@code cpumask_of_node()}: the online CPUs of each node (x86 drops a CPU from its node when it goes offline). */
    final long[][] nodeOnline;
    final boolean[] nodeExists;
    /** {@code node_distance(from, to)} for node ids {@code 0 .. nrNodeIds-1}. */
    final int[][] distance;
    /** {@code topology_sibling_cpumask(cpu)}: the online siblings of an online CPU, empty for any other id. */
    final long[][] siblings;
    /**
     * {@code topology_cluster_cpumask(cpu)} as the machine's architecture keeps it (spec/topology.md
     * TOPO-13): for an online CPU the online CPUs of its cluster (on x86 only those of its own node),
     * itself included; for a possible CPU that is not online, empty on x86 and the CPU alone on arm64.
     */
    final long[][] clusters;
    /** The CPU model is one whose scheduler distances x86 rewrites from 6.19 (spec/numa-levels.md LVL-8). */
    final boolean sncModel;
    /** {@code topology_max_packages()}: packages with a known id, at least 1 (spec/topology.md TOPO-16). */
    final int maxPackages;
    /** {@code topology_num_nodes_per_package()}: nodes owning CPUs over packages, rounded up (TOPO-16). */
    final int nodesPerPackage;
    /** The package id of each possible CPU; {@code Integer.MIN_VALUE} where the packages are unknown. */
    final int[] packageOfCpu;

    KernelView(Topology machine) {
        nrCpuIds = machine.nrCpuIds();
        nrNodeIds = machine.nrNodeIds();
        possible = bitmap(machine.possible());
        present = bitmap(machine.present());
        online = bitmap(machine.online());

        nodeExists = new boolean[nrNodeIds];
        nodePossible = new long[nrNodeIds][];
        nodeOnline = new long[nrNodeIds][];
        cpuToNode = new int[nrCpuIds];
        Arrays.fill(cpuToNode, NUMA_NO_NODE);
        for (int n = 0; n < nrNodeIds; n++) {
            nodePossible[n] = Cpumask.alloc(nrCpuIds);
            nodeOnline[n] = Cpumask.alloc(nrCpuIds);
        }
        for (int n : machine.nodeIds()) {
            nodeExists[n] = true;
            for (int cpu : machine.cpusOf(n).toArray()) {
                Cpumask.set(nodePossible[n], cpu);
                cpuToNode[cpu] = n;
                if (Cpumask.test(online, cpu)) Cpumask.set(nodeOnline[n], cpu);
            }
        }

        // Unknown node ids behave as the kernel's fallback: local to themselves, remote to the rest.
        distance = new int[nrNodeIds][nrNodeIds];
        for (int from = 0; from < nrNodeIds; from++)
            for (int to = 0; to < nrNodeIds; to++)
                distance[from][to] = nodeExists[from] && nodeExists[to] ? machine.distance(from, to)
                        : from == to ? LOCAL_DISTANCE : REMOTE_DISTANCE;

        siblings = new long[nrCpuIds][];
        for (int cpu = 0; cpu < nrCpuIds; cpu++) siblings[cpu] = Cpumask.alloc(nrCpuIds);
        for (CpuSet group : machine.smtSiblings()) {
            long[] onlineGroup = Cpumask.and(bitmap(group), online);
            for (int cpu : group.toArray())
                if (Cpumask.test(online, cpu)) siblings[cpu] = onlineGroup;
        }

        sncModel = machine.cpuModel().isSncDistanceModel();
        packageOfCpu = new int[nrCpuIds];
        Arrays.fill(packageOfCpu, Integer.MIN_VALUE);
        int known = 0;
        for (CpuPackage p : machine.packages()) {
            if (p.id() >= 0) known++;
            for (int cpu : p.cpus().toArray()) packageOfCpu[cpu] = p.id();
        }
        maxPackages = Math.max(1, known);
        int owning = 0;
        for (int n = 0; n < nrNodeIds; n++) if (!Cpumask.isEmpty(nodePossible[n])) owning++;
        nodesPerPackage = Math.max(1, (owning + maxPackages - 1) / maxPackages);

        // TOPO-12: every machine has clusters (each SMT core its own when the file gives none);
        // TOPO-15: x86 cuts a cluster that spans nodes at the node boundary. arm64 (drivers/base/
        // arch_topology.c) does not, and keeps a CPU that is not online in a mask of its own.
        boolean arm64 = machine.arch() == dev.numaspread.model.topology.Arch.ARM64;
        clusters = new long[nrCpuIds][];
        for (int cpu = 0; cpu < nrCpuIds; cpu++) clusters[cpu] = Cpumask.alloc(nrCpuIds);
        for (CpuSet cluster : machine.clusters()) {
            long[] onlineCluster = Cpumask.and(bitmap(cluster), online);
            for (int cpu : cluster.toArray()) {
                if (Cpumask.test(online, cpu)) clusters[cpu] = arm64 ? Cpumask.copy(onlineCluster) : Cpumask.and(onlineCluster, nodePossible[cpuToNode[cpu]]);
                else if (arm64) Cpumask.set(clusters[cpu], cpu);
            }
        }
    }

    int numOnlineCpus() {
        return Cpumask.weight(online);
    }

    /** True when the node is in the kernel's {@code N_CPU} state: it has an online CPU. */
    boolean hasCpus(int node) {
        return node >= 0 && node < nrNodeIds && !Cpumask.isEmpty(nodeOnline[node]);
    }

    long[] bitmap(CpuSet cpus) {
        long[] mask = Cpumask.alloc(nrCpuIds);
        for (int cpu : cpus.toArray()) if (cpu < nrCpuIds) Cpumask.set(mask, cpu);
        return mask;
    }

    CpuSet cpuSet(long[] mask) {
        CpuSet.Builder b = CpuSet.builder();
        for (int cpu = Cpumask.first(mask, nrCpuIds); cpu < nrCpuIds; cpu = Cpumask.nextFrom(mask, cpu + 1, nrCpuIds))
            b.add(cpu);
        return b.build();
    }
}
