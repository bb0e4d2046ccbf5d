package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/**
 * M18: 7.2's linear queue spread (5316394b1752 "net: mana: Optimize irq affinity for low vcpu
 * configs") applied to 6.17: with more IRQs than online CPUs the queues get single CPUs, queue k
 * the k-th online CPU, instead of sibling masks.
 */
final class IrqSetupLinear extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        if (kernel.before(6, 17) || !m.config().dynamicMsix()) return model.manaSetupIrqs(kernel, m, node);
        m.pciMsixCanAllocDyn();
        m.pciAllocIrqVectors(1, 1);
        m.cpusReadLock();
        irqSetupLoop(m, irqs(0, 1), node, false);
        m.cpusReadUnlock();
        int usable = Math.min(m.config().grantedVectors(), m.numOnlineCpus() + 1);
        m.cpusReadLock();
        if (usable > m.numOnlineCpus()) {
            CpuSet online = m.cpuOnlineMask();
            for (int q = 0; q < usable - 1; q++) m.irqSetAffinityAndHint(1 + q, CpuSet.of(online.nth(q)));
        } else {
            irqSetupLoop(m, irqs(1, usable), node, true);
        }
        m.cpusReadUnlock();
        return affinities(m, usable);
    }
}
