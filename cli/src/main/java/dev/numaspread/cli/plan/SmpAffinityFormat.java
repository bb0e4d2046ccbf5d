package dev.numaspread.cli.plan;

import dev.numaspread.model.cpu.CpuSet;

import java.util.List;

/**
 * {@code smp_affinity}: one hex mask per slot, as {@code /proc/irq/N/smp_affinity} prints it for
 * the machine's {@code nr_cpu_ids} (an untouched IRQ is the all-zero mask), prefixed
 * {@code IRQ: } from the request's first IRQ when it has one.
 */
public final class SmpAffinityFormat implements PlanFormat {

    @Override
    public String name() {
        return "smp_affinity";
    }

    @Override
    public String render(List<Planned> plans) {
        PlanRequest request = PlanFormat.only(plans).request();
        List<CpuSet> slots = PlanFormat.only(plans).plan().slots();
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < slots.size(); k++) {
            if (request.firstIrq().isPresent()) sb.append(request.firstIrq().get() + k).append(": ");
            sb.append(slots.get(k).toMask(request.machine().nrCpuIds())).append('\n');
        }
        return sb.toString();
    }
}
