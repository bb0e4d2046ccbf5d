package dev.numaspread.benchmarks;

import dev.numaspread.model.group.BlkMqMap;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.cpu.CpuSet;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.List;
import java.util.Optional;

/**
 * How the plans grow with the machine: generated machines of 256 to 8192 CPUs (128 CPUs a node,
 * so 2 to 64 nodes), a full plan of one queue per CPU. Each doubling of {@code cpus} should cost
 * a little over twice the time for an O(n log n) plan; four times means O(n²).
 *
 * <p>{@link #numaLevels} is here because every 6.3+ plan starts with it: its masks cost
 * levels × nodes × nodes mask unions, which grows faster than the CPUs when nodes grow with them.
 */
public class LocalSpreadScalingBench extends MicrosPerCall {

    @Param({"256", "512", "1024", "2048", "4096", "8192"})
    public int cpus;

    // Alike on purpose (duplicates, issue 26) with RoutinesBench: the grouping calls both benchmarks measure, kept apart on purpose.
    static final KernelRelease CLASSIC = KernelRelease.of(6, 1);
    static final KernelRelease RINGS = KernelRelease.of(6, 12);

    Topology topology;
    int node;

    @Setup
    public void setUp() {
        topology = Machines.generated(cpus);
        node = topology.nodeIds().length - 1;    // the last node: its rings wrap round to node 0
    }

    /** 6.12: one sort of the online CPUs by (ring, id). */
    @Benchmark
    public int[] localSpreadRings() {
        return LocalSpread.localSpreadCpus(RINGS, topology, node, cpus);
    }

    /** 6.1: node CPUs then the rest, no sort: the floor the ring plan is measured against. */
    @Benchmark
    public int[] localSpreadClassic() {
        return LocalSpread.localSpreadCpus(CLASSIC, topology, node, cpus);
    }

    /** The scheduler's levels and masks, built once per 6.3+ plan. */
    @Benchmark
    public NumaLevels numaLevels() {
        return NumaLevels.of(RINGS, topology);
    }

    // Also in RoutinesBench, on the named machines, on purpose (see there).
    /** {@code group_cpus_evenly} with one group per SMT core. */
    @Benchmark
    public Optional<List<CpuSet>> groupCpusEvenly() {
        return GroupCpusEvenly.groupCpusEvenly(RINGS, topology, cpus / 2);
    }

    /** 6.12's {@code blk_mq_map_queues}, one queue per SMT core: a map over {@code group_cpus_evenly}. */
    @Benchmark
    public int[] blkMqMapQueuesGrouped() {
        return BlkMqMap.blkMqMapQueues(RINGS, topology, cpus / 2, 0);
    }
}
