package dev.numaspread.conformance.audit;

import dev.numaspread.conformance.spi.Routine;

/**
 * What placed a device's IRQs or queues, and so which routine of the model the audit compares
 * them with. The names are the ones {@code /proc/interrupts} and {@code /sys/block} show.
 */
public enum DeviceKind {
    /** mlx5 completion vectors {@code mlx5_compN@pci:ADDR}: the driver's affinity hint per vector. */
    MLX5_COMP(Routine.MLX5_COMP_IRQS, "mlx5_comp<i>@pci:<addr>"),
    /** MANA {@code mana_hwc@pci:ADDR} (vector 0) and {@code mana_qN@pci:ADDR} (vector N+1). */
    MANA(Routine.MANA_SETUP_IRQS, "mana_hwc@pci:<addr>, mana_q<i>@pci:<addr>"),
    /** nvme {@code nvmeCqN}: vector 0 the admin queue (a pre-vector), the others managed I/O queues. */
    NVME_IRQS(Routine.IRQ_AFFINITY_MASKS, "nvme<c>q<i>"),
    /** virtio-blk {@code virtioN-config} (a pre-vector) and {@code virtioN-req.Q}: managed request queues. */
    VIRTIO_BLK_IRQS(Routine.IRQ_AFFINITY_MASKS, "virtio<n>-config, virtio<n>-req.<q>"),
    /** A block device whose queues follow its IRQ masks ({@code blk_mq_pci_map_queues}, {@code blk_mq_virtio_map_queues}): nvme, virtio-blk. */
    BLOCK_BY_IRQ(Routine.IRQ_AFFINITY_MASKS, "/sys/block/{nvme*,vd*}/mq/<q>/cpu_list"),
    /** Any other block device: the default map {@code blk_mq_map_queues()} (null_blk, loop, ...). */
    BLOCK_DEFAULT(Routine.BLK_MQ_MAP, "/sys/block/<dev>/mq/<q>/cpu_list"),
    // Alike on purpose (duplicates, issue 26) with Routine: an enum whose constants state their id and words.
    /** virtio-net {@code virtioN-config}, {@code virtioN-input.Q}, {@code virtioN-output.Q} (spec/nic.md). */
    VIRTIO_NET(Routine.VIRTIO_NET_IRQS, "virtio<n>-config, virtio<n>-input.<q>, virtio<n>-output.<q>"),
    /** ena {@code ena-mgmnt@pci:ADDR} and {@code IF-Tx-Rx-Q}. */
    ENA(Routine.ENA_IRQS, "ena-mgmnt@pci:<addr>, <if>-Tx-Rx-<q>"),
    /** gve {@code gve-ntfy-blkB@pci:ADDR} and {@code gve-mgmnt@pci:ADDR} (6.1: {@code IF-ntfy-block.B}). */
    GVE(Routine.GVE_IRQS, "gve-ntfy-blk<b>@pci:<addr>, gve-mgmnt@pci:<addr>, <if>-ntfy-block.<b>"),
    /** ice {@code ice-IF-TxRx-Q}. */
    ICE(Routine.ICE_IRQS, "ice-<if>-TxRx-<q>"),
    /** i40e {@code i40e-IF-TxRx-Q}. */
    I40E(Routine.I40E_IRQS, "i40e-<if>-TxRx-<q>"),
    /** bnxt_en {@code IF-TxRx-Q}, on a PCI device bound to {@code bnxt_en}. */
    BNXT(Routine.BNXT_IRQS, "<if>-TxRx-<q> of a bnxt_en device");

    private final Routine routine;
    private final String shownAs;

    DeviceKind(Routine routine, String shownAs) {
        this.routine = routine;
        this.shownAs = shownAs;
    }

    /** The routine the model runs for the device. */
    public Routine routine() {
        return routine;
    }

    /** True for the NICs of spec/nic.md, whose IRQs are judged by how the driver set them (AUD-6). */
    public boolean isNic() {
        return routine.isNic();
    }

    /** True for nvme's and virtio-blk's IRQ vectors: a pre-vector, then managed vectors, each judged on its own line (AUD-9). */
    public boolean hasManagedIrqs() {
        return this == NVME_IRQS || this == VIRTIO_BLK_IRQS;
    }

    /** How the machine names such devices, for help texts. */
    public String shownAs() {
        return shownAs;
    }
}
