package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.List;

/**
 * Slip (issue 24, gap 1): {@code for_each_numa_hop_mask()} masks kept in one 64-bit word, so CPU
 * ids from 64 on are in no hop. Right on every machine whose CPU ids stop at 63, which were all
 * the generated machines before sparse CPU numbering; on a machine with an online CPU past 63 the
 * last hop is not every online CPU (HOP-2).
 */
final class HopMasksInOneWord extends Delegating {
    static final CpuSet WORD = CpuSet.range(0, 63);

    @Override
    public List<CpuSet> hopMasks(KernelRelease k, Topology m, int node) {
        return model.hopMasks(k, m, node).stream().map(mask -> mask.and(WORD)).toList();
    }
}
