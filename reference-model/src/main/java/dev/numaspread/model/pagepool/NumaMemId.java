package dev.numaspread.model.pagepool;

import dev.numaspread.model.topology.Topology;

/**
 * {@code numa_mem_id()}: the node a CPU allocates its memory from (spec/page-pool.md PP-11), and the
 * zonelist choice behind it for a memory-less node, {@code local_memory_node()}.
 *
 * <p>Sources: {@code include/linux/topology.h} and {@code mm/page_alloc.c} (6.12): with
 * {@code CONFIG_HAVE_MEMORYLESS_NODES} (powerpc; ia64 while it existed) the per-CPU
 * {@code _numa_mem_} of a CPU is {@code local_memory_node(cpu_to_node(cpu))}; without it (x86,
 * arm64, the rest) {@code numa_mem_id()} is {@code numa_node_id()}, the CPU's own node, even when
 * that node has no memory, and the page allocator falls back through the same zonelist.
 */
public final class NumaMemId {
    private NumaMemId() {}

    /** {@code PENALTY_FOR_NODE_WITH_CPUS} of mm/page_alloc.c: nodes with CPUs come after equally near nodes without. */
    static final int PENALTY_FOR_NODE_WITH_CPUS = 1;

    /**
     * Returns {@code numa_mem_id()} on {@code cpu}: its node when that node has memory; for a CPU
     * on a memory-less node, {@link #localMemoryNode} of that node where the architecture has
     * {@code CONFIG_HAVE_MEMORYLESS_NODES}, else the memory-less node itself (PP-11).
     *
     * @throws IllegalArgumentException if {@code cpu} is not possible on {@code machine}
     */
    public static int numaMemId(Topology machine, int cpu, boolean haveMemorylessNodes) {
        int node = machine.nodeOf(cpu);
        return haveMemorylessNodes ? localMemoryNode(machine, node) : node;
    }

    /**
     * Returns the node the page allocator takes memory from when asked for {@code node}: the node
     * itself when it has memory, else the first node with memory of its zonelist, as
     * {@code find_next_best_node()} orders them: smallest {@code node_distance(node, n)}, plus 1
     * for a node below {@code node} ("prefer the next node"), plus 1 for a node with CPUs; ties to
     * the lowest id. {@code node} itself when no node has memory.
     *
     * <p>The kernel breaks the remaining ties by {@code node_load[]}, which depends on the order
     * in which all zonelists were built; the model takes the lowest id there (PP-11 says so).
     * "Has CPUs" is read as "firmware gives the node CPUs" (its possible CPUs).
     */
    public static int localMemoryNode(Topology machine, int node) {
        if (!machine.isMemoryless(node)) return node;
        int best = node;
        int bestValue = Integer.MAX_VALUE;
        // Ascending ids and a strict "<": a tie keeps the lower id.
        for (int n : machine.nodeIds()) {
            if (n == node || machine.isMemoryless(n)) continue;
            int value = zonelistValue(machine, node, n);
            if (value < bestValue) {
                bestValue = value;
                best = n;
            }
        }
        return best;
    }

    /** True when {@link #localMemoryNode} had to break a tie of equal zonelist values (node_load decides in the kernel). */
    public static boolean localMemoryNodeIsTied(Topology machine, int node) {
        if (!machine.isMemoryless(node)) return false;
        int best = Integer.MAX_VALUE;
        int count = 0;
        for (int n : machine.nodeIds()) {
            if (n == node || machine.isMemoryless(n)) continue;
            int value = zonelistValue(machine, node, n);
            if (value < best) {
                best = value;
                count = 1;
            } else if (value == best) {
                count++;
            }
        }
        return count > 1;
    }

    private static int zonelistValue(Topology machine, int node, int n) {
        int value = machine.distance(node, n);
        if (n < node) value += 1;
        if (!machine.cpusOf(n).isEmpty()) value += PENALTY_FOR_NODE_WITH_CPUS;
        return value;
    }
}
