package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/**
 * 6.17+: sizes the vectors before the lock, as the release does, but then spreads them without
 * taking {@code cpus_read_lock()} at all: an event between two affinities of the spread mixes two
 * machines (HP-4: each spread stays under the lock). The dynamic MSI-X path is the release's.
 */
final class SpreadOutsideTheLock extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        if (kernel.before(6, 17) || m.config().dynamicMsix()) return model.manaSetupIrqs(kernel, m, node);
        m.pciMsixCanAllocDyn();
        int nvec = m.pciAllocIrqVectors(2, Math.min(m.numOnlineCpus(), 64) + 1);
        if (nvec < 0) return List.of();
        int start = 0;
        if (nvec > m.numOnlineCpus()) {
            m.irqSetAffinityAndHint(0, CpuSet.of(m.cpumaskLocalSpread(0, node)));
            start = 1;
        }
        irqSetupLoop(m, irqs(start, nvec), node, false);
        return affinities(m, nvec);
    }
}
