package dev.numaspread.conformance.steps;

import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.Affinity;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;
import dev.numaspread.model.topology.Topology;
import io.cucumber.datatable.DataTable;
import io.cucumber.java.ParameterType;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Glue of features/nic.feature: a NIC driver of spec/nic.md sets up its queues on the scenario's
 * machine, against the implementation under test; the IRQs it requests, how each is set, what
 * each shows (NIC-1) and the XPS masks.
 */
public final class NicSteps {
    private final World world;
    private int node;                       // the device's node of the last setup: what an IRQ shows depends on it

    public NicSteps(World world) {
        this.world = world;
    }

    /** A driver of spec/nic.md, by the name its routine starts with. */
    public enum Driver {
        VIRTIO_NET("virtio-net"), ENA("ena"), GVE("gve"), ICE("ice"), I40E("i40e"), BNXT("bnxt");

        final String name;

        Driver(String name) {
            this.name = name;
        }

        NicQueues setUp(Implementation impl, KernelRelease k, Topology m, int node, int queues) {
            return switch (this) {
                case VIRTIO_NET -> impl.virtioNetIrqs(k, m, node, queues);
                case ENA -> impl.enaIrqs(k, m, node, queues);
                case GVE -> impl.gveIrqs(k, m, node, queues);
                case ICE -> impl.iceIrqs(k, m, node, queues);
                case I40E -> impl.i40eIrqs(k, m, node, queues);
                case BNXT -> impl.bnxtIrqs(k, m, node, queues);
            };
        }
    }

    /** {@code {nic}}: {@code virtio-net}, {@code ena}, {@code gve}, {@code ice}, {@code i40e} or {@code bnxt}. */
    @ParameterType(name = "nic", value = "virtio-net|ena|gve|ice|i40e|bnxt")
    public Driver nic(String text) {
        for (Driver d : Driver.values()) if (d.name.equals(text)) return d;
        throw new IllegalArgumentException(text);
    }

    @When("a(n) {nic} device on {node} sets up {int} queues")
    public void setUp(Driver driver, int node, int queues) {
        this.node = node;
        LocalSpreadSteps.record(world, () -> driver.setUp(world.implementation(), world.kernel(), world.machine(), node, queues));
    }

    /** Rows {@code | irq | setting | cpus |}: every IRQ the driver requests, in vector order. */
    @Then("the IRQs are:")
    public void irqsAre(DataTable table) {
        List<QueueIrq> got = queues().irqs();
        List<Map<String, String>> rows = table.asMaps();
        for (int i = 0; i < Math.max(rows.size(), got.size()); i++) {
            String want = i < rows.size() ? rows.get(i).get("irq") + " " + rows.get(i).get("setting") + " "
                    + CpuSet.parseText(rows.get(i).get("cpus")).toText() : "no IRQ";
            String actual = i < got.size() ? got.get(i).toString() : "no IRQ";
            if (!want.equals(actual))
                throw new AssertionError("IRQ " + i + " (vector order): expected " + want + "; actual " + actual
                        + " (all: " + got + ")");
        }
    }

    /** Rows {@code | irq | shows |}: what {@code smp_affinity_list} shows for each named IRQ (NIC-1). */
    @Then("the IRQs show:")
    public void irqsShow(DataTable table) {
        NicQueues q = queues();
        for (Map<String, String> row : table.asMaps()) {
            QueueIrq irq = irq(q, row.get("irq"));
            CpuSet want = CpuSet.parseText(row.get("shows"));
            CpuSet got = Affinity.shown(world.machine(), node, irq);
            if (!want.equals(got))
                throw new AssertionError("IRQ " + irq.label() + " (" + irq.setting() + " " + irq.mask().toText() + "): expected it to show "
                        + want.toText() + "; actual " + got.toText());
        }
    }

    @Then("the XPS masks are {string}")
    public void xpsAre(String sets) {
        List<CpuSet> want = CpuSet.parseTexts(sets);
        List<CpuSet> got = queues().xps();
        if (!want.equals(got))
            throw new AssertionError("the XPS masks: expected " + CpuSet.toText(want) + "; actual " + CpuSet.toText(got));
    }

    @Then("no XPS mask is set")
    public void noXps() {
        List<CpuSet> got = queues().xps();
        if (!got.isEmpty()) throw new AssertionError("the XPS masks: expected none set; actual " + CpuSet.toText(got));
    }

    /** Every IRQ of the last setup that serves a queue, with {@code setting}. */
    @Then("every queue IRQ is {word}")
    public void everyQueueIrq(String setting) {
        List<String> other = new ArrayList<>();
        for (QueueIrq irq : queues().irqs())
            if (irq.role().isQueue() && !irq.setting().id().equals(setting)) other.add(irq.toString());
        if (!other.isEmpty()) throw new AssertionError("every queue IRQ " + setting + ": actual " + other);
    }

    private QueueIrq irq(NicQueues q, String label) {
        for (QueueIrq i : q.irqs()) if (i.label().equals(label.strip())) return i;
        throw new AssertionError("IRQ " + label + ": expected the driver to request it; actual IRQs " + q.irqs());
    }

    private NicQueues queues() {
        return world.result(NicQueues.class);
    }
}
