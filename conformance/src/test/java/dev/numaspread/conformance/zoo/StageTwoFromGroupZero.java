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

/** M13: the non-present CPUs start again at group 0 instead of after the present groups. */
@SuppressWarnings("unused")
final class StageTwoFromGroupZero extends GroupingZooMember.Slipped {
    StageTwoFromGroupZero() { super(SlippedGrouping.Slip.STAGE_TWO_AT_ZERO); }
}
