package dev.numaspread.model.spread;

import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

/** The machines of the sources, written inline (the fixtures in fixtures/topologies belong to the formats engineer). */
final class SourceMachines {
    private SourceMachines() {}

    /** Kunpeng 920, 4 nodes of 24 CPUs (seed 003). */
    static Topology kunpeng920() {
        return TopologyBuilder.machine("kunpeng920-4node")
                .node(0, "0-23").node(1, "24-47").node(2, "48-71").node(3, "72-95")
                .distances(new int[]{10, 16, 32, 33}, new int[]{16, 10, 25, 32},
                        new int[]{32, 25, 10, 16}, new int[]{33, 32, 16, 10})
                .build();
    }

    /** AMD EPYC 7763, 2 sockets, 16 nodes: node k = 8k..8k+7 and 128+8k..128+8k+7 (seed 000). */
    static Topology epyc7763() {
        TopologyBuilder b = TopologyBuilder.machine("epyc7763-2s-16node");
        int[][] rows = new int[16][16];
        for (int k = 0; k < 16; k++) {
            b.node(k, (8 * k) + "-" + (8 * k + 7) + "," + (128 + 8 * k) + "-" + (128 + 8 * k + 7));
            for (int j = 0; j < 16; j++)
                rows[k][j] = k == j ? 10 : k / 8 != j / 8 ? 32 : k / 4 == j / 4 ? 11 : 12;
        }
        return b.distances(rows).build();
    }
}
