package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/** A zoo base: the reference model, routine by routine, so that a zoo member overrides exactly one slip. */
abstract class Delegating implements Implementation {
    final ReferenceModel model = new ReferenceModel();

    @Override public String name() { return getClass().getSimpleName(); }
    @Override public List<Claim> claims() { return model.claims(); }
    @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) { return model.localSpreadCpus(k, m, node, count); }
    @Override public int[] localSpreadNearestNodeCpus(KernelRelease k, Topology m, int node, int count) { return model.localSpreadNearestNodeCpus(k, m, node, count); }
    @Override public int[] numaLevels(KernelRelease k, Topology m) { return model.numaLevels(k, m); }
    @Override public List<CpuSet> hopMasks(KernelRelease k, Topology m, int node) { return model.hopMasks(k, m, node); }
    @Override public int numaClosest(KernelRelease k, Topology m, CpuSet cpus, int cpu) { return model.numaClosest(k, m, cpus, cpu); }
    @Override public int[] numaClosestCalls(KernelRelease k, Topology m, int callingCpu, int prev, List<dev.numaspread.model.numa.NumaClosest.Call> calls) {
        return model.numaClosestCalls(k, m, callingCpu, prev, calls);
    }
    @Override public int numaNth(KernelRelease k, Topology m, CpuSet cpus, int n, int node) { return model.numaNth(k, m, cpus, n, node); }
    @Override public int numaNearestNode(KernelRelease k, Topology m, int node) { return model.numaNearestNode(k, m, node); }
    @Override public int[] mlx5NumaDistanceCpus(KernelRelease k, Topology m, int node, int count) { return model.mlx5NumaDistanceCpus(k, m, node, count); }
    @Override public int[] mlx5CompIrqCpus(KernelRelease k, Topology m, int node, int count) { return model.mlx5CompIrqCpus(k, m, node, count); }
    @Override public NicQueues virtioNetIrqs(KernelRelease k, Topology m, int node, int queues) { return model.virtioNetIrqs(k, m, node, queues); }
    @Override public NicQueues enaIrqs(KernelRelease k, Topology m, int node, int queues) { return model.enaIrqs(k, m, node, queues); }
    @Override public NicQueues gveIrqs(KernelRelease k, Topology m, int node, int queues) { return model.gveIrqs(k, m, node, queues); }
    @Override public NicQueues iceIrqs(KernelRelease k, Topology m, int node, int queues) { return model.iceIrqs(k, m, node, queues); }
    @Override public NicQueues i40eIrqs(KernelRelease k, Topology m, int node, int queues) { return model.i40eIrqs(k, m, node, queues); }
    @Override public NicQueues bnxtIrqs(KernelRelease k, Topology m, int node, int queues) { return model.bnxtIrqs(k, m, node, queues); }

    /** {@code order[i mod order.length]} for i = 0..count-1. */
    static int[] wrap(int[] order, int count) {
        int[] out = new int[count];
        for (int i = 0; i < count; i++) out[i] = order[i % order.length];
        return out;
    }
}
