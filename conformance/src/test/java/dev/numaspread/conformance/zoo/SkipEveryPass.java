package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/** M17: skip_first_cpu skips the first core of hop 0 in every pass, not once. */
final class SkipEveryPass extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> irqSetup(KernelRelease kernel, Machine m, int node, int len, boolean skipFirstCpu) {
        int before = m.affinityCalls().size();
        int[] irqs = irqs(0, len);
        int next = 0;
        CpuSet prev = CpuSet.EMPTY;
        boolean firstHop = true;
        hops:
        for (CpuSet hop : m.forEachNumaHopMask(node)) {
            int weight = hop.andNot(prev).size();
            while (weight > 0) {
                CpuSet cpus = hop.andNot(prev);
                boolean skip = skipFirstCpu && firstHop;
                for (int cpu = cpus.first(); cpu >= 0; cpu = cpus.next(cpu + 1)) {
                    cpus = cpus.andNot(m.topologySiblingCpumask(cpu));
                    weight--;
                    if (skip) {
                        skip = false;
                        continue;
                    }
                    if (len-- == 0) break hops;
                    m.irqSetAffinityAndHint(irqs[next++], m.topologySiblingCpumask(cpu));
                }
            }
            prev = hop;
            firstHop = false;
        }
        return since(m, before);
    }
}
