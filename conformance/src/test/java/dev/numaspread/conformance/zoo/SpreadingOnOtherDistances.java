package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.topology.CpuModel;
import dev.numaspread.model.topology.DistanceTable;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Routines that read the NUMA levels but measure them, from 6.19, with another distance than the
 * scheduler's (LVL-6, LVL-8): the raw {@code node_distance()} of 6.18 and before, or the
 * machine-wide mean of every distance of 20 or more that 6.19.0 to 6.19.6 took (4d6dd05d07d0
 * alone). They differ from the kernel only on Granite Rapids and Clearwater Forest machines with
 * nodes inside a package: the SNC scenarios of LVL-8 reject them, and so do the checks of each routine, which meet SNC-2 and
 * SNC-3 machines in every release from 6.19 (issue 24, {@code ReachZooTest}). Each slips in one
 * routine and claims it for 6.12 and every release from 6.19.
 * (Local spread and hop masks on raw distances are {@code Zoo.SpreadIgnoresArchDistance} and
 * {@code Zoo.HopMasksIgnoreArchDistance}.)
 */
final class SpreadingOnOtherDistances {
    private SpreadingOnOtherDistances() {}

    /** The machine as 6.18 measures it: raw distances, whatever the CPU model. */
    static Topology raw(Topology m) {
        return m.cpuModel() == CpuModel.OTHER ? m : m.withCpuModel(CpuModel.OTHER);
    }

    /**
     * The machine as 6.19.0 measured it: on an SNC-style machine (a Granite Rapids or Clearwater
     * Forest CPU model, two packages or more, a package with nodes of its own) every distance of
     * 20 or more between nodes with CPUs becomes their mean; raw distances otherwise.
     */
    static Topology machineWideMean(Topology m) {
        if (!m.cpuModel().isSncDistanceModel() || m.maxPackages() < 2
                || m.packages().stream().noneMatch(p -> m.nodesOf(p.cpus().and(m.online())).size() > 1)) return raw(m);
        long sum = 0;
        int count = 0;
        for (int i : m.nodeIds())
            for (int j : m.nodeIds())
                if (!m.isCpuless(i) && !m.isCpuless(j) && m.distance(i, j) >= 20) {
                    sum += m.distance(i, j);
                    count++;
                }
        int mean = count == 0 ? 20 : (int) (sum / count);
        int[] ids = m.distances().nodeIds();
        int[][] rows = new int[ids.length][ids.length];
        for (int a = 0; a < ids.length; a++)
            for (int b = 0; b < ids.length; b++) {
                int d = m.distance(ids[a], ids[b]);
                rows[a][b] = d >= 20 && !m.isCpuless(ids[a]) && !m.isCpuless(ids[b]) ? mean : d;
            }
        return new Topology(m.name(), m.source(), m.possible(), m.present(), m.online(), m.nodes(), DistanceTable.of(ids, rows),
                m.smtSiblings(), m.packages(), m.clusters(), CpuModel.OTHER);
    }

    /** One routine answered, from 6.19, on the machine as {@code measure} gives it. */
    abstract static class Member extends Delegating {
        final String routine;
        final UnaryOperator<Topology> measure;

        Member(String routine, UnaryOperator<Topology> measure) {
            this.routine = routine;
            this.measure = measure;
        }

        @Override public List<Claim> claims() {
            return List.of(Claim.of(routine, "6.12"), Claim.of(routine, "6.19"), Claim.of(routine, "7.0"), Claim.of(routine, "7.1"),
                    Claim.of(routine, "7.2"), Claim.of(routine, "7.3"));
        }

        Topology measured(KernelRelease k, Topology m) {
            return k.atLeast(6, 19) ? measure.apply(m) : m;
        }
    }

    /** sched_numa_find_closest() finding the nearest level by raw distances. */
    static final class ClosestOnRawDistances extends Member {
        ClosestOnRawDistances() { super("numa-closest", SpreadingOnOtherDistances::raw); }
        @Override public int numaClosest(KernelRelease k, Topology m, CpuSet cpus, int cpu) { return model.numaClosest(k, measured(k, m), cpus, cpu); }
        @Override public int[] numaClosestCalls(KernelRelease k, Topology m, int c, int prev, List<NumaClosest.Call> calls) {
            return model.numaClosestCalls(k, measured(k, m), c, prev, calls);
        }
    }

    /** sched_numa_find_nth_cpu() counting rings of raw distances. */
    static final class NthOnRawDistances extends Member {
        NthOnRawDistances() { super("numa-nth", SpreadingOnOtherDistances::raw); }
        @Override public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) { return model.numaNth(k, measured(k, m), cpus, n, node); }
    }

    /** mlx5 completion IRQs (local spread from 6.12) ordered by raw distances. */
    static final class Mlx5CompIrqsOnRawDistances extends Member {
        Mlx5CompIrqsOnRawDistances() { super("mlx5-comp-irqs", SpreadingOnOtherDistances::raw); }
        @Override public int[] mlx5CompIrqCpus(KernelRelease k, Topology m, int node, int count) { return model.mlx5CompIrqCpus(k, measured(k, m), node, count); }
    }

    /** Hop masks on the machine-wide mean: SNC-2 keeps one merged remote level. */
    static final class HopMasksOnSncMean extends Member {
        HopMasksOnSncMean() { super("hop-masks", SpreadingOnOtherDistances::machineWideMean); }
        @Override public List<CpuSet> hopMasks(KernelRelease k, Topology m, int node) { return model.hopMasks(k, measured(k, m), node); }
    }

    /** sched_numa_find_closest() on the machine-wide mean. */
    static final class ClosestOnSncMean extends Member {
        ClosestOnSncMean() { super("numa-closest", SpreadingOnOtherDistances::machineWideMean); }
        @Override public int numaClosest(KernelRelease k, Topology m, CpuSet cpus, int cpu) { return model.numaClosest(k, measured(k, m), cpus, cpu); }
        @Override public int[] numaClosestCalls(KernelRelease k, Topology m, int c, int prev, List<NumaClosest.Call> calls) {
            return model.numaClosestCalls(k, measured(k, m), c, prev, calls);
        }
    }

    /** sched_numa_find_nth_cpu() on the machine-wide mean. */
    static final class NthOnSncMean extends Member {
        NthOnSncMean() { super("numa-nth", SpreadingOnOtherDistances::machineWideMean); }
        @Override public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) { return model.numaNth(k, measured(k, m), cpus, n, node); }
    }

    /** bnxt's ring IRQs and XPS: {@code cpumask_local_spread(i, node)} ordered by raw distances (NIC-10, NIC-11). */
    static final class BnxtIrqsOnRawDistances extends Member {
        BnxtIrqsOnRawDistances() { super("bnxt-irqs", SpreadingOnOtherDistances::raw); }
        @Override public NicQueues bnxtIrqs(KernelRelease k, Topology m, int node, int queues) { return model.bnxtIrqs(k, measured(k, m), node, queues); }
    }

    /** ice's queue vectors from 6.15: {@code cpumask_local_spread(v, 0)} ordered by raw distances (NIC-8). */
    static final class IceIrqsOnRawDistances extends Member {
        IceIrqsOnRawDistances() { super("ice-irqs", SpreadingOnOtherDistances::raw); }
        @Override public NicQueues iceIrqs(KernelRelease k, Topology m, int node, int queues) { return model.iceIrqs(k, measured(k, m), node, queues); }
    }

    /** The members LVL-8's scenarios reject; the NIC drivers' are not among them (no LVL-8 scenario calls a driver): their own rules reject them. */
    static List<Member> all() {
        return List.of(new ClosestOnRawDistances(), new NthOnRawDistances(), new Mlx5CompIrqsOnRawDistances(),
                new HopMasksOnSncMean(), new ClosestOnSncMean(), new NthOnSncMean());
    }
}
