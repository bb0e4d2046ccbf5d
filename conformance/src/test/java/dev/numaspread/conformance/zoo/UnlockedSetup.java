package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.siblingspread.SiblingSpread;

import java.util.List;

/** The 6.9 setup without {@code cpus_read_lock()}: sizing, sibling masks and affinities race with hotplug. */
final class UnlockedSetup extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        if (kernel.before(6, 9) || kernel.atLeast(6, 17)) return model.manaSetupIrqs(kernel, m, node);
        return SiblingSpread.Variant.UNLOCKED.manaSetupIrqs(m, node);
    }
}
