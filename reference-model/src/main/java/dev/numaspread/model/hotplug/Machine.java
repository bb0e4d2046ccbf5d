package dev.numaspread.model.hotplug;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.numa.NumaHops;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A running machine as a driver sees it: a topology whose online set changes, the CPU-hotplug
 * read/write lock, and the kernel services a driver calls. One instance serves one run of one
 * routine; it is not thread-safe (the explorer interleaves events deterministically, no threads).
 *
 * <p>Every service call is a <em>boundary</em>: before the call runs, the events an
 * {@link EventSchedule} scheduled for that boundary arrive. An event that arrives while the read
 * lock is held waits, as the hotplug writer waits in {@code percpu_down_write()}, and is applied
 * when the last {@code cpus_read_unlock()} drops the lock (HP-1).
 *
 * <p>The machine records what the driver did: every service call with the online set at that
 * instant, and every affinity it set. The explorer grades a run from that record.
 */
public final class Machine {

    /** Boot parameters of a machine: what a scenario fixes before the driver runs. */
    public record Config(Topology topology, KernelRelease kernel, int grantedVectors, boolean dynamicMsix) {
        public Config {
            if (topology == null || kernel == null)
                throw new IllegalArgumentException("machine config: topology and kernel are required");
            if (grantedVectors < 0)
                throw new IllegalArgumentException("machine config: granted vectors " + grantedVectors + "; expected >= 0");
            if (topology.online().isEmpty())
                throw new IllegalArgumentException("machine config: no online CPU; expected at least one");
        }

        /** A machine whose PCI core grants every vector a driver asks for, without dynamic MSI-X. */
        public static Config of(Topology topology, KernelRelease kernel) {
            return new Config(topology, kernel, Integer.MAX_VALUE, false);
        }

        /** The same machine whose PCI core grants at most {@code n} vectors. */
        public Config withGrantedVectors(int n) {
            return new Config(topology, kernel, n, dynamicMsix);
        }

        /** The same machine with {@code pci_msix_can_alloc_dyn()} answering {@code dyn} (6.17+ MANA path). */
        public Config withDynamicMsix(boolean dyn) {
            return new Config(topology, kernel, grantedVectors, dyn);
        }

        /** The same machine with another online set. */
        public Config withOnline(CpuSet online) {
            return withTopology(topology.withOnline(online));
        }

        /** The same configuration on {@code t} (the same machine with another online set, say). */
        public Config withTopology(Topology t) {
            return new Config(t, kernel, grantedVectors, dynamicMsix);
        }
    }

    /**
     * One service call: its boundary index, the kernel function ({@code num_online_cpus}), the
     * online CPUs when it ran and the lock depth. The call with its arguments is written out
     * only when asked for ({@link #call()}): the explorer makes hundreds of thousands of calls.
     */
    public record ServiceCall(int boundary, String service, Supplier<String> text, CpuSet online, int lockDepth) {
        /** The call in kernel words: {@code irq_set_affinity_and_hint(irq 2, 4-5)}. */
        public String call() {
            return text.get();
        }

        @Override
        public String toString() {
            return "#" + boundary + " " + call();
        }
    }

    /** One {@code irq_set_affinity_and_hint(irq, mask)}, with the online CPUs at that instant. */
    public record AffinityCall(int boundary, int irq, CpuSet mask, CpuSet online) {
        /** The CPUs of the mask that were offline when the affinity was set. */
        public CpuSet offlineTargets() {
            return mask.andNot(online);
        }

        /** Whether {@link #offlineTargets()} holds a CPU, without building it (the explorer asks on every run). */
        public boolean hasOfflineTargets() {
            return !mask.isSubsetOf(online);
        }
    }

    /** Which events arrive at which boundary. */
    @FunctionalInterface
    public interface EventSchedule {
        /** The events arriving just before service call {@code boundary} (0-based), in order. */
        List<HotplugEvent> eventsAt(int boundary);

        EventSchedule NONE = b -> List.of();
    }

    /** {@code -ENOSPC}: what {@code pci_alloc_irq_vectors()} returns when fewer than {@code min} vectors are granted. */
    public static final int ENOSPC = -28;

    private final Config config;
    private final EventSchedule schedule;
    private final Function<CpuSet, Topology> withOnline;   // the machine with an online set, as boot() was given it
    private Topology topology;
    private int lockDepth;
    private boolean hotplugInProgress;
    private int boundary;
    private final Deque<HotplugEvent> waiting = new ArrayDeque<>();
    private final List<HotplugEvent> applied = new ArrayList<>();
    private final List<ServiceCall> calls = new ArrayList<>();
    private final List<AffinityCall> affinityCalls = new ArrayList<>();
    private final List<Integer> onlineCountsRead = new ArrayList<>();

    private Machine(Config config, EventSchedule schedule, Function<CpuSet, Topology> withOnline) {
        this.config = config;
        this.schedule = schedule;
        this.withOnline = withOnline;
        this.topology = config.topology();
    }

    /** A machine booted from {@code config} on which no hotplug event will arrive. */
    public static Machine boot(Config config) {
        return boot(config, EventSchedule.NONE);
    }

    /** A machine booted from {@code config} on which events arrive as {@code schedule} says. */
    public static Machine boot(Config config, EventSchedule schedule) {
        return new Machine(config, schedule, config.topology()::withOnline);
    }

    /**
     * A machine booted from {@code config} on which events arrive as {@code schedule} says, and
     * which becomes {@code withOnline.apply(online)} when an event leaves {@code online} online: that
     * must be {@code config.topology().withOnline(online)}, or an equal machine. The explorer gives
     * one machine per online set for all its runs, so what is derived from a machine and kept for
     * it (its NUMA levels) serves every run (issue 26).
     */
    public static Machine boot(Config config, EventSchedule schedule, Function<CpuSet, Topology> withOnline) {
        return new Machine(config, schedule, withOnline);
    }

    /** A machine booted on {@code topology} running {@code kernel}, every vector granted, no events. */
    public static Machine boot(Topology topology, KernelRelease kernel) {
        return boot(Config.of(topology, kernel));
    }

    // ---------------------------------------------------------------- the CPU-hotplug lock

    /**
     * {@code cpus_read_lock()}: hotplug events wait until the matching unlock.
     *
     * @throws KernelBug "deadlock" when called from a hotplug operation ({@link #duringHotplug}),
     *                   whose writer holds the lock and waits for this caller
     */
    public void cpusReadLock() {
        arrive("cpus_read_lock", () -> "cpus_read_lock()");
        if (hotplugInProgress)
            throw new KernelBug("deadlock", "cpus_read_lock() from a CPU hotplug operation: the writer holds the lock"
                    + " and this reader waits for it forever (HP-6)");
        lockDepth++;
    }

    /**
     * Returns what {@code body} gives when run from inside a CPU hotplug operation, as nvme's error
     * handling runs {@code group_cpus_evenly()}: the hotplug writer holds the lock meanwhile, so a
     * {@code cpus_read_lock()} in {@code body} deadlocks (a {@link KernelBug} "deadlock").
     */
    public <T> T duringHotplug(Supplier<T> body) {
        boolean was = hotplugInProgress;
        hotplugInProgress = true;
        try {
            return body.get();
        } finally {
            hotplugInProgress = was;
        }
    }

    /**
     * {@code cpus_read_unlock()}: the last unlock lets the waiting hotplug events through.
     *
     * @throws KernelBug when the lock is not held (the kernel's rwsem count underflows)
     */
    public void cpusReadUnlock() {
        arrive("cpus_read_unlock", () -> "cpus_read_unlock()");
        if (lockDepth == 0)
            throw new KernelBug("BUG", "cpus_read_unlock() without cpus_read_lock(): the hotplug rwsem count underflows");
        lockDepth--;
        if (lockDepth == 0) while (!waiting.isEmpty()) apply(waiting.removeFirst());
    }

    /**
     * Records that {@code call} ran to its end on a real kernel from inside a CPU hotplug operation
     * whose writer held the hotplug lock (a booted kernel's {@code group_cpus_evenly()} called from a
     * hotplug callback while a CPU came online, HP-6): what such a run shows is that the routine took
     * no {@code cpus_read_lock()}, which would have waited for ever, not which services it used. Kept
     * among {@link #calls()} as {@code returned_under_hotplug}, a boundary like a service; it reads and
     * changes nothing.
     */
    public void returnedUnderHotplug(String call) {
        arrive("returned_under_hotplug", () -> call + " returned under CPU hotplug");
    }

    // ---------------------------------------------------------------- services

    /** {@code num_online_cpus()}. */
    public int numOnlineCpus() {
        arrive("num_online_cpus", () -> "num_online_cpus()");
        int n = topology.numOnlineCpus();
        onlineCountsRead.add(n);
        return n;
    }

    /** {@code cpu_online_mask}, read once. */
    public CpuSet cpuOnlineMask() {
        arrive("cpu_online_mask", () -> "cpu_online_mask");
        return topology.online();
    }

    /**
     * {@code cpu_present_mask}, read once: the snapshot {@code group_cpus_evenly()} takes from 6.7
     * instead of the hotplug lock (HP-6).
     */
    public CpuSet cpuPresentMask() {
        arrive("cpu_present_mask", () -> "cpu_present_mask");
        return topology.present();
    }

    /** {@code topology_sibling_cpumask(cpu)}: the online SMT siblings of {@code cpu}, itself included when online. */
    public CpuSet topologySiblingCpumask(int cpu) {
        arrive("topology_sibling_cpumask", () -> "topology_sibling_cpumask(" + cpu + ")");
        return topology.onlineSiblingsOf(cpu);
    }

    /**
     * The masks {@code for_each_numa_hop_mask(mask, node)} yields, read at one instant: cumulative
     * hop masks of online CPUs; {@code cpu_online_mask} once for NUMA_NO_NODE; nothing for a
     * CPU-less node ({@code include/linux/topology.h}, 06ac01721f7d).
     */
    public List<CpuSet> forEachNumaHopMask(int node) {
        arrive("for_each_numa_hop_mask", () -> "for_each_numa_hop_mask(node " + node + ")");
        return NumaHops.hopMasks(config.kernel(), topology, node);
    }

    /**
     * {@code cpumask_local_spread(i, node)} of the machine's release.
     *
     * <p>The classic code (before 6.3) reads {@code num_online_cpus()} for its modulo, then walks
     * {@code cpu_online_mask}; an event may arrive between the two (a second boundary). When the
     * online set shrank in between, the walk runs off its end and reaches {@code BUG()}
     * ({@code lib/cpumask.c} of 6.1; HP-6). From 6.3 the search runs on one snapshot of the masks.
     *
     * @throws KernelBug when the classic walk finds no CPU
     */
    public int cpumaskLocalSpread(int i, int node) {
        KernelRelease kernel = config.kernel();
        // 6.3+ searches one snapshot of the masks; 5.9 walked the housekeeping mask, which hotplug
        // does not change: both are a single read.
        if (kernel.atLeast(6, 3) || LocalSpread.isHousekeeping(kernel)) {
            arrive("cpumask_local_spread", () -> "cpumask_local_spread(" + i + ", node " + node + ")");
            return LocalSpread.localSpread(kernel, topology, i, node);
        }
        arrive("cpumask_local_spread", () -> "cpumask_local_spread(" + i + ", node " + node + "): i %= num_online_cpus()");
        int k = i % topology.numOnlineCpus();
        arrive("cpumask_local_spread", () -> "cpumask_local_spread(" + i + ", node " + node + "): walk cpu_online_mask");
        return classicWalk(k, node, i);
    }

    // The classic walk after the modulo: local online CPUs ascending, then the other online CPUs
    // ascending (commit f36963c9d3f6 "cpumask_set_cpu_local_first => cpumask_local_spread, lament").
    private int classicWalk(int k, int node, int i) {
        CpuSet online = topology.online();
        if (node != Numa.NUMA_NO_NODE) {
            CpuSet local = topology.onlineCpusOf(node);
            if (k < local.size()) return local.nth(k);
            k -= local.size();
            online = online.andNot(local);
        }
        if (k < online.size()) return online.nth(k);
        throw new KernelBug("BUG", "cpumask_local_spread(" + i + ", node " + node + "): the online set shrank to "
                + topology.online().toList() + " between the modulo and the walk; no CPU left to return");
    }

    /**
     * {@code irq_set_affinity_and_hint(irq, mask)}: records the affinity; returns 0. A mask with
     * an offline CPU is recorded as given: judging it is the explorer's job (HP-2).
     */
    public int irqSetAffinityAndHint(int irq, CpuSet mask) {
        arrive("irq_set_affinity_and_hint", () -> "irq_set_affinity_and_hint(irq " + irq + ", " + mask.toList() + ")");
        affinityCalls.add(new AffinityCall(boundary - 1, irq, mask, topology.online()));
        return 0;
    }

    /**
     * {@code pci_alloc_irq_vectors(pdev, min, max, PCI_IRQ_MSIX)}: the number of vectors granted,
     * {@code min(max, grantedVectors)}, or {@link #ENOSPC} when that is below {@code min}.
     */
    public int pciAllocIrqVectors(int min, int max) {
        arrive("pci_alloc_irq_vectors", () -> "pci_alloc_irq_vectors(" + min + ", " + max + ")");
        int n = Math.min(max, config.grantedVectors());
        return n < min ? ENOSPC : n;
    }

    /** {@code pci_msix_can_alloc_dyn(pdev)}. */
    public boolean pciMsixCanAllocDyn() {
        arrive("pci_msix_can_alloc_dyn", () -> "pci_msix_can_alloc_dyn()");
        return config.dynamicMsix();
    }

    // ---------------------------------------------------------------- events

    private void arrive(String service, Supplier<String> call) {
        for (HotplugEvent e : schedule.eventsAt(boundary)) {
            if (lockDepth > 0) waiting.addLast(e);
            else apply(e);
        }
        calls.add(new ServiceCall(boundary, service, call, topology.online(), lockDepth));
        boundary++;
    }

    // The kernel refuses to offline the last online CPU and to online a CPU that is not present;
    // such events are dropped, as the writer's request fails.
    private void apply(HotplugEvent e) {
        CpuSet online = topology.online();
        CpuSet next;
        if (e.kind() == HotplugEvent.Kind.OFFLINE) {
            if (!online.contains(e.cpu()) || online.size() == 1) return;
            next = online.without(e.cpu());
        } else {
            if (online.contains(e.cpu()) || !topology.present().contains(e.cpu())) return;
            next = online.with(e.cpu());
        }
        topology = withOnline.apply(next);
        applied.add(e);
    }

    // ---------------------------------------------------------------- what happened

    public Config config() { return config; }

    public KernelRelease kernel() { return config.kernel(); }

    /** The machine now. */
    public Topology topology() { return topology; }

    /** The online CPUs now. */
    public CpuSet online() { return topology.online(); }

    /** How many times the hotplug read lock is held now; 0 after a correct routine returns (HP-3). */
    public int lockDepth() { return lockDepth; }

    /** The events applied so far, in order. */
    public List<HotplugEvent> appliedEvents() { return Collections.unmodifiableList(applied); }

    /** The events that arrived while the lock was held and still wait for the unlock. */
    public List<HotplugEvent> waitingEvents() { return List.copyOf(waiting); }

    /** The number of service calls made so far: the boundaries at which an event could arrive. */
    public int boundaries() { return boundary; }

    /** Every service call, in order. */
    public List<ServiceCall> calls() { return Collections.unmodifiableList(calls); }

    /** Every affinity set, in order. */
    public List<AffinityCall> affinityCalls() { return Collections.unmodifiableList(affinityCalls); }

    /** Every value {@code num_online_cpus()} returned, in order. */
    public List<Integer> onlineCountsRead() { return Collections.unmodifiableList(onlineCountsRead); }

    /** The affinity of each IRQ that got one (the last one set), by IRQ. */
    public SortedMap<Integer, CpuSet> affinities() {
        TreeMap<Integer, CpuSet> out = new TreeMap<>();
        for (AffinityCall a : affinityCalls) out.put(a.irq(), a.mask());
        return Collections.unmodifiableSortedMap(out);
    }
}
