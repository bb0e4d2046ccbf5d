package dev.numaspread.cli.plan;

import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.Optional;

/**
 * What {@code numaspread plan} was asked: the routine, the release and machine, the arguments a
 * routine may use, and how to number the lines of {@code smp_affinity}. Checked by the command
 * before a routine or format sees it.
 *
 * @param node      the device's node; {@code -1} is NUMA_NO_NODE
 * @param count     queues, IRQs or groups
 * @param offset    blk-mq: the first queue number
 * @param granted   mana-setup-irqs: the vectors the PCI core grants; empty: every vector asked for
 * @param cpus      numa-closest: the CPU set searched
 * @param cpu       numa-closest: the CPU to be close to
 * @param calls     numa-closest: how many calls are made in turn on the calling CPU
 * @param callingCpu numa-closest: the CPU that executes the calls (empty: {@code cpu})
 * @param prev      numa-closest: the calling CPU's {@code distribute_cpu_mask_prev} before the first call (HOP-10)
 * @param firstIrq  smp_affinity: the IRQ number of the first line
 */
public record PlanRequest(Routine routine, KernelRelease kernel, Topology machine, int node, int count, int offset,
                          Optional<Integer> granted, Optional<CpuSet> cpus, Optional<Integer> cpu, int calls,
                          Optional<Integer> callingCpu, int prev, boolean skipFirstCpu, boolean dynamicMsix, Optional<Integer> firstIrq) {

    /** The same request for another release (plans of several releases side by side). */
    public PlanRequest withKernel(KernelRelease k) {
        return new PlanRequest(routine, k, machine, node, count, offset, granted, cpus, cpu, calls, callingCpu, prev, skipFirstCpu, dynamicMsix,
                firstIrq);
    }
}
