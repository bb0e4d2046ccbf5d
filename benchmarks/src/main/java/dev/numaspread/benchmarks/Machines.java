package dev.numaspread.benchmarks;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The machines the benchmarks plan on: the real EPYC 7763 of seed 000 and generated large ones.
 */
public final class Machines {
    private Machines() {}

    /** The fixture of seed 000's test machine: 2 x EPYC 7763, NPS8, 16 nodes, 256 CPUs; the NIC is on node 14. */
    public static final String EPYC_7763 = "epyc7763-2s-16node";

    /** CPUs per node of a generated machine: a 64-core socket with SMT 2, as one node. */
    public static final int CPUS_PER_NODE = 128;

    /** Nodes per socket and sockets per board of a generated machine. */
    static final int NODES_PER_SOCKET = 4;
    static final int SOCKETS_PER_BOARD = 4;

    /**
     * The machine named {@code name}: {@link #EPYC_7763}, or {@code generated-N} for
     * {@link #generated(int) generated(N)}.
     *
     * @throws IllegalArgumentException for any other name
     */
    public static Topology named(String name) {
        if (name.equals(EPYC_7763)) return fixture(EPYC_7763);
        if (name.startsWith("generated-")) return generated(Integer.parseInt(name.substring("generated-".length())));
        throw new IllegalArgumentException("machine \"" + name + "\": unknown; expected \"" + EPYC_7763 + "\" or \"generated-N\"");
    }

    /** The packaged fixture {@code numaspread/fixtures/topologies/NAME.topo}, read with {@link TopoFormat}. */
    public static Topology fixture(String name) {
        String path = "numaspread/fixtures/topologies/" + name + ".topo";
        try (InputStream in = Machines.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) throw new IllegalArgumentException(path + ": not on the classpath; expected the benchmarks jar to package it");
            return TopoFormat.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), path).topology();
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": " + e.getMessage(), e);
        }
    }

    /**
     * A generated machine of {@code cpus} CPUs (a multiple of {@value #CPUS_PER_NODE}): node
     * {@code k} holds CPUs {@code 128k .. 128k+127}, adjacent SMT pairs; four nodes to a socket,
     * four sockets to a board. Distances: 10 local, 12 same socket, 20 same board, 30 otherwise,
     * so a machine of 4096 CPUs or more has four NUMA levels. 8192 CPUs make 64 nodes.
     */
    public static Topology generated(int cpus) {
        if (cpus <= 0 || cpus % CPUS_PER_NODE != 0)
            throw new IllegalArgumentException("generated machine: " + cpus + " CPUs; expected a positive multiple of " + CPUS_PER_NODE);
        int nodes = cpus / CPUS_PER_NODE;
        TopologyBuilder b = TopologyBuilder.machine("generated-" + cpus)
                .source("benchmarks: " + nodes + " nodes of " + CPUS_PER_NODE + " CPUs, SMT 2")
                .smtAdjacent(2);
        int[][] rows = new int[nodes][nodes];
        for (int i = 0; i < nodes; i++) {
            b.node(i, CpuSet.range(i * CPUS_PER_NODE, (i + 1) * CPUS_PER_NODE - 1));
            for (int j = 0; j < nodes; j++) rows[i][j] = distance(i, j);
        }
        return b.distances(rows).build();
    }

    private static int distance(int i, int j) {
        if (i == j) return 10;
        int socketI = i / NODES_PER_SOCKET, socketJ = j / NODES_PER_SOCKET;
        if (socketI == socketJ) return 12;
        if (socketI / SOCKETS_PER_BOARD == socketJ / SOCKETS_PER_BOARD) return 20;
        return 30;
    }
}
