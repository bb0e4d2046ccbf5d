package dev.numaspread.model.siblingspread;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelRelease;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SortedMap;

/**
 * Sibling spread: the MANA driver's IRQ affinity setup
 * ({@code drivers/net/ethernet/microsoft/mana/gdma_main.c}), per release (spec/sibling-spread.md
 * SIB-*), written against a {@link Machine} so the interleaving explorer can run it under hotplug
 * (spec/hotplug.md HP-*).
 *
 * <p>One entry point per routine: {@link #irqSetup} ({@code irq-setup}) and {@link #manaSetupIrqs}
 * ({@code mana-setup-irqs}). A plan on a quiet machine is the routine run on
 * {@code Machine.boot(...)}. The two historical unsafe guards of the 6.9 setup, which the explorer
 * shows, are the {@link Variant}s.
 *
 * <p>IRQ numbers: vector {@code v} of the device is IRQ {@code v}; vector 0 is the HWC (hardware
 * communication channel), vectors 1.. are queues.
 */
public final class SiblingSpread {
    private SiblingSpread() {}

    /** {@code MANA_MAX_NUM_QUEUES}: 64 in the releases modelled (16 in the first driver). */
    public static final int MANA_MAX_NUM_QUEUES = 64;

    /**
     * Returns the affinities that MANA's per-IRQ setup gives IRQs {@code 0 .. len-1} of a device
     * on {@code node}, in IRQ order; IRQs it leaves untouched are not in the list (SIB-8). The
     * caller holds whatever lock it holds: this routine takes none, as {@code irq_setup()} takes none.
     *
     * <ul>
     *   <li>Before 6.9: IRQ {@code i} gets the single CPU {@code cpumask_local_spread(i, node)}
     *       (SIB-11).</li>
     *   <li>6.9+: {@code irq_setup(irqs, len, node)} (commit 91bfe210e196 "net: mana: add a
     *       function to spread IRQs per CPUs", used from 8afefc361209 "net: mana: Assigning IRQ
     *       affinity on HT cores"); {@code skipFirstCpu} only from 6.17 (commit 845c62c543d6
     *       "net: mana: Allow irq_setup() to skip cpus for affinity").</li>
     * </ul>
     *
     * @throws IllegalArgumentException for {@code len < 0}, or {@code skipFirstCpu} before 6.17
     */
    public static List<CpuSet> irqSetup(Machine m, int node, int len, boolean skipFirstCpu) {
        if (len < 0) throw new IllegalArgumentException("irq_setup: len " + len + "; expected >= 0");
        KernelRelease kernel = m.kernel();
        if (skipFirstCpu && kernel.before(6, 17))
            throw new IllegalArgumentException("irq_setup: skip_first_cpu on Linux " + kernel
                    + "; expected false before 6.17 (commit 845c62c543d6 added it)");
        int before = m.affinityCalls().size();
        if (kernel.before(6, 9)) {
            for (int i = 0; i < len; i++) m.irqSetAffinityAndHint(i, CpuSet.of(m.cpumaskLocalSpread(i, node)));
        } else {
            irqSetup(m, vectors(0, len), node, skipFirstCpu);
        }
        return m.affinityCalls().subList(before, m.affinityCalls().size()).stream().map(Machine.AffinityCall::mask).toList();
    }

    /**
     * True when the release has 5316394b1752 "net: mana: Optimize irq affinity for low vcpu configs"
     * (SIB-13): mainline 7.2, and the stable series 7.1.y (linux-stable-rc push of 30 July 2026)
     * and 6.18.y (in the 6.18.40-6.18.45 updates); 7.0.y is unknown and modelled without it, 6.19.y
     * and 6.17.y had ended.
     */
    public static boolean spreadsQueuesLinearly(KernelRelease kernel) {
        return kernel.atLeast(7, 1) || kernel.equals(KernelRelease.of(6, 18));
    }

    /**
     * Returns the affinity of every vector {@code mana_gd_setup_irqs()} of the machine's release
     * allocated, vector 0 (the HWC) first; a vector left without affinity is an empty set; an
     * allocation failure gives an empty list (the driver's probe fails with {@code -ENOSPC}).
     *
     * <ul>
     *   <li>Before 6.9: {@code min(num_online_cpus(), 64) + 1} vectors, vector {@code i} on CPU
     *       {@code cpumask_local_spread(i, node)}; no hotplug lock (SIB-11, HP-5).</li>
     *   <li>6.9–6.16: {@link Variant#LOCKED} (HP-1, SIB-9).</li>
     *   <li>6.17+: the static path sizes before the lock, the dynamic path sets up the HWC
     *       alone, then the queues with {@code skip_first_cpu} (commit 755391121038 "net: mana:
     *       Allocate MSI-X vectors dynamically"; SIB-10, HP-4).</li>
     *   <li>With commit 5316394b1752 "net: mana: Optimize irq affinity for low vcpu configs" (7.2,
     *       and the stable series of {@link #spreadsQueuesLinearly}): on the dynamic path with one
     *       queue per online CPU, queue IRQ {@code k} (counted from 1) gets the {@code k}-th online
     *       CPU (counted from 1) alone (SIB-13).</li>
     * </ul>
     * The granted vector count and {@code pci_msix_can_alloc_dyn()} are the machine's
     * ({@link Machine.Config}).
     */
    public static List<CpuSet> manaSetupIrqs(Machine m, int node) {
        KernelRelease kernel = m.kernel();
        if (kernel.before(6, 9)) return setupIrqsBefore69(m, node);
        if (kernel.before(6, 17)) return setupIrqs69(m, node, Variant.LOCKED);
        return setupIrqs617(m, node);
    }

    /**
     * How {@code mana_gd_setup_irqs()} of 6.9–6.16 guards against hotplug: the merged code and
     * the two mistakes its review went through, which {@code numaspread races --variant} shows.
     */
    public enum Variant {
        /** The merged code: {@code cpus_read_lock()} from {@code num_online_cpus()} to the last affinity (commit 8afefc361209). */
        LOCKED,
        /** The 6.9 algorithm with no hotplug lock at all, as before the series. */
        UNLOCKED,
        /** {@code num_online_cpus()} read first, {@code cpus_read_lock()} taken after it: the sizing can be stale. */
        LOCK_AFTER_SIZING;

        /**
         * Returns what the 6.9–6.16 {@code mana_gd_setup_irqs()} guarded as this variant says
         * gives, as {@link SiblingSpread#manaSetupIrqs} does; only {@link #LOCKED} is the kernel's.
         *
         * @throws IllegalArgumentException when the machine's release is not 6.9–6.16
         */
        public List<CpuSet> manaSetupIrqs(Machine m, int node) {
            KernelRelease kernel = m.kernel();
            if (kernel.before(6, 9) || kernel.atLeast(6, 17))
                throw new IllegalArgumentException("mana_gd_setup_irqs variant " + id() + " on Linux " + kernel
                        + "; expected a 6.9-6.16 release");
            return setupIrqs69(m, node, this);
        }

        /** The name {@code --variant} takes: {@code lock-after-sizing}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The variant whose id is {@code id}; empty when none is. */
        public static Optional<Variant> byId(String id) {
            return Arrays.stream(values()).filter(v -> v.id().equals(id)).findFirst();
        }
    }

    // ---------------------------------------------------------------- irq_setup()

    /**
     * {@code irq_setup(irqs, len, node, skip_first_cpu)} (6.9+), as the kernel runs it: for each
     * cumulative hop mask of {@code node}, passes over the cores of the hop's ring; each pass gives
     * one IRQ per core, the core's whole online sibling mask; passes repeat while the ring's
     * {@code weight} (its CPU count, less one per core visited) stays positive, then the next hop
     * follows (SIB-1..SIB-5). IRQs left when the hops run out keep their affinity (SIB-8).
     *
     * <p>{@code weight} is tested only between passes, so a ring whose cores have unequal sibling
     * counts takes more IRQs than it has CPUs: cores {0,1} and {2} give W = 3, and two passes give
     * four IRQs (SIB-6). The core {@code skip_first_cpu} skips is counted in {@code weight} and
     * skipped once, in the first pass of hop 0 (SIB-7).
     */
    static void irqSetup(Machine m, int[] irqs, int node, boolean skipFirstCpu) {
        int len = irqs.length;
        int next = 0;                 // index of the next IRQ: the kernel's *irqs++
        boolean skip = skipFirstCpu;
        CpuSet prev = CpuSet.EMPTY;
        for (CpuSet hop : m.forEachNumaHopMask(node)) {
            int weight = hop.andNot(prev).size();
            while (weight > 0) {
                CpuSet cpus = hop.andNot(prev);
                // for_each_cpu() over the live 'cpus': the next CPU above 'cpu' still in it.
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

    // ---------------------------------------------------------------- mana_gd_setup_irqs()

    // Before 8afefc361209: one CPU per vector, no lock.
    private static List<CpuSet> setupIrqsBefore69(Machine m, int node) {
        int maxQueuesPerPort = Math.min(m.numOnlineCpus(), MANA_MAX_NUM_QUEUES);
        int nvec = m.pciAllocIrqVectors(2, maxQueuesPerPort + 1);
        if (nvec < 0) return List.of();
        for (int i = 0; i < nvec; i++) m.irqSetAffinityAndHint(i, CpuSet.of(m.cpumaskLocalSpread(i, node)));
        return affinitiesOf(m, nvec);
    }

    // 8afefc361209 (6.9-6.16), guarded as the variant says.
    private static List<CpuSet> setupIrqs69(Machine m, int node, Variant variant) {
        boolean lockFirst = variant == Variant.LOCKED;
        if (lockFirst) m.cpusReadLock();
        int maxQueuesPerPort = Math.min(m.numOnlineCpus(), MANA_MAX_NUM_QUEUES);
        if (variant == Variant.LOCK_AFTER_SIZING) m.cpusReadLock();
        int nvec = m.pciAllocIrqVectors(2, maxQueuesPerPort + 1);
        if (nvec < 0) {
            if (variant != Variant.UNLOCKED) m.cpusReadUnlock();
            return List.of();
        }
        // More vectors than online CPUs: the HWC takes one CPU and shares its core with queue 1.
        int startIrqIndex = nvec <= m.numOnlineCpus() ? 0 : 1;
        if (startIrqIndex == 1) m.irqSetAffinityAndHint(0, CpuSet.of(m.cpumaskLocalSpread(0, node)));
        irqSetup(m, vectors(startIrqIndex, nvec), node, false);
        if (variant != Variant.UNLOCKED) m.cpusReadUnlock();
        return affinitiesOf(m, nvec);
    }

    // 755391121038: mana_gd_setup_hwc_irqs() sizes (unlocked), mana_gd_setup_irqs(nvec) spreads
    // under the lock; with dynamic MSI-X the HWC is set up alone and the queues follow in
    // mana_gd_setup_dyn_irqs() once the device told its max_msix.
    private static List<CpuSet> setupIrqs617(Machine m, int node) {
        boolean dyn = m.pciMsixCanAllocDyn();
        int nvec = dyn ? m.pciAllocIrqVectors(1, 1)
                       : m.pciAllocIrqVectors(2, Math.min(m.numOnlineCpus(), MANA_MAX_NUM_QUEUES) + 1);
        if (nvec < 0) return List.of();
        m.cpusReadLock();
        int first = 0;
        if (nvec > m.numOnlineCpus()) {
            m.irqSetAffinityAndHint(0, CpuSet.of(m.cpumaskLocalSpread(0, node)));
            first = 1;
        }
        irqSetup(m, vectors(first, nvec), node, false);
        m.cpusReadUnlock();
        if (!dyn) return affinitiesOf(m, nvec);

        // mana_gd_query_max_resources(): the device's max_msix is the granted count.
        int numMsixUsable = Math.min(m.config().grantedVectors(), m.numOnlineCpus() + 1);
        int[] queues = vectors(1, Math.max(1, numMsixUsable));
        m.cpusReadLock();
        if (numMsixUsable <= m.numOnlineCpus()) {
            // At most as many IRQs as CPUs: the queues keep off the HWC's core.
            irqSetup(m, queues, node, true);
        } else if (spreadsQueuesLinearly(m.kernel())) {
            // 5316394b1752: one queue per online CPU, NUMA and cores aside. The count is read again
            // for a debug message naming the queues a CPU gone offline since the sizing leaves as they were.
            m.numOnlineCpus();
            irqSetupLinear(m, queues);
        } else {
            irqSetup(m, queues, node, false);
        }
        m.cpusReadUnlock();
        return affinitiesOf(m, 1 + queues.length);
    }

    // mana_irq_setup_linear() (5316394b1752, which also renamed irq_setup() mana_irq_setup_numa_aware()):
    // the IRQs in order on the online CPUs in ascending order, one CPU each, until either runs out;
    // the caller holds cpus_read_lock().
    private static void irqSetupLinear(Machine m, int[] irqs) {
        CpuSet online = m.cpuOnlineMask();
        int next = 0;
        for (int cpu = online.first(); cpu >= 0 && next < irqs.length; cpu = online.next(cpu + 1))
            m.irqSetAffinityAndHint(irqs[next++], CpuSet.of(cpu));
    }

    private static int[] vectors(int from, int to) {
        int[] v = new int[Math.max(0, to - from)];
        for (int i = 0; i < v.length; i++) v[i] = from + i;
        return v;
    }

    private static List<CpuSet> affinitiesOf(Machine m, int nvec) {
        SortedMap<Integer, CpuSet> a = m.affinities();
        List<CpuSet> out = new ArrayList<>(nvec);
        for (int v = 0; v < nvec; v++) out.add(a.getOrDefault(v, CpuSet.EMPTY));
        return List.copyOf(out);
    }
}
