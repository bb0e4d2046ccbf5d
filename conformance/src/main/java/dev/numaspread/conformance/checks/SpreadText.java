package dev.numaspread.conformance.checks;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.topology.Topology;

import java.util.function.Supplier;

/** How the local-spread, NUMA and mlx5 checks print values: CPU lists and plans in kernel notation. */
final class SpreadText {
    private SpreadText() {}

    /** A plan as {@code 4, 6, 7, 0}; long plans are cut after 40 entries. */
    static String plan(int[] cpus) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cpus.length && i < 40; i++) sb.append(i == 0 ? "" : ", ").append(cpus[i]);
        if (cpus.length > 40) sb.append(", ... (").append(cpus.length).append(" queues)");
        return sb.toString();
    }

    static String cpu(Topology m, int cpu) {
        if (cpu < 0 || cpu >= m.nrCpuIds()) return "cpu " + cpu + " (none: >= nr_cpu_ids " + m.nrCpuIds() + ")";
        return "cpu " + cpu + " (node " + m.nodeOf(cpu) + (m.online().contains(cpu) ? "" : ", offline") + ")";
    }

    /** What a call gave: its value printed by {@code text}, or the kernel bug it modelled. */
    record Outcome(String text, boolean bug) {
        static <T> Outcome of(Supplier<T> call, java.util.function.Function<T, String> text) {
            try {
                return new Outcome(text.apply(call.get()), false);
            } catch (KernelBug b) {
                return new Outcome("KernelBug " + b.kind(), true);
            }
        }
    }
}
