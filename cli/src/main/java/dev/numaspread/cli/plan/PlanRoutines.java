package dev.numaspread.cli.plan;

import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.numa.NumaClosest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The routines {@code numaspread plan} prints, each with its {@link PlanRoutine}; an immutable table. */
public final class PlanRoutines {
    private PlanRoutines() {}

    /** The plan routine of {@code routine}; empty for a routine {@code plan} does not print. */
    public static Optional<PlanRoutine> of(Routine routine) {
        return Optional.ofNullable(ROUTINES.get(routine));
    }

    /** The routines {@code plan} prints, in the order help lists them. */
    public static List<Routine> routines() {
        return List.copyOf(ROUTINES.keySet());
    }

    private static final Map<Routine, PlanRoutine> ROUTINES = table();

    private static Map<Routine, PlanRoutine> table() {
        Map<Routine, PlanRoutine> t = new LinkedHashMap<>();
        t.put(Routine.LOCAL_SPREAD, (impl, r) -> queues(impl.localSpreadCpus(r.kernel(), r.machine(), r.node(), r.count()), r));
        t.put(Routine.LOCAL_SPREAD_NEAREST_NODE,
                (impl, r) -> queues(impl.localSpreadNearestNodeCpus(r.kernel(), r.machine(), r.node(), r.count()), r));
        t.put(Routine.MLX5_NUMA_DISTANCE, (impl, r) -> queues(impl.mlx5NumaDistanceCpus(r.kernel(), r.machine(), r.node(), r.count()), r));
        t.put(Routine.MLX5_COMP_IRQS, (impl, r) -> queues(impl.mlx5CompIrqCpus(r.kernel(), r.machine(), r.node(), r.count()), r));
        t.put(Routine.HOP_MASKS, (impl, r) -> Plan.Slots.of("hop", impl.hopMasks(r.kernel(), r.machine(), r.node())));
        // From 6.16 an answer depends on the calls made before it on the calling CPU (HOP-10): the
        // plan is the answers of --calls calls in turn, from the state --prev.
        t.put(Routine.NUMA_CLOSEST, (impl, r) -> {
            CpuSet set = r.cpus().orElseThrow(() -> new IllegalArgumentException("--routine numa-closest: needs --cpus LIST and --cpu CPU"));
            int c = r.cpu().orElseThrow(() -> new IllegalArgumentException("--routine numa-closest: needs --cpus LIST and --cpu CPU"));
            List<NumaClosest.Call> calls = Collections.nCopies(r.calls(), new NumaClosest.Call(set, c));
            int[] answers = r.calls() == 1 && r.prev() == NumaClosest.BOOT_PREV && r.callingCpu().isEmpty()
                    ? new int[] {impl.numaClosest(r.kernel(), r.machine(), set, c)}
                    : impl.numaClosestCalls(r.kernel(), r.machine(), r.callingCpu().orElse(c), r.prev(), calls);
            return slots("call", answers, r);
        });
        t.put(Routine.GROUP_CPUS, (impl, r) -> Plan.Slots.of("group", impl.groupCpusEvenly(r.kernel(), r.machine(), r.count())
                .orElseThrow(() -> new KernelBug("NULL", "group_cpus_evenly(" + r.count() + ") returned NULL"))));
        t.put(Routine.BLK_MQ_MAP, (impl, r) -> new Plan.QueueMap(impl.blkMqMapQueues(r.kernel(), r.machine(), r.count(), r.offset()),
                r.offset(), r.count()));
        // irq_setup() assigns IRQs in order and stops when the hops run out (SIB-8): the IRQs
        // past the list it returns keep no affinity of its making.
        t.put(Routine.IRQ_SETUP, (impl, r) -> Plan.Slots.affinities("irq", impl.irqSetup(r.kernel(), Machine.boot(r.machine(), r.kernel()),
                r.node(), r.count(), r.skipFirstCpu()), r.count()));
        t.put(Routine.MANA_SETUP_IRQS, (impl, r) -> {
            Machine.Config config = Machine.Config.of(r.machine(), r.kernel()).withDynamicMsix(r.dynamicMsix());
            if (r.granted().isPresent()) config = config.withGrantedVectors(r.granted().get());
            List<CpuSet> vectors = impl.manaSetupIrqs(r.kernel(), Machine.boot(config), r.node());
            if (vectors.isEmpty())
                // Not a BUG(): the probe fails cleanly, but the machine has no MANA IRQs to print.
                throw new KernelBug("-ENOSPC", "pci_alloc_irq_vectors() grants " + r.granted().map(String::valueOf).orElse("every")
                        + " vector(s), fewer than mana_gd_setup_irqs() asks for at least; the probe fails");
            return Plan.Slots.affinities("vector", vectors, vectors.size());
        });
        return Collections.unmodifiableMap(t);
    }

    /** One CPU per queue; a "none" answer ({@code >= nr_cpu_ids}) is a queue without a CPU. */
    private static Plan.Slots queues(int[] cpus, PlanRequest r) {
        return slots("queue", cpus, r);
    }

    /** One CPU per slot named {@code word}; a "none" answer ({@code >= nr_cpu_ids}) is a slot without a CPU. */
    private static Plan.Slots slots(String word, int[] cpus, PlanRequest r) {
        List<CpuSet> sets = new ArrayList<>();
        for (int c : cpus) sets.add(c >= 0 && c < r.machine().nrCpuIds() ? CpuSet.of(c) : CpuSet.EMPTY);
        return Plan.Slots.of(word, sets);
    }
}
