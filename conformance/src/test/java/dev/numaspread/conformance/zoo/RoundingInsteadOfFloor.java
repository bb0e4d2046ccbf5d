package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.BlkMqMap;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/** Slip: a node's share rounded to nearest instead of rounded down. */
@SuppressWarnings("unused")
final class RoundingInsteadOfFloor extends GroupingZooMember.Slipped {
    RoundingInsteadOfFloor() { super(SlippedGrouping.Slip.ROUNDING); }
}
