package dev.numaspread.benchmarks;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;


/**
 * A full {@code cpumask_local_spread} plan ({@code count} queues of a device on node 14) on large
 * machines: 6.1 sorts nothing (node CPUs, then the rest), 6.12 sorts the online CPUs by NUMA ring.
 * {@code count} above the CPU count shows that the wraparound costs a plain loop, not a search.
 */
public class LocalSpreadPlanBench extends MicrosPerCall {

    @Param({"6.1", "6.12"})
    public String kernel;

    @Param({Machines.EPYC_7763, "generated-8192"})
    public String machine;

    @Param({"256", "4096"})
    public int count;

    /** The node of seed 000's NIC on the EPYC 7763; an inner node of the generated machine. */
    public static final int NODE = 14;

    KernelRelease release;
    Topology topology;

    @Setup
    public void setUp() {
        release = KernelRelease.parse(kernel);
        topology = Machines.named(machine);
    }

    @Benchmark
    public int[] plan() {
        return LocalSpread.localSpreadCpus(release, topology, NODE, count);
    }
}
