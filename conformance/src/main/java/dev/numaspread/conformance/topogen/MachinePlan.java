package dev.numaspread.conformance.topogen;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The shape of one generated machine before CPU numbering: what the generators draw, in the order
 * structure first, numbering second, distances third, state last. {@link #build(String)} numbers
 * the CPUs and hands the machine to {@link TopologyBuilder}, which applies the defaults and checks every machine is given. Mutable, used inside one draw only.
 */
final class MachinePlan {

    /** One node: its id, its cores (0 for a CPU-less node), memory, and the package it sits in. */
    static final class NodePlan {
        int id;
        int cores;
        boolean memory = true;
        int pkg;          // package index; a CPU-less node's "owner" package (for distances)
        int holeBefore;   // CPU ids skipped before this node's CPUs (adjacent numbering only)

        NodePlan(int cores, int pkg) {
            this.cores = cores;
            this.pkg = pkg;
        }
    }

    /** How node ids are given ({@link #assignIds}): dense, with gaps, or CPU-less nodes from 250 up. */
    static final int IDS_DENSE = 0, IDS_GAPS = 1, IDS_HIGH_CPULESS = 2;

    /** Which present CPUs go offline. */
    enum Offline { NONE, SMT_OFF, FEW, CPU0, NODE, HALF_SMT }

    final List<NodePlan> nodes = new ArrayList<>();   // ascending id once ids are assigned
    int smt = 1;
    boolean split;             // siblings numbered a stride apart (x86) instead of adjacent
    int stride;                // split: thread t of a core is t x stride above thread 0; at least the core slots (0: just that)
    final TreeMap<Integer, Integer> coreHoles = new TreeMap<>();   // global core index -> ids skipped before it (sparse numbering)
    int clusterCores;          // cores per cluster (its node's last may have fewer); 0: no clusters
    boolean clusterSplit;      // a node's clusters take every k-th core (k clusters) instead of consecutive cores
    boolean clusterAcross;     // each node's first core joins the last cluster of the node before it (a cluster across nodes)
    int[][] distances;         // over nodes in list order; null: the builder's 10/20
    int extraPossible;         // possible but not present CPUs, numbered after the present ones
    int extraHole;             // ids skipped between the present CPUs and the not-present ones
    Offline offline = Offline.NONE;
    int[] offlinePicks = new int[0];   // FEW: present-CPU ordinals; NODE: CPU-node ordinal; HALF_SMT: core ordinals
    final Set<String> expect = new TreeSet<>();   // the kernel rules the plan breaks on purpose (FMT-9 tags)

    int cpuNodeCount() {
        int n = 0;
        for (NodePlan p : nodes) if (p.cores > 0) n++;
        return n;
    }

    int totalCores() {
        int n = 0;
        for (NodePlan p : nodes) n += p.cores;
        return n;
    }

    /** Gives node ids in list order (dense, with gaps, or CPU-less nodes from 250 up) and sorts the nodes by id. */
    void assignIds(int scheme, List<Integer> gaps) {
        int next = 0;
        int high = 250;
        for (int k = 0; k < nodes.size(); k++) {
            NodePlan p = nodes.get(k);
            if (scheme == IDS_HIGH_CPULESS && p.cores == 0) {
                p.id = high++;
            } else {
                next += k < gaps.size() ? gaps.get(k) : 0;
                p.id = next++;
            }
        }
        nodes.sort(Comparator.comparingInt(p -> p.id));
    }

    /** The numbered machine. */
    Topology build(String source) {
        int total = totalCores();
        int n = nodes.size();
        List<CpuSet.Builder> nodeCpus = new ArrayList<>();
        for (int k = 0; k < n; k++) nodeCpus.add(CpuSet.builder());
        List<CpuSet> siblings = new ArrayList<>();
        List<int[]> coreThreads = new ArrayList<>();   // per core in node order: its CPU ids by thread
        List<Integer> coreNode = new ArrayList<>();
        // A core's slot: its first thread's id; holes (a node's holeBefore, sparse numbering's
        // coreHoles) skip ids before a core. Split numbering puts thread t a stride above thread 0,
        // the stride at least the slots of every core, so the threads never meet.
        int slots = total;
        for (int k = 0; k < n; k++) if (nodes.get(k).cores > 0 && !split) slots += nodes.get(k).holeBefore;
        for (int h : coreHoles.values()) slots += h;
        int step = Math.max(stride, slots);
        int next = 0;
        int globalCore = 0;
        for (int k = 0; k < n; k++) {
            NodePlan p = nodes.get(k);
            if (p.cores > 0 && !split) next += p.holeBefore;
            for (int core = 0; core < p.cores; core++, globalCore++) {
                next += coreHoles.getOrDefault(globalCore, 0);
                int[] threads = new int[smt];
                if (split) {
                    for (int t = 0; t < smt; t++) threads[t] = t * step + next;
                    next++;
                } else {
                    for (int t = 0; t < smt; t++) threads[t] = next++;
                }
                CpuSet.Builder g = CpuSet.builder();
                for (int c : threads) {
                    g.add(c);
                    nodeCpus.get(k).add(c);
                }
                siblings.add(g.build());
                coreThreads.add(threads);
                coreNode.add(k);
            }
        }
        CpuSet.Builder presentB = CpuSet.builder();
        for (CpuSet.Builder b : nodeCpus) presentB.addAll(b.build());
        CpuSet present = presentB.build();

        // Possible but not present CPUs: after the present ones, dealt round-robin over the CPU nodes
        // in id order (x86's rule for hot-pluggable CPUs without a firmware node).
        List<Integer> cpuNodes = new ArrayList<>();
        for (int k = 0; k < n; k++) if (nodes.get(k).cores > 0) cpuNodes.add(k);
        CpuSet.Builder possibleB = CpuSet.builder().addAll(present);
        List<CpuSet> extraSingletons = new ArrayList<>();
        int firstExtra = present.last() + 1 + extraHole;
        for (int e = 0; e < extraPossible; e++) {
            int cpu = firstExtra + e;
            possibleB.add(cpu);
            nodeCpus.get(cpuNodes.get(e % cpuNodes.size())).add(cpu);
            siblings.add(CpuSet.of(cpu));
            extraSingletons.add(CpuSet.of(cpu));
        }
        CpuSet possible = possibleB.build();

        CpuSet online = present.andNot(offlineCpus(present, coreThreads, coreNode, nodeCpus));
        if (online.isEmpty()) online = CpuSet.of(present.first());   // the kernel cannot offline its last CPU

        TopologyBuilder b = TopologyBuilder.machine("generated").source(source).expect(expect.toArray(String[]::new))
                .possible(possible).present(present).online(online).siblings(siblings);
        for (int k = 0; k < n; k++) {
            NodePlan p = nodes.get(k);
            b.node(p.id, nodeCpus.get(k).build()).nodeSize(p.id, p.memory ? 4096 : 0);
        }

        TreeMap<Integer, CpuSet.Builder> pkgCpus = new TreeMap<>();
        for (int k = 0; k < n; k++) {
            CpuSet cpus = nodeCpus.get(k).build();
            if (!cpus.isEmpty()) pkgCpus.computeIfAbsent(nodes.get(k).pkg, x -> CpuSet.builder()).addAll(cpus);
        }
        pkgCpus.forEach((id, cpus) -> b.pkg(id, cpus.build()));

        if (clusterCores > 0) {
            List<List<CpuSet.Builder>> byNode = new ArrayList<>();   // per node with cores, its clusters
            for (int start = 0; start < coreThreads.size(); ) {
                int node = coreNode.get(start);
                int end = start;
                while (end < coreThreads.size() && coreNode.get(end) == node) end++;
                // The node's cores start..end-1 in k clusters: consecutive runs of clusterCores, or
                // split, core j in cluster j mod k (a cluster's cores numbered apart). Across: the
                // node's first core goes to the last cluster of the node before it.
                boolean across = clusterAcross && !byNode.isEmpty();
                int from = across ? 1 : 0;
                int k = Math.max(0, (end - start - from + clusterCores - 1) / clusterCores);
                List<CpuSet.Builder> clusters = new ArrayList<>();
                for (int i = 0; i < k; i++) clusters.add(CpuSet.builder());
                if (across) {
                    List<CpuSet.Builder> before = byNode.get(byNode.size() - 1);
                    for (int c : coreThreads.get(start)) before.get(before.size() - 1).add(c);
                }
                for (int j = 0; j < end - start - from; j++)
                    for (int c : coreThreads.get(start + from + j)) clusters.get(clusterSplit ? j % k : j / clusterCores).add(c);
                if (!clusters.isEmpty()) byNode.add(clusters);
                start = end;
            }
            byNode.forEach(clusters -> clusters.forEach(cl -> b.cluster(cl.build())));
            extraSingletons.forEach(b::cluster);
        }

        if (distances != null) b.distances(distances);
        return b.build();
    }

    private CpuSet offlineCpus(CpuSet present, List<int[]> coreThreads, List<Integer> coreNode,
                               List<CpuSet.Builder> nodeCpus) {
        CpuSet.Builder off = CpuSet.builder();
        switch (offline) {
            case NONE -> { }
            case SMT_OFF -> {
                for (int[] t : coreThreads) for (int i = 1; i < t.length; i++) off.add(t[i]);
            }
            case HALF_SMT -> {
                for (int pick : offlinePicks) {
                    int[] t = coreThreads.get(pick % coreThreads.size());
                    for (int i = 1; i < t.length; i++) off.add(t[i]);
                }
            }
            case FEW -> {
                for (int pick : offlinePicks) off.add(present.nth(pick % present.size()));
            }
            case CPU0 -> {
                if (present.contains(0)) off.add(0);
            }
            case NODE -> {
                List<Integer> cpuNodes = new ArrayList<>();
                for (int k = 0; k < nodes.size(); k++) if (nodes.get(k).cores > 0) cpuNodes.add(k);
                int k = cpuNodes.get(offlinePicks.length == 0 ? 0 : offlinePicks[0] % cpuNodes.size());
                off.addAll(nodeCpus.get(k).build().and(present));
            }
        }
        return off.build();
    }
}
