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

/** M12: the bottom-up heapsort (to 6.8) on a 6.11+ kernel and 6.11's on an older one. */
@SuppressWarnings("unused")
final class HeapsortsSwapped extends GroupingZooMember.Slipped {
    HeapsortsSwapped() { super(SlippedGrouping.Slip.SWAPPED_HEAPSORT); }
}
