package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/** M15: irq_setup()'s walk, but each IRQ gets {@code cpumask_of(cpu)} instead of the core's sibling mask. */
final class SingleCpuInsteadOfSiblingMask extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> irqSetup(KernelRelease kernel, Machine m, int node, int len, boolean skipFirstCpu) {
        int before = m.affinityCalls().size();
        List<CpuSet> plan = model.irqSetup(kernel, Machine.boot(m.topology(), kernel), node, len, skipFirstCpu);
        for (int i = 0; i < plan.size(); i++) m.irqSetAffinityAndHint(i, CpuSet.of(plan.get(i).first()));
        return since(m, before);
    }
}
