package dev.numaspread.conformance.zoo;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

/**
 * Local spread that keeps the index {@code i} of {@code cpumask_local_spread(i, node)} in a
 * narrower type than the kernel's {@code unsigned int}: it wraps at 256 or 65536 before it wraps
 * modulo the online CPUs, so a driver asking for that many vectors gets the CPU of a smaller
 * index. Right for every count a small machine is usually asked for; LS-2 rejects them with its
 * one try in ten past a 16-bit index.
 */
final class NarrowIndex {
    private NarrowIndex() {}

    /** The plan of {@code count} with each index masked by {@code mask}. */
    static int[] masked(Delegating d, KernelRelease k, Topology m, int node, int count, int mask) {
        int[] plan = d.model.localSpreadCpus(k, m, node, Math.min(count, mask + 1));
        int[] out = new int[count];
        for (int i = 0; i < count; i++) out[i] = plan[i & mask];
        return out;
    }

    /** The index kept in a byte. */
    static final class IndexInAByte extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) { return masked(this, k, m, node, count, 0xff); }
    }

    /** The index kept in a short. */
    static final class IndexInAShort extends Delegating {
        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) { return masked(this, k, m, node, count, 0xffff); }
    }
}
