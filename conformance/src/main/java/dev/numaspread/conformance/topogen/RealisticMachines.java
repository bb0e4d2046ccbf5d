package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.topogen.Machines.Options;
import dev.numaspread.conformance.topogen.Machines.Smt;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link Machines#realistic(Options)}: draws the hardware and the node list of a machine, then
 * hands the plan to {@link DistanceDraws} and {@link StateDraws}.
 *
 * <h2>Draw order, and why it shrinks well</h2>
 * Structure first, then node list, distances, state:
 * <pre>
 *   span "hardware"   SMT width (0: none), split numbering (0: adjacent), not-present CPUs mode
 *                     (0: none), offline mode (0: none), CPU numbering (0: dense; 1: sparse, with
 *                     holes and ids past 63), cores per node (0: 1 core), nodes per package (0: 1),
 *                     node id scheme (0: dense), nodes wanted (0: 1)
 *   span "nodes"      one span "node" per node: its "more?" choice (0: stop), its kind (0: a CPU
 *                     node with the common core count and memory; else own core count,
 *                     memory-less, or CPU-less), id gap (0: none)
 *   span "distances"  shape, tier values, perturbations (0 each: the plain table)
 *   span "state"      how many not-present CPUs, which CPUs offline, the holes of sparse
 *                     numbering, clusters (0: none)
 * </pre>
 * All choices at 0 give the simplest machine: one node, one CPU, no SMT, possible = present =
 * online. The state modes precede the core count, so more present CPUs are simpler than fewer
 * present plus not-present or offline ones. Deleting a "node" span removes one node; zeroing the "state" span brings every CPU back
 * online and present; lowering the SMT choice (with the core count raised, shrinker pass
 * {@code lowerAndRaise}) removes SMT; distance choices vanish with the nodes that need them.
 */
final class RealisticMachines {
    private RealisticMachines() {}

    private static final List<Integer> SMT_WIDTHS = List.of(1, 2, 4);
    private static final Gen<Integer> SMT = Gen.weighted(50, 40, 10);
    private static final List<Integer> NODES_PER_PACKAGE = List.of(1, 2, 3, 4, 8);
    private static final Gen<Integer> NPP = Gen.weighted(50, 20, 5, 20, 5);
    private static final Gen<Integer> ID_SCHEME = Gen.weighted(80, 14, 6);
    private static final int NODE_OWN_CORES = 1, NODE_MEMORYLESS = 2, NODE_CPULESS = 3;
    private static final Gen<Integer> NODE_KIND = Gen.weighted(78, 12, 3, 7);   // plain, own cores, memory-less, CPU-less
    private static final Gen<Integer> WANTED = Gen.weighted(25, 35, 18, 14, 8);   // 1, 2, 3-4, 5-8, 9-16

    static Topology draw(Choices c, Options o) {
        int maxCpus = o.maxCpus();
        int minCpuNodes = o.minCpuNodes();
        MachinePlan plan = new MachinePlan();
        c.startSpan("hardware");
        plan.smt = SMT_WIDTHS.get(SMT.generate(c));
        if (o.smt() == Smt.NEVER) plan.smt = 1;
        if (o.smt() == Smt.ALWAYS && plan.smt == 1) plan.smt = 2;
        if (plan.smt * minCpuNodes > maxCpus) plan.smt = o.smt() == Smt.ALWAYS ? 2 : 1;   // Options checked 2 fits
        plan.split = plan.smt > 1 && c.chance(55);
        // The state modes come before the core count: a machine with more present CPUs is then
        // simpler than one with fewer present and extra possible (or offline) CPUs.
        int possibleMode = StateDraws.POSSIBLE_MODE.generate(c);
        if (o.allPresent()) possibleMode = 0;
        MachinePlan.Offline offlineMode = StateDraws.OFFLINE.get(StateDraws.OFFLINE_MODE.generate(c));
        boolean sparse = StateDraws.SPARSE_MODE.generate(c) == 1;
        // A node may take no more than its share of the CPUs when several nodes must have some.
        int coreCap = Math.max(1, maxCpus / (plan.smt * minCpuNodes));
        int cores = drawCores(c, coreCap);
        int npp = NODES_PER_PACKAGE.get(NPP.generate(c));
        int idScheme = ID_SCHEME.generate(c);
        int wanted = drawWanted(c);
        c.endSpan();

        c.startSpan("nodes");
        int budget = maxCpus;
        int cpuNodes = 0;
        List<Integer> gaps = new ArrayList<>();
        for (int k = 0; k < o.maxNodes(); k++) {
            c.startSpan("node");
            try {
                if (k > 0 && cpuNodes >= minCpuNodes && !c.chance(k < wanted ? 97 : 3)) break;
                // One choice says what kind of node; kind 0, the plain CPU node, reads no more
                // choices, so no other node is encoded shorter (shortlex would prefer it).
                int kind = NODE_KIND.generate(c);
                // Until enough nodes have CPUs, no node may be CPU-less, nor left without room.
                int mustStill = Math.max(0, minCpuNodes - cpuNodes - 1) * plan.smt;
                if (kind == NODE_CPULESS && (cpuNodes < minCpuNodes && o.maxNodes() - k <= minCpuNodes - cpuNodes)) kind = 0;
                MachinePlan.NodePlan node;
                if (kind == NODE_CPULESS) {
                    node = new MachinePlan.NodePlan(0, Math.max(0, cpuNodes - 1) / npp);
                } else {
                    int own = kind == NODE_OWN_CORES ? 1 + c.choose(0, coreCap - 1) : cores;
                    own = Math.min(own, (budget - mustStill) / plan.smt);
                    if (own == 0) break;
                    node = new MachinePlan.NodePlan(own, cpuNodes / npp);
                    node.memory = kind != NODE_MEMORYLESS;
                    budget -= own * plan.smt;
                    cpuNodes++;
                }
                gaps.add(idScheme == MachinePlan.IDS_GAPS && c.chance(35) ? 1 + c.choose(0, 7) : 0);
                plan.nodes.add(node);
            } finally {
                c.endSpan();
            }
        }
        c.endSpan();
        if (plan.cpuNodeCount() == 0) {   // every node drawn CPU-less: the first one gets the common cores
            MachinePlan.NodePlan first = plan.nodes.get(0);
            first.cores = Math.min(cores, coreCap);
            first.memory = true;
        }
        plan.assignIds(idScheme, gaps);
        DistanceDraws.draw(c, plan, !o.symmetric());
        StateDraws.draw(c, plan, maxCpus, possibleMode, offlineMode, sparse);
        return plan.build(Machines.REALISTIC);
    }

    /** Cores per node: 1-4 (40%), 5-8 (35%), up to the cap (25%); index 0 is 1 core. */
    static int drawCores(Choices c, int cap) {
        int bucket = Gen.weighted(40, 35, 25).generate(c);
        int lo = bucket == 0 ? 1 : bucket == 1 ? 5 : 9;
        int hi = bucket == 0 ? 4 : bucket == 1 ? 8 : 32;
        int v = lo + c.choose(0, hi - lo);
        return Math.max(1, Math.min(v, cap));
    }

    private static int drawWanted(Choices c) {
        return switch (WANTED.generate(c)) {
            case 0 -> 1;
            case 1 -> 2;
            case 2 -> 3 + c.choose(0, 1);
            case 3 -> 5 + c.choose(0, 3);
            default -> 9 + c.choose(0, 7);
        };
    }

}
