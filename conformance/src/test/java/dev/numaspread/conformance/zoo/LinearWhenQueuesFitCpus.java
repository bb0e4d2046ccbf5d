package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/**
 * The linear queue spread of 5316394b1752 (7.2) taken whatever the count: with no more usable vectors
 * than online CPUs, where the kernel keeps {@code irq_setup()} with {@code skip_first_cpu}, the
 * queues get single CPUs too ("MANA linear used when IRQs <= CPUs").
 */
final class LinearWhenQueuesFitCpus extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        if (!dev.numaspread.model.siblingspread.SiblingSpread.spreadsQueuesLinearly(kernel) || !m.config().dynamicMsix())
            return model.manaSetupIrqs(kernel, m, node);
        m.pciMsixCanAllocDyn();
        if (m.pciAllocIrqVectors(1, 1) < 0) return List.of();
        m.cpusReadLock();
        m.numOnlineCpus();
        irqSetupLoop(m, irqs(0, 1), node, false);
        m.cpusReadUnlock();
        int usable = Math.min(m.config().grantedVectors(), m.numOnlineCpus() + 1);
        m.cpusReadLock();
        CpuSet online = m.cpuOnlineMask();
        for (int q = 1; q < usable && q <= online.size(); q++) m.irqSetAffinityAndHint(q, CpuSet.of(online.nth(q - 1)));
        m.cpusReadUnlock();
        return affinities(m, Math.max(1, usable));
    }
}
