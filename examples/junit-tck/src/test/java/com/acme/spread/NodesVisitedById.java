package com.acme.spread;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

/** A slip, to see what a failure looks like: every online CPU by id, whatever the node. LS-3 rejects it. */
public class NodesVisitedById extends AcmeSpread {
    @Override
    public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        int[] cpus = new int[count];
        for (int i = 0; i < count; i++) cpus[i] = machine.online().nth(i % machine.numOnlineCpus());
        return cpus;
    }
}
