package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.siblingspread.SiblingSpread;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The second zoo, as the Reactive Streams TCK proves itself with correct publishers: implementations
 * that keep every contract (MUST) rule and differ from the kernel only where the spec leaves room
 * (EXACT rules): the order inside a ring, which CPU of the nearest level, which node a tie goes to,
 * how groups are numbered, the heapsort's tie order, which mask a queue past the CPUs takes, which
 * SMT sibling the HWC takes, the order of cores in a pass. Each must reach level MUST and fail only EXACT rules ({@code ExactZooTest}).
 *
 * <p>Each member claims a few routines at a few releases ({@link #claims}); everything it does not
 * override is the reference model's.
 */
final class ExactZoo {
    private ExactZoo() {}

    static final KernelRelease V6_1 = KernelRelease.of(6, 1), V6_5 = KernelRelease.of(6, 5), V6_12 = KernelRelease.of(6, 12),
            V6_17 = KernelRelease.of(6, 17), V5_19 = KernelRelease.of(5, 19);

    /** A member: the reference model for every routine, claims as given. */
    abstract static class Member implements Implementation {
        final ReferenceModel model = new ReferenceModel();
        private final List<Claim> claims;

        Member(List<Routine> routines, List<KernelRelease> kernels) {
            List<Claim> out = new ArrayList<>();
            for (Routine r : routines) for (KernelRelease k : kernels) if (model.claims().contains(new Claim(r, k))) out.add(new Claim(r, k));
            this.claims = List.copyOf(out);
        }

        @Override public String name() { return "exact zoo " + getClass().getSimpleName(); }
        @Override public List<Claim> claims() { return claims; }
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) { return model.localSpreadCpus(k, m, node, count); }
        @Override public int[] localSpreadNearestNodeCpus(KernelRelease k, Topology m, int node, int count) { return model.localSpreadNearestNodeCpus(k, m, node, count); }
        @Override public int[] numaLevels(KernelRelease k, Topology m) { return model.numaLevels(k, m); }
        @Override public List<CpuSet> hopMasks(KernelRelease k, Topology m, int node) { return model.hopMasks(k, m, node); }
        @Override public int numaClosest(KernelRelease k, Topology m, CpuSet cpus, int cpu) { return model.numaClosest(k, m, cpus, cpu); }
        @Override public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) { return model.numaNth(k, m, cpus, n, node); }
        @Override public int numaNearestNode(KernelRelease k, Topology m, int node) { return model.numaNearestNode(k, m, node); }
        @Override public int[] mlx5NumaDistanceCpus(KernelRelease k, Topology m, int node, int count) { return model.mlx5NumaDistanceCpus(k, m, node, count); }
        @Override public int[] mlx5CompIrqCpus(KernelRelease k, Topology m, int node, int count) { return model.mlx5CompIrqCpus(k, m, node, count); }
        @Override public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease k, Topology m, int numgrps) { return model.groupCpusEvenly(k, m, numgrps); }
        @Override public java.util.OptionalInt groupCpusEvenlyNummasks(KernelRelease k, Topology m, int numgrps) { return model.groupCpusEvenlyNummasks(k, m, numgrps); }
        @Override public int[] numaClosestCalls(KernelRelease k, Topology m, int callingCpu, int prev, List<dev.numaspread.model.numa.NumaClosest.Call> calls) {
            return model.numaClosestCalls(k, m, callingCpu, prev, calls);
        }
        @Override public int[] blkMqMapQueues(KernelRelease k, Topology m, int nrQueues, int offset) { return model.blkMqMapQueues(k, m, nrQueues, offset); }
        @Override public Optional<List<IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(KernelRelease k, Topology m, int nvecs, int pre, int post,
                                                                                         List<Integer> sets) {
            return model.irqCreateAffinityMasks(k, m, nvecs, pre, post, sets);
        }
        /** The member's own grouping, on a running machine as the kernel runs it: the lock in 6.3 - 6.5, the present mask read through the machine. */
        @Override public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease k, Machine m, int numgrps) {
            boolean locks = dev.numaspread.model.group.GroupCpusEvenly.takesHotplugLock(k);
            if (locks) m.cpusReadLock();
            m.cpuPresentMask();
            Optional<List<CpuSet>> groups = groupCpusEvenly(k, m.topology(), numgrps);
            if (locks) m.cpusReadUnlock();
            return groups;
        }
        @Override public List<CpuSet> irqSetup(KernelRelease k, Machine m, int node, int len, boolean skip) { return model.irqSetup(k, m, node, len, skip); }
        @Override public List<CpuSet> manaSetupIrqs(KernelRelease k, Machine m, int node) { return model.manaSetupIrqs(k, m, node); }
    }

    // ---------------------------------------------------------------- ring order (LS-6, LS-7, LS-8, HOP-7, MLX-4, MLX-5)

    /**
     * Every block the kernel orders by CPU id, in descending id instead: each ring of 6.3+ local
     * spread, the local and the other CPUs of the classic order, the online CPUs of NUMA_NO_NODE,
     * the rings of the n-th CPU and of mlx5's 6.3-6.11 hop walk. Blocks stay where they are, so
     * the rings still come nearest first, the local CPUs first, each online CPU once per period.
     */
    static final class RingsDescending extends Member {
        RingsDescending() {
            super(List.of(Routine.LOCAL_SPREAD, Routine.NUMA_NTH, Routine.MLX5_COMP_IRQS), List.of(V6_1, V6_5, V6_12));
        }

        @Override
        public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            int n = m.numOnlineCpus();
            int[] period = model.localSpreadCpus(k, m, node, n);
            for (int cpu : period) if (!m.online().contains(cpu)) return model.localSpreadCpus(k, m, node, count);   // no levels (LVL-4)
            return Delegating.wrap(reverseBlocks(period, blockKeys(k, m, node, period)), count);
        }

        /** Each entry's block: the ring (distance from the node whose rings are walked) from 6.3, local or not before. */
        private int[] blockKeys(KernelRelease k, Topology m, int node, int[] period) {
            int[] key = new int[period.length];
            if (node < 0) return key;                                   // NUMA_NO_NODE: one block
            if (k.before(6, 3)) {
                if (m.isCpuless(node)) return key;                      // classic: as NUMA_NO_NODE
                for (int i = 0; i < period.length; i++) key[i] = m.nodeOf(period[i]) == node ? 0 : 1;
                return key;
            }
            int from = m.isCpuless(node) ? model.numaNearestNode(k, m, node) : node;
            for (int i = 0; i < period.length; i++) key[i] = m.distance(from, m.nodeOf(period[i]));
            return key;
        }

        @Override
        public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) {
            if (node < 0 || m.isCpuless(node)) return model.numaNth(k, m, cpus, n, node);
            CpuSet usable = cpus.and(m.online());
            if (n >= usable.size()) return model.numaNth(k, m, cpus, n, node);
            Integer[] order = usable.stream().boxed().toArray(Integer[]::new);
            Arrays.sort(order, Comparator.<Integer>comparingInt(c -> m.distance(node, m.nodeOf(c))).thenComparing(Comparator.reverseOrder()));
            return order[n];
        }

        @Override
        public int[] mlx5CompIrqCpus(KernelRelease k, Topology m, int node, int count) {
            if (k.before(6, 3) || k.atLeast(6, 12)) return localSpreadCpus(k, m, node, count);   // the release's local spread
            if (node < 0 || m.isCpuless(node)) return model.mlx5CompIrqCpus(k, m, node, count);
            // The hop walk: the rings of local spread while CPUs last, CPU 0 past them (MLX-5).
            int[] out = model.mlx5CompIrqCpus(k, m, node, count);
            int walked = Math.min(count, m.numOnlineCpus());
            System.arraycopy(localSpreadCpus(k, m, node, walked), 0, out, 0, walked);
            return out;
        }
    }

    /** {@code period} with each maximal run of equal {@code key} reversed. */
    static int[] reverseBlocks(int[] period, int[] key) {
        int[] out = period.clone();
        for (int start = 0; start < out.length; ) {
            int end = start;
            while (end + 1 < out.length && key[end + 1] == key[start]) end++;
            for (int a = start, b = end; a < b; a++, b--) { int t = out[a]; out[a] = out[b]; out[b] = t; }
            start = end + 1;
        }
        return out;
    }

    /** 6.3+ local spread that takes a ring node by node, lowest node id first (the 2020 proposal's order inside a ring). */
    static final class RingsNodeByNode extends Member {
        RingsNodeByNode() {
            super(List.of(Routine.LOCAL_SPREAD), List.of(V6_12));
        }

        @Override
        public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            if (node < 0 || m.isCpuless(node)) return model.localSpreadCpus(k, m, node, count);
            return model.localSpreadNearestNodeCpus(k, m, node, count);
        }
    }

    // ---------------------------------------------------------------- which CPU of the nearest level (HOP-9, MLX-2)

    /** The closest CPU is the highest id of the nearest level, and the 2022 mlx5 patch is built on that. */
    static final class ClosestHighestId extends Member {
        ClosestHighestId() {
            super(List.of(Routine.NUMA_CLOSEST, Routine.MLX5_NUMA_DISTANCE), List.of(V6_1, V6_12));
        }

        @Override
        public int numaClosest(KernelRelease k, Topology m, CpuSet cpus, int cpu) {
            return highestOfNearestLevel(NumaLevels.of(k, m), m, cpus, cpu);
        }

        static int highestOfNearestLevel(NumaLevels levels, Topology m, CpuSet cpus, int cpu) {
            for (CpuSet mask : levels.masksOf(m.nodeOf(cpu))) {
                CpuSet hit = cpus.and(mask);
                if (!hit.isEmpty()) return hit.last();
            }
            return m.nrCpuIds();
        }

        @Override
        public int[] mlx5NumaDistanceCpus(KernelRelease k, Topology m, int node, int count) {
            if (count > m.numOnlineCpus() || count == 0) return model.mlx5NumaDistanceCpus(k, m, node, count);
            int[] out = new int[count];
            out[0] = model.mlx5NumaDistanceCpus(k, m, node, 1)[0];
            NumaLevels levels = NumaLevels.of(V5_19, m);                // the patch's base, as MLX-2 says
            CpuSet remaining = m.online().without(out[0]);
            for (int i = 1; i < count; i++) {
                out[i] = highestOfNearestLevel(levels, m, remaining, out[0]);
                remaining = remaining.without(out[i]);
            }
            return out;
        }
    }

    // ---------------------------------------------------------------- tie order of the nearest node (HOP-8, LS-9, HOP-7)

    /** A CPU-less node's nearest node with CPUs is the highest id among those at the smallest distance. */
    static final class CpulessTiesToHighest extends Member {
        CpulessTiesToHighest() {
            super(List.of(Routine.NUMA_NEAREST_NODE, Routine.LOCAL_SPREAD, Routine.NUMA_NTH), List.of(V6_12));
        }

        @Override
        public int numaNearestNode(KernelRelease k, Topology m, int node) {
            if (node < 0 || !m.isCpuless(node)) return node;
            int best = -1, bestD = Integer.MAX_VALUE;
            for (int n : m.nodeIds())
                if (!m.isCpuless(n) && m.distance(node, n) <= bestD) { best = n; bestD = m.distance(node, n); }
            return best;
        }

        @Override
        public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            if (node < 0 || !m.isCpuless(node)) return model.localSpreadCpus(k, m, node, count);
            int near = numaNearestNode(k, m, node);
            return near < 0 ? model.localSpreadCpus(k, m, node, count) : model.localSpreadCpus(k, m, near, count);
        }

        @Override
        public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) {
            if (node < 0 || !m.isCpuless(node)) return model.numaNth(k, m, cpus, n, node);
            int near = numaNearestNode(k, m, node);
            return near < 0 ? model.numaNth(k, m, cpus, n, node) : model.numaNth(k, m, cpus, n, near);
        }
    }

    // ---------------------------------------------------------------- NUMA levels and hop masks (LVL-1, HOP-4)

    /** 6.12 levels that still count the distances of CPU-less nodes (the 5.17 levels): extra levels, all ascending from 10. */
    static final class CpulessLevelsCounted extends Member {
        CpulessLevelsCounted() {
            super(List.of(Routine.NUMA_LEVELS), List.of(V6_12));
        }

        @Override
        public int[] numaLevels(KernelRelease k, Topology m) {
            return model.numaLevels(KernelRelease.of(5, 17), m);
        }
    }

    /** The hop walk skips a mask equal to the one before (an empty ring): still nested, first the node, last every online CPU. */
    static final class HopsWithoutRepeats extends Member {
        HopsWithoutRepeats() {
            super(List.of(Routine.HOP_MASKS), List.of(V6_12));
        }

        @Override
        public List<CpuSet> hopMasks(KernelRelease k, Topology m, int node) {
            List<CpuSet> out = new ArrayList<>();
            for (CpuSet mask : model.hopMasks(k, m, node)) if (out.isEmpty() || !out.get(out.size() - 1).equals(mask)) out.add(mask);
            return out;
        }
    }

    // ---------------------------------------------------------------- group numbering (GRP-10, MQ-8)

    /**
     * The present CPUs' groups numbered by their lowest CPU instead of the kernel's node order; the
     * groups of the CPUs that are not present stay where stage 2 put them. blk-mq's map follows the
     * member's own groups.
     */
    static final class GroupsNumberedByFirstCpu extends Member {
        GroupsNumberedByFirstCpu() {
            super(List.of(Routine.GROUP_CPUS, Routine.BLK_MQ_MAP), List.of(V6_12));
        }

        @Override
        public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease k, Topology m, int numgrps) {
            Optional<List<CpuSet>> kernel = model.groupCpusEvenly(k, m, numgrps);
            if (kernel.isEmpty()) return kernel;
            List<CpuSet> g = kernel.get();
            int filled = Math.min(numgrps, m.present().size());
            List<CpuSet> stageOne = new ArrayList<>();
            for (int i = 0; i < filled; i++) stageOne.add(g.get(i).and(m.present()));
            stageOne.sort(Comparator.comparingInt(CpuSet::first));
            List<CpuSet> out = new ArrayList<>();
            for (int i = 0; i < g.size(); i++) {
                CpuSet rest = g.get(i).andNot(m.present());
                out.add(i < filled ? stageOne.get(i).or(rest) : g.get(i));
            }
            return Optional.of(out);
        }

        @Override
        public int[] blkMqMapQueues(KernelRelease k, Topology m, int nrQueues, int offset) {
            if (nrQueues == 0 || k.before(6, 3) || k.atLeast(6, 17)) return model.blkMqMapQueues(k, m, nrQueues, offset);
            int[] map = new int[m.nrCpuIds()];
            Arrays.fill(map, -1);
            List<CpuSet> groups = groupCpusEvenly(k, m, nrQueues).orElseThrow();
            for (int q = 0; q < groups.size(); q++) for (int cpu : groups.get(q).toArray()) map[cpu] = offset + q;
            return map;
        }
    }

    /**
     * A member that answers grouping and the blk-mq map as {@code slipped} does: a member of the
     * known-bad zoo whose one slip breaks EXACT rules only. Its claims say which routines and
     * releases; everything else is the reference model's.
     */
    abstract static class SlipOf extends Member {
        private final Implementation slipped;

        SlipOf(Implementation slipped, Routine routine, KernelRelease... kernels) {
            super(List.of(routine), List.of(kernels));
            this.slipped = slipped;
        }

        @Override
        public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease k, Topology m, int numgrps) {
            return slipped.groupCpusEvenly(k, m, numgrps);
        }

        @Override
        public int[] blkMqMapQueues(KernelRelease k, Topology m, int nrQueues, int offset) {
            return slipped.blkMqMapQueues(k, m, nrQueues, offset);
        }
    }

    /** Nodes of equal size in node-id order (a stable sort) instead of the heapsort's order: the tie order of GRP-10. */
    static final class GroupTiesByNodeId extends SlipOf {
        GroupTiesByNodeId() {
            super(new StableSort(), Routine.GROUP_CPUS, V6_1, V6_12);
        }
    }

    /**
     * 7.x: a node's clusters of equal size in the order they were counted (a stable sort) instead
     * of the heapsort's: every cluster rule of the contract holds (GRP-11..GRP-13), the order of
     * GRP-15 does not.
     */
    static final class ClusterTiesAsCounted extends SlipOf {
        ClusterTiesAsCounted() {
            super(new ClustersStableSort(), Routine.GROUP_CPUS, KernelRelease.of(7, 3));
        }
    }

    /** 7.x: clusters dealt in the order they were counted, each with its share: the split cluster comes first, not last (GRP-15). */
    static final class ClustersInCountedOrder extends SlipOf {
        ClustersInCountedOrder() {
            super(new ClustersDealtAsCounted(), Routine.GROUP_CPUS, KernelRelease.of(7, 3));
        }
    }

    /**
     * 6.17+: blk_mq_map_queues() takes mask {@code q % numgrps} instead of {@code q % nummasks}, so
     * with more queues than CPUs the later queues keep their empty masks (the 6.16 map): every CPU
     * still has one queue in its node (MQ-1, MQ-3), only the reuse of MQ-7 is missing.
     */
    static final class MasksIndexedByNumgrps extends SlipOf {
        MasksIndexedByNumgrps() {
            super(new MasksByNumgrps(), Routine.BLK_MQ_MAP, V6_17, KernelRelease.of(7, 3));
        }
    }

    // ---------------------------------------------------------------- MANA (SIB-5..SIB-8, SIB-10, SIB-12)

    /** With more vectors than CPUs the HWC takes the highest online sibling of its core, not the lowest: SIB-9 holds, SIB-12 does not. */
    static final class HwcOnSiblingThread extends Member {
        HwcOnSiblingThread() {
            super(List.of(Routine.MANA_SETUP_IRQS), List.of(V6_12));
        }

        @Override
        public List<CpuSet> manaSetupIrqs(KernelRelease k, Machine m, int node) {
            return lockedSetup(m, node, cpu -> m.topologySiblingCpumask(cpu).last(), ExactZoo::irqSetupAscending);
        }
    }

    /**
     * {@code irq_setup()} that visits the cores of a pass from the highest CPU down; with more
     * vectors than CPUs the HWC takes the lowest online CPU of the core the queues start on, so it
     * still shares that core with vector 1.
     */
    static final class CoresDescending extends Member {
        CoresDescending() {
            super(List.of(Routine.IRQ_SETUP, Routine.MANA_SETUP_IRQS), List.of(V6_12, V6_17));
        }

        @Override
        public List<CpuSet> irqSetup(KernelRelease k, Machine m, int node, int len, boolean skipFirstCpu) {
            int before = m.affinityCalls().size();
            irqSetupDescending(m, SiblingSpreadZooBase.irqs(0, len), node, skipFirstCpu);
            return SiblingSpreadZooBase.since(m, before);
        }

        @Override
        public List<CpuSet> manaSetupIrqs(KernelRelease k, Machine m, int node) {
            if (k.before(6, 17)) return lockedSetup(m, node, firstCoreDescending(m, node), ExactZoo::irqSetupDescending);
            return setup617(m, node);
        }

        /** The HWC's CPU: the lowest online CPU of the first core the descending walk serves (the kernel's first CPU if none). */
        private static java.util.function.IntUnaryOperator firstCoreDescending(Machine m, int node) {
            return kernelCpu -> {
                List<CpuSet> hops = m.forEachNumaHopMask(node);
                if (hops.isEmpty() || hops.get(0).isEmpty()) return kernelCpu;
                return m.topologySiblingCpumask(hops.get(0).last()).first();
            };
        }

        // 6.17: sizing before the lock; with dynamic MSI-X the HWC alone, then the queues skipping its core (SIB-10, HP-4).
        private static List<CpuSet> setup617(Machine m, int node) {
            boolean dyn = m.pciMsixCanAllocDyn();
            int nvec = dyn ? m.pciAllocIrqVectors(1, 1) : m.pciAllocIrqVectors(2, Math.min(m.numOnlineCpus(), 64) + 1);
            if (nvec < 0) return List.of();
            m.cpusReadLock();
            int first = 0;
            if (nvec > m.numOnlineCpus()) {
                int cpu = firstCoreDescending(m, node).applyAsInt(m.cpumaskLocalSpread(0, node));
                m.irqSetAffinityAndHint(0, CpuSet.of(cpu));
                first = 1;
            }
            irqSetupDescending(m, SiblingSpreadZooBase.irqs(first, nvec), node, false);
            m.cpusReadUnlock();
            if (!dyn) return SiblingSpreadZooBase.affinities(m, nvec);
            int usable = Math.min(m.config().grantedVectors(), m.numOnlineCpus() + 1);
            int queues = usable - 1;
            m.cpusReadLock();
            irqSetupDescending(m, SiblingSpreadZooBase.irqs(1, 1 + Math.max(0, queues)), node, usable <= m.numOnlineCpus());
            m.cpusReadUnlock();
            return SiblingSpreadZooBase.affinities(m, 1 + Math.max(0, queues));
        }
    }

    /**
     * 6.9-6.16 {@code mana_gd_setup_irqs()} under {@code cpus_read_lock()}, as the kernel locks it,
     * with the HWC's CPU chosen by {@code hwc} (given the kernel's {@code cpumask_local_spread(0, node)})
     * and the queues spread by {@code spread}.
     */
    static List<CpuSet> lockedSetup(Machine m, int node, java.util.function.IntUnaryOperator hwc, SiblingSpreadZooBase.Spread spread) {
        m.cpusReadLock();
        int nvec = m.pciAllocIrqVectors(2, Math.min(m.numOnlineCpus(), SiblingSpread.MANA_MAX_NUM_QUEUES) + 1);
        if (nvec < 0) {
            m.cpusReadUnlock();
            return List.of();
        }
        int start = nvec <= m.numOnlineCpus() ? 0 : 1;
        if (start == 1) m.irqSetAffinityAndHint(0, CpuSet.of(hwc.applyAsInt(m.cpumaskLocalSpread(0, node))));
        spread.spread(m, SiblingSpreadZooBase.irqs(start, nvec), node);
        m.cpusReadUnlock();
        return SiblingSpreadZooBase.affinities(m, nvec);
    }

    static void irqSetupAscending(Machine m, int[] irqs, int node) {
        SiblingSpreadZooBase.irqSetupLoop(m, irqs, node, false);
    }

    static void irqSetupDescending(Machine m, int[] irqs, int node) {
        irqSetupDescending(m, irqs, node, false);
    }

    /** The kernel's passes and weights (SIB-6, SIB-7), the cores of each pass from the highest CPU down. */
    static void irqSetupDescending(Machine m, int[] irqs, int node, boolean skipFirstCpu) {
        int len = irqs.length, next = 0;
        boolean skip = skipFirstCpu;
        CpuSet prev = CpuSet.EMPTY;
        for (CpuSet hop : m.forEachNumaHopMask(node)) {
            int weight = hop.andNot(prev).size();
            while (weight > 0) {
                CpuSet cpus = hop.andNot(prev);
                while (!cpus.isEmpty()) {
                    int cpu = cpus.last();
                    cpus = cpus.andNot(m.topologySiblingCpumask(cpu));
                    weight--;
                    if (skip) {
                        skip = false;
                        continue;
                    }
                    if (len-- == 0) return;
                    m.irqSetAffinityAndHint(irqs[next++], m.topologySiblingCpumask(cpu));
                }
            }
            prev = hop;
        }
    }
}
