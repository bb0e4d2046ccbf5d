package dev.numaspread.examples;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The bundled example: an implementation written as a third party would, from the kernel sources'
 * documented behaviour and never from the reference model. It sees a machine only through the SPI
 * and turns it into kernel-style bitmaps ({@link KernelView}); each routine family lives in its own
 * class, named after the kernel file it follows.
 *
 * <p>It claims what it reproduces for Linux 6.1 (6.1.192, Debian 6.1.0-57), 6.12 (6.12.117) and
 * 7.3 (7.3.4), the release users run now:
 * <ul>
 *   <li>6.1, 6.12 and 7.3: {@code local-spread}, {@code numa-levels}, {@code numa-closest} (from
 *       6.16 a sequence of calls on one calling CPU, HOP-10), {@code group-cpus} (from 7.0 cluster
 *       by cluster, from 6.17 with {@code nummasks}), {@code blk-mq-map} (from 6.17 by
 *       {@code nummasks}), {@code page-pool} ({@link PagePool}, a pool that follows its NAPI's node);</li>
 *   <li>6.12 and 7.3: {@code hop-masks}, {@code numa-nth} (both 6.3+), {@code numa-nearest-node}
 *       (6.7+), {@code mlx5-comp-irqs};</li>
 *   <li>6.1 and 7.3: {@code mlx5-numa-distance}, the 2022 patch as on its base (5.19) whatever the
 *       release: classic {@code cpumask_local_spread()} and the lowest-id closest CPU.</li>
 *   <li>7.3 only: {@code irq-affinity-masks} ({@link IrqAffinity}).</li>
 *   <li>6.1, 6.12 and 7.3: the NIC drivers of spec/nic.md, {@code virtio-net-irqs}, {@code ena-irqs},
 *       {@code gve-irqs}, {@code ice-irqs}, {@code i40e-irqs} and {@code bnxt-irqs} ({@link NetDrivers}),
 *       written from spec/nic.md alone;</li>
 *   <li>6.9, 6.12 and 7.3: {@code irq-setup} ({@code skip_first_cpu} from 6.17), {@code mana-setup-irqs}
 *       (MANA, {@link GdmaMain}; from 6.17 sized before the lock, with the dynamic MSI-X path, and
 *       from 7.2 one queue per online CPU), which run on a {@link Machine} and call every kernel
 *       service through it.</li>
 * </ul>
 * The 7.3 parts were written from spec/ alone (spec/group-cpus.md, spec/blk-mq.md,
 * spec/topology.md, spec/numa-hops.md, spec/sibling-spread.md, spec/hotplug.md), as a third party
 * would write them.
 * A routine called for a release it does not claim answers {@link UnsupportedOperationException}.
 */
public final class KernelStyleSpread implements Implementation {
    /** {@code distribute_cpu_mask_prev} of a CPU that has not called a distribute function since boot (the SPI's state 0). */
    private static final int BOOT_PREV = 0;
    /** The release the 2022 mlx5 patch (seed 000) was written against (spec/mlx5.md MLX-2). */
    private static final KernelRelease PATCH_BASE = KernelRelease.of(5, 19);

    private static final List<Claim> CLAIMS = List.of(
            Claim.of("local-spread", "6.1"), Claim.of("local-spread", "6.12"), Claim.of("local-spread", "7.3"),
            Claim.of("numa-levels", "6.1"), Claim.of("numa-levels", "6.12"), Claim.of("numa-levels", "7.3"),
            Claim.of("numa-closest", "6.1"), Claim.of("numa-closest", "6.12"), Claim.of("numa-closest", "7.3"),
            Claim.of("hop-masks", "6.12"), Claim.of("hop-masks", "7.3"),
            Claim.of("numa-nth", "6.12"), Claim.of("numa-nth", "7.3"),
            Claim.of("numa-nearest-node", "6.12"), Claim.of("numa-nearest-node", "7.3"),
            Claim.of("mlx5-numa-distance", "6.1"), Claim.of("mlx5-numa-distance", "7.3"),
            Claim.of("mlx5-comp-irqs", "6.12"), Claim.of("mlx5-comp-irqs", "7.3"),
            Claim.of("group-cpus", "6.1"), Claim.of("group-cpus", "6.12"), Claim.of("group-cpus", "7.3"),
            Claim.of("blk-mq-map", "6.1"), Claim.of("blk-mq-map", "6.12"), Claim.of("blk-mq-map", "7.3"),
            Claim.of("irq-affinity-masks", "7.3"),
            Claim.of("irq-setup", "6.9"), Claim.of("irq-setup", "6.12"), Claim.of("irq-setup", "7.3"),
            Claim.of("mana-setup-irqs", "6.9"), Claim.of("mana-setup-irqs", "6.12"), Claim.of("mana-setup-irqs", "7.3"),
            Claim.of("page-pool", "6.1"), Claim.of("page-pool", "6.12"), Claim.of("page-pool", "7.3"),
            Claim.of("virtio-net-irqs", "6.1"), Claim.of("virtio-net-irqs", "6.12"), Claim.of("virtio-net-irqs", "7.3"),
            Claim.of("ena-irqs", "6.1"), Claim.of("ena-irqs", "6.12"), Claim.of("ena-irqs", "7.3"),
            Claim.of("gve-irqs", "6.1"), Claim.of("gve-irqs", "6.12"), Claim.of("gve-irqs", "7.3"),
            Claim.of("ice-irqs", "6.1"), Claim.of("ice-irqs", "6.12"), Claim.of("ice-irqs", "7.3"),
            Claim.of("i40e-irqs", "6.1"), Claim.of("i40e-irqs", "6.12"), Claim.of("i40e-irqs", "7.3"),
            Claim.of("bnxt-irqs", "6.1"), Claim.of("bnxt-irqs", "6.12"), Claim.of("bnxt-irqs", "7.3"));

    @Override
    public String name() {
        return "kernel-style example";
    }

    @Override
    public List<Claim> claims() {
        return CLAIMS;
    }

    @Override
    public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        KernelView k = view(Routine.LOCAL_SPREAD, kernel, machine);
        return LocalSpread.localSpreadCpus(kernel, k, new NumaDistance(k, kernel), node, count);
    }

    @Override
    public int[] numaLevels(KernelRelease kernel, Topology machine) {
        return new NumaDistance(view(Routine.NUMA_LEVELS, kernel, machine), kernel).levels();
    }

    @Override
    public List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        KernelView k = view(Routine.HOP_MASKS, kernel, machine);
        List<CpuSet> out = new ArrayList<>();
        for (long[] mask : new NumaDistance(k, kernel).hopMasks(node)) out.add(k.cpuSet(mask));
        return out;
    }

    @Override
    public int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        return numaClosestCalls(kernel, machine, cpu, BOOT_PREV, List.of(new NumaClosest.Call(cpus, cpu)))[0];
    }

    /**
     * Up to 6.15 each call answers alone (HOP-9); from 6.16 each answer is the calling CPU's new
     * {@code distribute_cpu_mask_prev} unless it is none (HOP-10). All calls run on
     * {@code callingCpu}, so one state value is all the sequence needs.
     */
    @Override
    public int[] numaClosestCalls(KernelRelease kernel, Topology machine, int callingCpu, int prev, List<NumaClosest.Call> calls) {
        KernelView k = view(Routine.NUMA_CLOSEST, kernel, machine);
        NumaDistance numa = new NumaDistance(k, kernel);
        int[] answers = new int[calls.size()];
        for (int i = 0; i < answers.length; i++) {
            int cpu = calls.get(i).cpu();
            if (cpu < 0 || cpu >= k.nrCpuIds || k.cpuToNode[cpu] < 0)
                throw new IllegalArgumentException("numaClosest: cpu " + cpu + " is not possible on " + machine.name()
                        + "; expected a possible CPU");
            long[] cpus = k.bitmap(calls.get(i).cpus());
            if (kernel.before(6, 16)) {
                answers[i] = numa.findClosest(cpus, cpu);
            } else {
                answers[i] = numa.findClosestDistribute(cpus, cpu, prev);
                if (answers[i] < k.nrCpuIds) prev = answers[i];
            }
        }
        return answers;
    }

    @Override
    public int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        KernelView k = view(Routine.NUMA_NTH, kernel, machine);
        return new NumaDistance(k, kernel).findNthCpu(kernel, k.bitmap(cpus), n, node);
    }

    @Override
    public int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        return new NumaDistance(view(Routine.NUMA_NEAREST_NODE, kernel, machine)).numaNearestNode(node);
    }

    /**
     * The 2022 patch never merged, so it behaves as on its base whatever the release claimed: 5.19's
     * levels, lowest-id closest CPU and classic local spread (MLX-2, MLX-7).
     */
    @Override
    public int[] mlx5NumaDistanceCpus(KernelRelease kernel, Topology machine, int node, int count) {
        KernelView k = view(Routine.MLX5_NUMA_DISTANCE, kernel, machine);
        return Mlx5.mlx5NumaDistanceCpus(PATCH_BASE, k, new NumaDistance(k), node, count);
    }

    @Override
    public int[] mlx5CompIrqCpus(KernelRelease kernel, Topology machine, int node, int count) {
        KernelView k = view(Routine.MLX5_COMP_IRQS, kernel, machine);
        return Mlx5.mlx5CompIrqCpus(kernel, k, new NumaDistance(k, kernel), node, count);
    }

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        KernelView k = view(Routine.GROUP_CPUS, kernel, machine);
        return GroupCpus.groupCpusEvenly(kernel, k, numgrps).map(grouping -> {
            List<CpuSet> groups = new ArrayList<>(grouping.masks().length);
            for (long[] m : grouping.masks()) groups.add(k.cpuSet(m));
            return groups;
        });
    }

    @Override
    public OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        claimed(Routine.GROUP_CPUS, kernel);
        if (kernel.before(6, 17))
            throw new UnsupportedOperationException("group_cpus_evenly() reports nummasks from 6.17 (b6139a6abf67); asked for Linux " + kernel);
        Optional<GroupCpus.Grouping> grouping = GroupCpus.groupCpusEvenly(kernel, view(machine), numgrps);
        return grouping.isEmpty() ? OptionalInt.empty() : OptionalInt.of(grouping.get().nummasks());
    }

    /**
     * On a running machine: 6.3 - 6.5 hold the hotplug lock around the grouping; 6.1 (the stable
     * backport) and 6.6+ work on a snapshot of {@code cpu_present_mask} and take no lock
     * (spec/hotplug.md HP-6).
     */
    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Machine machine, int numgrps) {
        boolean lock = kernel.atLeast(6, 3) && kernel.before(6, 6);
        if (lock) machine.cpusReadLock();
        machine.cpuPresentMask();
        Optional<List<CpuSet>> groups = groupCpusEvenly(kernel, machine.topology(), numgrps);
        if (lock) machine.cpusReadUnlock();
        return groups;
    }

    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        return BlkMq.blkMqMapQueues(kernel, view(Routine.BLK_MQ_MAP, kernel, machine), nrQueues, queueOffset);
    }

    @Override
    public Optional<List<dev.numaspread.model.group.IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(
            KernelRelease kernel, Topology machine, int nvecs, int preVectors, int postVectors, List<Integer> setSizes) {
        return IrqAffinity.irqCreateAffinityMasks(kernel, view(Routine.IRQ_AFFINITY_MASKS, kernel, machine), nvecs, preVectors, postVectors, setSizes);
    }

    @Override
    public List<CpuSet> irqSetup(KernelRelease kernel, Machine machine, int node, int len, boolean skipFirstCpu) {
        claimed(Routine.IRQ_SETUP, kernel);
        int[] irqs = new int[len];
        for (int i = 0; i < len; i++) irqs[i] = i;
        return GdmaMain.irqSetup(kernel, machine, irqs, node, skipFirstCpu);
    }

    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine machine, int node) {
        claimed(Routine.MANA_SETUP_IRQS, kernel);
        return GdmaMain.manaGdSetupIrqs(kernel, machine, node);
    }

    // ------------------------------------------------------------ NIC drivers (spec/nic.md, NetDrivers)

    @Override
    public NicQueues virtioNetIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return NetDrivers.virtnet(view(Routine.VIRTIO_NET_IRQS, kernel, machine), queues);
    }

    @Override
    public NicQueues enaIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return NetDrivers.ena(view(Routine.ENA_IRQS, kernel, machine), queues);
    }

    @Override
    public NicQueues gveIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return NetDrivers.gve(kernel, view(Routine.GVE_IRQS, kernel, machine), node, queues);
    }

    @Override
    public NicQueues iceIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        KernelView k = view(Routine.ICE_IRQS, kernel, machine);
        return NetDrivers.ice(kernel, k, new NumaDistance(k, kernel), queues);
    }

    @Override
    public NicQueues i40eIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        KernelView k = view(Routine.I40E_IRQS, kernel, machine);
        return NetDrivers.i40e(kernel, k, new NumaDistance(k, kernel), queues);
    }

    @Override
    public NicQueues bnxtIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        KernelView k = view(Routine.BNXT_IRQS, kernel, machine);
        return NetDrivers.bnxt(kernel, k, new NumaDistance(k, kernel), node, queues);
    }

    /** The claims as a set: every call asks, and the list is some fifty long. */
    private static final java.util.Set<Claim> CLAIMED = java.util.Set.copyOf(CLAIMS);

    /** The machine the kernel's tables were last built for, and the tables. */
    private record Booted(Topology machine, KernelView view) {}

    /** Set by whichever call built the tables last; calls may come from several threads. */
    private volatile Booted booted;

    /**
     * The kernel's tables of {@code machine}, built once per machine as the kernel builds them at
     * boot: the kit asks many questions of one machine in a row, and building the tables anew for
     * each was a fifth of the example's certification.
     */
    private KernelView view(Topology machine) {
        Booted b = booted;
        if (b != null && b.machine() == machine) return b.view();
        KernelView v = new KernelView(machine);
        booted = new Booted(machine, v);
        return v;
    }

    /** The kernel's tables of {@code machine} ({@link #view(Topology)}), once {@code routine} is known to be claimed for {@code kernel}. */
    private KernelView view(Routine routine, KernelRelease kernel, Topology machine) {
        claimed(routine, kernel);
        return view(machine);
    }

    private static void claimed(Routine routine, KernelRelease kernel) {
        if (!CLAIMED.contains(new Claim(routine, kernel)))
            throw new UnsupportedOperationException(routine.id() + " is not claimed for Linux " + kernel + " by the kernel-style example");
    }

    @Override
    public PagePoolSession pagePool(KernelRelease kernel, Topology machine, dev.numaspread.model.pagepool.PagePool.Params params) {
        KernelView k = view(Routine.PAGE_POOL, kernel, machine);
        boolean[] memory = new boolean[k.nrNodeIds];
        for (int n = 0; n < k.nrNodeIds; n++) memory[n] = k.nodeExists[n] && !machine.isMemoryless(n);
        return new PagePool(k, memory, params.haveMemorylessNodes(), kernel.atLeast(5, 13), params);
    }
}
