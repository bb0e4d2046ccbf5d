package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.List;

/**
 * The reference model for irq-setup and mana-setup-irqs, with one routine overridden by each
 * known-bad implementation of the MANA / hotplug zoo. Slips rewrite the kernel code against the
 * {@link Machine}, as a third party would.
 */
abstract class SiblingSpreadZooBase implements Implementation {
    final ReferenceModel model = new ReferenceModel();

    @Override
    public String name() {
        return getClass().getSimpleName();
    }

    @Override
    public List<Claim> claims() {
        return model.claims();
    }

    @Override
    public List<CpuSet> irqSetup(KernelRelease kernel, Machine machine, int node, int len, boolean skipFirstCpu) {
        return model.irqSetup(kernel, machine, node, len, skipFirstCpu);
    }

    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine machine, int node) {
        return model.manaSetupIrqs(kernel, machine, node);
    }

    /** IRQs 0 .. len-1 as {@code irq_setup()}'s array. */
    static int[] irqs(int from, int to) {
        int[] v = new int[Math.max(0, to - from)];
        for (int i = 0; i < v.length; i++) v[i] = from + i;
        return v;
    }

    /** The affinities recorded on {@code m} for vectors 0 .. nvec-1 (empty set when none). */
    static List<CpuSet> affinities(Machine m, int nvec) {
        CpuSet[] out = new CpuSet[nvec];
        for (int v = 0; v < nvec; v++) out[v] = m.affinities().getOrDefault(v, CpuSet.EMPTY);
        return List.of(out);
    }

    /** The affinities of the IRQs set on {@code m} since call number {@code before}. */
    static List<CpuSet> since(Machine m, int before) {
        return m.affinityCalls().subList(before, m.affinityCalls().size()).stream().map(Machine.AffinityCall::mask).toList();
    }

    /**
     * A 6.9-6.16 mana_gd_setup_irqs() whose queue spread is {@code spread} (given the IRQs and
     * the node), locked as the kernel locks it.
     */
    static List<CpuSet> lockedSetup(Machine m, int node, Spread spread) {
        m.cpusReadLock();
        int maxQueues = Math.min(m.numOnlineCpus(), 64);
        int nvec = m.pciAllocIrqVectors(2, maxQueues + 1);
        if (nvec < 0) {
            m.cpusReadUnlock();
            return List.of();
        }
        int start = nvec <= m.numOnlineCpus() ? 0 : 1;
        if (start == 1) m.irqSetAffinityAndHint(0, CpuSet.of(m.cpumaskLocalSpread(0, node)));
        spread.spread(m, irqs(start, nvec), node);
        m.cpusReadUnlock();
        return affinities(m, nvec);
    }

    /**
     * {@code irq_setup(irqs, len, node, skip_first_cpu)} of 6.9+ rewritten from the kernel, as a
     * third party would: passes over the cores of each hop's ring while its weight is positive,
     * each IRQ the whole sibling mask of one core.
     */
    static void irqSetupLoop(Machine m, int[] irqs, int node, boolean skipFirstCpu) {
        int len = irqs.length, next = 0;
        boolean skip = skipFirstCpu;
        CpuSet prev = CpuSet.EMPTY;
        for (CpuSet hop : m.forEachNumaHopMask(node)) {
            int weight = hop.andNot(prev).size();
            while (weight > 0) {
                CpuSet cpus = hop.andNot(prev);
                for (int cpu = cpus.first(); cpu >= 0; cpu = cpus.next(cpu + 1)) {
                    cpus = cpus.andNot(m.topologySiblingCpumask(cpu));
                    weight--;
                    if (skip) {
                        skip = false;
                        continue;
                    }
                    if (len-- == 0) return;
                    m.irqSetAffinityAndHint(irqs[next++], m.topologySiblingCpumask(cpu));
                }
            }
            prev = hop;
        }
    }

    @FunctionalInterface
    interface Spread {
        void spread(Machine m, int[] irqs, int node);
    }
}
