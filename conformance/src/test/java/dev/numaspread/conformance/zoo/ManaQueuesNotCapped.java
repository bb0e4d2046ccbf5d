package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.siblingspread.SiblingSpread;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * mana_gd_setup_irqs() (6.9+, and the static path from 6.17) sizing its vectors by
 * {@code num_online_cpus() + 1} without the {@code MANA_MAX_NUM_QUEUES} (64) cap: right on every
 * machine of 64 online CPUs or fewer, one vector per extra CPU past it (SIB-9). The algorithm is
 * the model's own, through its {@code irq_setup()}; only the count differs.
 */
final class ManaQueuesNotCapped extends GroupingZooMember {
    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine m, int node) {
        if (kernel.before(6, 9) || (kernel.atLeast(6, 17) && m.pciMsixCanAllocDyn())) return reference.manaSetupIrqs(kernel, m, node);
        boolean lockFirst = kernel.before(6, 17);
        if (lockFirst) m.cpusReadLock();
        int nvec = m.pciAllocIrqVectors(2, m.numOnlineCpus() + 1);
        if (nvec < 0) {
            if (lockFirst) m.cpusReadUnlock();
            return List.of();
        }
        if (!lockFirst) m.cpusReadLock();
        int first = nvec <= m.numOnlineCpus() ? 0 : 1;
        if (first == 1) m.irqSetAffinityAndHint(0, CpuSet.of(m.cpumaskLocalSpread(0, node)));
        int[] irqs = new int[nvec - first];
        for (int i = 0; i < irqs.length; i++) irqs[i] = first + i;
        irqSetup(m, irqs, node);
        m.cpusReadUnlock();
        List<CpuSet> out = new ArrayList<>();
        for (int v = 0; v < nvec; v++) out.add(m.affinities().getOrDefault(v, CpuSet.EMPTY));
        return List.copyOf(out);
    }

    /** The model's irq_setup(irqs, len, node) over these IRQ numbers. */
    private static void irqSetup(Machine m, int[] irqs, int node) {
        try {
            Method setup = SiblingSpread.class.getDeclaredMethod("irqSetup", Machine.class, int[].class, int.class, boolean.class);
            setup.setAccessible(true);
            setup.invoke(null, m, irqs, node, false);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the model's irq_setup() is not reachable: " + e, e);
        }
    }
}
