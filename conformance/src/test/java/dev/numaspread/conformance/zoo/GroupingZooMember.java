package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/** A known-bad grouping implementation: the reference model with one routine overridden by a subclass. */
abstract class GroupingZooMember implements Implementation {
    final ReferenceModel reference = new ReferenceModel();

    @Override public String name() { return "zoo " + getClass().getSimpleName(); }
    @Override public List<Claim> claims() { return reference.claims(); }

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        return reference.groupCpusEvenly(kernel, machine, numgrps);
    }

    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        return reference.blkMqMapQueues(kernel, machine, nrQueues, queueOffset);
    }

    @Override
    public Optional<List<IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(KernelRelease kernel, Topology machine, int nvecs,
            int preVectors, int postVectors, List<Integer> setSizes) {
        return reference.irqCreateAffinityMasks(kernel, machine, nvecs, preVectors, postVectors, setSizes);
    }

    /** A grouping with one slip; numgrps == 0 answered as the reference does. */
    static abstract class Slipped extends GroupingZooMember {
        private final SlippedGrouping.Slip slip;

        Slipped(SlippedGrouping.Slip slip) {
            this.slip = slip;
        }

        @Override
        public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
            if (numgrps == 0) return reference.groupCpusEvenly(kernel, machine, 0);
            return Optional.of(SlippedGrouping.group(kernel, machine, numgrps, slip));
        }
    }
}
