package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

/**
 * A small stand-in generator of NUMA machines for the local-spread, NUMA and mlx5 checks, until the
 * topology generators ({@code topogen.Machines}) land: 1-4 nodes of 0-3 CPUs (a node of 0 is
 * CPU-less; ids contiguous per node or dealt round-robin), symmetric distances 11..40 (often 12, 20, 30), some offline CPUs (at least one CPU stays online).
 * Simplest draw: one node with one online CPU. Replace the calls to {@link #machines()} by
 * {@code topogen.Machines.realistic()} when it exists.
 */
final class SmallNumaMachines {
    private SmallNumaMachines() {}

    /** A machine and a node of it (or -1) to ask about. */
    record Case(Topology machine, int node) {}

    static Gen<Topology> machines() {
        return c -> {
            int nodes = c.choose(1, 4);
            int[] sizes = new int[nodes];
            int total = 0;
            for (int n = 0; n < nodes; n++) {
                sizes[n] = c.choose(0, 3);
                total += sizes[n];
            }
            if (total == 0) { sizes[0] = 1; total = 1; }
            TopologyBuilder b = TopologyBuilder.machine("generated");
            // Contiguous ids per node (simplest), or dealt round-robin over the nodes, as split SMT
            // numbering does: only then does "node by node" differ from "ascending id in a ring".
            boolean dealt = c.chance(50);
            CpuSet.Builder[] of = new CpuSet.Builder[nodes];
            for (int n = 0; n < nodes; n++) of[n] = CpuSet.builder();
            int next = 0;
            if (dealt) {
                int[] left = sizes.clone();
                while (next < total)
                    for (int n = 0; n < nodes; n++) if (left[n] > 0) { of[n].add(next++); left[n]--; }
            } else {
                for (int n = 0; n < nodes; n++) for (int k = 0; k < sizes[n]; k++) of[n].add(next++);
            }
            for (int n = 0; n < nodes; n++) b.node(n, of[n].build());
            int[][] rows = new int[nodes][nodes];
            for (int i = 0; i < nodes; i++)
                for (int j = 0; j <= i; j++) {
                    // A few common values make equidistant nodes (ties) frequent.
                    int kind = i == j ? -1 : c.choose(0, 3);
                    int d = kind < 0 ? 10 : kind == 0 ? 20 : kind == 1 ? 12 : kind == 2 ? 30 : c.choose(11, 40);
                    rows[i][j] = d;
                    rows[j][i] = d;
                }
            b.distances(rows);
            CpuSet.Builder online = CpuSet.builder();
            for (int cpu = 0; cpu < total; cpu++) if (!c.chance(20)) online.add(cpu);
            CpuSet on = online.build();
            if (on.isEmpty()) on = CpuSet.of(0);
            b.possible("0-" + (total - 1)).present("0-" + (total - 1)).online(on);
            return b.build();
        };
    }

    /** A machine and a node of it; -1 (NUMA_NO_NODE) about one draw in eight. */
    static Gen<Case> cases() {
        return c -> {
            Topology m = machines().generate(c);
            int[] ids = m.nodeIds();
            int pick = c.choose(0, ids.length * 8 - 1);
            int node = pick >= ids.length * 7 ? -1 : ids[pick % ids.length];
            return new Case(m, node);
        };
    }

    /** A subset of the possible CPUs (offline ones included). */
    static CpuSet subset(Topology m, dev.numaspread.conformance.gen.Choices c) {
        CpuSet.Builder b = CpuSet.builder();
        for (int cpu : m.possible().toArray()) if (c.chance(50)) b.add(cpu);
        return b.build();
    }
}
