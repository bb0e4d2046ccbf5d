package dev.numaspread.examples;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.AffinitySetting;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;

import java.util.ArrayList;
import java.util.List;

/**
 * The queue IRQs and XPS maps of six network drivers, written from spec/nic.md as a third party
 * would: each method follows one driver's file ({@code drivers/net/virtio_net.c},
 * {@code ena/ena_netdev.c}, {@code gve/gve_main.c}, {@code ice/ice_base.c}, {@code i40e/i40e_main.c},
 * {@code bnxt/bnxt.c}) on the kernel-style bitmaps of {@link KernelView}.
 */
final class NetDrivers {
    private NetDrivers() {}

    private static QueueIrq irq(QueueIrq.Role role, int queue, long[] mask, KernelView k, AffinitySetting s) {
        CpuSet.Builder b = CpuSet.builder();
        for (int c = Cpumask.first(mask, k.nrCpuIds); c < k.nrCpuIds; c = Cpumask.nextFrom(mask, c + 1, k.nrCpuIds)) b.add(c);
        return new QueueIrq(role, queue, b.build(), s);
    }

    private static long[] one(KernelView k, int cpu) {
        long[] m = Cpumask.alloc(k.nrCpuIds);
        if (cpu >= 0 && cpu < k.nrCpuIds) Cpumask.set(m, cpu);
        return m;
    }

    private static CpuSet set(KernelView k, long[] mask) {
        return irq(QueueIrq.Role.RX, 0, mask, k, AffinitySetting.NONE).mask();
    }

    /** {@code virtnet_set_affinity()}: consecutive groups of online CPUs, the first {@code n mod curr} one larger (NIC-2, NIC-3). */
    static NicQueues virtnet(KernelView k, int maxQueuePairs) {
        int n = k.numOnlineCpus();
        int curr = Math.min(maxQueuePairs, n);
        int stride = Math.max(n / curr, 1);
        int stragglers = n >= curr ? n % curr : 0;
        List<QueueIrq> irqs = new ArrayList<>();
        List<CpuSet> xps = new ArrayList<>();
        irqs.add(irq(QueueIrq.Role.CONFIG, 0, Cpumask.alloc(k.nrCpuIds), k, AffinitySetting.NONE));
        int cpu = Cpumask.first(k.online, k.nrCpuIds);
        for (int i = 0; i < maxQueuePairs; i++) {
            if (i >= curr) {
                irqs.add(irq(QueueIrq.Role.RX, i, Cpumask.alloc(k.nrCpuIds), k, AffinitySetting.NONE));
                irqs.add(irq(QueueIrq.Role.TX, i, Cpumask.alloc(k.nrCpuIds), k, AffinitySetting.NONE));
                continue;
            }
            long[] mask = Cpumask.alloc(k.nrCpuIds);
            for (int j = stride + (i < stragglers ? 1 : 0); j > 0; j--) {
                Cpumask.set(mask, cpu);
                cpu = Cpumask.nextFrom(k.online, cpu + 1, k.nrCpuIds);
                if (cpu >= k.nrCpuIds) cpu = Cpumask.first(k.online, k.nrCpuIds);   // cpumask_next_wrap
            }
            irqs.add(irq(QueueIrq.Role.RX, i, mask, k, AffinitySetting.FORCED));
            irqs.add(irq(QueueIrq.Role.TX, i, mask, k, AffinitySetting.FORCED));
            xps.add(set(k, mask));
        }
        return new NicQueues(irqs, xps);
    }

    /** {@code ena_setup_mgmnt_intr()} and {@code ena_setup_io_intr()}: CPU id {@code i mod num_online_cpus()} (NIC-4). */
    static NicQueues ena(KernelView k, int queues) {
        int online = k.numOnlineCpus();
        int io = Math.min(Math.min(queues, online), 128);
        List<QueueIrq> irqs = new ArrayList<>();
        irqs.add(irq(QueueIrq.Role.MANAGEMENT, 0, one(k, Cpumask.first(k.online, k.nrCpuIds)), k, AffinitySetting.FORCED));
        for (int i = 0; i < io; i++) irqs.add(irq(QueueIrq.Role.RX_TX, i, one(k, i % online), k, AffinitySetting.FORCED));
        return new NicQueues(irqs, List.of());
    }

    /** {@code gve_alloc_notify_blocks()}: ids modulo the active CPUs before 6.17, the device node's walk from 6.17 (NIC-5, NIC-6). */
    static NicQueues gve(KernelRelease kernel, KernelView k, int node, int queues) {
        int active = Math.min(queues, k.numOnlineCpus());
        int blocks = 2 * queues;
        List<QueueIrq> irqs = new ArrayList<>();
        long[] nodeMask;
        if (node == KernelView.NUMA_NO_NODE) {
            nodeMask = Cpumask.alloc(k.nrCpuIds);
            for (int c = 0; c < k.nrCpuIds; c++) Cpumask.set(nodeMask, c);   // cpu_all_mask
        } else nodeMask = k.nodeOnline[node];
        int first = Cpumask.first(nodeMask, k.nrCpuIds);
        int cur = first;
        for (int i = 0; i < blocks; i++) {
            int cpu = kernel.atLeast(6, 17) ? cur : i % active;
            QueueIrq.Role role = i < queues ? QueueIrq.Role.TX : QueueIrq.Role.RX;
            irqs.add(irq(role, i < queues ? i : i - queues, one(k, cpu), k, AffinitySetting.FORCED));
            cur = cur >= k.nrCpuIds ? k.nrCpuIds : Cpumask.nextFrom(nodeMask, cur + 1, k.nrCpuIds);
            if (cur >= k.nrCpuIds || i + 1 == queues) cur = first;
        }
        irqs.add(irq(QueueIrq.Role.MANAGEMENT, 0, Cpumask.alloc(k.nrCpuIds), k, AffinitySetting.NONE));
        List<CpuSet> xps = new ArrayList<>();
        for (int q = 0; q < queues; q++) xps.add(set(k, one(k, q % active)));
        return new NicQueues(irqs, xps);
    }

    /**
     * ice: CPU {@code v} when online, forced until 6.10 and a hint from 6.11; from 6.15
     * {@code netif_set_affinity_auto()}'s local spread from node 0, the netdev's node before it is
     * registered (NIC-7, NIC-8).
     */
    static NicQueues ice(KernelRelease kernel, KernelView k, NumaDistance numa, int vectors) {
        List<QueueIrq> irqs = new ArrayList<>();
        List<CpuSet> xps = new ArrayList<>();
        int[] spread = kernel.atLeast(6, 15) ? LocalSpread.localSpreadCpus(kernel, k, numa, 0, vectors) : null;
        AffinitySetting s = kernel.atLeast(6, 15) || kernel.before(6, 11) ? AffinitySetting.FORCED : AffinitySetting.HINT;
        for (int v = 0; v < vectors; v++) {
            long[] mask = spread != null ? one(k, spread[v]) : v < k.nrCpuIds && Cpumask.test(k.online, v) ? one(k, v) : Cpumask.alloc(k.nrCpuIds);
            irqs.add(irq(QueueIrq.Role.RX_TX, v, mask, k, s));
            xps.add(set(k, mask));
        }
        return new NicQueues(irqs, xps);
    }

    /** i40e: only the hint {@code cpumask_local_spread(v, NUMA_NO_NODE)} (NIC-9). */
    static NicQueues i40e(KernelRelease kernel, KernelView k, NumaDistance numa, int vectors) {
        int[] spread = LocalSpread.localSpreadCpus(kernel, k, numa, KernelView.NUMA_NO_NODE, vectors);
        List<QueueIrq> irqs = new ArrayList<>();
        List<CpuSet> xps = new ArrayList<>();
        for (int v = 0; v < vectors; v++) {
            irqs.add(irq(QueueIrq.Role.RX_TX, v, one(k, spread[v]), k, AffinitySetting.HINT));
            xps.add(set(k, one(k, spread[v])));
        }
        return new NicQueues(irqs, xps);
    }

    /** {@code bnxt_request_irq()} and {@code bnxt_set_xps_mapping()}: local spread from the device's node (NIC-10, NIC-11). */
    static NicQueues bnxt(KernelRelease kernel, KernelView k, NumaDistance numa, int node, int rings) {
        int online = k.numOnlineCpus();
        int[] spread = LocalSpread.localSpreadCpus(kernel, k, numa, node, Math.max(rings, online));
        AffinitySetting s = kernel.atLeast(6, 13) ? AffinitySetting.HINT : AffinitySetting.FORCED;
        List<QueueIrq> irqs = new ArrayList<>();
        for (int i = 0; i < rings; i++) irqs.add(irq(QueueIrq.Role.RX_TX, i, one(k, spread[i]), k, s));
        List<CpuSet> xps = new ArrayList<>();
        if (kernel.atLeast(6, 10)) {
            long[][] map = new long[rings][];
            for (int q = 0; q < rings; q++) map[q] = Cpumask.alloc(k.nrCpuIds);
            for (int i = 0; i < online; i++) if (spread[i] < k.nrCpuIds) Cpumask.set(map[i % rings], spread[i]);
            for (long[] m : map) xps.add(set(k, m));
        }
        return new NicQueues(irqs, xps);
    }
}
