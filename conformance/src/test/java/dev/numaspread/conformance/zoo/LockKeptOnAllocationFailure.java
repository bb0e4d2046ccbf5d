package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/** M16 (Souradeep V4 review): the {@code nvec < 0} path returns without {@code cpus_read_unlock()}. */
final class LockKeptOnAllocationFailure extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        m.cpusReadLock();
        int nvec = m.pciAllocIrqVectors(2, Math.min(m.numOnlineCpus(), 64) + 1);
        if (nvec < 0) return List.of();
        int start = nvec <= m.numOnlineCpus() ? 0 : 1;
        if (start == 1) m.irqSetAffinityAndHint(0, CpuSet.of(m.cpumaskLocalSpread(0, node)));
        irqSetupLoop(m, irqs(start, nvec), node, false);
        m.cpusReadUnlock();
        return affinities(m, nvec);
    }
}
