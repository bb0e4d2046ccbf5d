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

/** M11: group_cpus_evenly(0) dereferences ZERO_SIZE_PTR even where df831e977394 returns NULL. */
@SuppressWarnings("unused")
final class ZeroGroupsCrash extends GroupingZooMember {
    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        if (numgrps == 0) throw new KernelBug("oops", "ZERO_SIZE_PTR dereferenced");
        return super.groupCpusEvenly(kernel, machine, numgrps);
    }
}
