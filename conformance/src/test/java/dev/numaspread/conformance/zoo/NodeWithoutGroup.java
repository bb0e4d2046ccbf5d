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

/** Slip: the share is floor(G*n/N) without max(1, ...), so a small node gets no group of its own. */
@SuppressWarnings("unused")
final class NodeWithoutGroup extends GroupingZooMember.Slipped {
    NodeWithoutGroup() { super(SlippedGrouping.Slip.NODE_WITHOUT_GROUP); }
}
