package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyValidation;

import java.util.List;

/**
 * The pathological machines (tables the kernel flags or rejects, sparse ids, CPU-less and
 * memory-less nodes, extreme sizes, numberings and states), one family per case, each
 * drawing only its own small parameters. Family 0 is one node of 1 to 16 CPUs in a single choice,
 * so all choices 0 give the simplest machine here too, and a shrunk failure that needs only "a
 * node with k CPUs" ends in family 0: no family encodes a machine in fewer choices, and equally
 * short families come later in the order. A family that does not fit in
 * {@code maxCpus} falls back to the one-CPU machine.
 */
final class EdgeCases {
    private EdgeCases() {}

    /** The families, in choice order; the name goes into the machine's source. */
    static final List<String> FAMILIES = List.of(
            "one node",
            "CPU-less nodes",
            "all but one node CPU-less",
            "asymmetric distances",
            "non-metric distances",
            "possible far above present",
            "whole node offline",
            "CPU 0 offline",
            "one CPU per node",
            "equal node sizes",
            "sparse node ids",
            "node 0 not representative",
            "half-offline SMT cores",
            "only one node has memory",
            "CPU-less node nearer than remote nodes",
            "SMT off at run time",
            "holes in CPU ids",
            "many distance levels",
            "node sizes with remainders");

    static Topology draw(Choices c, int maxCpus) {
        c.startSpan("edge case");
        try {
            int family = c.choose(0, FAMILIES.size() - 1);
            MachinePlan plan = plan(c, family, maxCpus);
            if (plan.totalCores() * plan.smt + plan.extraPossible > maxCpus) {
                family = 0;
                plan = new MachinePlan();
                cpuNodes(plan, 1);
            }
            return plan.build(Machines.EDGE + FAMILIES.get(family));
        } finally {
            c.endSpan();
        }
    }

    private static MachinePlan plan(Choices c, int family, int maxCpus) {
        MachinePlan p = new MachinePlan();
        switch (family) {
            case 0 -> cpuNodes(p, 1 + c.choose(0, Math.min(maxCpus, 16) - 1));
            case 1 -> {   // one to three CPU nodes, then one to six CPU-less nodes (sometimes at ids 250+)
                int cpuNodes = 1 + c.choose(0, 2);
                for (int k = 0; k < cpuNodes; k++) p.nodes.add(new MachinePlan.NodePlan(1 + c.choose(0, 3), k));
                int cpuless = 1 + c.choose(0, 5);
                for (int k = 0; k < cpuless; k++) p.nodes.add(new MachinePlan.NodePlan(0, k % cpuNodes));
                p.assignIds(c.chance(40) ? MachinePlan.IDS_HIGH_CPULESS : MachinePlan.IDS_DENSE, List.of());
                DistanceDraws.draw(c, p, false);
            }
            case 2 -> {   // n nodes, only one of them (maybe node 0, maybe not) has CPUs
                int n = 2 + c.choose(0, 6);
                int withCpus = c.choose(0, n - 1);
                for (int k = 0; k < n; k++) p.nodes.add(new MachinePlan.NodePlan(k == withCpus ? 1 + c.choose(0, 7) : 0, 0));
                dense(c, p);
            }
            case 3 -> {
                separateNodes(c, p, 2 + c.choose(0, 2), 4);
                DistanceDraws.makeAsymmetric(c, p.distances);
                if (c.chance(50)) DistanceDraws.makeAsymmetric(c, p.distances);
            }
            case 4 -> {
                if (c.chance(50)) {   // POWER hot-add: d(1,2) = 80 > d(1,0) + d(0,2) = 60
                    cpuNodes(p, 1 + c.choose(0, 3), 1 + c.choose(0, 3), 1 + c.choose(0, 3));
                    p.distances = new int[][] {{10, 20, 40}, {20, 10, 80}, {40, 80, 10}};
                } else {
                    separateNodes(c, p, 3 + c.choose(0, 2), 4);
                    DistanceDraws.breakTriangle(c, p.distances);
                }
            }
            case 5 -> {
                separateNodes(c, p, 1 + c.choose(0, 1), 4);
                int present = p.totalCores();
                p.extraPossible = Math.max(0, Math.min(maxCpus - present, present * (3 + c.choose(0, 5))));
            }
            case 6 -> {
                separateNodes(c, p, 2 + c.choose(0, 2), 4);
                p.offline = MachinePlan.Offline.NODE;
                p.offlinePicks = new int[] {c.choose(0, p.nodes.size() - 1)};
            }
            case 7 -> {
                separateNodes(c, p, 1 + c.choose(0, 2), 4);
                p.nodes.get(0).cores = Math.max(2, p.nodes.get(0).cores);
                p.offline = MachinePlan.Offline.CPU0;
            }
            case 8 -> {
                int n = Math.min(maxCpus, 2 + c.choose(0, 14));
                boolean onePackage = c.chance(50);
                for (int k = 0; k < n; k++) p.nodes.add(new MachinePlan.NodePlan(1, onePackage ? 0 : k));
                dense(c, p);
            }
            case 9 -> {
                int n = 2 + c.choose(0, 6);
                int cores = 1 + c.choose(0, 5);
                p.smt = c.chance(50) ? 2 : 1;
                for (int k = 0; k < n; k++) p.nodes.add(new MachinePlan.NodePlan(cores, k / 2));
                dense(c, p);
            }
            case 10 -> {   // gaps, node 0 missing, an id of 64 or more
                int n = 2 + c.choose(0, 3);
                int id = 1 + c.choose(0, 7);
                for (int k = 0; k < n; k++) {
                    MachinePlan.NodePlan node = new MachinePlan.NodePlan(1 + c.choose(0, 3), k);
                    node.id = k == n - 1 ? Math.max(id, 64 + c.choose(0, 100)) : id;
                    id = node.id + 1 + c.choose(0, 20);
                    p.nodes.add(node);
                }
                DistanceDraws.draw(c, p, false);
            }
            case 11 -> {   // Kunpeng 920 96-core shape: node 0's row lacks 24
                int cores = 1 + c.choose(0, 5);
                cpuNodes(p, cores, cores, cores, cores);
                p.distances = new int[][] {{10, 12, 20, 22}, {12, 10, 22, 24}, {20, 22, 10, 12}, {22, 24, 12, 10}};
            }
            case 12 -> {
                p.smt = c.chance(70) ? 2 : 4;
                separateNodes(c, p, 1 + c.choose(0, 1), 4);
                p.offline = MachinePlan.Offline.HALF_SMT;
                p.offlinePicks = new int[] {c.choose(0, 7), c.choose(0, 7)};
            }
            case 13 -> {
                separateNodes(c, p, 2 + c.choose(0, 2), 4);
                int keeper = c.choose(0, p.nodes.size() - 1);
                for (int k = 0; k < p.nodes.size(); k++) p.nodes.get(k).memory = k == keeper;
            }
            case 14 -> {   // Superdome: an interleave node at 14 from both sockets at 20
                int cores = 1 + c.choose(0, 3);
                cpuNodes(p, cores, cores, 0);
                p.distances = new int[][] {{10, 20, 14}, {20, 10, 14}, {14, 14, 10}};
            }
            case 15 -> {
                p.smt = c.chance(70) ? 2 : 4;
                p.split = c.chance(50);
                separateNodes(c, p, 1 + c.choose(0, 1), 4);
                p.offline = MachinePlan.Offline.SMT_OFF;
            }
            case 16 -> {
                int n = 2 + c.choose(0, 1);
                for (int k = 0; k < n; k++) p.nodes.add(new MachinePlan.NodePlan(1 + c.choose(0, 3), k));
                for (int k = 1; k < n; k++) p.nodes.get(k).holeBefore = 1 + c.choose(0, 7);
                dense(c, p);
            }
            case 17 -> {   // A64FX / Granite Rapids: six or seven distinct values, all of them used
                int n = 4 + c.choose(0, 4);
                for (int k = 0; k < n; k++) p.nodes.add(new MachinePlan.NodePlan(1 + c.choose(0, 1), k));
                p.assignIds(MachinePlan.IDS_DENSE, List.of());
                int levels = 6 + c.choose(0, 1);
                int[] values = new int[levels];
                values[0] = 10;
                for (int k = 1; k < levels; k++) values[k] = values[k - 1] + 1 + c.choose(0, 14);
                int[][] d = new int[n][n];
                int pair = 0;
                for (int i = 0; i < n; i++) {
                    d[i][i] = 10;
                    for (int j = i + 1; j < n; j++) d[i][j] = d[j][i] = values[1 + pair++ % (levels - 1)];
                }
                p.distances = d;
            }
            case 18 -> {   // 43/43/42-style: the last node has one core less
                int q = 1 + c.choose(0, 5);
                cpuNodes(p, q + 1, q + 1, q);
            }
            default -> throw new IllegalStateException("model invariant of EdgeCases broken: no family " + family);
        }
        if (p.distances == null && p.nodes.size() > 1) DistanceDraws.draw(c, p, false);
        return p;
    }

    /** Nodes with the given core counts, one package each, dense ids, default 10/20 distances. */
    private static void cpuNodes(MachinePlan p, int... cores) {
        for (int k = 0; k < cores.length; k++) p.nodes.add(new MachinePlan.NodePlan(cores[k], k));
        p.assignIds(MachinePlan.IDS_DENSE, List.of());
        if (cores.length == 1) p.distances = new int[][] {{10}};
    }

    /** {@code n} CPU nodes of 1..maxCores cores, one package each, dense ids, drawn plain distances. */
    private static void separateNodes(Choices c, MachinePlan p, int n, int maxCores) {
        for (int k = 0; k < n; k++) p.nodes.add(new MachinePlan.NodePlan(1 + c.choose(0, maxCores - 1), k));
        dense(c, p);
    }

    private static void dense(Choices c, MachinePlan p) {
        p.assignIds(MachinePlan.IDS_DENSE, List.of());
        DistanceDraws.draw(c, p, false);
    }

    // ---------------------------------------------------------------- invalid tables (expect slit-invalid)

    static final List<String> INVALID = List.of(
            "all-10 table", "diagonal not 10", "off-diagonal below 10", "zero entries", "values above 255");

    static Topology drawInvalidDistances(Choices c) {
        c.startSpan("invalid distances");
        try {
            MachinePlan p = new MachinePlan();
            int n = 2 + c.choose(0, 2);
            for (int k = 0; k < n; k++) p.nodes.add(new MachinePlan.NodePlan(1 + c.choose(0, 3), k));
            p.assignIds(MachinePlan.IDS_DENSE, List.of());
            int kind = c.choose(0, INVALID.size() - 1);
            int[][] d = new int[n][n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) d[i][j] = i == j ? 10 : 20;
            int a = c.choose(0, n - 1);
            int b = (a + 1 + c.choose(0, n - 2)) % n;
            switch (kind) {
                case 0 -> { for (int[] row : d) java.util.Arrays.fill(row, 10); }
                case 1 -> d[a][a] = 11 + c.choose(0, 20);
                case 2 -> d[a][b] = d[b][a] = 1 + c.choose(0, 8);
                case 3 -> d[a][b] = 0;
                default -> d[a][b] = d[b][a] = 256 + c.choose(0, 200);
            }
            p.distances = d;
            p.expect.add(TopologyValidation.SLIT_INVALID);
            return p.build(Machines.EDGE + "invalid distances: " + INVALID.get(kind));
        } finally {
            c.endSpan();
        }
    }
}
