package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.siblingspread.SiblingSpread;

import java.util.List;

/** {@code num_online_cpus()} read for the vector count, then {@code cpus_read_lock()}: the count can be stale. */
final class LockTakenAfterSizing extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        if (kernel.before(6, 9) || kernel.atLeast(6, 17)) return model.manaSetupIrqs(kernel, m, node);
        return SiblingSpread.Variant.LOCK_AFTER_SIZING.manaSetupIrqs(m, node);
    }
}
