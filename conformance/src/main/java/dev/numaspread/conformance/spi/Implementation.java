package dev.numaspread.conformance.spi;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/**
 * What an implementation under certification offers: its name, its claims, and one method per
 * routine. The kit calls a routine only for a release the implementation claims for it; the
 * default methods throw {@link UnsupportedOperationException}, so an unclaimed routine is simply
 * NOT-CLAIMED in the certificate.
 *
 * <p>Names say what comes back. A method named after a kernel function returns what that function
 * returns ({@code numaClosest}: one CPU); where the kernel function answers one index at a time
 * ({@code cpumask_local_spread(i, node)}), the SPI asks for the whole plan at once, takes
 * {@code node, count} and ends in {@code Cpus}: {@code localSpreadCpus(kernel, machine, node, count)}
 * is the CPU of each {@code i = 0 .. count-1}. The model keeps the kernel's per-index function
 * beside it ({@code LocalSpread.localSpread(kernel, machine, i, node)}).
 *
 * <p>Conventions shared by every method:
 * <ul>
 *   <li>{@code node} may be {@code NUMA_NO_NODE} (-1);</li>
 *   <li>a result the kernel reports as "none" is any value {@code >= topology.nrCpuIds()};</li>
 *   <li>where the kernel itself fails (BUG(), oops, wild pointer) the method throws
 *       {@link dev.numaspread.model.kernel.KernelBug};</li>
 *   <li>methods must be pure functions of their arguments: the kit calls them repeatedly and
 *       in any order, and a nondeterministic answer fails certification. The page pool is the
 *       exception: {@link #pagePool} returns a state machine.</li>
 * </ul>
 */
public interface Implementation {

    /** A short name for reports: {@code acme-spread 1.2}. */
    String name();

    /** The routines and releases this implementation claims to reproduce. */
    List<Claim> claims();

    // ------------------------------------------------------------ local spread (spec/local-spread.md)

    /** The CPU of each queue {@code i = 0 .. count-1}: {@code cpumask_local_spread(i, node)} for each. */
    default int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        throw new UnsupportedOperationException(Routine.LOCAL_SPREAD.id());
    }

    /** The CPU of each queue {@code i = 0 .. count-1} under the 2020 nearest-node proposal (never merged). */
    default int[] localSpreadNearestNodeCpus(KernelRelease kernel, Topology machine, int node, int count) {
        throw new UnsupportedOperationException(Routine.LOCAL_SPREAD_NEAREST_NODE.id());
    }

    // ------------------------------------------------------------ NUMA levels and hops (spec/numa-levels.md, spec/numa-hops.md)

    /** {@code sched_domains_numa_distance[]}: the distance levels, ascending; empty when NUMA levels are not built. */
    default int[] numaLevels(KernelRelease kernel, Topology machine) {
        throw new UnsupportedOperationException(Routine.NUMA_LEVELS.id());
    }

    /** The masks {@code for_each_numa_hop_mask(mask, node)} yields, in order (cumulative). */
    default List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        throw new UnsupportedOperationException(Routine.HOP_MASKS.id());
    }

    /**
     * {@code sched_numa_find_closest(cpus, cpu)} called once; "none" is {@code >= nr_cpu_ids}. From
     * 6.16 the answer depends on the calling CPU's {@code distribute_cpu_mask_prev} (HOP-10): this
     * is the call made on a CPU that has not called a distribute function since boot (state 0).
     */
    default int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        throw new UnsupportedOperationException(Routine.NUMA_CLOSEST.id());
    }

    /**
     * {@code sched_numa_find_closest} called {@code calls.size()} times in order on CPU
     * {@code callingCpu}, whose {@code distribute_cpu_mask_prev} is {@code prev} before the first
     * call (HOP-10): the answers in order; "none" is {@code >= nr_cpu_ids}. Each call sees the
     * state the one before it left. Up to 6.15 the state plays no part and the default answers each
     * call with {@link #numaClosest}; an implementation claiming 6.16 or later overrides it.
     */
    default int[] numaClosestCalls(KernelRelease kernel, Topology machine, int callingCpu, int prev,
                                   List<dev.numaspread.model.numa.NumaClosest.Call> calls) {
        if (kernel.atLeast(6, 16)) throw new UnsupportedOperationException(Routine.NUMA_CLOSEST.id() + " (a sequence of calls, 6.16+)");
        int[] out = new int[calls.size()];
        for (int i = 0; i < out.length; i++) out[i] = numaClosest(kernel, machine, calls.get(i).cpus(), calls.get(i).cpu());
        return out;
    }

    /** {@code sched_numa_find_nth_cpu(cpus, n, node)}; "none" is {@code >= nr_cpu_ids}. */
    default int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        throw new UnsupportedOperationException(Routine.NUMA_NTH.id());
    }

    /** {@code numa_nearest_node(node, N_CPU)}. */
    default int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        throw new UnsupportedOperationException(Routine.NUMA_NEAREST_NODE.id());
    }

    // ------------------------------------------------------------ mlx5 (spec/mlx5.md)

    /** The CPU of each of {@code count} completion vectors under the 2022 mlx5 patch (never merged in this form). */
    default int[] mlx5NumaDistanceCpus(KernelRelease kernel, Topology machine, int node, int count) {
        throw new UnsupportedOperationException(Routine.MLX5_NUMA_DISTANCE.id());
    }

    /** The CPU of each of {@code count} completion IRQs as the release's mlx5 chooses it. */
    default int[] mlx5CompIrqCpus(KernelRelease kernel, Topology machine, int node, int count) {
        throw new UnsupportedOperationException(Routine.MLX5_COMP_IRQS.id());
    }

    // ------------------------------------------------------------ grouping (spec/group-cpus.md, spec/blk-mq.md)

    /**
     * {@code group_cpus_evenly(numgrps)}: the groups in order, or empty for the kernel's NULL.
     * Groups the kernel leaves empty are empty sets.
     */
    default Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        throw new UnsupportedOperationException(Routine.GROUP_CPUS.id());
    }

    /**
     * The {@code *nummasks} that {@code group_cpus_evenly(numgrps, &nummasks)} sets from 6.17
     * (GRP-14), or empty when it returns NULL. The kit asks it for claims of 6.17 and later.
     */
    default java.util.OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        throw new UnsupportedOperationException(Routine.GROUP_CPUS.id() + " (nummasks, 6.17+)");
    }

    /**
     * {@code blk_mq_map_queues()}: element {@code cpu} is the queue of possible CPU {@code cpu}
     * ({@code -1} for an id that is not possible); length {@code nr_cpu_ids}.
     */
    default int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        throw new UnsupportedOperationException(Routine.BLK_MQ_MAP.id());
    }

    /**
     * {@code irq_create_affinity_masks(nvecs, affd)}: each vector's mask and managed flag, or empty
     * for the kernel's NULL. {@code setSizes} are the interrupt sets ({@code calc_sets}); empty
     * means the default single set of {@code nvecs - preVectors - postVectors} vectors.
     */
    default Optional<List<dev.numaspread.model.group.IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(
            KernelRelease kernel, Topology machine, int nvecs, int preVectors, int postVectors, List<Integer> setSizes) {
        throw new UnsupportedOperationException(Routine.IRQ_AFFINITY_MASKS.id());
    }

    // ------------------------------------------------------------ MANA and hotplug (spec/sibling-spread.md, spec/hotplug.md)

    /**
     * MANA's per-IRQ affinity setup for IRQs {@code 0 .. len-1} of a device on {@code node}: before
     * 6.9 one CPU per IRQ from {@code cpumask_local_spread}, from 6.9 {@code irq_setup()}. Returns
     * the affinities of the IRQs it assigned, in IRQ order (IRQs it leaves untouched are not in
     * the list). Every kernel service, {@code irq_set_affinity_and_hint} included, must go
     * through {@code machine}: the kit runs this under hotplug events and judges what the machine
     * recorded. {@code irq_setup()} takes no lock itself; the kit holds {@code cpus_read_lock()}
     * around the call where the rule says its caller does. {@code machine.kernel()} equals {@code kernel}.
     */
    default List<CpuSet> irqSetup(KernelRelease kernel, Machine machine, int node, int len, boolean skipFirstCpu) {
        throw new UnsupportedOperationException(Routine.IRQ_SETUP.id());
    }

    /**
     * MANA's {@code mana_gd_setup_irqs()} (with {@code mana_gd_setup_hwc_irqs()} and, 6.17+, the
     * dynamic MSI-X path) for a device on {@code node}. Returns the affinity of every vector it
     * allocated, vector 0 (the HWC) first; a vector left without affinity is an empty set; an
     * allocation failure gives an empty list. The granted vector count and
     * {@code pci_msix_can_alloc_dyn()} are the machine's ({@link Machine.Config}); locking,
     * sizing and affinities go through {@code machine}.
     */
    default List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine machine, int node) {
        throw new UnsupportedOperationException(Routine.MANA_SETUP_IRQS.id());
    }

    /**
     * {@code group_cpus_evenly(numgrps)} called on a running machine, possibly from a hotplug
     * callback (HP-6: it must not take {@code cpus_read_lock()} from 6.7). By default the
     * machine's current topology is passed to {@link #groupCpusEvenly(KernelRelease, Topology, int)}
     * without any call on the machine, which shows no lock behaviour: HP-6 is then NOT-VERIFIED.
     * Override it to show what the implementation does with the lock, reading the machine through
     * its services ({@code machine.cpuPresentMask()}, {@code machine.cpusReadLock()}).
     */
    default Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Machine machine, int numgrps) {
        return groupCpusEvenly(kernel, machine.topology(), numgrps);
    }

    // ------------------------------------------------------------ page pool (spec/page-pool.md)

    /**
     * A new page pool, {@code page_pool_create()} with {@code params} on {@code machine}, that the
     * kit then drives one action at a time ({@link PagePoolSession}). The one stateful routine:
     * each call returns a fresh pool, and the kit never asks a pool the same thing twice. Sizes
     * come in the params (the kit uses small ones); pages are numbered from 0 in the order the
     * page allocator hands them to this pool.
     */
    default PagePoolSession pagePool(KernelRelease kernel, Topology machine, dev.numaspread.model.pagepool.PagePool.Params params) {
        throw new UnsupportedOperationException(Routine.PAGE_POOL.id());
    }
}
