package com.acme.spread;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/** cpumask_local_spread(i, node) as Linux 6.1 has it: the node's online CPUs first, then the others by id. */
public class AcmeSpread implements Implementation {
    @Override public String name() { return "acme-spread 1.0"; }

    @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.1")); }

    @Override
    public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        CpuSet local = machine.hasNode(node) ? machine.onlineCpusOf(node) : CpuSet.EMPTY;
        CpuSet others = machine.online().andNot(local);
        int[] cpus = new int[count];
        for (int i = 0; i < count; i++) {
            int j = i % machine.numOnlineCpus();                 // the index wraps (LS-2)
            cpus[i] = j < local.size() ? local.nth(j) : others.nth(j - local.size());
        }
        return cpus;
    }
}
