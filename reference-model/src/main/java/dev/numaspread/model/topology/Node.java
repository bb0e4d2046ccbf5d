package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

/**
 * A NUMA node as firmware describes it.
 *
 * @param id       the kernel's node id; ids may be sparse (0, 8, 250-255 on POWER9)
 * @param cpus     the possible CPUs whose {@code cpu_to_node} is this node (online or not);
 *                 empty for a CPU-less node
 * @param hasMemory false for a memory-less node ({@code size: 0 MB} in {@code numactl -H})
 * @param sizeMiB  memory size as numactl printed it, or -1 when unknown
 */
public record Node(int id, CpuSet cpus, boolean hasMemory, long sizeMiB) {

    /** The largest memory size a node may state: {@value} MiB (2^44, all a 64-bit physical address reaches). */
    public static final long MAX_SIZE_MIB = 1L << 44;

    public Node {
        if (id < 0) throw new IllegalArgumentException("node id " + id + " is negative");
        if (cpus == null) throw new IllegalArgumentException("node " + id + " has no CPU set");
    }

    public static Node of(int id, CpuSet cpus) {
        return new Node(id, cpus, true, -1);
    }
}
