package dev.numaspread.model.nic;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * gve's notify-block IRQs and XPS (spec/nic.md NIC-4, NIC-5): {@code gve_alloc_notify_blocks()}
 * in drivers/net/ethernet/google/gve/gve_main.c and {@code gve_tx_add_to_block()} in gve_utils.c,
 * read in 6.1, 6.12, 7.2 and 7.3.
 */
public final class Gve {
    private Gve() {}

    /**
     * The IRQs and XPS masks of a gve device of {@code queues} queue pairs on {@code node}: one
     * notify block per queue, the transmit blocks {@code 0 .. queues-1} first, then the receive
     * blocks (receive queue {@code r} is block {@code queues + r}), then the management IRQ, which
     * the driver does not place. Every block's CPU is forced.
     * <ul>
     *   <li>before 6.17: block {@code i} goes to the CPU whose id is {@code i mod active}, with
     *       {@code active = min(queues, num_online_cpus())}: ids, not the online mask, and no NUMA;</li>
     *   <li>from 6.17 (d991666b7b69 "gve: make IRQ handlers and page allocation NUMA aware"): the
     *       blocks walk the online CPUs of the device's node in ascending order (every CPU id for
     *       NUMA_NO_NODE), going back to the node's first CPU at the end of the node and for the
     *       first receive block, so transmit and receive queue {@code q} share a CPU.</li>
     * </ul>
     * XPS, in every release: transmit queue {@code q} gets the CPU whose id is {@code q mod active}
     * (6.17 left it alone, so on a device off node 0 it no longer follows the IRQ).
     *
     * @param node   the device's node, or NUMA_NO_NODE (-1)
     * @param queues the queue pairs (half the notify blocks), 1 or more
     */
    public static NicQueues gveIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        NicQueues.require(kernel, "gve-irqs", "queues", queues);
        if (node != Numa.NUMA_NO_NODE && !machine.hasNode(node))
            throw new IllegalArgumentException("node " + node + ": " + machine.name() + " has no such node; expected one of "
                    + java.util.Arrays.toString(machine.nodeIds()) + " or -1 (NUMA_NO_NODE)");
        int active = Math.min(queues, machine.numOnlineCpus());
        int blocks = 2 * queues;
        int[] cpu = kernel.atLeast(6, 17) ? nodeWalk(machine, node, blocks, queues) : modulo(blocks, active);
        List<QueueIrq> irqs = new ArrayList<>();
        for (int i = 0; i < blocks; i++) {
            QueueIrq.Role role = i < queues ? QueueIrq.Role.TX : QueueIrq.Role.RX;
            irqs.add(new QueueIrq(role, i < queues ? i : i - queues, Affinity.cpu(machine, cpu[i]), AffinitySetting.FORCED));
        }
        irqs.add(new QueueIrq(QueueIrq.Role.MANAGEMENT, 0, CpuSet.EMPTY, AffinitySetting.NONE));
        List<CpuSet> xps = new ArrayList<>();
        for (int q = 0; q < queues; q++) xps.add(Affinity.cpu(machine, q % active));
        return new NicQueues(irqs, xps);
    }

    private static int[] modulo(int blocks, int active) {
        int[] out = new int[blocks];
        for (int i = 0; i < blocks; i++) out[i] = i % active;
        return out;
    }

    /**
     * 6.17+: the CPU of each block. The walk's mask is {@code cpumask_of_node(node)}, the node's
     * online CPUs, or {@code cpu_all_mask} (every id below {@code nr_cpu_ids}) for NUMA_NO_NODE.
     * An empty mask (a CPU-less node) gives {@code nr_cpu_ids} for every block: a mask with no
     * CPU of the machine.
     */
    private static int[] nodeWalk(Topology machine, int node, int blocks, int txMaxQueues) {
        CpuSet mask = node == Numa.NUMA_NO_NODE ? CpuSet.range(0, machine.nrCpuIds() - 1)
                : machine.onlineCpusOf(node);
        int first = mask.isEmpty() ? machine.nrCpuIds() : mask.first();
        int[] out = new int[blocks];
        int cur = first;
        for (int i = 0; i < blocks; i++) {
            out[i] = cur;
            int next = cur >= machine.nrCpuIds() ? -1 : mask.next(cur + 1);
            // Back to the node's first CPU past its last one, and for the first receive block.
            cur = next < 0 || i + 1 == txMaxQueues ? first : next;
        }
        return out;
    }
}
