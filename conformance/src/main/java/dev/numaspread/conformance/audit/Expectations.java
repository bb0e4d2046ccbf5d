package dev.numaspread.conformance.audit;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.BlkMqMap;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.group.NvmeQueues;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.Affinity;
import dev.numaspread.model.nic.Bnxt;
import dev.numaspread.model.nic.Ena;
import dev.numaspread.model.nic.Gve;
import dev.numaspread.model.nic.I40e;
import dev.numaspread.model.nic.Ice;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.VirtioNet;
import dev.numaspread.model.siblingspread.SiblingSpread;
import dev.numaspread.model.spread.Mlx5;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * What the reference model gives each IRQ vector or queue of a device for one release
 * (spec/audit.md AUD-2): the routine of the device's kind, sized by what the machine shows.
 */
public final class Expectations {

    private Expectations() {}

    /**
     * The CPUs of slot index {@code 0 .. device.count()-1}.
     *
     * @throws KernelBug                the release would fail there (then nothing it shows can match)
     * @throws IllegalArgumentException the routine is not modelled for the release
     */
    public static List<CpuSet> of(Device d, KernelRelease k, Topology m) {
        int count = d.count();
        return switch (d.kind()) {
            case MLX5_COMP -> {
                List<CpuSet> out = new ArrayList<>();
                for (int c : Mlx5.mlx5CompIrqCpus(k, m, d.node(), count)) out.add(c >= 0 && c < m.nrCpuIds() ? CpuSet.of(c) : CpuSet.EMPTY);
                yield out;
            }
            // The PCI core granted as many vectors as the machine shows: mana_gd_setup_irqs() sized itself to them.
            case MANA -> {
                List<CpuSet> v = SiblingSpread.manaSetupIrqs(Machine.boot(Machine.Config.of(m, k).withGrantedVectors(count)), d.node());
                if (v.isEmpty()) throw new KernelBug("-ENOSPC", count + " vectors are too few for mana_gd_setup_irqs(); the probe fails");
                yield v;
            }
            // One pre-vector (nvme's admin queue, virtio's config vector), the rest one managed set; the
            // pre-vector starts on its mask's online CPUs of the node of its first CPU (AUD-7).
            // nvme's I/O vectors are one set, or write then read sets (AUD-8).
            case NVME_IRQS, VIRTIO_BLK_IRQS -> {
                List<Integer> sets = d.nvme().map(n -> NvmeQueues.irqSets(count - 1, n.writeQueues())).orElse(List.of());
                List<CpuSet> masks = new ArrayList<>(masks(k, m, count, sets).subList(0, count));
                if (!masks.isEmpty()) masks.set(0, Affinity.descriptorVectorShown(m, masks.get(0)));
                yield masks;
            }
            // blk_mq_pci_map_queues() / blk_mq_virtio_map_queues(): queue q takes the mask of vector q + 1;
            // an nvme disk's queues past its controller's I/O vectors are polled and take the default map (AUD-8).
            case BLOCK_BY_IRQ -> {
                int vectors = d.nvme().map(Device.NvmeSplit::ioIrqs).filter(v -> v > 0).orElse(count);
                List<Integer> sets = d.nvme().map(n -> NvmeQueues.irqSets(vectors, n.writeQueues())).orElse(List.of());
                List<CpuSet> out = new ArrayList<>(masks(k, m, vectors + 1, sets).subList(1, Math.min(vectors, count) + 1));
                if (count > vectors) out.addAll(defaultMap(k, m, count - vectors));
                yield out;
            }
            case VIRTIO_NET, ENA, GVE, ICE, I40E, BNXT -> {
                NicQueues q = nicQueues(d, k, m);
                yield q.irqs().stream().map(irq -> Affinity.shown(m, d.node(), irq)).toList();
            }
            case BLOCK_DEFAULT -> defaultMap(k, m, count);
        };
    }

    /** The CPUs {@code blk_mq_map_queues()} gives each of {@code count} queues. */
    private static List<CpuSet> defaultMap(KernelRelease k, Topology m, int count) {
        int[] map = BlkMqMap.blkMqMapQueues(k, m, count, 0);
        List<CpuSet.Builder> queues = new ArrayList<>();
        for (int q = 0; q < count; q++) queues.add(CpuSet.builder());
        for (int c = 0; c < map.length; c++) if (map[c] >= 0 && map[c] < count) queues.get(map[c]).add(c);
        return queues.stream().map(CpuSet.Builder::build).toList();
    }

    /**
     * What the NIC driver of {@code d} sets up in release {@code k} for the queues the machine
     * shows (spec/nic.md), its IRQs in vector order.
     *
     * @throws KernelBug                the release would fail there
     * @throws IllegalArgumentException the routine is not modelled for the release
     */
    public static NicQueues nicQueues(Device d, KernelRelease k, Topology m) {
        int queues = NicLayout.queues(d.kind(), d.count());
        return switch (d.kind()) {
            case VIRTIO_NET -> VirtioNet.virtioNetIrqs(k, m, queues);
            case ENA -> Ena.enaIrqs(k, m, queues);
            case GVE -> Gve.gveIrqs(k, m, d.node(), queues);
            case ICE -> Ice.iceIrqs(k, m, d.node(), queues);
            case I40E -> I40e.i40eIrqs(k, m, queues);
            case BNXT -> Bnxt.bnxtIrqs(k, m, d.node(), queues);
            default -> throw new IllegalArgumentException(d.kind() + " is not a NIC");
        };
    }

    private static List<CpuSet> masks(KernelRelease k, Topology m, int nvecs, List<Integer> sets) {
        List<AffinityDesc> d = IrqAffinity.irqCreateAffinityMasks(k, m, nvecs, 1, 0, sets)
                .orElseThrow(() -> new KernelBug("NULL", "irq_create_affinity_masks(" + nvecs + ", pre_vectors 1"
                        + (sets.isEmpty() ? "" : ", sets " + sets) + ") returned NULL"));
        return d.stream().map(AffinityDesc::mask).toList();
    }
}
