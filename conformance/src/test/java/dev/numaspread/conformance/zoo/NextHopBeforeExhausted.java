package dev.numaspread.conformance.zoo;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/** One pass per hop, then the next hop: a hop is left before its weight is used up. */
final class NextHopBeforeExhausted extends SiblingSpreadZooBase {
    @Override
    public List<CpuSet> irqSetup(KernelRelease kernel, Machine m, int node, int len, boolean skipFirstCpu) {
        if (kernel.before(6, 9)) return model.irqSetup(kernel, m, node, len, skipFirstCpu);
        int before = m.affinityCalls().size();
        int[] irqs = irqs(0, len);
        int next = 0;
        boolean skip = skipFirstCpu;
        List<CpuSet> hops = m.forEachNumaHopMask(node);
        // Pass after pass over all hops: each hop gets one IRQ per core per round.
        while (next < len && !hops.isEmpty()) {
            CpuSet prev = CpuSet.EMPTY;
            for (CpuSet hop : hops) {
                CpuSet cpus = hop.andNot(prev);
                for (int cpu = cpus.first(); cpu >= 0 && next < len; cpu = cpus.next(cpu + 1)) {
                    cpus = cpus.andNot(m.topologySiblingCpumask(cpu));
                    if (skip) {
                        skip = false;
                        continue;
                    }
                    m.irqSetAffinityAndHint(irqs[next++], m.topologySiblingCpumask(cpu));
                }
                prev = hop;
            }
        }
        return since(m, before);
    }
}
