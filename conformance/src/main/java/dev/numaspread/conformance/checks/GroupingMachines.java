package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Small machines for the grouping checks until {@code topogen.Machines} lands: 1-4 nodes (ids
 * sometimes sparse, sometimes a CPU-less node), 1-4 cores per node, SMT 1 or 2 with adjacent or
 * split numbering, some CPUs not present, sometimes one present CPU offline. The simplest draw is
 * one node with one CPU.
 */
final class GroupingMachines {
    private GroupingMachines() {}

    static Gen<Topology> machines() {
        return c -> {
            int nodes = c.choose(1, 4);
            boolean sparseIds = c.chance(20);
            int smt = c.choose(1, 2);
            boolean split = smt == 2 && c.chance(50);
            int[] cores = new int[nodes];
            int totalCores = 0;
            for (int n = 0; n < nodes; n++) {
                cores[n] = c.choose(1, 4);
                if (n > 0 && c.chance(10)) cores[n] = 0;   // a CPU-less node
                totalCores += cores[n];
            }
            TopologyBuilder b = TopologyBuilder.machine("generated");
            List<String> siblings = new ArrayList<>();
            int core = 0;
            int[] ids = new int[nodes];
            for (int n = 0; n < nodes; n++) {
                CpuSet.Builder cpus = CpuSet.builder();
                for (int k = 0; k < cores[n]; k++, core++) {
                    CpuSet.Builder s = CpuSet.builder();
                    for (int t = 0; t < smt; t++) s.add(split ? core + t * totalCores : core * smt + t);
                    CpuSet sib = s.build();
                    siblings.add(sib.toList());
                    cpus.addAll(sib);
                }
                ids[n] = sparseIds ? 2 * n : n;
                b.node(ids[n], cpus.build());
            }
            int[][] rows = new int[nodes][nodes];
            for (int i = 0; i < nodes; i++) for (int j = 0; j < nodes; j++) rows[i][j] = i == j ? 10 : 20;
            b.distances(rows);
            b.siblings(siblings.toArray(new String[0]));
            int all = totalCores * smt;
            CpuSet possible = CpuSet.range(0, all - 1);
            int notPresent = c.chance(30) ? c.choose(1, Math.max(1, all / 2)) : 0;
            if (notPresent >= all) notPresent = all - 1;
            CpuSet present = CpuSet.range(0, all - 1 - notPresent);
            CpuSet online = present;
            if (present.size() > 1 && c.chance(20)) online = present.without(c.choose(1, present.last()));
            return b.possible(possible.toList()).present(present.toList()).online(online).build();
        };
    }

    /** The seed 002 shape: two nodes of consecutive CPU ids, at least 2 each, no SMT, all present. */
    static Gen<Topology> twoNodesNoSmt() {
        return c -> {
            int a = c.choose(2, 8), b2 = c.choose(2, 8);
            return TopologyBuilder.machine("two nodes").node(0, CpuSet.range(0, a - 1)).node(1, CpuSet.range(a, a + b2 - 1)).build();
        };
    }

    /** A machine and a count from 1 to its possible CPUs + 2. */
    record Case(Topology machine, int count) {}

    static Gen<Case> cases() {
        return machines().flatMap(m -> cc -> new Case(m, cc.choose(1, m.possible().size() + 2)));
    }

    /** The machine in .topo-like words for a violation: nodes, siblings, possible/present/online. */
    static String describe(Topology m) {
        StringBuilder sb = new StringBuilder();
        sb.append("possible ").append(m.possible().toList()).append(", present ").append(m.present().toList())
                .append(", online ").append(m.online().toList());
        for (var n : m.nodes()) sb.append("; node ").append(n.id()).append(" cpus ").append(n.cpus().toList());
        sb.append("; siblings");
        for (CpuSet s : m.smtSiblings()) sb.append(' ').append(s.toList());
        return sb.toString();
    }
}
