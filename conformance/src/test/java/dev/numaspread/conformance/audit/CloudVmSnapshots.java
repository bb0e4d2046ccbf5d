package dev.numaspread.conformance.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.conformance.snapshot.MachineSnapshot;
import dev.numaspread.conformance.snapshot.SysfsFiles;
import dev.numaspread.conformance.snapshot.Tar;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.numaspread.conformance.audit.KernelRunSnapshots.cpuList;
import static dev.numaspread.conformance.audit.KernelRunSnapshots.file;

/**
 * A snapshot of a cloud VM QEMU cannot emulate (spec/audit.md AUD-6), on the machine of a kernel
 * run, the 8-vCPU two-node {@code a-2node-2s2c2t}: an AWS-style guest with ena and nvme. The
 * disk's IRQ masks are what the run's kernel returned for {@code irq_create_affinity_masks} (real),
 * its admin queue started as AUD-7 says; every NIC value is written here by hand from the rules of
 * spec/nic.md, never asked of the model; IRQ numbers, names and PCI addresses are ours. (The QEMU
 * guest with virtio-net and virtio-blk is a real one: {@link BootedDeviceRuns}.)
 */
final class CloudVmSnapshots {
    private CloudVmSnapshots() {}

    /** The lines of {@code /proc/interrupts} and the files of each IRQ, built one IRQ at a time. */
    private static final class Builder {
        final Topology m;
        final List<Tar.Entry> e;
        final StringBuilder interrupts = new StringBuilder("     ");

        Builder(String run) {
            m = Fixtures.topology(run);
            e = new ArrayList<>(SysfsFiles.of(m));
            for (int c : m.online().toArray()) interrupts.append(String.format("%11s", "CPU" + c));
            interrupts.append('\n');
        }

        /** IRQ {@code irq} named {@code name}, of PCI device {@code pci}, showing {@code affinity}, with {@code hint} when not empty. */
        void irq(int irq, String pci, int vector, String name, CpuSet affinity, CpuSet hint) {
            interrupts.append(String.format("%4d:", irq));
            for (int c : m.online().toArray()) interrupts.append(String.format("%11d", 0));
            interrupts.append("  PCI-MSIX-").append(pci).append(' ').append(vector).append("-edge      ").append(name).append('\n');
            e.add(file("proc/irq/" + irq + "/smp_affinity_list", affinity.toList() + "\n"));
            e.add(file("proc/irq/" + irq + "/smp_affinity", affinity.toMask(m.nrCpuIds()) + "\n"));
            e.add(file("proc/irq/" + irq + "/effective_affinity_list", CpuSet.of(affinity.first()).toList() + "\n"));
            e.add(file("proc/irq/" + irq + "/affinity_hint", hint.toMask(m.nrCpuIds()) + "\n"));
            e.add(file("sys/bus/pci/devices/" + pci + "/msi_irqs/" + irq, "msix\n"));
        }

        MachineSnapshot build(String name, String osrelease) {
            interrupts.append(String.format("%4s:", "NMI"));
            for (int c : m.online().toArray()) interrupts.append(String.format("%11d", 0));
            interrupts.append("   Non-maskable interrupts\n");
            e.add(file("proc/interrupts", interrupts.toString()));
            e.add(file("proc/sys/kernel/osrelease", osrelease + "\n"));
            return MachineSnapshot.of(name, e);
        }
    }

    /** The real masks of {@code irq_create_affinity_masks(nvecs, pre_vectors 1)} the run's kernel returned. */
    private static List<CpuSet> realMasks(String run, int nvecs) {
        JsonNode masks = Fixtures.kernelRun(run).at("/results/irq_create_affinity_masks/pre_vectors=1/" + nvecs + "/masks");
        if (masks.isMissingNode()) throw new IllegalArgumentException(run + ": no irq_create_affinity_masks for " + nvecs + " vectors");
        List<CpuSet> out = new ArrayList<>();
        masks.forEach(x -> out.add(CpuSet.parseList(x.asText())));
        return out;
    }

    static final String A612 = "a-2node-2s2c2t-linux-6.12-boot";
    static final String ENA_RUN = "a-2node-2s2c2t-linux-6.1-boot";

    /**
     * An AWS-style guest of 8 vCPUs running 6.1: ena (PCI 0000:00:05.0, node 0, interface eth0)
     * offering 8 I/O queues, and an nvme disk (0000:00:04.0) with 8 I/O queues. By NIC-4 the
     * management IRQ is forced to CPU 0 and I/O IRQ i to CPU id i; then something (irqbalance)
     * moved the IRQs of queues in {@code moved} to other CPUs.
     */
    static MachineSnapshot enaVm(Map<Integer, Integer> moved) {
        Builder b = new Builder(ENA_RUN);
        String ena = "0000:00:05.0", nvme = "0000:00:04.0";
        int irq = 30;
        b.irq(irq++, ena, 0, "ena-mgmnt@pci:" + ena, CpuSet.of(0), CpuSet.of(0));
        for (int q = 0; q < 8; q++) {
            CpuSet forced = CpuSet.of(q);
            b.irq(irq++, ena, q + 1, "eth0-Tx-Rx-" + q, moved.containsKey(q) ? CpuSet.of(moved.get(q)) : forced, forced);
        }
        b.e.add(file("sys/bus/pci/devices/" + ena + "/numa_node", "0\n"));
        b.e.add(new Tar.Link("sys/bus/pci/devices/" + ena + "/driver", "../../../bus/pci/drivers/ena"));
        b.e.add(new Tar.Link("sys/class/net/eth0", "../../devices/pci0000:00/" + ena + "/net/eth0"));
        List<CpuSet> masks = realMasks(ENA_RUN, 9);
        irq = 50;
        for (int v = 0; v < 9; v++) {
            // The admin queue starts on its mask's online CPUs of the node of its first CPU (spec/audit.md AUD-7).
            b.irq(irq++, nvme, v, "nvme0q" + v, v == 0 ? KernelRunSnapshots.startedPreVector(b.m, masks.get(v)) : masks.get(v), CpuSet.EMPTY);
            if (v > 0) b.e.add(file("sys/block/nvme0n1/mq/" + (v - 1) + "/cpu_list", cpuList(masks.get(v))));
        }
        b.e.add(file("sys/bus/pci/devices/" + nvme + "/numa_node", "-1\n"));
        b.e.add(new Tar.Link("sys/class/block/nvme0n1", "../../devices/pci0000:00/" + nvme + "/nvme/nvme0/nvme0n1"));
        return b.build(ENA_RUN.replace("-boot", "-ena-vm") + (moved.isEmpty() ? "" : "-irqbalance") + ".tar", "6.1.0-57-cloud-amd64");
    }
}
