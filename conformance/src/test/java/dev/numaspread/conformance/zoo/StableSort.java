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

/** M12: nodes of equal size taken in node-id order (a stable sort) instead of the kernel heapsort's order. */
@SuppressWarnings("unused")
final class StableSort extends GroupingZooMember.Slipped {
    StableSort() { super(SlippedGrouping.Slip.STABLE_SORT); }
}
