package dev.numaspread.kernel.guest;

import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity.AffinityDesc;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A booted kernel that answers, live, for the one machine it booted on: the calls a probe of ours
 * makes inside it ({@code kernel-probe/}). Each method asks the running kernel; nothing here is
 * computed by the reference model.
 *
 * <p>The machine is the kernel's, not the one asked for: {@link #machine()} is read back from the
 * guest (sysfs, {@code /proc/cpuinfo}), because Linux renumbers nodes, drops empty ones and may
 * reject a distance table. Only the online CPUs can change while it runs ({@link #setOnline}).
 *
 * <p>A call the kernel answers with an oops or a BUG() throws {@link dev.numaspread.model.kernel.KernelBug}
 * (what the model throws for the same input); the guest is then not trusted again and later calls
 * throw {@link GuestFailure}. A guest that hangs, panics or stops answering throws {@link GuestFailure}
 * with the last lines of its console.
 */
public interface Guest extends AutoCloseable {

    /** What the kernel calls itself: {@code uname -r}, as {@code 7.3.4+deb13-amd64}. */
    String release();

    /** The series of {@link #release()}: {@code 7.3}. */
    KernelRelease series();

    /** The machine as the booted kernel sees it, with the CPUs online now. */
    Topology machine();

    /** The calls this kernel can answer (a routine the release lacks, or cannot be reached, is absent), with why not for the others. */
    Set<Call> answers();

    /** Why {@code call} cannot be answered here (absent from the release, not exported and not found); empty when it can. */
    Optional<String> whyNot(Call call);

    /**
     * Takes CPUs offline or brings them online until exactly {@code online} is online.
     *
     * @throws CannotBuild when the kernel refuses (x86 CPU 0; a CPU that is not present)
     */
    void setOnline(CpuSet online);

    /** {@code cpumask_local_spread(i, node)} for i = 0 .. count-1. */
    int[] localSpread(int node, int count);

    /** {@code sched_domains_numa_distance[]}, ascending; empty when the kernel built no NUMA levels. */
    int[] numaLevels();

    /** The cumulative masks {@code for_each_numa_hop_mask(mask, node)} yields. */
    List<CpuSet> hopMasks(int node);

    /** {@code sched_numa_find_nth_cpu(cpus, n, node)}; a value {@code >= nr_cpu_ids} means none. */
    int numaNth(CpuSet cpus, int n, int node);

    /** {@code sched_numa_find_closest(cpus, cpu)} on a CPU whose round-robin state is 0 (6.16+) or any CPU (before). */
    int numaClosest(CpuSet cpus, int cpu);

    /** From 6.16: {@code calls} in order on {@code callingCpu}, whose {@code distribute_cpu_mask_prev} is {@code prev} before the first. */
    int[] numaClosestCalls(int callingCpu, int prev, List<NumaClosest.Call> calls);

    /** {@code numa_nearest_node(node, N_CPU)}. */
    int numaNearestNode(int node);

    /** {@code group_cpus_evenly(numgrps[, &nummasks])}: the groups, or empty for NULL; with {@link #groupCpusNummasks}. */
    Optional<List<CpuSet>> groupCpusEvenly(int numgrps);

    /** The {@code nummasks} of the same call (6.17+); empty for NULL. */
    OptionalInt groupCpusNummasks(int numgrps);

    /**
     * What {@code group_cpus_evenly(numgrps)} gave when called from a CPU hotplug callback while a
     * CPU came online (spec/hotplug.md HP-6): the CPU, whether the hotplug lock was held for writing
     * as the routine ran ({@code cpus_read_trylock()} failed in the callback), and the groups (empty
     * for NULL).
     */
    record UnderHotplug(int cpu, boolean lockHeld, Optional<List<CpuSet>> groups) {}

    /**
     * {@code group_cpus_evenly(numgrps)} from the startup callback of a dynamic CPU hotplug state
     * ({@code CPUHP_AP_ONLINE_DYN}) while {@code cpu} comes online, the hotplug lock held for
     * writing by the online; {@code cpu} is taken offline first when it is online, and left as it
     * was found.
     *
     * @throws dev.numaspread.model.kernel.KernelBug "deadlock" when the online did not complete: the
     *         routine waits for the lock its caller holds (the guest is then not trusted again)
     * @throws UnsupportedOperationException when the probe cannot make the experiment (the default)
     */
    default UnderHotplug groupCpusDuringOnline(int numgrps, int cpu) {
        throw new UnsupportedOperationException("this guest cannot call group_cpus_evenly from a CPU hotplug callback");
    }

    /** {@code blk_mq_map_queues()} of {@code queues} queues from {@code offset}: the queue of each CPU id below {@code nr_cpu_ids}. */
    int[] blkMqMapQueues(int queues, int offset);

    /** {@code irq_create_affinity_masks(nvecs, affd)}; empty for NULL. */
    Optional<List<AffinityDesc>> irqCreateAffinityMasks(int nvecs, int preVectors, int postVectors, List<Integer> setSizes);

    /**
     * True when an earlier call oopsed the kernel (it threw {@link dev.numaspread.model.kernel.KernelBug}):
     * the guest answers nothing more, and a new boot of the machine does. Calls run side by side, so
     * a call may find the guest broken by another's oops; the kit then boots the machine again. The
     * default is false.
     */
    default boolean oopsed() {
        return false;
    }

    /**
     * True when this guest was restored from a snapshot of a clean guest on its machine
     * ({@link BootableKernel#again}) rather than booted: the same clean guest, had in about a second.
     * The default is false.
     */
    default boolean restored() {
        return false;
    }

    /** Powers the guest off. */
    @Override
    void close();

    /** The calls a probe can make, each answering for one routine of the SPI. */
    enum Call {
        LOCAL_SPREAD(Routine.LOCAL_SPREAD), NUMA_LEVELS(Routine.NUMA_LEVELS), HOP_MASKS(Routine.HOP_MASKS),
        NUMA_NTH(Routine.NUMA_NTH), NUMA_CLOSEST(Routine.NUMA_CLOSEST), NUMA_NEAREST_NODE(Routine.NUMA_NEAREST_NODE),
        GROUP_CPUS(Routine.GROUP_CPUS), BLK_MQ_MAP(Routine.BLK_MQ_MAP), IRQ_AFFINITY_MASKS(Routine.IRQ_AFFINITY_MASKS);

        private final Routine routine;

        Call(Routine routine) {
            this.routine = routine;
        }

        /** The routine whose claims this call answers. */
        public Routine routine() {
            return routine;
        }
    }
}
