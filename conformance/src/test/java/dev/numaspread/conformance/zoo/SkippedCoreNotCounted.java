package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/** M17 (v3-v5 review of 845c62c543d6): the core skip_first_cpu skips does not lower the hop's weight. */
final class SkippedCoreNotCounted extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> irqSetup(KernelRelease kernel, Machine m, int node, int len, boolean skipFirstCpu) {
        int before = m.affinityCalls().size();
        int[] irqs = irqs(0, len);
        int next = 0;
        boolean skip = skipFirstCpu;
        CpuSet prev = CpuSet.EMPTY;
        hops:
        for (CpuSet hop : m.forEachNumaHopMask(node)) {
            int weight = hop.andNot(prev).size();
            while (weight > 0) {
                CpuSet cpus = hop.andNot(prev);
                for (int cpu = cpus.first(); cpu >= 0; cpu = cpus.next(cpu + 1)) {
                    cpus = cpus.andNot(m.topologySiblingCpumask(cpu));
                    if (skip) {
                        skip = false;
                        continue;
                    }
                    weight--;
                    if (len-- == 0) break hops;
                    m.irqSetAffinityAndHint(irqs[next++], m.topologySiblingCpumask(cpu));
                }
            }
            prev = hop;
        }
        return since(m, before);
    }
}
