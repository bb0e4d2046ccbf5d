package dev.numaspread.model.numa;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.kernel.Releases;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code sched_numa_find_closest(cpus, cpu)} (spec/numa-hops.md, HOP-5, HOP-9, HOP-10): a CPU of
 * {@code cpus} in the nearest level, measured from the node of {@code cpu}. Introduced in 5.5 by
 * commit e0e8d4911ed2 "sched/isolation: Prefer housekeeping CPU in local node".
 *
 * <p>Which CPU of that level: up to 6.15 the lowest id ({@code cpumask_any_and}, HOP-9). From 6.16
 * (6432e163ba1b "sched/isolation: Make use of more than one housekeeping cpu") the function asks
 * {@code cpumask_any_and_distribute}, which keeps one value per CPU, {@code distribute_cpu_mask_prev}
 * of the CPU that <em>executes</em> the call (not the {@code cpu} argument): the CPU it returned last
 * on that CPU, for any mask and any caller ({@code cpumask_any_distribute} and other users share
 * it). It returns the first CPU of the level above that value, wrapping to the lowest, and stores
 * what it returned (HOP-10). The value starts at 0, so the first call on a CPU skips CPU 0 unless
 * it is the only choice; after boot other kernel code has moved it. So from 6.16 an answer is a
 * function of the arguments and that state: {@link #numaClosest(KernelRelease, Topology, CpuSet, int, int)}.
 */
public final class NumaClosest {
    private NumaClosest() {}

    static final KernelRelease SINCE = KernelRelease.of(5, 5);

    /** {@code distribute_cpu_mask_prev} of a CPU that never called a distribute function: 0, as the per-CPU area starts. */
    public static final int BOOT_PREV = 0;

    /**
     * One answer and the calling CPU's {@code distribute_cpu_mask_prev} after the call.
     *
     * @param cpu  the CPU found, or {@code >= nr_cpu_ids} for none
     * @param prev the state after the call: {@code cpu} when one was found from 6.16, else unchanged
     */
    public record Closest(int cpu, int prev) {}

    /** One call: {@code sched_numa_find_closest(cpus, cpu)}. */
    public record Call(CpuSet cpus, int cpu) {}

    /**
     * The answer of a call made on a CPU whose {@code distribute_cpu_mask_prev} is {@code prev}:
     * {@code machine.nrCpuIds()} ("none") when no level of {@code cpu}'s node holds a CPU of
     * {@code cpus}, when the kernel built no levels, or when the node has no masks; else a CPU of
     * {@code cpus} in the smallest such level: the lowest id up to 6.15, the first above
     * {@code prev} (wrapping) from 6.16. Only online CPUs can be found: the level masks hold online
     * CPUs only. The levels follow the release ({@link NumaLevels}).
     *
     * @throws IllegalArgumentException for a release before 5.5, a CPU that is not possible, or a
     *                                  state outside {@code 0 .. nr_cpu_ids - 1}
     */
    public static Closest numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu, int prev) {
        Releases.requireModelled(kernel, "numa-closest", SINCE, "e0e8d4911ed2 introduced sched_numa_find_closest()");
        if (prev < 0 || prev >= machine.nrCpuIds())
            throw new IllegalArgumentException("numaClosest: distribute_cpu_mask_prev " + prev + "; expected 0 to nr_cpu_ids - 1 = "
                    + (machine.nrCpuIds() - 1));
        int node = machine.nodeOf(cpu);
        for (CpuSet mask : NumaLevels.of(kernel, machine).masksOf(node)) {
            CpuSet hit = cpus.and(mask);
            if (hit.isEmpty()) continue;
            if (kernel.before(6, 16)) return new Closest(hit.first(), prev);   // cpumask_any_and: the first
            // cpumask_any_and_distribute: the next after prev, wrapping; it remembers what it returned.
            int next = hit.next(prev + 1);
            int found = next >= 0 ? next : hit.first();
            return new Closest(found, found);
        }
        return new Closest(machine.nrCpuIds(), prev);
    }

    /**
     * The answer of a call made on a CPU that has not called a distribute function since boot
     * ({@link #BOOT_PREV}); up to 6.15 the only answer.
     */
    public static int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        return numaClosest(kernel, machine, cpus, cpu, BOOT_PREV).cpu();
    }

    /**
     * The answers of {@code calls} made one after the other on one CPU whose state is {@code prev}
     * before the first (HOP-10): each call sees the state the one before it left.
     */
    public static int[] numaClosestSequence(KernelRelease kernel, Topology machine, List<Call> calls, int prev) {
        int[] out = new int[calls.size()];
        int state = prev;
        for (int i = 0; i < out.length; i++) {
            Closest c = numaClosest(kernel, machine, calls.get(i).cpus(), calls.get(i).cpu(), state);
            out[i] = c.cpu();
            state = c.prev();
        }
        return out;
    }

    /**
     * The starting states ({@code 0 .. nr_cpu_ids - 1}, ascending) from which {@code calls}, made in
     * order on one CPU, give {@code answers}; an answer {@code >= nr_cpu_ids} means none. A kernel
     * run fits the model when this is not empty: the run does not record the state its module
     * found on its CPU.
     */
    public static List<Integer> startsThatReproduce(KernelRelease kernel, Topology machine, List<Call> calls, int[] answers) {
        if (answers.length != calls.size())
            throw new IllegalArgumentException("startsThatReproduce: " + calls.size() + " calls, " + answers.length + " answers; expected one answer per call");
        int nr = machine.nrCpuIds();
        List<Integer> out = new ArrayList<>();
        for (int start = 0; start < nr; start++) {
            int[] got = numaClosestSequence(kernel, machine, calls, start);
            boolean same = true;
            for (int i = 0; i < got.length && same; i++) same = answers[i] >= nr ? got[i] >= nr : got[i] == answers[i];
            if (same) out.add(start);
        }
        return out;
    }
}
