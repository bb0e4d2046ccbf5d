package dev.numaspread.conformance.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.conformance.snapshot.SysfsFiles;
import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Topology;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Snapshots built from the kernel runs of {@code fixtures/kernel-runs/} (fixtures/snapshots/README.md):
 * the machine's sysfs files as the kernel of the run shows them, its {@code osrelease}, a null_blk
 * device whose queues are the {@code blk_mq_map_queues} map the kernel printed (what null_blk
 * showed), and an nvme controller whose IRQ affinities are the masks {@code irq_create_affinity_masks}
 * printed with one pre-vector, its namespace's queues following them. The IRQ numbers and device
 * names are ours; every CPU set comes from the kernel's output, none from the model.
 */
final class KernelRunSnapshots {

    private KernelRunSnapshots() {}

    /** The first IRQ number of the nvme controller (the numbers are arbitrary, as on a real machine). */
    static final int FIRST_IRQ = 40;

    /**
     * The snapshot of kernel run {@code run} with {@code nvecs} nvme vectors (the admin queue and
     * {@code nvecs - 1} I/O queues) and a null_blk device of {@code nullbQueues} queues.
     */
    static MachineSnapshot build(String run, int nvecs, int nullbQueues) {
        return build(run, nvecs, nullbQueues, java.util.Optional.empty());
    }

    /**
     * An mlx5 NIC on {@code node} with {@code count} completion vectors whose affinity hints are
     * what {@code cpumask_local_spread(i, node)} returned in the run (mlx5's placement from 6.12,
     * MLX-6), and whose affinity something else then moved: vector {@code i} to CPU {@code moved.get(i)}.
     */
    record Mlx5Nic(int node, int count, java.util.Map<Integer, Integer> moved) {}

    /** The first IRQ number of the mlx5 NIC. */
    static final int MLX5_FIRST_IRQ = 60;

    static MachineSnapshot build(String run, int nvecs, int nullbQueues, java.util.Optional<Mlx5Nic> nic) {
        Topology m = Fixtures.topology(run);
        JsonNode json = Fixtures.kernelRun(run);
        List<Tar.Entry> e = new ArrayList<>(SysfsFiles.of(m));
        e.add(file("proc/sys/kernel/osrelease", json.get("kernel").asText() + "\n"));

        JsonNode masks = json.at("/results/irq_create_affinity_masks/pre_vectors=1/" + nvecs + "/masks");
        if (masks.isMissingNode()) throw new IllegalArgumentException(run + ": no irq_create_affinity_masks for " + nvecs + " vectors");
        StringBuilder interrupts = new StringBuilder("     ");
        for (int c : m.online().toArray()) interrupts.append(String.format("%11s", "CPU" + c));
        interrupts.append('\n');
        String pci = "0000:00:04.0";
        for (int v = 0; v < nvecs; v++) {
            int irq = FIRST_IRQ + v;
            interrupts.append(String.format("%4d:", irq));
            for (int c : m.online().toArray()) interrupts.append(String.format("%11d", 0));
            interrupts.append("  PCI-MSI ").append(524288 + v).append("-edge      nvme0q").append(v).append('\n');
            CpuSet mask = CpuSet.parseList(masks.get(v).asText());
            CpuSet shown = v == 0 ? startedPreVector(m, mask) : mask;
            e.add(file("proc/irq/" + irq + "/smp_affinity_list", shown.toList() + "\n"));
            e.add(file("proc/irq/" + irq + "/smp_affinity", shown.toMask(m.nrCpuIds()) + "\n"));
            e.add(file("proc/irq/" + irq + "/node", m.nodeOf(mask.first()) + "\n"));   // alloc_descs(): the node of the mask's first CPU
            e.add(file("sys/bus/pci/devices/" + pci + "/msi_irqs/" + irq, "msi\n"));
            if (v > 0) e.add(file("sys/block/nvme0n1/mq/" + (v - 1) + "/cpu_list", cpuList(mask)));
        }
        if (nic.isPresent()) {
            String mlx = "0000:08:00.0";
            JsonNode spread = json.at("/results/local_spread/" + nic.get().node());
            for (int i = 0; i < nic.get().count(); i++) {
                int irq = MLX5_FIRST_IRQ + i;
                interrupts.append(String.format("%4d:", irq));
                for (int c : m.online().toArray()) interrupts.append(String.format("%11d", 0));
                interrupts.append("  PCI-MSIX-").append(mlx).append(' ').append(i).append("-edge      mlx5_comp").append(i).append("@pci:").append(mlx).append('\n');
                CpuSet hint = CpuSet.of(spread.get(i).asInt());
                CpuSet now = nic.get().moved().containsKey(i) ? CpuSet.of(nic.get().moved().get(i)) : hint;
                e.add(file("proc/irq/" + irq + "/smp_affinity_list", now.toList() + "\n"));
                e.add(file("proc/irq/" + irq + "/smp_affinity", now.toMask(m.nrCpuIds()) + "\n"));
                e.add(file("proc/irq/" + irq + "/affinity_hint", hint.toMask(m.nrCpuIds()) + "\n"));
                e.add(file("proc/irq/" + irq + "/node", nic.get().node() + "\n"));
                e.add(file("sys/bus/pci/devices/" + mlx + "/msi_irqs/" + irq, "msix\n"));
            }
            e.add(file("sys/bus/pci/devices/" + mlx + "/numa_node", nic.get().node() + "\n"));
        }
        interrupts.append(String.format("%4s:", "NMI"));
        for (int c : m.online().toArray()) interrupts.append(String.format("%11d", 0));
        interrupts.append("   Non-maskable interrupts\n");
        e.add(file("proc/interrupts", interrupts.toString()));
        e.add(file("sys/bus/pci/devices/" + pci + "/numa_node", "-1\n"));
        e.add(new Tar.Link("sys/class/block/nvme0n1", "../../devices/pci0000:00/" + pci + "/nvme/nvme0/nvme0n1"));

        JsonNode map = json.at("/results/blk_mq_map_queues/" + nullbQueues);
        if (map.isMissingNode()) throw new IllegalArgumentException(run + ": no blk_mq_map_queues for " + nullbQueues + " queues");
        TreeMap<Integer, CpuSet.Builder> queues = new TreeMap<>();
        map.fields().forEachRemaining(f -> queues.computeIfAbsent(f.getValue().asInt(), q -> CpuSet.builder()).add(Integer.parseInt(f.getKey())));
        queues.forEach((q, b) -> e.add(file("sys/block/nullb0/mq/" + q + "/cpu_list", cpuList(b.build()))));
        e.add(new Tar.Link("sys/class/block/nullb0", "../../devices/virtual/block/nullb0"));
        return MachineSnapshot.of(run + ".tar", e);
    }

    /**
     * What a pre-vector of mask {@code mask} shows once the kernel started it (spec/audit.md AUD-7,
     * as the booted device runs of fixtures/kernel-runs show): the mask's online CPUs on the node of
     * its first CPU, when there are some. Written out here from the rule, not asked of the model.
     */
    static CpuSet startedPreVector(Topology m, CpuSet mask) {
        CpuSet online = mask.and(m.online());
        if (online.isEmpty()) online = m.online();
        CpuSet.Builder local = CpuSet.builder();
        int node = m.nodeOf(mask.first());
        for (int c : online.toArray()) if (m.nodeOf(c) == node) local.add(c);
        CpuSet l = local.build();
        return l.isEmpty() ? online : l;
    }

    /** As {@code /sys/block/DEV/mq/N/cpu_list} prints a set: every CPU, comma and space separated. */
    static String cpuList(CpuSet s) {
        StringBuilder sb = new StringBuilder();
        for (int c : s.toArray()) sb.append(sb.length() == 0 ? "" : ", ").append(c);
        return sb.append('\n').toString();
    }

    static Tar.File file(String path, String text) {
        return new Tar.File(path, text.getBytes(StandardCharsets.UTF_8));
    }
}
