package dev.numaspread.conformance.spi;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.NicQueues;
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
 *   <li>{@code kernel} is one of the releases claimed for the routine ({@link #claims()});
 *       {@code machine} is valid (the kit built and checked it) and is never changed;</li>
 *   <li>{@code node} may be {@code NUMA_NO_NODE} (-1);</li>
 *   <li>a result the kernel reports as "none" is any value {@code >= machine.nrCpuIds()};</li>
 *   <li>where the kernel itself fails (BUG(), oops, wild pointer) the method throws
 *       {@link dev.numaspread.model.kernel.KernelBug}: the kit expects it exactly where the
 *       reference model throws it;</li>
 *   <li>any other exception, a hang past {@code --timeout}, or an answer of the wrong shape
 *       (an array of the wrong length) is ERROR, never a pass; an implementation that cannot
 *       answer for a reason of its own may throw {@link ImplementationFailure} to say why;</li>
 *   <li>methods must be pure functions of their arguments: the kit calls them repeatedly and
 *       in any order, and a nondeterministic answer fails certification. The page pool is the
 *       exception: {@link #pagePool} returns a state machine.</li>
 * </ul>
 *
 * <p>The one-line examples of the methods run on the same machine {@code m}: two nodes, node 0 =
 * CPUs 0-3 and node 1 = CPUs 4-7, distances 10 and 20, one thread per core, every CPU online,
 * {@code nr_cpu_ids} 8; {@code k} is 6.12 unless the example names another release. A complete
 * implementation is in README.md, "Certify inside your own build (JUnit 5)".
 *
 * <p>Over 450 lines on purpose (issue 26): the SPI, a method per routine, each with its contract.
 */
public interface Implementation {

    /**
     * A short name for reports and test names.
     *
     * <p>Example: {@code name()} returns {@code "acme-spread 1.2"}.
     *
     * @return the name, with a version if it has one; never empty
     */
    String name();

    /**
     * The routines and releases this implementation claims to reproduce: the kit judges the rules
     * of these and reports every other rule NOT-CLAIMED.
     *
     * <p>Example: {@code List.of(Claim.of("local-spread", "6.1"), Claim.of("local-spread", "6.12"))}.
     *
     * @return one {@link Claim} per routine and release, in any order; an empty list claims
     *         nothing (and the certificate then judges nothing)
     */
    List<Claim> claims();

    /**
     * Why this implementation does not claim {@code routine}, for the certificate's NOT-CLAIMED line:
     * what it would need to show it.
     *
     * <p>Example: a booted kernel ({@code --impl kernel:}) says of {@code mana-setup-irqs}
     * {@code "needs a MANA NIC (Azure): QEMU emulates none"}.
     *
     * @param routine a routine it does not claim
     * @return the reason; empty (the default) when it gives none
     * @throws RuntimeException when it cannot say: the kit catches it, and the certificate gives no reason
     */
    default Optional<String> whyNotClaimed(Routine routine) {
        return Optional.empty();
    }

    // ------------------------------------------------------------ local spread (spec/local-spread.md)

    /**
     * The CPU of each queue {@code i = 0 .. count-1}: {@code cpumask_local_spread(i, node)} for
     * each, the index wrapping over the online CPUs (LS-2).
     *
     * <p>Example: {@code localSpreadCpus(k, m, 1, 3)} returns {@code {4, 5, 6}}.
     *
     * @param kernel  the claimed release whose behaviour is asked for
     * @param machine the machine
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1)
     * @param count   how many queues, {@code >= 1}
     * @return {@code count} CPU ids, element {@code i} for index {@code i}; the kernel always finds
     *         an online CPU here, so there is no "none"
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself BUG()s
     * @throws UnsupportedOperationException when local-spread is not claimed (the default)
     */
    default int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        throw new UnsupportedOperationException(Routine.LOCAL_SPREAD.id());
    }

    /**
     * The CPU of each queue {@code i = 0 .. count-1} under the 2020 nearest-node proposal (never
     * merged): local spread that serves a node's queues from the nearest node first (LS-10).
     *
     * <p>Example: {@code localSpreadNearestNodeCpus(k, m, 1, 3)} returns {@code {4, 5, 6}}.
     *
     * @param kernel  the claimed release the proposal is applied to
     * @param machine the machine
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1)
     * @param count   how many queues, {@code >= 1}
     * @return {@code count} CPU ids, element {@code i} for index {@code i}; no "none"
     * @throws dev.numaspread.model.kernel.KernelBug where the proposal's code would BUG()
     * @throws UnsupportedOperationException when local-spread-nearest-node is not claimed (the default)
     */
    default int[] localSpreadNearestNodeCpus(KernelRelease kernel, Topology machine, int node, int count) {
        throw new UnsupportedOperationException(Routine.LOCAL_SPREAD_NEAREST_NODE.id());
    }

    // ------------------------------------------------------------ NUMA levels and hops (spec/numa-levels.md, spec/numa-hops.md)

    /**
     * {@code sched_domains_numa_distance[]}: the distinct distance levels the scheduler builds.
     *
     * <p>Example: {@code numaLevels(k, m)} returns {@code {10, 20}}.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @return the levels, ascending, the local distance first; empty when the release does not
     *         build NUMA levels on this machine
     * @throws UnsupportedOperationException when numa-levels is not claimed (the default)
     */
    default int[] numaLevels(KernelRelease kernel, Topology machine) {
        throw new UnsupportedOperationException(Routine.NUMA_LEVELS.id());
    }

    /**
     * The masks {@code for_each_numa_hop_mask(mask, node)} yields, in order: each one cumulative,
     * holding the CPUs within one more hop of {@code node} than the one before.
     *
     * <p>Example: {@code hopMasks(k, m, 1)} returns {@code [4-7, 0-7]}.
     *
     * @param kernel  the claimed release (6.3 or later: the iterator came with 06ac01721f7d)
     * @param machine the machine
     * @param node    the node the hops are counted from, or {@code NUMA_NO_NODE} (-1)
     * @return the masks in the order the loop sees them; an empty list when the loop runs no
     *         iteration
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when hop-masks is not claimed (the default)
     */
    default List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        throw new UnsupportedOperationException(Routine.HOP_MASKS.id());
    }

    /**
     * {@code sched_numa_find_closest(cpus, cpu)} called once: a CPU of {@code cpus} on the node of
     * {@code cpu} or, failing that, on the nearest node that has one. From 6.16 the answer depends
     * on the calling CPU's {@code distribute_cpu_mask_prev} (HOP-10): this is the call made on a
     * CPU that has not called a distribute function since boot (state 0).
     *
     * <p>Example: {@code numaClosest(k, m, CpuSet.of(2), 6)} returns {@code 2}; with
     * {@code CpuSet.EMPTY} it returns "none", such as {@code 8}.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param cpus    the CPUs searched
     * @param cpu     the CPU to be close to
     * @return the CPU found, or "none": any value {@code >= machine.nrCpuIds()} when {@code cpus}
     *         holds no CPU the search reaches
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when numa-closest is not claimed (the default)
     */
    default int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        throw new UnsupportedOperationException(Routine.NUMA_CLOSEST.id());
    }

    /**
     * {@code sched_numa_find_closest} called {@code calls.size()} times in order on CPU
     * {@code callingCpu}, whose {@code distribute_cpu_mask_prev} is {@code prev} before the first
     * call (HOP-10). Each call sees the state the one before it left. Up to 6.15 the state plays
     * no part and the default answers each call with {@link #numaClosest}; an implementation
     * claiming 6.16 or later overrides it.
     *
     * <p>Example: {@code numaClosestCalls(k, m, 0, 0, List.of(new Call(CpuSet.of(2), 6)))} returns {@code {2}}.
     *
     * @param kernel     the claimed release
     * @param machine    the machine
     * @param callingCpu the CPU the calls are made on (its per-CPU state is the one that moves)
     * @param prev       that CPU's {@code distribute_cpu_mask_prev} before the first call
     * @param calls      the calls, each {@code (cpus, cpu)} as for {@link #numaClosest}
     * @return one answer per call, in order; an element {@code >= machine.nrCpuIds()} is "none"
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException for a 6.16 or later release unless overridden
     */
    default int[] numaClosestCalls(KernelRelease kernel, Topology machine, int callingCpu, int prev,
                                   List<dev.numaspread.model.numa.NumaClosest.Call> calls) {
        if (kernel.atLeast(6, 16)) throw new UnsupportedOperationException(Routine.NUMA_CLOSEST.id() + " (a sequence of calls, 6.16+)");
        int[] out = new int[calls.size()];
        for (int i = 0; i < out.length; i++) out[i] = numaClosest(kernel, machine, calls.get(i).cpus(), calls.get(i).cpu());
        return out;
    }

    /**
     * {@code sched_numa_find_nth_cpu(cpus, n, node)}: the {@code n}-th CPU of {@code cpus},
     * counting the CPUs nearest to {@code node} first, hop by hop.
     *
     * <p>Example: {@code numaNth(k, m, CpuSet.parseList("0-7"), 0, 1)} returns {@code 4}.
     *
     * @param kernel  the claimed release (6.3 or later)
     * @param machine the machine
     * @param cpus    the CPUs counted
     * @param n       the index, from 0
     * @param node    the node counted from, or {@code NUMA_NO_NODE} (-1)
     * @return the CPU, or "none": any value {@code >= machine.nrCpuIds()} when {@code cpus} has
     *         {@code n} or fewer CPUs
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when numa-nth is not claimed (the default)
     */
    default int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        throw new UnsupportedOperationException(Routine.NUMA_NTH.id());
    }

    /**
     * {@code numa_nearest_node(node, N_CPU)}: {@code node} itself if it has CPUs, else the nearest
     * node that has.
     *
     * <p>Example: {@code numaNearestNode(k, m, 1)} returns {@code 1}.
     *
     * @param kernel  the claimed release (6.7 or later)
     * @param machine the machine
     * @param node    a node of the machine, or {@code NUMA_NO_NODE} (-1)
     * @return a node id; {@code NUMA_NO_NODE} (-1) is the kernel's "none" (it comes back for
     *         {@code NUMA_NO_NODE}, or when no node has CPUs)
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when numa-nearest-node is not claimed (the default)
     */
    default int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        throw new UnsupportedOperationException(Routine.NUMA_NEAREST_NODE.id());
    }

    // ------------------------------------------------------------ mlx5 (spec/mlx5.md)

    /**
     * The CPU of each of {@code count} completion vectors under the 2022 mlx5 patch (never merged
     * in this form): NUMA-distance order with a fall-back to classic local spread (MLX-3).
     *
     * <p>Example: {@code mlx5NumaDistanceCpus(k, m, 1, 3)} returns {@code {4, 5, 6}}.
     *
     * @param kernel  the claimed release the patch is applied to
     * @param machine the machine
     * @param node    the NIC's node, or {@code NUMA_NO_NODE} (-1)
     * @param count   how many completion vectors, {@code >= 1}
     * @return {@code count} CPU ids, element {@code i} for vector {@code i}; no "none"
     * @throws dev.numaspread.model.kernel.KernelBug where the patched code would fail
     * @throws UnsupportedOperationException when mlx5-numa-distance is not claimed (the default)
     */
    default int[] mlx5NumaDistanceCpus(KernelRelease kernel, Topology machine, int node, int count) {
        throw new UnsupportedOperationException(Routine.MLX5_NUMA_DISTANCE.id());
    }

    /**
     * The CPU of each of {@code count} completion IRQs as the release's mlx5 chooses it (local
     * spread before 6.3, hop masks from it).
     *
     * <p>Example: {@code mlx5CompIrqCpus(k, m, 1, 3)} returns {@code {4, 5, 6}}.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param node    the NIC's node, or {@code NUMA_NO_NODE} (-1)
     * @param count   how many completion IRQs, {@code >= 1}
     * @return {@code count} CPU ids, element {@code i} for IRQ {@code i}; no "none"
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when mlx5-comp-irqs is not claimed (the default)
     */
    default int[] mlx5CompIrqCpus(KernelRelease kernel, Topology machine, int node, int count) {
        // Alike on purpose (duplicates, issue 26) with the lines below: the SPI's defaults, one per routine.
        throw new UnsupportedOperationException(Routine.MLX5_COMP_IRQS.id());
    }

    // ------------------------------------------------------------ NIC drivers (spec/nic.md)

    /**
     * virtio-net's queue IRQs and XPS ({@code virtnet_set_affinity()}) for a device offering
     * {@code queues} queue pairs: vector 0 the config IRQ, then the receive and the transmit IRQ
     * of each pair; the pairs in use get consecutive groups of online CPUs, forced (NIC-2, NIC-3).
     *
     * <p>Example: {@code virtioNetIrqs(k, m, -1, 2)} returns IRQs {@code [config none none, rx 0
     * forced 0-3, tx 0 forced 0-3, rx 1 forced 4-7, tx 1 forced 4-7]} and XPS {@code [0-3 | 4-7]}.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1); virtio-net does not read it
     * @param queues  the queue pairs the device offers ({@code max_queue_pairs}), {@code >= 1}
     * @return every IRQ the driver requests in MSI-X vector order, each with its mask and how it is
     *         set, and the XPS mask of each transmit queue it configures; never "none"
     * @throws UnsupportedOperationException when virtio-net-irqs is not claimed (the default)
     */
    default NicQueues virtioNetIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        throw new UnsupportedOperationException(Routine.VIRTIO_NET_IRQS.id());
    }

    /**
     * ena's management and I/O IRQs for a device offering {@code queues} I/O queues: the driver
     * uses {@code min(queues, num_online_cpus(), 128)}; I/O IRQ {@code i} is forced to CPU id
     * {@code i mod num_online_cpus()} (NIC-4). No XPS.
     *
     * <p>Example: {@code enaIrqs(k, m, -1, 2)} returns IRQs {@code [management forced 0, rx-tx 0
     * forced 0, rx-tx 1 forced 1]} and no XPS.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1); ena does not read it
     * @param queues  the I/O queues the device offers, {@code >= 1}
     * @return the management IRQ (vector 0), then one IRQ per I/O queue; an empty XPS list
     * @throws UnsupportedOperationException when ena-irqs is not claimed (the default)
     */
    default NicQueues enaIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        throw new UnsupportedOperationException(Routine.ENA_IRQS.id());
    }

    /**
     * gve's notify-block IRQs and XPS for a device on {@code node} with {@code queues} queue
     * pairs: the transmit blocks, the receive blocks, then the management IRQ (NIC-5, NIC-6).
     *
     * <p>Example: {@code gveIrqs(k, m, 1, 1)} returns IRQs {@code [tx 0 forced 0, rx 0 forced 0,
     * management none none]} and XPS {@code [0]}; in 7.3 the blocks are on CPU 4, node 1's first.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1)
     * @param queues  the queue pairs (half the notify blocks), {@code >= 1}
     * @return {@code 2 x queues + 1} IRQs in vector order, the management IRQ's mask empty (it is
     *         not placed), and one XPS mask per transmit queue
     * @throws UnsupportedOperationException when gve-irqs is not claimed (the default)
     */
    default NicQueues gveIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        throw new UnsupportedOperationException(Routine.GVE_IRQS.id());
    }

    /**
     * ice's queue-vector IRQs and XPS for {@code queues} vectors: CPU {@code v} if online before
     * 6.15 (forced until 6.10, a hint from 6.11), {@code cpumask_local_spread(v, 0)} forced from
     * 6.15 (NIC-7, NIC-8).
     *
     * <p>Example: {@code iceIrqs(k, m, 1, 2)} returns IRQs {@code [rx-tx 0 hint 0, rx-tx 1 hint 1]}
     * and XPS {@code [0 | 1]}.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1); no release reads it
     * @param queues  the queue vectors, {@code >= 1}
     * @return one IRQ per vector and one XPS mask per transmit queue, a mask empty where CPU
     *         {@code v} is offline (before 6.15)
     * @throws IllegalArgumentException from 6.15 on a machine without node 0 (the kit never asks)
     * @throws UnsupportedOperationException when ice-irqs is not claimed (the default)
     */
    default NicQueues iceIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        throw new UnsupportedOperationException(Routine.ICE_IRQS.id());
    }

    /**
     * i40e's queue-vector IRQs and XPS for {@code queues} vectors: the hint
     * {@code cpumask_local_spread(v, NUMA_NO_NODE)} only (NIC-9).
     *
     * <p>Example: {@code i40eIrqs(k, m, 1, 2)} returns IRQs {@code [rx-tx 0 hint 0, rx-tx 1 hint 1]}
     * and XPS {@code [0 | 1]}.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1); i40e does not read it
     * @param queues  the queue vectors, {@code >= 1}
     * @return one IRQ per vector and one XPS mask per transmit queue; there is no "none"
     * @throws UnsupportedOperationException when i40e-irqs is not claimed (the default)
     */
    default NicQueues i40eIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        throw new UnsupportedOperationException(Routine.I40E_IRQS.id());
    }

    /**
     * bnxt's completion-ring IRQs and XPS for a device on {@code node} with {@code queues} rings:
     * {@code cpumask_local_spread(i, node)}, forced until 6.12, a hint from 6.13; XPS from 6.10
     * (NIC-10, NIC-11).
     *
     * <p>Example: {@code bnxtIrqs(k, m, 1, 2)} returns IRQs {@code [rx-tx 0 forced 4, rx-tx 1 forced 5]}
     * and XPS {@code [0,2,4,6 | 1,3,5,7]}.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1)
     * @param queues  the completion rings, {@code >= 1}
     * @return one IRQ per ring; one XPS mask per transmit queue from 6.10 (empty for a queue no
     *         online CPU reaches), and an empty XPS list before 6.10
     * @throws dev.numaspread.model.kernel.KernelBug where the release's local spread fails (a CPU-less node in 6.3 - 6.6)
     * @throws UnsupportedOperationException when bnxt-irqs is not claimed (the default)
     */
    default NicQueues bnxtIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        throw new UnsupportedOperationException(Routine.BNXT_IRQS.id());
    }

    // ------------------------------------------------------------ grouping (spec/group-cpus.md, spec/blk-mq.md)

    /**
     * {@code group_cpus_evenly(numgrps)}: the possible CPUs shared among {@code numgrps} groups,
     * node by node, SMT siblings (and from 7.0 clusters) kept together.
     *
     * <p>Example: {@code groupCpusEvenly(k, m, 2)} returns {@code Optional.of([0-3, 4-7])}.
     *
     * @param kernel  the claimed release
     * @param machine the machine
     * @param numgrps how many groups, {@code >= 1}
     * @return the groups in order, exactly {@code numgrps} of them, a group the kernel leaves empty
     *         being an empty set; or {@link Optional#empty()} for the kernel's NULL
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when group-cpus is not claimed (the default)
     */
    default Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        throw new UnsupportedOperationException(Routine.GROUP_CPUS.id());
    }

    /**
     * The {@code *nummasks} that {@code group_cpus_evenly(numgrps, &nummasks)} sets from 6.17
     * (GRP-14). The kit asks it for claims of 6.17 and later.
     *
     * <p>Example: {@code groupCpusEvenlyNummasks(KernelRelease.of(7, 3), m, 2)} returns {@code OptionalInt.of(2)}.
     *
     * @param kernel  the claimed release (6.17 or later)
     * @param machine the machine
     * @param numgrps how many groups were asked for, {@code >= 1}
     * @return the number of masks the call reports; {@link java.util.OptionalInt#empty()} when it
     *         returns NULL
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when group-cpus is not claimed for 6.17+ (the default)
     */
    default java.util.OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        throw new UnsupportedOperationException(Routine.GROUP_CPUS.id() + " (nummasks, 6.17+)");
    }

    /**
     * {@code blk_mq_map_queues()}: the hardware queue each possible CPU submits to.
     *
     * <p>Example: {@code blkMqMapQueues(k, m, 2, 0)} returns {@code {0, 0, 0, 0, 1, 1, 1, 1}}.
     *
     * @param kernel      the claimed release
     * @param machine     the machine
     * @param nrQueues    how many hardware queues, {@code >= 1}
     * @param queueOffset the map's {@code queue_offset}, added to every queue number
     * @return an array of length {@code machine.nrCpuIds()}: element {@code cpu} is the queue of
     *         possible CPU {@code cpu}, {@code -1} for an id that is not possible; there is no
     *         "none", every possible CPU gets a queue
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when blk-mq-map is not claimed (the default)
     */
    default int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        throw new UnsupportedOperationException(Routine.BLK_MQ_MAP.id());
    }

    /**
     * {@code irq_create_affinity_masks(nvecs, affd)}: each vector's mask and managed flag.
     *
     * <p>Example: {@code irqCreateAffinityMasks(k, m, 3, 1, 0, List.of())} returns
     * {@code Optional.of([(0-7, unmanaged), (0-3, managed), (4-7, managed)])}.
     *
     * @param kernel      the claimed release
     * @param machine     the machine
     * @param nvecs       how many vectors, {@code >= 1}
     * @param preVectors  {@code affd->pre_vectors}: leading vectors left out of spreading
     * @param postVectors {@code affd->post_vectors}: trailing vectors left out of spreading
     * @param setSizes    the interrupt sets ({@code calc_sets}); empty means the default single set
     *                    of {@code nvecs - preVectors - postVectors} vectors
     * @return {@code nvecs} descriptors in vector order; or {@link Optional#empty()} for the
     *         kernel's NULL (no vector left for spreading, or a grouping that failed)
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when irq-affinity-masks is not claimed (the default)
     */
    default Optional<List<dev.numaspread.model.group.IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(
            KernelRelease kernel, Topology machine, int nvecs, int preVectors, int postVectors, List<Integer> setSizes) {
        throw new UnsupportedOperationException(Routine.IRQ_AFFINITY_MASKS.id());
    }

    // ------------------------------------------------------------ MANA and hotplug (spec/sibling-spread.md, spec/hotplug.md)

    /**
     * MANA's per-IRQ affinity setup for IRQs {@code 0 .. len-1} of a device on {@code node}: before
     * 6.9 one CPU per IRQ from {@code cpumask_local_spread}, from 6.9 {@code irq_setup()}. Every
     * kernel service, {@code irq_set_affinity_and_hint} included, must go through {@code machine}:
     * the kit runs this under hotplug events and judges what the machine recorded.
     * {@code irq_setup()} takes no lock itself; the kit holds {@code cpus_read_lock()} around the
     * call where the rule says its caller does.
     *
     * <p>Example: {@code irqSetup(k, Machine.boot(m, k), 1, 3, false)} returns {@code [4, 5, 6]}.
     *
     * @param kernel       the claimed release; equals {@code machine.kernel()}
     * @param machine      the running machine: its services are the only way to read CPUs and set affinities
     * @param node         the device's node, or {@code NUMA_NO_NODE} (-1)
     * @param len          how many IRQs, {@code >= 1}
     * @param skipFirstCpu 6.17+ only: {@code irq_setup()}'s {@code skip_first_cpu}, the first core of hop 0 skipped once (SIB-7)
     * @return the affinities of the IRQs it assigned, in IRQ order; IRQs it leaves untouched are
     *         not in the list
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails (an empty mask walked)
     * @throws UnsupportedOperationException when irq-setup is not claimed (the default)
     */
    default List<CpuSet> irqSetup(KernelRelease kernel, Machine machine, int node, int len, boolean skipFirstCpu) {
        throw new UnsupportedOperationException(Routine.IRQ_SETUP.id());
    }

    /**
     * MANA's {@code mana_gd_setup_irqs()} (with {@code mana_gd_setup_hwc_irqs()} and, 6.17+, the
     * dynamic MSI-X path) for a device on {@code node}. The granted vector count and
     * {@code pci_msix_can_alloc_dyn()} are the machine's ({@link Machine.Config}); locking,
     * sizing and affinities go through {@code machine}.
     *
     * <p>Example: {@code manaSetupIrqs(k, Machine.boot(m, k), 0)} returns {@code [0, 0, 1, 2, 3, 4, 5, 6, 7]} (the HWC, then a queue per CPU).
     *
     * @param kernel  the claimed release; equals {@code machine.kernel()}
     * @param machine the running machine, with its MSI-X configuration
     * @param node    the device's node, or {@code NUMA_NO_NODE} (-1)
     * @return the affinity of every vector it allocated, vector 0 (the HWC) first; a vector left
     *         without affinity is an empty set; an allocation failure ({@code -ENOSPC}) gives an
     *         empty list
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails
     * @throws UnsupportedOperationException when mana-setup-irqs is not claimed (the default)
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
     *
     * <p>Example: {@code groupCpusEvenly(k, Machine.boot(m, k), 2)} returns {@code Optional.of([0-3, 4-7])}.
     *
     * @param kernel  the claimed release; equals {@code machine.kernel()}
     * @param machine the running machine
     * @param numgrps how many groups, {@code >= 1}
     * @return as {@link #groupCpusEvenly(KernelRelease, Topology, int)}: the groups, or empty for NULL
     * @throws dev.numaspread.model.kernel.KernelBug where the release itself fails (a lock taken twice)
     * @throws UnsupportedOperationException when group-cpus is not claimed (the default)
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
     *
     * <p>Example: {@code pagePool(k, m, params).apply(new Action.Alloc(false))} answers with the page
     * it allocated and the pool's state after it.
     *
     * @param kernel  the claimed release (5.6 or later)
     * @param machine the machine, whose nodes' memory the pages come from
     * @param params  {@code page_pool_params}: node, CPU, cache and ring sizes, driver behaviour
     * @return a fresh session for this pool, never shared with another call; never "none"
     * @throws IllegalArgumentException when the params cannot create a pool (the kit never asks)
     * @throws UnsupportedOperationException when page-pool is not claimed (the default)
     */
    default PagePoolSession pagePool(KernelRelease kernel, Topology machine, dev.numaspread.model.pagepool.PagePool.Params params) {
        throw new UnsupportedOperationException(Routine.PAGE_POOL.id());
    }
}
