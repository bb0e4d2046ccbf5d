package dev.numaspread.conformance.spi;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.numa.NumaHops;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.numa.NumaNearestNode;
import dev.numaspread.model.numa.NumaNth;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.spread.LocalSpreadNearestNode;
import dev.numaspread.model.spread.Mlx5;
import dev.numaspread.model.nic.Bnxt;
import dev.numaspread.model.nic.Ena;
import dev.numaspread.model.nic.Gve;
import dev.numaspread.model.nic.I40e;
import dev.numaspread.model.nic.Ice;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.VirtioNet;
import dev.numaspread.model.siblingspread.SiblingSpread;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference model seen through the SPI: the oracle, and the implementation the features run
 * against by default. It claims every routine it models for every release it models.
 */
public final class ReferenceModel implements Implementation {

    @Override
    public String name() {
        return "numaspread reference model";
    }

    @Override
    public List<Claim> claims() {
        List<Claim> claims = new ArrayList<>();
        // Each family adds its routines and releases here.
        // Local spread, NUMA and mlx5 (spec/local-spread.md, numa-levels.md, numa-hops.md, mlx5.md).
        for (KernelRelease k : modelledReleases()) {
            claims.add(new Claim(Routine.LOCAL_SPREAD, k));
            claims.add(new Claim(Routine.LOCAL_SPREAD_NEAREST_NODE, k));
            claims.add(new Claim(Routine.NUMA_LEVELS, k));
            claims.add(new Claim(Routine.MLX5_NUMA_DISTANCE, k));
            claims.add(new Claim(Routine.MLX5_COMP_IRQS, k));
            if (k.atLeast(5, 5)) claims.add(new Claim(Routine.NUMA_CLOSEST, k));
            if (k.atLeast(6, 3)) claims.add(new Claim(Routine.HOP_MASKS, k));
            if (k.atLeast(6, 3)) claims.add(new Claim(Routine.NUMA_NTH, k));
            if (k.atLeast(6, 5)) claims.add(new Claim(Routine.NUMA_NEAREST_NODE, k));   // b1f099b1cf51: 6.7, 6.5.12, 6.6.y
        }
        for (KernelRelease k : GROUP_CPUS_RELEASES) claims.add(new Claim(Routine.GROUP_CPUS, k));
        for (KernelRelease k : BLK_MQ_MAP_RELEASES) claims.add(new Claim(Routine.BLK_MQ_MAP, k));
        for (KernelRelease k : GROUP_CPUS_RELEASES) claims.add(new Claim(Routine.IRQ_AFFINITY_MASKS, k));
        // MANA (spec/sibling-spread.md, spec/hotplug.md): the driver exists from 5.13; one CPU per
        // IRQ until 6.8, irq_setup() from 6.9.
        for (KernelRelease k : modelledReleases()) {
            if (!k.atLeast(5, 13)) continue;
            claims.add(new Claim(Routine.IRQ_SETUP, k));
            claims.add(new Claim(Routine.MANA_SETUP_IRQS, k));
        }
        // NIC drivers (spec/nic.md): from 6.1, the oldest release whose driver source was read.
        for (KernelRelease k : modelledReleases())
            if (k.compareTo(dev.numaspread.model.nic.NicQueues.SINCE) >= 0)
                for (Routine r : Family.NIC.routines()) claims.add(new Claim(r, k));
        // Page pool (spec/page-pool.md): the NUMA handling of 5.6 and later.
        for (KernelRelease k : modelledReleases())
            if (k.compareTo(dev.numaspread.model.pagepool.PagePool.SINCE) >= 0) claims.add(new Claim(Routine.PAGE_POOL, k));
        return claims;
    }

    /** Every release the model covers: {@link KernelRelease#OLDEST} to {@link KernelRelease#NEWEST}. */
    static List<KernelRelease> modelledReleases() {
        return KernelRelease.modelledReleases();
    }

    // ------------------------------------------------------------ local spread, NUMA, mlx5

    @Override
    public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return LocalSpread.localSpreadCpus(kernel, machine, node, count);
    }

    @Override
    public int[] localSpreadNearestNodeCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return LocalSpreadNearestNode.localSpreadNearestNodeCpus(kernel, machine, node, count);
    }

    @Override
    public int[] numaLevels(KernelRelease kernel, Topology machine) {
        return NumaLevels.of(kernel, machine).distances();
    }

    @Override
    public List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        return NumaHops.hopMasks(kernel, machine, node);
    }

    @Override
    public int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        return NumaClosest.numaClosest(kernel, machine, cpus, cpu);
    }

    @Override
    public int[] numaClosestCalls(KernelRelease kernel, Topology machine, int callingCpu, int prev, List<NumaClosest.Call> calls) {
        machine.nodeOf(callingCpu);   // a CPU of the machine; its state is prev
        return NumaClosest.numaClosestSequence(kernel, machine, calls, prev);
    }

    @Override
    public int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        return NumaNth.numaNth(kernel, machine, cpus, n, node);
    }

    @Override
    public int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        return NumaNearestNode.numaNearestNode(kernel, machine, node);
    }

    @Override
    public int[] mlx5NumaDistanceCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return Mlx5.mlx5NumaDistanceCpus(kernel, machine, node, count);
    }

    @Override
    public int[] mlx5CompIrqCpus(KernelRelease kernel, Topology machine, int node, int count) {
        // Alike on purpose (duplicates, issue 26) with the lines below: one model call per SPI method.
        return Mlx5.mlx5CompIrqCpus(kernel, machine, node, count);
    }

    // ------------------------------------------------------------ NIC drivers (spec/nic.md)

    @Override
    public NicQueues virtioNetIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return VirtioNet.virtioNetIrqs(kernel, machine, queues);
    }

    @Override
    public NicQueues enaIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return Ena.enaIrqs(kernel, machine, queues);
    }

    @Override
    public NicQueues gveIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return Gve.gveIrqs(kernel, machine, node, queues);
    }

    @Override
    public NicQueues iceIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return Ice.iceIrqs(kernel, machine, node, queues);
    }

    @Override
    public NicQueues i40eIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return I40e.i40eIrqs(kernel, machine, queues);
    }

    @Override
    public NicQueues bnxtIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return Bnxt.bnxtIrqs(kernel, machine, node, queues);
    }

    // ------------------------------------------------------------ grouping (spec/group-cpus.md, spec/blk-mq.md)

    /** group_cpus_evenly: 6.1 (stable backport, kernel runs) and 6.3 to the newest modelled release. */
    static final List<KernelRelease> GROUP_CPUS_RELEASES = modelledReleases().stream()
            .filter(k -> k.equals(KernelRelease.of(6, 1)) || k.atLeast(6, 3)).toList();
    /** blk_mq_map_queues: legacy from 5.4 (present CPUs first), group_cpus_evenly from 6.3. */
    static final List<KernelRelease> BLK_MQ_MAP_RELEASES = modelledReleases().stream().filter(k -> k.atLeast(5, 4)).toList();

    @Override
    public java.util.Optional<List<dev.numaspread.model.cpu.CpuSet>> groupCpusEvenly(KernelRelease kernel,
            dev.numaspread.model.topology.Topology machine, int numgrps) {
        return dev.numaspread.model.group.GroupCpusEvenly.groupCpusEvenly(kernel, machine, numgrps);
    }

    @Override
    public java.util.OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        return dev.numaspread.model.group.GroupCpusEvenly.grouping(kernel, machine, numgrps)
                .map(g -> java.util.OptionalInt.of(g.nummasks())).orElse(java.util.OptionalInt.empty());
    }

    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, dev.numaspread.model.topology.Topology machine, int nrQueues, int queueOffset) {
        return dev.numaspread.model.group.BlkMqMap.blkMqMapQueues(kernel, machine, nrQueues, queueOffset);
    }

    @Override
    public java.util.Optional<List<dev.numaspread.model.group.IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(
            KernelRelease kernel, dev.numaspread.model.topology.Topology machine, int nvecs, int preVectors,
            int postVectors, List<Integer> setSizes) {
        return dev.numaspread.model.group.IrqAffinity.irqCreateAffinityMasks(kernel, machine, nvecs, preVectors, postVectors, setSizes);
    }

    // ------------------------------------------------------------ MANA and hotplug

    @Override
    public List<CpuSet> irqSetup(KernelRelease kernel, Machine machine, int node, int len, boolean skipFirstCpu) {
        requireMachineKernel(kernel, machine);
        return SiblingSpread.irqSetup(machine, node, len, skipFirstCpu);
    }

    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine machine, int node) {
        requireMachineKernel(kernel, machine);
        return SiblingSpread.manaSetupIrqs(machine, node);
    }

    /**
     * {@code group_cpus_evenly()} on a running machine, showing its lock: 6.3 to 6.5 hold
     * {@code cpus_read_lock()} around the grouping; 6.1 and from 6.6 it reads a snapshot of
     * {@code cpu_present_mask} instead (commit 0263f92fadbb "lib/group_cpus.c: avoid acquiring cpu
     * hotplug lock in group_cpus_evenly", 6.7, and its stable backports; HP-6).
     */
    @Override
    public java.util.Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Machine machine, int numgrps) {
        requireMachineKernel(kernel, machine);
        boolean locks = dev.numaspread.model.group.GroupCpusEvenly.takesHotplugLock(kernel);
        if (locks) machine.cpusReadLock();
        machine.cpuPresentMask();
        java.util.Optional<List<CpuSet>> groups = groupCpusEvenly(kernel, machine.topology(), numgrps);
        if (locks) machine.cpusReadUnlock();
        return groups;
    }

    // ------------------------------------------------------------ page pool

    @Override
    public PagePoolSession pagePool(KernelRelease kernel, dev.numaspread.model.topology.Topology machine,
                                    dev.numaspread.model.pagepool.PagePool.Params params) {
        return PagePoolSession.of(dev.numaspread.model.pagepool.PagePool.create(kernel, machine, params));
    }

    private static void requireMachineKernel(KernelRelease kernel, Machine machine) {
        if (!machine.kernel().equals(kernel))
            throw new IllegalArgumentException("machine runs Linux " + machine.kernel() + "; expected the claimed release " + kernel);
    }

}
