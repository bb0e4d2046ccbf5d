package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * MANA's interrupt setup, drivers/net/ethernet/microsoft/mana/gdma_main.c as of 6.9 - 6.16:
 * {@code irq_setup()} from 91bfe210e196 "net: mana: add a function to spread IRQs per CPUs" and
 * {@code mana_gd_setup_irqs()} from 8afefc361209 "net: mana: Assigning IRQ affinity on HT cores".
 * Every kernel service (the hotplug lock, {@code num_online_cpus()}, the hop and sibling masks,
 * {@code cpumask_local_spread()}, {@code pci_alloc_irq_vectors()}, {@code irq_set_affinity_and_hint()})
 * is a call on the {@link Machine}, in the order the driver makes it; the spreading itself works on
 * plain bitmaps.
 */
final class GdmaMain {
    private GdmaMain() {}

    /** {@code MANA_MAX_NUM_QUEUES} of the 6.9+ driver. */
    static final int MANA_MAX_NUM_QUEUES = 64;

    /**
     * {@code mana_gd_setup_irqs()}: the affinity of each vector it allocated, vector 0 (the HWC)
     * first, an empty set for a vector {@code irq_setup()} left untouched; an empty list when
     * {@code pci_alloc_irq_vectors()} fails. Holds {@code cpus_read_lock()} from the sizing to the
     * last affinity, and drops it on the error path too.
     */
    static List<CpuSet> manaGdSetupIrqs(KernelRelease kernel, Machine machine, int node) {
        if (kernel.atLeast(6, 17)) return manaGdSetupIrqs617(kernel, machine, node);
        // The V2 changelog: the lock sits in this parent function "to avoid num_online_cpus to get
        // changed before function finishes the affinity assignment".
        machine.cpusReadLock();
        int maxQueuesPerPort = machine.numOnlineCpus();
        if (maxQueuesPerPort > MANA_MAX_NUM_QUEUES) maxQueuesPerPort = MANA_MAX_NUM_QUEUES;
        int maxIrqs = maxQueuesPerPort + 1;    // the HWC vector comes on top of the queues
        int nvec = machine.pciAllocIrqVectors(2, maxIrqs);
        if (nvec < 0) {
            machine.cpusReadUnlock();
            return List.of();
        }
        int startIrqIndex = nvec <= machine.numOnlineCpus() ? 0 : 1;

        CpuSet[] affinity = new CpuSet[nvec];
        Arrays.fill(affinity, CpuSet.EMPTY);
        int[] irqs = new int[nvec - startIrqIndex];
        for (int i = 0; i < nvec; i++) {
            if (i == 0 && startIrqIndex == 1) {
                // One vector more than CPUs: the HWC shares the first queue's core. The driver
                // asks cpumask_local_spread() "because the node can be mem only".
                int cpu = machine.cpumaskLocalSpread(0, node);
                CpuSet mask = CpuSet.of(cpu);
                machine.irqSetAffinityAndHint(0, mask);
                affinity[0] = mask;
            } else {
                irqs[i - startIrqIndex] = i;
            }
        }
        List<CpuSet> queues = irqSetup(kernel, machine, irqs, node, false);
        for (int j = 0; j < queues.size(); j++) affinity[irqs[j]] = queues.get(j);
        machine.cpusReadUnlock();
        return List.of(affinity);
    }

    /**
     * {@code mana_gd_setup_irqs()} from 6.17, 755391121038 "net: mana: Allocate MSI-X vectors
     * dynamically", as spec/sibling-spread.md (SIB-9, SIB-10, SIB-13) and spec/hotplug.md (HP-4)
     * describe it: the vector count is read before the lock; with dynamic MSI-X the HWC is set up
     * alone under one hold of the lock and the queues under a second one.
     */
    private static List<CpuSet> manaGdSetupIrqs617(KernelRelease kernel, Machine machine, int node) {
        if (machine.pciMsixCanAllocDyn()) return manaGdSetupDynamic(kernel, machine, node);
        int maxQueuesPerPort = Math.min(machine.numOnlineCpus(), MANA_MAX_NUM_QUEUES);   // unlocked (HP-4)
        int nvec = machine.pciAllocIrqVectors(2, maxQueuesPerPort + 1);
        if (nvec < 0) return List.of();
        machine.cpusReadLock();
        List<CpuSet> affinity = hwcAndQueues(kernel, machine, node, nvec, nvec > machine.numOnlineCpus());
        machine.cpusReadUnlock();
        return affinity;
    }

    /**
     * SIB-10, SIB-13: the HWC alone ({@code mana_gd_setup_hwc_irqs()} with one vector, set up as
     * {@code mana_gd_setup_irqs()} sets up any vectors), then {@code num_msix_usable - 1} queues.
     */
    private static List<CpuSet> manaGdSetupDynamic(KernelRelease kernel, Machine machine, int node) {
        int hwc = machine.pciAllocIrqVectors(1, 1);
        if (hwc < 0) return List.of();
        machine.cpusReadLock();
        List<CpuSet> affinity = new ArrayList<>(hwcAndQueues(kernel, machine, node, hwc, hwc > machine.numOnlineCpus()));
        machine.cpusReadUnlock();

        // max_msix: what the device allows, here the PCI core's grant (spec gap: see the report).
        int maxMsix = machine.config().grantedVectors();
        int numMsixUsable = (int) Math.min((long) maxMsix, machine.numOnlineCpus() + 1L);      // unlocked (HP-4)
        int queues = numMsixUsable - 1;
        CpuSet[] queueMasks = new CpuSet[queues];
        Arrays.fill(queueMasks, CpuSet.EMPTY);
        int[] irqs = new int[queues];
        for (int q = 0; q < queues; q++) irqs[q] = q + 1;
        machine.cpusReadLock();
        if (numMsixUsable <= machine.numOnlineCpus()) {
            List<CpuSet> got = irqSetup(kernel, machine, irqs, node, true);
            for (int q = 0; q < got.size(); q++) queueMasks[q] = got.get(q);
        } else if (kernel.atLeast(7, 2)) {
            // 5316394b1752 (SIB-13): queue IRQ k on the k-th online CPU alone; queues beyond the
            // CPUs still online keep their affinity.
            CpuSet now = machine.cpuOnlineMask();
            for (int q = 0; q < queues && q < now.size(); q++) {
                CpuSet mask = CpuSet.of(now.nth(q));
                machine.irqSetAffinityAndHint(irqs[q], mask);
                queueMasks[q] = mask;
            }
        } else {
            List<CpuSet> got = irqSetup(kernel, machine, irqs, node, false);
            for (int q = 0; q < got.size(); q++) queueMasks[q] = got.get(q);
        }
        machine.cpusReadUnlock();
        affinity.addAll(List.of(queueMasks));
        return affinity;
    }

    /**
     * The HWC rule (SIB-9, SIB-12) over {@code nvec} allocated vectors: with one vector more than
     * the CPUs the HWC takes {@code cpumask_local_spread(0, node)} and the queues start at vector 1.
     */
    private static List<CpuSet> hwcAndQueues(KernelRelease kernel, Machine machine, int node, int nvec, boolean hwcAlone) {
        int startIrqIndex = hwcAlone ? 1 : 0;
        CpuSet[] affinity = new CpuSet[nvec];
        Arrays.fill(affinity, CpuSet.EMPTY);
        int[] irqs = new int[nvec - startIrqIndex];
        for (int i = 0; i < irqs.length; i++) irqs[i] = i + startIrqIndex;
        if (hwcAlone) {
            CpuSet mask = CpuSet.of(machine.cpumaskLocalSpread(0, node));
            machine.irqSetAffinityAndHint(0, mask);
            affinity[0] = mask;
        }
        List<CpuSet> queues = irqSetup(kernel, machine, irqs, node, false);
        for (int j = 0; j < queues.size(); j++) affinity[irqs[j]] = queues.get(j);
        return List.of(affinity);
    }

    /**
     * {@code irq_setup(irqs, len, node)}: the mask given to each IRQ it assigned, in IRQ order.
     * Each IRQ gets the online sibling mask of one core; a pass over a hop's ring serves each core
     * once, passes repeat while the ring's weight lasts, then the next hop. IRQs left when the
     * hops run out are not touched. Takes no lock: its caller holds {@code cpus_read_lock()}.
     */
    static List<CpuSet> irqSetup(KernelRelease kernel, Machine machine, int[] irqs, int node, boolean skipFirstCpu) {
        // 845c62c543d6 "net: mana: Allow irq_setup() to skip cpus for affinity" (6.17) added the flag (SIB-7).
        if (skipFirstCpu && kernel.before(6, 17))
            throw new IllegalArgumentException("irqSetup: skip_first_cpu on Linux " + kernel
                    + "; expected false (irq_setup() has the flag from 6.17, 845c62c543d6)");
        boolean skip = skipFirstCpu;
        // nr_cpu_ids is fixed at boot: hotplug never changes the size of a cpumask.
        int nrCpuIds = machine.config().topology().nrCpuIds();
        List<CpuSet> out = new ArrayList<>();
        int len = irqs.length;
        int at = 0;
        long[] prev = Cpumask.alloc(nrCpuIds);
        for (CpuSet hop : machine.forEachNumaHopMask(node)) {
            long[] next = bitmap(hop, nrCpuIds);
            int weight = Cpumask.weight(Cpumask.andNot(next, prev));
            while (weight > 0) {
                long[] cpus = Cpumask.andNot(next, prev);
                // for_each_cpu() re-reads cpus each step: dropping the siblings skips the rest of the core.
                for (int cpu = Cpumask.first(cpus, nrCpuIds); cpu < nrCpuIds; cpu = Cpumask.nextFrom(cpus, cpu + 1, nrCpuIds)) {
                    if (len == 0) return out;
                    CpuSet siblings = machine.topologySiblingCpumask(cpu);
                    if (skip) {
                        // SIB-7: the first core of hop 0 gets no IRQ once, but its visit counts.
                        skip = false;
                    } else {
                        len--;
                        machine.irqSetAffinityAndHint(irqs[at++], siblings);
                        out.add(siblings);
                    }
                    long[] drop = bitmap(siblings, nrCpuIds);
                    for (int w = 0; w < cpus.length; w++) cpus[w] &= ~drop[w];
                    // One per core, not per CPU: a ring of unequal cores can take more IRQs than CPUs.
                    weight--;
                }
            }
            prev = next;
        }
        return out;
    }

    private static long[] bitmap(CpuSet cpus, int nrCpuIds) {
        long[] mask = Cpumask.alloc(nrCpuIds);
        for (int cpu : cpus.toArray()) if (cpu < nrCpuIds) Cpumask.set(mask, cpu);
        return mask;
    }
}
