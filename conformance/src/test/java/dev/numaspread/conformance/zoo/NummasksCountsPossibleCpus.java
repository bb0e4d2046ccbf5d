package dev.numaspread.conformance.zoo;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.OptionalInt;

/**
 * Slip, 6.17+ (issue 24, gap 5): {@code *nummasks} set to the number of possible CPUs, whatever
 * {@code numgrps}: with fewer groups than CPUs it exceeds {@code numgrps}. A count GRP-14 judges,
 * so the certificate says FAIL with a shrunk machine, not ERROR ("outside the SPI's shape").
 */
final class NummasksCountsPossibleCpus extends GroupingZooMember {
    @Override
    public OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        OptionalInt right = reference.groupCpusEvenlyNummasks(kernel, machine, numgrps);
        return right.isEmpty() ? right : OptionalInt.of(machine.possible().size());
    }
}
