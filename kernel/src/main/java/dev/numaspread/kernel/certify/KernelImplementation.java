package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.RemoteImplementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.spi.Traffic;
import dev.numaspread.kernel.guest.Guest;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaClosest;
import dev.numaspread.model.topology.Topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * A booted Linux kernel as an implementation ({@code --impl kernel:SOURCE}): every routine its probe
 * answers, claimed for one release (the booted series, or the one {@code --kernel} names: the kernel
 * is then judged as that release), each call answered live by the guest booted on the call's
 * machine ({@link GuestPool}). Routines a booted kernel cannot show (a NIC driver without its NIC,
 * a proposal no kernel merged) and calls the release lacks are not claimed, with the reason
 * ({@link #whyNotClaimed}).
 *
 * <p>The kernel is reached like a program over a pipe ({@link RemoteImplementation}): the guests
 * bound their own calls (a hang is a {@code GuestFailure} with the console's last lines), several
 * checks may ask at once (a guest takes pipelined calls), and what the exchange cost is counted.
 * The {@code kernel} argument of each call is the claimed release and changes nothing: a kernel
 * answers as it is.
 */
public final class KernelImplementation implements RemoteImplementation, AutoCloseable {

    /** Checks asking at once: two guests busy on a 2-core machine, and a call in flight while the kit judges another. */
    static final int CONCURRENT_CALLS = 4;

    private final GuestPool guests;
    private final KernelRelease claimed;
    private final String name;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong busyNanos = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong busySince = new AtomicLong();
    private volatile boolean askTwice;

    KernelImplementation(GuestPool guests, KernelRelease claimed) {
        this.guests = guests;
        this.claimed = claimed;
        this.name = "Linux " + guests.kernel().release() + " booted under QEMU"
                + (claimed.equals(guests.kernel().series()) ? "" : " (judged as " + claimed + ")");
    }

    /** The machine pool the certifier draws from: the machines the guests booted on. */
    GuestPool pool() {
        return guests;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<Claim> claims() {
        List<Claim> out = new ArrayList<>();
        for (Guest.Call call : guests.kernel().answers())
            if (!notInRelease(call.routine())) out.add(new Claim(call.routine(), claimed));
        return out;
    }

    /** True for the routines a release cannot have, whatever the probe answers: hop masks and nth before 6.3. */
    private boolean notInRelease(Routine r) {
        return switch (r) {
            case HOP_MASKS, NUMA_NTH -> claimed.before(6, 3);
            case NUMA_NEAREST_NODE -> claimed.before(6, 7);
            default -> false;
        };
    }

    @Override
    public Optional<String> whyNotClaimed(Routine routine) {
        String need = switch (routine) {
            case MLX5_NUMA_DISTANCE, MLX5_COMP_IRQS -> "needs a Mellanox ConnectX NIC (mlx5): QEMU emulates none";
            case IRQ_SETUP, MANA_SETUP_IRQS -> "needs a Microsoft Azure NIC (MANA): QEMU emulates none";
            case PAGE_POOL -> "needs a NIC driver's page pool and its NAPI: QEMU's NICs do not show one to a probe";
            case LOCAL_SPREAD_NEAREST_NODE -> "a 2020 proposal that no kernel merged";
            case VIRTIO_NET_IRQS -> "needs a multi-queue virtio-net device in the guest: the probe reads no NIC's IRQs yet";
            case ENA_IRQS -> "needs an AWS ENA NIC: QEMU emulates none";
            case GVE_IRQS -> "needs a Google gVNIC: QEMU emulates none";
            case ICE_IRQS -> "needs an Intel E810 NIC (ice): QEMU emulates none";
            case I40E_IRQS -> "needs an Intel X710 NIC (i40e): QEMU emulates none";
            case BNXT_IRQS -> "needs a Broadcom NetXtreme NIC (bnxt_en): QEMU emulates none";
            default -> null;
        };
        if (need != null) return Optional.of(need);
        for (Guest.Call call : Guest.Call.values())
            if (call.routine() == routine) {
                if (notInRelease(routine)) return Optional.of(routine.kernelName() + " is not in Linux " + claimed);
                return guests.whyNot(call);
            }
        return Optional.of("the probe has no call for " + routine.kernelName());
    }

    // ------------------------------------------------------------ RemoteImplementation

    @Override
    public int maxConcurrentCalls() {
        return CONCURRENT_CALLS;
    }

    @Override
    public Traffic traffic() {
        return new Traffic(requests.get(), requests.get(), Duration.ofNanos(busyNanos.get()));
    }

    @Override
    public void askTwice(boolean on) {
        askTwice = on;
    }

    @Override
    public void close() {
        guests.close();
    }

    // ------------------------------------------------------------ the routines

    @Override
    public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return ask(machine, "localSpreadCpus(node=" + node + ", count=" + count + ")", g -> g.localSpread(node, count), Arrays::equals, Arrays::toString);
    }

    @Override
    public int[] numaLevels(KernelRelease kernel, Topology machine) {
        return ask(machine, "numaLevels()", Guest::numaLevels, Arrays::equals, Arrays::toString);
    }

    @Override
    public List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        return ask(machine, "hopMasks(node=" + node + ")", g -> g.hopMasks(node), Objects::equals, CpuSet::toText);
    }

    @Override
    public int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        return ask(machine, "numaClosest(cpus=" + cpus.toList() + ", cpu=" + cpu + ")", g -> g.numaClosest(cpus, cpu), Objects::equals, String::valueOf);
    }

    @Override
    public int[] numaClosestCalls(KernelRelease kernel, Topology machine, int callingCpu, int prev, List<NumaClosest.Call> calls) {
        if (kernel.before(6, 16)) return RemoteImplementation.super.numaClosestCalls(kernel, machine, callingCpu, prev, calls);
        return ask(machine, "numaClosestCalls(callingCpu=" + callingCpu + ", prev=" + prev + ", calls=" + calls + ")", g -> g.numaClosestCalls(callingCpu, prev, calls), Arrays::equals, Arrays::toString);
    }

    @Override
    public int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        return ask(machine, "numaNth(cpus=" + cpus.toList() + ", n=" + n + ", node=" + node + ")", g -> g.numaNth(cpus, n, node), Objects::equals, String::valueOf);
    }

    @Override
    public int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        return ask(machine, "numaNearestNode(node=" + node + ")", g -> g.numaNearestNode(node), Objects::equals, String::valueOf);
    }

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        return ask(machine, "groupCpusEvenly(numgrps=" + numgrps + ")", g -> g.groupCpusEvenly(numgrps), Objects::equals, String::valueOf);
    }

    /**
     * {@code group_cpus_evenly(numgrps)} on a running machine, tested as a kernel developer tests its
     * lock (HP-6): the guest booted on {@code machine}'s topology calls it from a CPU hotplug callback
     * while its last CPU comes online, the hotplug lock held for writing by the online
     * ({@link Guest#groupCpusDuringOnline}). A routine that answered took no {@code cpus_read_lock()}
     * (it would have waited for ever): that is recorded on {@code machine}
     * ({@link Machine#returnedUnderHotplug}). An online that never completed is the deadlock: the lock
     * is taken on {@code machine} as the kernel took it, and the kernel's bug, in its own words, is
     * thrown. A guest whose probe cannot make the experiment, or a machine with no CPU but 0 (which
     * x86 cannot take offline), shows nothing: no call is made on {@code machine}.
     */
    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Machine machine, int numgrps) {
        Topology t = machine.topology();
        CpuSet others = t.present().without(0);
        if (others.isEmpty()) return groupCpusEvenly(kernel, t, numgrps);
        int cpu = others.last();
        String what = "groupCpusEvenly(numgrps=" + numgrps + ") from a CPU hotplug callback as cpu " + cpu + " comes online";
        Guest.UnderHotplug u;
        try {
            u = timed(t, what, g -> g.groupCpusDuringOnline(numgrps, cpu), true);
        } catch (UnsupportedOperationException e) {
            return groupCpusEvenly(kernel, t, numgrps);
        } catch (KernelBug bug) {
            if (!bug.kind().equals("deadlock")) throw bug;
            try {
                machine.cpusReadLock();
            } catch (KernelBug modelled) {
                // The model's deadlock for the same lock; the kernel's own words are the ones to show.
            }
            throw bug;
        }
        // A lock not held as the routine ran would show nothing (the online holds it; cpus_read_trylock() says so).
        if (u.lockHeld()) machine.returnedUnderHotplug("group_cpus_evenly(" + numgrps + ") in the online of cpu " + u.cpu());
        return u.groups();
    }

    @Override
    public OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        return ask(machine, "groupCpusEvenlyNummasks(numgrps=" + numgrps + ")", g -> g.groupCpusNummasks(numgrps), Objects::equals, String::valueOf);
    }

    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        return ask(machine, "blkMqMapQueues(nrQueues=" + nrQueues + ", queueOffset=" + queueOffset + ")", g -> g.blkMqMapQueues(nrQueues, queueOffset), Arrays::equals, Arrays::toString);
    }

    @Override
    public Optional<List<IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(KernelRelease kernel, Topology machine, int nvecs,
                                                                           int preVectors, int postVectors, List<Integer> setSizes) {
        return ask(machine, "irqCreateAffinityMasks(nvecs=" + nvecs + ", pre=" + preVectors + ", post=" + postVectors + ", sets=" + setSizes + ")", g -> g.irqCreateAffinityMasks(nvecs, preVectors, postVectors, setSizes),
                Objects::equals, String::valueOf);
    }

    /**
     * {@code call} answered by the guest of {@code machine}; asked twice when the kit wants the
     * repeated-call check (a kernel routine is a pure function of the machine: two answers that
     * differ are the kernel's ERROR, as for any implementation).
     */
    private <T> T ask(Topology machine, String what, Function<Guest, T> call, BiPredicate<T, T> same, Function<T, String> show) {
        T first = timed(machine, what, call);
        if (askTwice) {
            T second;
            try {
                second = timed(machine, what, call);
            } catch (KernelBug bug) {
                throw new ImplementationFailure(what + " answered " + show.apply(first) + ", then the kernel oopsed on the same call ("
                        + bug.getMessage() + "); expected the same answer twice");
            }
            if (!same.test(first, second))
                throw new ImplementationFailure(what + " is nondeterministic on the booted kernel: first " + show.apply(first) + ", then "
                        + show.apply(second) + "; expected the same answer twice");
        }
        return first;
    }

    private <T> T timed(Topology machine, String what, Function<Guest, T> call) {
        return timed(machine, what, call, false);
    }

    /** {@code alone}: made with no other call on the guest meanwhile ({@link GuestPool#answerAlone}). */
    private <T> T timed(Topology machine, String what, Function<Guest, T> call, boolean alone) {
        requests.incrementAndGet();
        long start = System.nanoTime();
        // Busy time counts wall time with at least one call in flight, as the process driver counts it.
        if (inFlight.getAndIncrement() == 0) busySince.set(start);
        try {
            return alone ? guests.answerAlone(machine, what, call) : guests.answer(machine, what, call);
        } finally {
            long now = System.nanoTime();
            if (inFlight.decrementAndGet() == 0) busyNanos.addAndGet(now - busySince.get());
        }
    }
}
