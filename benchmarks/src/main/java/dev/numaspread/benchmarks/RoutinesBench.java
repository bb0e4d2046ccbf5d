package dev.numaspread.benchmarks;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.BlkMqMap;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.siblingspread.SiblingSpread;
import dev.numaspread.model.spread.Mlx5;
import dev.numaspread.model.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.List;
import java.util.Optional;

/**
 * The other plans, each computed whole, on the EPYC 7763 (256 CPUs) and a generated 8192-CPU,
 * 64-node machine, with a device on node 14:
 * <ul>
 *   <li>{@link #mlx5NumaDistance}: the 2022 mlx5 patch, one vector per online CPU;</li>
 *   <li>{@link #groupCpusEvenly}: one group per SMT core (128 and 4096 groups);</li>
 *   <li>{@link #blkMqMapQueues}: a queue per SMT core, 6.1's legacy map and 6.12's grouped map;</li>
 *   <li>{@link #manaIrqSetup}: MANA's 64 queue IRQs, 6.1 (local spread per IRQ), 6.6 (the same,
 *       each call a 6.3+ ring search) and 6.12 ({@code irq_setup}'s hop walk);</li>
 *   <li>{@link #numaLevels}: {@code sched_init_numa}'s levels and masks.</li>
 * </ul>
 */
public class RoutinesBench extends MicrosPerCall {

    @Param({Machines.EPYC_7763, "generated-8192"})
    public String machine;

    static final int NODE = 14;
    static final KernelRelease K61 = KernelRelease.of(6, 1);
    static final KernelRelease K66 = KernelRelease.of(6, 6);
    static final KernelRelease K612 = KernelRelease.of(6, 12);

    Topology topology;
    int cpus;

    @Setup
    public void setUp() {
        topology = Machines.named(machine);
        cpus = topology.online().size();
    }

    @Benchmark
    public int[] mlx5NumaDistance() {
        return Mlx5.mlx5NumaDistanceCpus(K612, topology, NODE, cpus);
    }

    // groupCpusEvenly and blkMqMapQueuesGrouped stand in LocalSpreadScalingBench too, on its ladder
    // of generated machines: the same calls on two sets of machines, kept apart on purpose so that
    // each class's table in the README comes from one run of it.
    @Benchmark
    public Optional<List<CpuSet>> groupCpusEvenly() {
        return GroupCpusEvenly.groupCpusEvenly(K612, topology, cpus / 2);
    }

    @Benchmark
    public int[] blkMqMapQueuesLegacy() {
        return BlkMqMap.blkMqMapQueues(K61, topology, cpus / 2, 0);
    }

    @Benchmark
    public int[] blkMqMapQueuesGrouped() {
        return BlkMqMap.blkMqMapQueues(K612, topology, cpus / 2, 0);
    }

    @Benchmark
    public List<CpuSet> manaIrqSetup61() {
        return SiblingSpread.irqSetup(Machine.boot(topology, K61), NODE, SiblingSpread.MANA_MAX_NUM_QUEUES, false);
    }

    @Benchmark
    public List<CpuSet> manaIrqSetup66() {
        return SiblingSpread.irqSetup(Machine.boot(topology, K66), NODE, SiblingSpread.MANA_MAX_NUM_QUEUES, false);
    }

    @Benchmark
    public List<CpuSet> manaIrqSetup612() {
        return SiblingSpread.irqSetup(Machine.boot(topology, K612), NODE, SiblingSpread.MANA_MAX_NUM_QUEUES, false);
    }

    @Benchmark
    public NumaLevels numaLevels() {
        return NumaLevels.of(K612, topology);
    }
}
