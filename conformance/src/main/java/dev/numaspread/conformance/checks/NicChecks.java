package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.Bnxt;
import dev.numaspread.model.nic.Ena;
import dev.numaspread.model.nic.Gve;
import dev.numaspread.model.nic.I40e;
import dev.numaspread.model.nic.Ice;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;
import dev.numaspread.model.nic.VirtioNet;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The checks of spec/nic.md: each driver's IRQs and XPS masks, compared with the reference model
 * on generated machines, devices and queue counts. NIC-1 (what an IRQ shows) is genirq's, not a
 * driver's: the features and the audit tests prove it.
 */
public final class NicChecks implements CheckFamily {

    /** A device: the machine, its node (possibly NUMA_NO_NODE or CPU-less) and its queue count. */
    record Device(Topology machine, int node, int queues) {}

    /** Devices of the local-spread machines, with 1 to 2 x online + 1 queues (the edges around the online count drawn often). */
    static Gen<Device> devices() {
        return devices(LocalSpreadChecks.cases());
    }

    /** Devices of {@code cases}' machines and nodes, with 1 to 2 x online + 1 queues. */
    static Gen<Device> devices(Gen<LocalSpreadChecks.Case> cases) {
        return c -> {
            LocalSpreadChecks.Case k = cases.generate(c);
            int online = k.machine().numOnlineCpus();
            return new Device(k.machine(), k.node(), MachineDraws.counts(k.machine(), 1, 2 * online + 1).generate(c));
        };
    }

    /**
     * The drivers whose masks are {@code cpumask_local_spread()} from a node (ice's node 0 from 6.15,
     * bnxt's device node), which walks the scheduler's distance from 6.19 (LVL-6): their checks meet
     * SNC-2 and SNC-3 machines there too (issue 24). i40e spreads from NUMA_NO_NODE, the i-th online
     * CPU, and the others count CPU ids or walk one node: no distance.
     */
    static final java.util.Set<Routine> SPREAD_FROM_A_NODE = java.util.EnumSet.of(Routine.ICE_IRQS, Routine.BNXT_IRQS);

    /** One driver routine: the SPI method and the model. */
    interface Driver {
        NicQueues ask(Implementation impl, KernelRelease k, Device d);
    }

    static final Driver VIRTIO_NET = (impl, k, d) -> impl.virtioNetIrqs(k, d.machine(), d.node(), d.queues());
    static final Driver ENA = (impl, k, d) -> impl.enaIrqs(k, d.machine(), d.node(), d.queues());
    static final Driver GVE = (impl, k, d) -> impl.gveIrqs(k, d.machine(), d.node(), d.queues());
    static final Driver ICE = (impl, k, d) -> impl.iceIrqs(k, d.machine(), d.node(), d.queues());
    static final Driver I40E = (impl, k, d) -> impl.i40eIrqs(k, d.machine(), d.node(), d.queues());
    static final Driver BNXT = (impl, k, d) -> impl.bnxtIrqs(k, d.machine(), d.node(), d.queues());

    /** What the reference model gives (the model's classes called directly, not through the SPI). */
    static NicQueues model(Routine r, KernelRelease k, Device d) {
        return switch (r) {
            case VIRTIO_NET_IRQS -> VirtioNet.virtioNetIrqs(k, d.machine(), d.queues());
            case ENA_IRQS -> Ena.enaIrqs(k, d.machine(), d.queues());
            case GVE_IRQS -> Gve.gveIrqs(k, d.machine(), d.node(), d.queues());
            case ICE_IRQS -> Ice.iceIrqs(k, d.machine(), d.node(), d.queues());
            case I40E_IRQS -> I40e.i40eIrqs(k, d.machine(), d.queues());
            case BNXT_IRQS -> Bnxt.bnxtIrqs(k, d.machine(), d.node(), d.queues());
            default -> throw new IllegalArgumentException(r + " is not a NIC routine");
        };
    }

    static String call(String method, Device d) {
        return method + "(node=" + d.node() + ", queues=" + d.queues() + ")";
    }

    /**
     * The first difference between {@code want} and {@code got} among the IRQs {@code which}
     * selects (and, when {@code xps}, the XPS masks), as {expected, actual}; empty when they agree.
     */
    static Optional<String[]> difference(NicQueues want, NicQueues got, Predicate<QueueIrq> which, boolean irqs, boolean xps) {
        if (irqs) {
            List<QueueIrq> w = want.irqs().stream().filter(which).toList();
            List<QueueIrq> g = got.irqs().stream().filter(which).toList();
            for (int i = 0; i < Math.max(w.size(), g.size()); i++) {
                if (i < w.size() && i < g.size() && w.get(i).equals(g.get(i))) continue;
                // Written out for the first IRQ that differs only: nearly every case agrees, and
                // writing out every IRQ of every case showed in the exhaustive walk's stacks.
                return Optional.of(new String[]{i < w.size() ? "IRQ " + w.get(i) : w.size() + " IRQs",
                        i < g.size() ? "IRQ " + g.get(i) : "no such IRQ (" + g.size() + " IRQs)"});
            }
        }
        if (xps && !want.xps().equals(got.xps()))
            return Optional.of(new String[]{"XPS " + CpuSet.toText(want.xps()), "XPS " + CpuSet.toText(got.xps())});
        return Optional.empty();
    }

    /**
     * A check of {@code rule}: on every drawn device of a release {@code kernels} accepts, the
     * implementation's IRQs that {@code which} selects (and its XPS masks, when {@code xps}) are
     * the model's; a release the model fails in (a kernel bug) must fail the same way.
     */
    static Check exact(String rule, Routine routine, String name, String method, Driver driver, Predicate<KernelRelease> kernels,
                       Predicate<Device> applies, Predicate<QueueIrq> which, boolean irqs, boolean xps, String quote, String hint) {
        return Check.of(rule, routine, name, ctx -> {
            if (!kernels.test(ctx.kernel())) return;
            java.util.function.Consumer<Device> body = d -> {
                if (!applies.test(d)) return;
                NicQueues want;
                try {
                    want = model(routine, ctx.kernel(), d);
                } catch (KernelBug b) {
                    String got;
                    try {
                        got = driver.ask(ctx.implementation(), ctx.kernel(), d).toString();
                    } catch (KernelBug mine) {
                        return;
                    }
                    throw Violation.of(rule, call(method, d), "KernelBug " + b.kind() + " (the release fails here)", got).on(d.machine());
                }
                NicQueues got = driver.ask(ctx.implementation(), ctx.kernel(), d);
                Optional<String[]> diff = difference(want, got, which, irqs, xps);
                if (diff.isPresent())
                    throw Violation.of(rule, call(method, d), diff.get()[0], diff.get()[1]).quoting(quote).hint(hint).on(d.machine());
            };
            if (SPREAD_FROM_A_NODE.contains(routine)) NumaChecks.alsoOnDrawnSnc(ctx, devices(), devices(LocalSpreadChecks.sncCases()), body);
            else ctx.forAll(devices(), body);
        });
    }

    static final Predicate<QueueIrq> EVERY_IRQ = i -> true;
    static final Predicate<Device> EVERY_DEVICE = d -> true;

    /** virtio-net's pairs in use: those below {@code min(queues, online)}. */
    static boolean inUse(QueueIrq irq, int curr) {
        return irq.role().isQueue() && irq.queue() < curr;
    }

    @Override
    public List<Check> checks() {
        return List.of(
            Check.of("NIC-2", Routine.VIRTIO_NET_IRQS, "NIC_2_pairsInUseGetConsecutiveGroupsOfOnlineCpus", ctx -> ctx.forAll(devices(), d -> {
                int curr = Math.min(d.queues(), d.machine().numOnlineCpus());
                NicQueues want = model(Routine.VIRTIO_NET_IRQS, ctx.kernel(), d);
                NicQueues got = VIRTIO_NET.ask(ctx.implementation(), ctx.kernel(), d);
                Optional<String[]> diff = difference(want, got, i -> inUse(i, curr), true, true);
                if (diff.isPresent())
                    throw Violation.of("NIC-2", call("virtioNetIrqs", d), diff.get()[0], diff.get()[1])
                            .quoting("Pair `i < curr` gets group `i`, forced on its receive IRQ (`input.i`) and its transmit IRQ"
                                    + " (`output.i`), and group `i` is the XPS map of transmit queue `i`.")
                            .hint("consecutive online CPUs (not ids), the first n mod curr pairs one CPU more, curr = min(pairs, online)?")
                            .on(d.machine());
            })),
            Check.of("NIC-3", Routine.VIRTIO_NET_IRQS, "NIC_3_configAndPairsNotInUseAreLeftAlone", ctx -> ctx.forAll(devices(), d -> {
                int curr = Math.min(d.queues(), d.machine().numOnlineCpus());
                NicQueues want = model(Routine.VIRTIO_NET_IRQS, ctx.kernel(), d);
                NicQueues got = VIRTIO_NET.ask(ctx.implementation(), ctx.kernel(), d);
                Optional<String[]> diff = difference(want, got, i -> !inUse(i, curr), true, false);
                if (diff.isPresent())
                    throw Violation.of("NIC-3", call("virtioNetIrqs", d), diff.get()[0], diff.get()[1])
                            .quoting("The driver requests an IRQ for the receive and the transmit queue of every pair the device offers, but sets"
                                    + " the affinity only of the `curr` pairs it uses (NIC-2): the IRQs of pairs `curr .. max_queue_pairs-1`, and"
                                    + " the config IRQ, are set to nothing and show the default affinity (NIC-1); those pairs have no XPS map.")
                            .hint("pairs beyond the online CPUs have IRQs but no affinity; does every offered pair get an IRQ pair?")
                            .on(d.machine());
            })),
            exact("NIC-4", Routine.ENA_IRQS, "NIC_4_ioIrqIOnCpuIdIModOnline", "enaIrqs", ENA, k -> true, EVERY_DEVICE,
                    EVERY_IRQ, true, true,
                    "The management IRQ (`ena-mgmnt@pci:ADDR`, vector 0) is forced to the first online CPU; I/O IRQ `i` (`IF-Tx-Rx-i`,"
                            + " vector `i + 1`) to the CPU whose id is `i mod num_online_cpus()`: an id, not the `i`-th online CPU, and no NUMA.",
                    "CPU ids, not the i-th online CPU; min(queues, online, 128) I/O IRQs; the management IRQ on the first online CPU?"),
            exact("NIC-5", Routine.GVE_IRQS, "NIC_5_blockIOnCpuIdIModActive", "gveIrqs", GVE, k -> k.before(6, 17), EVERY_DEVICE,
                    EVERY_IRQ, true, true,
                    "Block `i` is forced to the CPU whose id is `i mod active`, `active = min(queues, num_online_cpus())`; transmit queue"
                            + " `q`'s XPS map is the CPU whose id is `q mod active`.",
                    "transmit blocks first, then receive; ids modulo min(queues, online), not the node?"),
            exact("NIC-6", Routine.GVE_IRQS, "NIC_6_blocksWalkTheDeviceNodeReceiveRestarts", "gveIrqs", GVE, k -> k.atLeast(6, 17),
                    EVERY_DEVICE, EVERY_IRQ, true, true,
                    "The blocks walk the online CPUs of the device's node in ascending order (every CPU id below `nr_cpu_ids` for"
                            + " NUMA_NO_NODE), block `i` forced to the CPU the walk stands on; past the node's last CPU, and after the last"
                            + " transmit block, the walk goes back to the node's first CPU, so transmit and receive queue `q` share a CPU.",
                    "the node's online CPUs in id order, back to the first after the last transmit block; XPS still ids mod active?"),
            exact("NIC-7", Routine.ICE_IRQS, "NIC_7_vectorVOnCpuVForcedThenHint", "iceIrqs", ICE, k -> k.before(6, 15), EVERY_DEVICE,
                    EVERY_IRQ, true, true,
                    "Queue vector `v` (`ice-IF-TxRx-v`) gets the mask `{v}` when CPU `v` is online, else an empty mask: no NUMA, CPU ids.",
                    "CPU id v only when online; forced until 6.10 (irq_set_affinity_hint), a hint from 6.11?"),
            exact("NIC-8", Routine.ICE_IRQS, "NIC_8_localSpreadFromNode0", "iceIrqs", ICE, k -> k.atLeast(6, 15),
                    d -> d.machine().hasNode(0), EVERY_IRQ, true, true,
                    "`node` is `dev_to_node(&netdev->dev)` read before `register_netdev()`, while the netdev's device"
                            + " still holds the zero of its allocation: node 0, not the PCI device's node.",
                    "cpumask_local_spread(v, 0) whatever the device's node, forced, no hint?"),
            exact("NIC-9", Routine.I40E_IRQS, "NIC_9_hintIsTheVthOnlineCpu", "i40eIrqs", I40E, k -> true, EVERY_DEVICE,
                    EVERY_IRQ, true, true,
                    "Queue vector `v` (`i40e-IF-TxRx-v`) gets the hint `{cpumask_local_spread(v, NUMA_NO_NODE)}`, the `v`-th online CPU"
                            + " wrapping, whatever the device's node, set with `irq_update_affinity_hint()`: the IRQ keeps the default affinity (NIC-1).",
                    "NUMA_NO_NODE whatever the device's node, and only a hint (irq_update_affinity_hint)?"),
            exact("NIC-10", Routine.BNXT_IRQS, "NIC_10_localSpreadFromTheDeviceNode", "bnxtIrqs", BNXT, k -> true, EVERY_DEVICE,
                    EVERY_IRQ, true, false,
                    "Until 6.12 the mask is forced; from 6.13 it is only a hint, and the IRQ keeps the default affinity (NIC-1).",
                    "cpumask_local_spread(i, device node) of the release; forced until 6.12, a hint from 6.13?"),
            exact("NIC-11", Routine.BNXT_IRQS, "NIC_11_xpsDealsTheOnlineSpreadOverTheQueues", "bnxtIrqs", BNXT, k -> true, EVERY_DEVICE,
                    EVERY_IRQ, false, true,
                    "From 6.10, transmit queue `q` gets the XPS map of every `cpumask_local_spread(i, node)` with `i < num_online_cpus()`"
                            + " and `i mod rings = q`: the online CPUs, nearest to the device first, dealt out over the queues in turn.",
                    "local spread of i = 0 .. online-1, i mod rings to queue i mod rings; none before 6.10?")
        );
    }
}
