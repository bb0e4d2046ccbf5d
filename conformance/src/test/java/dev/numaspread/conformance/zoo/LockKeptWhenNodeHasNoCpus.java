package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/**
 * A plausible slip of a rewrite of the 6.9 setup: when the device's node has no hop (a CPU-less
 * node) it returns early, before {@code cpus_read_unlock()}. None of the fixed machines of the HP
 * checks has a CPU-less node: only a generated machine shows it.
 */
final class LockKeptWhenNodeHasNoCpus extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        m.cpusReadLock();
        int nvec = m.pciAllocIrqVectors(2, Math.min(m.numOnlineCpus(), 64) + 1);
        if (nvec < 0) {
            m.cpusReadUnlock();
            return List.of();
        }
        if (m.forEachNumaHopMask(node).isEmpty()) return affinities(m, nvec);
        int start = nvec <= m.numOnlineCpus() ? 0 : 1;
        if (start == 1) m.irqSetAffinityAndHint(0, CpuSet.of(m.cpumaskLocalSpread(0, node)));
        irqSetupLoop(m, irqs(start, nvec), node, false);
        m.cpusReadUnlock();
        return affinities(m, nvec);
    }
}
