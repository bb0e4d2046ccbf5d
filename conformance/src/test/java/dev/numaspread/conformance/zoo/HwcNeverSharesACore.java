package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/** M15: {@code start_irq_index} always 0: the HWC takes the first core even when vectors exceed online CPUs. */
final class HwcNeverSharesACore extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        m.cpusReadLock();
        int nvec = m.pciAllocIrqVectors(2, Math.min(m.numOnlineCpus(), 64) + 1);
        if (nvec < 0) {
            m.cpusReadUnlock();
            return List.of();
        }
        irqSetupLoop(m, irqs(0, nvec), node, false);
        m.cpusReadUnlock();
        return affinities(m, nvec);
    }
}
