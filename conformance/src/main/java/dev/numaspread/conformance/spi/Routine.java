package dev.numaspread.conformance.spi;

import dev.numaspread.model.input.HasId;

import java.util.Optional;

/**
 * The routines numaspread specifies, each under the one name used by spec, feature, model, check,
 * protocol op and report, so that a kernel reader finds one idea under one name. Each knows its
 * {@link Family}, hence its spec file and its feature file: nothing else derives a file name from
 * a routine id.
 */
public enum Routine implements HasId {
    // Alike on purpose (duplicates, issue 26) with the lines below: an enum whose constants state their id and words.
    LOCAL_SPREAD(Family.LOCAL_SPREAD, "cpumask_local_spread(i, node)"),
    LOCAL_SPREAD_NEAREST_NODE(Family.LOCAL_SPREAD,
            "the 2020 'lib: optimize cpumask_local_spread()' proposal"),
    NUMA_LEVELS(Family.NUMA_LEVELS, "sched_domains_numa_distance[]"),
    HOP_MASKS(Family.NUMA_HOPS, "for_each_numa_hop_mask(mask, node)"),
    NUMA_CLOSEST(Family.NUMA_HOPS, "sched_numa_find_closest(cpus, cpu)"),
    NUMA_NTH(Family.NUMA_HOPS, "sched_numa_find_nth_cpu(cpus, n, node)"),
    NUMA_NEAREST_NODE(Family.NUMA_HOPS, "numa_nearest_node(node, N_CPU)"),
    MLX5_NUMA_DISTANCE(Family.MLX5, "the 2022 mlx5 patch: closest CPU by NUMA distance"),
    MLX5_COMP_IRQS(Family.MLX5, "mlx5 completion IRQ CPUs per release"),
    IRQ_SETUP(Family.SIBLING_SPREAD, "MANA irq_setup(irqs, len, node[, skip_first_cpu])"),
    MANA_SETUP_IRQS(Family.SIBLING_SPREAD,
            "MANA mana_gd_setup_irqs(): sizing, HWC rule, irq_setup under cpus_read_lock()"),
    GROUP_CPUS(Family.GROUP_CPUS, "group_cpus_evenly(numgrps)"),
    BLK_MQ_MAP(Family.BLK_MQ, "blk_mq_map_queues(qmap)"),
    IRQ_AFFINITY_MASKS(Family.BLK_MQ, "irq_create_affinity_masks(nvecs, affd)"),
    PAGE_POOL(Family.PAGE_POOL,
            "a page pool following its NAPI's node: page_pool_nid_changed, refill, recycle, numa_mem_id()"),
    VIRTIO_NET_IRQS(Family.NIC, "virtio-net virtnet_set_affinity(): queue pair IRQs and XPS"),
    ENA_IRQS(Family.NIC, "ena ena_setup_mgmnt_intr(), ena_setup_io_intr(): management and I/O IRQs"),
    GVE_IRQS(Family.NIC, "gve gve_alloc_notify_blocks(): notify-block IRQs and XPS"),
    ICE_IRQS(Family.NIC, "ice queue-vector IRQs and XPS (netif_set_affinity_auto() from 6.15)"),
    I40E_IRQS(Family.NIC, "i40e i40e_vsi_request_irq_msix(): queue-vector IRQ hints and XPS"),
    BNXT_IRQS(Family.NIC, "bnxt_en bnxt_request_irq(), bnxt_set_xps_mapping(): ring IRQs and XPS");

    private final Family family;
    private final String kernelName;

    Routine(Family family, String kernelName) {
        this.family = family;
        this.kernelName = kernelName;
    }

    /**
     * The routine id: {@code local-spread}. It is also the op of the routine in the process
     * protocol (spec/protocol.md), the {@code --routine} of the command line and the routine of a
     * claim.
     */
    @Override
    public String id() {
        return HasId.super.id();
    }

    /**
     * True when the routine places by the NUMA levels in the releases that have them (hop masks,
     * rings, the closest or n-th CPU), so from 6.19 by the scheduler's distance
     * (spec/numa-levels.md LVL-6): what a display measures the distance from the device's node by.
     */
    public boolean walksNumaLevels() {
        return switch (this) {
            case LOCAL_SPREAD, NUMA_LEVELS, HOP_MASKS, NUMA_CLOSEST, NUMA_NTH, MLX5_NUMA_DISTANCE, MLX5_COMP_IRQS, IRQ_SETUP,
                    MANA_SETUP_IRQS, BNXT_IRQS -> true;
            default -> false;
        };
    }

    /** True for the NIC drivers of spec/nic.md, whose answer is a {@link dev.numaspread.model.nic.NicQueues}. */
    public boolean isNic() {
        return family == Family.NIC;
    }

    /** The family that specifies it: its rules are in the family's spec file and feature file. */
    public Family family() {
        return family;
    }

    /** The spec file of its rules: {@code spec/local-spread.md} (shared with the family's other routines). */
    public String specFile() {
        return family.specFile();
    }

    /** The feature file of its scenarios: {@code features/local-spread.feature}. */
    public String featureFile() {
        return family.featureFile();
    }

    /** What a kernel reader calls it. */
    public String kernelName() {
        return kernelName;
    }

    /** The routine whose id is {@code id}: {@code local-spread}; empty for an unknown id. */
    public static Optional<Routine> byId(String id) {
        return HasId.byId(Routine.class, id);
    }

    @Override
    public String toString() {
        return id();
    }
}
