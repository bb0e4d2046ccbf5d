package dev.numaspread.conformance.zoo;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.OptionalInt;

/**
 * Slip, 6.17+ (issue 24, gap 2): {@code *nummasks} counted as {@code min(numgrps, nr_cpu_ids)},
 * taking the highest possible CPU id plus one for the number of possible CPUs. Right on every
 * machine whose possible CPU ids have no holes, which were all the generated machines before
 * sparse CPU numbering; with holes and more groups than possible CPUs it counts groups that hold
 * no CPU (GRP-14).
 */
final class NummasksFromNrCpuIds extends GroupingZooMember {
    @Override
    public OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        OptionalInt right = reference.groupCpusEvenlyNummasks(kernel, machine, numgrps);
        return right.isEmpty() ? right : OptionalInt.of(Math.min(numgrps, machine.nrCpuIds()));
    }
}
