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

/** M12: the pre-2024 heapsort on a 2024 kernel and the other way round. */
@SuppressWarnings("unused")
final class HeapsortsSwapped extends GroupingZooMember.Slipped {
    HeapsortsSwapped() { super(SlippedGrouping.Slip.SWAPPED_HEAPSORT); }
}
