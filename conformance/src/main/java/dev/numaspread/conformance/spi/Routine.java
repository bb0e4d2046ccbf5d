package dev.numaspread.conformance.spi;

import java.util.Arrays;
import java.util.Optional;

/**
 * The routines numaspread specifies, each under the one name used by spec, feature, model, check,
 * protocol op and report (STYLE §2).
 */
public enum Routine {
    LOCAL_SPREAD("local-spread", "cpumask_local_spread(i, node)"),
    LOCAL_SPREAD_NEAREST_NODE("local-spread-nearest-node", "the 2020 'lib: optimize cpumask_local_spread()' proposal"),
    NUMA_LEVELS("numa-levels", "sched_domains_numa_distance[]"),
    HOP_MASKS("hop-masks", "for_each_numa_hop_mask(mask, node)"),
    NUMA_CLOSEST("numa-closest", "sched_numa_find_closest(cpus, cpu)"),
    NUMA_NTH("numa-nth", "sched_numa_find_nth_cpu(cpus, n, node)"),
    NUMA_NEAREST_NODE("numa-nearest-node", "numa_nearest_node(node, N_CPU)"),
    MLX5_NUMA_DISTANCE("mlx5-numa-distance", "the 2022 mlx5 patch: closest CPU by NUMA distance"),
    MLX5_COMP_IRQS("mlx5-comp-irqs", "mlx5 completion IRQ CPUs per release"),
    IRQ_SETUP("irq-setup", "MANA irq_setup(irqs, len, node[, skip_first_cpu])"),
    MANA_SETUP_IRQS("mana-setup-irqs", "MANA mana_gd_setup_irqs(): sizing, HWC rule, irq_setup under cpus_read_lock()"),
    GROUP_CPUS("group-cpus", "group_cpus_evenly(numgrps)"),
    BLK_MQ_MAP("blk-mq-map", "blk_mq_map_queues(qmap)"),
    IRQ_AFFINITY_MASKS("irq-affinity-masks", "irq_create_affinity_masks(nvecs, affd)");

    private final String id;
    private final String kernelName;

    Routine(String id, String kernelName) {
        this.id = id;
        this.kernelName = kernelName;
    }

    /** The routine id: {@code local-spread}. */
    public String id() {
        return id;
    }

    /** What a kernel reader calls it. */
    public String kernelName() {
        return kernelName;
    }

    public static Optional<Routine> byId(String id) {
        return Arrays.stream(values()).filter(r -> r.id.equals(id)).findFirst();
    }

    @Override
    public String toString() {
        return id;
    }
}
