package dev.numaspread.cli.plan;

import dev.numaspread.model.cpu.CpuSet;

import java.util.List;

/** {@code cpu_list}: one line per slot as {@code /sys/block/DEV/mq/N/cpu_list} prints it: every CPU, comma and space separated. */
public final class CpuListFormat implements PlanFormat {

    @Override
    public String name() {
        return "cpu_list";
    }

    @Override
    public String render(List<Planned> plans) {
        Plan plan = PlanFormat.only(plans).plan();
        StringBuilder sb = new StringBuilder();
        plan.slots().forEach(s -> sb.append(cpuList(s)).append('\n'));
        return sb.toString();
    }

    /** {@code 0, 1, 2, 3}: every CPU of {@code s}, as blk-mq's sysfs prints a queue's CPUs. */
    static String cpuList(CpuSet s) {
        StringBuilder sb = new StringBuilder();
        for (int c : s.toArray()) sb.append(sb.length() == 0 ? "" : ", ").append(c);
        return sb.toString();
    }
}
