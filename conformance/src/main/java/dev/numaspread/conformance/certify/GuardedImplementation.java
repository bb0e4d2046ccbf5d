package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.CannotJudge;
import dev.numaspread.conformance.checks.KitFailure;
import dev.numaspread.conformance.checks.NotApplicable;
import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.conformance.spi.RemoteImplementation;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.topology.Topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The implementation under certification as checks and scenarios see it: every call is limited
 * to the claims, timed out after {@code callTimeout}, made twice and compared (a pure function
 * answers the same), and checked for the SPI's shape. A crash, a hang, garbage, a different
 * second answer or an unsupported claimed routine become {@link ImplementationFailure}; a
 * modelled {@link KernelBug} passes through, because it is an answer the rules judge.
 *
 * <p>The shape is only what no rule could judge: an array of CPUs whose length is not the count
 * asked for, a null element. A value a rule speaks about passes through to that rule, which
 * judges and shrinks it (issue 24): the number of groups {@code group_cpus_evenly} returns
 * (GRP-1), its {@code nummasks} (GRP-14), the length of a queue map (MQ-1: one entry per CPU id
 * below {@code nr_cpu_ids}) and the number of interrupt descriptors (MQ-9).
 */
public final class GuardedImplementation implements Implementation {

    private final Implementation delegate;
    private final Optional<dev.numaspread.conformance.topogen.MachinePool> pool;
    private final Set<Claim> claims;
    private final Duration callTimeout;
    private final boolean repeatCalls;
    private final Set<Claim> called = new LinkedHashSet<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong nanosInside = new AtomicLong();
    private final Watchdog watchdog;

    public GuardedImplementation(Implementation delegate, List<Claim> claims, Duration callTimeout, boolean repeatCalls) {
        this(delegate, claims, callTimeout, repeatCalls, Optional.empty());
    }

    /**
     * A guard for an implementation bound to the machines of {@code pool} (a booted kernel's): its
     * calls about other machines are {@link MachineOutOfReach}, which the pool itself raises.
     */
    public GuardedImplementation(Implementation delegate, List<Claim> claims, Duration callTimeout, boolean repeatCalls,
                                 Optional<dev.numaspread.conformance.topogen.MachinePool> pool) {
        this.pool = pool;
        this.delegate = Objects.requireNonNull(delegate);
        this.claims = new LinkedHashSet<>(claims);
        this.callTimeout = callTimeout;
        this.watchdog = new Watchdog(callTimeout);
        // A remote implementation asks its program twice itself, in one batch: no second round trip.
        if (repeatCalls && delegate instanceof RemoteImplementation remote) remote.askTwice(true);
        this.repeatCalls = repeatCalls && !(delegate instanceof RemoteImplementation);
    }

    @Override public String name() { return delegate.name(); }

    @Override public List<Claim> claims() { return List.copyOf(claims); }

    /** The claims the calls since the last drain exercised, in first-call order; clears the log. */
    public synchronized List<Claim> drainCalls() {
        List<Claim> out = new ArrayList<>(called);
        called.clear();
        return out;
    }

    /**
     * What {@code work} returns, run where every call it makes is timed without a thread switch per
     * call (see {@link Watchdog}): a check, or the feature run. A call that does not return even when
     * interrupted ends the work with that call's {@link ImplementationFailure}; the rest of the work
     * is abandoned with its thread. A remote implementation bounds its requests itself: the work runs here.
     */
    public <T> T watching(Supplier<T> work) {
        return delegate instanceof RemoteImplementation ? work.get() : watchdog.onLane(work);
    }

    /** Stops the watchdog's threads; a call after this starts them again. */
    public void close() {
        watchdog.close();
    }

    // ------------------------------------------------------------ the routines

    @Override
    public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return cpus(Routine.LOCAL_SPREAD, "localSpreadCpus", kernel, node, count, () -> delegate.localSpreadCpus(kernel, machine, node, count));
    }

    @Override
    public int[] localSpreadNearestNodeCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return cpus(Routine.LOCAL_SPREAD_NEAREST_NODE, "localSpreadNearestNodeCpus", kernel, node, count, () -> delegate.localSpreadNearestNodeCpus(kernel, machine, node, count));
    }

    @Override
    public int[] numaLevels(KernelRelease kernel, Topology machine) {
        return call(Routine.NUMA_LEVELS, kernel, () -> "numaLevels()", () -> delegate.numaLevels(kernel, machine),
                r -> null, Arrays::equals, Arrays::toString);
    }

    @Override
    public List<CpuSet> hopMasks(KernelRelease kernel, Topology machine, int node) {
        return call(Routine.HOP_MASKS, kernel, () -> "hopMasks(node=" + node + ")", () -> delegate.hopMasks(kernel, machine, node),
                r -> r.stream().anyMatch(Objects::isNull) ? "a null mask" : null, Objects::equals, GuardedImplementation::lists);
    }

    @Override
    public int numaClosest(KernelRelease kernel, Topology machine, CpuSet cpus, int cpu) {
        return call(Routine.NUMA_CLOSEST, kernel, () -> "numaClosest(cpus=" + cpus.toList() + ", cpu=" + cpu + ")",
                () -> delegate.numaClosest(kernel, machine, cpus, cpu), r -> null, Objects::equals, String::valueOf);
    }

    @Override
    public int[] numaClosestCalls(KernelRelease kernel, Topology machine, int callingCpu, int prev,
                                  List<dev.numaspread.model.numa.NumaClosest.Call> calls) {
        // Written before the call: the list is the caller's, and the implementation could change it.
        StringBuilder text = new StringBuilder("numaClosestCalls(callingCpu=" + callingCpu + ", prev=" + prev + ", calls=");
        for (int i = 0; i < calls.size(); i++)
            text.append(i > 0 ? " " : "").append("(").append(calls.get(i).cpus().toList()).append(", ").append(calls.get(i).cpu()).append(")");
        String callText = text.append(")").toString();
        return call(Routine.NUMA_CLOSEST, kernel, () -> callText,
                () -> delegate.numaClosestCalls(kernel, machine, callingCpu, prev, calls),
                r -> lengthIs(r, calls.size(), "answers for " + calls.size() + " calls"), Arrays::equals, Arrays::toString);
    }

    @Override
    public int numaNth(KernelRelease kernel, Topology machine, CpuSet cpus, int n, int node) {
        return call(Routine.NUMA_NTH, kernel, () -> "numaNth(cpus=" + cpus.toList() + ", n=" + n + ", node=" + node + ")",
                () -> delegate.numaNth(kernel, machine, cpus, n, node), r -> null, Objects::equals, String::valueOf);
    }

    @Override
    public int numaNearestNode(KernelRelease kernel, Topology machine, int node) {
        return call(Routine.NUMA_NEAREST_NODE, kernel, () -> "numaNearestNode(node=" + node + ")",
                () -> delegate.numaNearestNode(kernel, machine, node), r -> null, Objects::equals, String::valueOf);
    }

    @Override
    public int[] mlx5NumaDistanceCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return cpus(Routine.MLX5_NUMA_DISTANCE, "mlx5NumaDistanceCpus", kernel, node, count, () -> delegate.mlx5NumaDistanceCpus(kernel, machine, node, count));
    }

    @Override
    public int[] mlx5CompIrqCpus(KernelRelease kernel, Topology machine, int node, int count) {
        return cpus(Routine.MLX5_COMP_IRQS, "mlx5CompIrqCpus", kernel, node, count, () -> delegate.mlx5CompIrqCpus(kernel, machine, node, count));
    }

    /** A plan of one CPU per index ({@code localSpreadCpus(node, count)}): exactly {@code count} of them. */
    private int[] cpus(Routine routine, String method, KernelRelease kernel, int node, int count, Supplier<int[]> body) {
        return call(routine, kernel, () -> method + "(node=" + node + ", count=" + count + ")", body,
                r -> lengthIs(r, count, "CPUs for count " + count), Arrays::equals, Arrays::toString);
    }

    // ------------------------------------------------------------ NIC drivers (spec/nic.md)

    // Alike on purpose (duplicates, issue 26) with the lines below: one guarded call per SPI method, as the SPI lists them.
    @Override
    public NicQueues virtioNetIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.VIRTIO_NET_IRQS, "virtioNetIrqs", kernel, node, queues, () -> delegate.virtioNetIrqs(kernel, machine, node, queues));
    }

    @Override
    public NicQueues enaIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.ENA_IRQS, "enaIrqs", kernel, node, queues, () -> delegate.enaIrqs(kernel, machine, node, queues));
    }

    @Override
    public NicQueues gveIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.GVE_IRQS, "gveIrqs", kernel, node, queues, () -> delegate.gveIrqs(kernel, machine, node, queues));
    }

    @Override
    public NicQueues iceIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.ICE_IRQS, "iceIrqs", kernel, node, queues, () -> delegate.iceIrqs(kernel, machine, node, queues));
    }

    @Override
    public NicQueues i40eIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.I40E_IRQS, "i40eIrqs", kernel, node, queues, () -> delegate.i40eIrqs(kernel, machine, node, queues));
    }

    @Override
    public NicQueues bnxtIrqs(KernelRelease kernel, Topology machine, int node, int queues) {
        return nic(Routine.BNXT_IRQS, "bnxtIrqs", kernel, node, queues, () -> delegate.bnxtIrqs(kernel, machine, node, queues));
    }

    private NicQueues nic(Routine routine, String method, KernelRelease kernel, int node, int queues, Supplier<NicQueues> body) {
        return call(routine, kernel, () -> method + "(node=" + node + ", queues=" + queues + ")", body,
                r -> r == null ? "no answer" : null,
                Objects::equals, Object::toString);
    }

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Topology machine, int numgrps) {
        return call(Routine.GROUP_CPUS, kernel, () -> "groupCpusEvenly(numgrps=" + numgrps + ")",
                () -> delegate.groupCpusEvenly(kernel, machine, numgrps),
                r -> r.isPresent() && r.get().contains(null) ? "a null group" : null,
                Objects::equals, r -> r.map(GuardedImplementation::lists).orElse("NULL"));
    }

    @Override
    public java.util.OptionalInt groupCpusEvenlyNummasks(KernelRelease kernel, Topology machine, int numgrps) {
        return call(Routine.GROUP_CPUS, kernel, () -> "groupCpusEvenlyNummasks(numgrps=" + numgrps + ")",
                () -> delegate.groupCpusEvenlyNummasks(kernel, machine, numgrps),
                r -> null,
                Objects::equals, r -> r.isPresent() ? String.valueOf(r.getAsInt()) : "NULL");
    }

    @Override
    public int[] blkMqMapQueues(KernelRelease kernel, Topology machine, int nrQueues, int queueOffset) {
        return call(Routine.BLK_MQ_MAP, kernel, () -> "blkMqMapQueues(nrQueues=" + nrQueues + ", queueOffset=" + queueOffset + ")",
                () -> delegate.blkMqMapQueues(kernel, machine, nrQueues, queueOffset),
                r -> null, Arrays::equals, Arrays::toString);
    }

    @Override
    public Optional<List<IrqAffinity.AffinityDesc>> irqCreateAffinityMasks(KernelRelease kernel, Topology machine, int nvecs,
            int preVectors, int postVectors, List<Integer> setSizes) {
        List<Integer> sets = List.copyOf(setSizes);   // as asked, whatever the implementation does with the caller's list
        return call(Routine.IRQ_AFFINITY_MASKS, kernel, () -> "irqCreateAffinityMasks(nvecs=" + nvecs + ", pre=" + preVectors
                        + ", post=" + postVectors + ", sets=" + sets + ")",
                () -> delegate.irqCreateAffinityMasks(kernel, machine, nvecs, preVectors, postVectors, setSizes),
                r -> r.isPresent() && r.get().contains(null) ? "a null mask" : null,
                Objects::equals, Object::toString);
    }

    // The routines that act on a Machine are called once: a second call on the same machine would
    // see (and record) the first call's effects, so comparing two answers would prove nothing.

    @Override
    public List<CpuSet> irqSetup(KernelRelease kernel, Machine machine, int node, int len, boolean skipFirstCpu) {
        return callOnce(Routine.IRQ_SETUP, kernel, () -> "irqSetup(node=" + node + ", len=" + len + ", skipFirstCpu=" + skipFirstCpu + ")",
                () -> delegate.irqSetup(kernel, machine, node, len, skipFirstCpu),
                r -> r.size() > len ? r.size() + " affinities for len " + len : null);
    }

    @Override
    public List<CpuSet> manaSetupIrqs(KernelRelease kernel, Machine machine, int node) {
        return callOnce(Routine.MANA_SETUP_IRQS, kernel, () -> "manaSetupIrqs(node=" + node + ")",
                () -> delegate.manaSetupIrqs(kernel, machine, node), r -> null);
    }

    @Override
    public Optional<List<CpuSet>> groupCpusEvenly(KernelRelease kernel, Machine machine, int numgrps) {
        return callOnce(Routine.GROUP_CPUS, kernel, () -> "groupCpusEvenly(numgrps=" + numgrps + ") on a running machine",
                () -> delegate.groupCpusEvenly(kernel, machine, numgrps),
                r -> r.isPresent() && r.get().size() != numgrps ? r.get().size() + " groups for numgrps " + numgrps : null);
    }

    /**
     * A page pool, created once and driven action by action: a pool is a state machine, so no call
     * is repeated; every action is timed and its answer's shape checked like any call.
     */
    @Override
    public PagePoolSession pagePool(KernelRelease kernel, Topology machine, PagePool.Params params) {
        PagePoolSession pool = callOnce(Routine.PAGE_POOL, kernel, () -> "pagePool(" + params.text() + ")",
                () -> delegate.pagePool(kernel, machine, params), r -> null);
        return new PagePoolSession() {
            @Override public Answer apply(dev.numaspread.model.pagepool.Action action) {
                return callOnce(Routine.PAGE_POOL, kernel, () -> "page pool action '" + action.text() + "'", () -> pool.apply(action),
                        a -> a.effect() == null ? "an answer without what the pool did" : a.state() == null ? "an answer without the pool's state" : null);
            }

            @Override public void close() {
                pool.close();
            }
        };
    }

    // ------------------------------------------------------------ the guard

    private <T> T callOnce(Routine routine, KernelRelease kernel, Supplier<String> callText, Supplier<T> body, Function<T, String> shapeProblem) {
        return call(routine, kernel, callText, body, shapeProblem, (a, b) -> true, Object::toString, false);
    }

    private <T> T call(Routine routine, KernelRelease kernel, Supplier<String> callText, Supplier<T> body,
                       Function<T, String> shapeProblem, BiPredicate<T, T> same, Function<T, String> show) {
        return call(routine, kernel, callText, body, shapeProblem, same, show, repeatCalls);
    }

    /**
     * {@code answer} as it was when it came back: an array or list the implementation keeps could
     * be handed back again (so that comparing the two answers compares one buffer with itself) or
     * overwritten after the call. Records and {@link CpuSet}s are immutable; an {@link Optional}'s
     * list is copied, and null elements are kept for the shape check to report.
     */
    @SuppressWarnings("unchecked")
    static <T> T copyOf(T answer) {
        if (answer instanceof int[] a) return (T) a.clone();
        if (answer instanceof List<?> l) return (T) java.util.Collections.unmodifiableList(new ArrayList<>(l));
        if (answer instanceof Optional<?> o && o.isPresent() && o.get() instanceof List<?> l)
            return (T) Optional.of(java.util.Collections.unmodifiableList(new ArrayList<>(l)));
        return answer;
    }

    private static String lengthIs(int[] r, int n, String what) {
        return r.length == n ? null : r.length + " " + what;
    }

    // The sets as the glossary writes them; a null element (garbage the shape check reports) as null.
    private static String lists(List<CpuSet> sets) {
        return sets.contains(null) ? String.valueOf(sets) : CpuSet.toText(sets);
    }

    /** The outcome of one call: a value or a modelled kernel bug. */
    private record Outcome<T>(T value, KernelBug bug) {}

    /**
     * {@code body} guarded. {@code callText} is written only when something is said about the call
     * (a failure, a timeout): most calls pass, and their text was a good part of a walk's CPU. Its
     * arguments are values (numbers, CPU sets, machines); a list the implementation could change is
     * written before the call.
     */
    private <T> T call(Routine routine, KernelRelease kernel, Supplier<String> callText, Supplier<T> body,
                       Function<T, String> shapeProblem, BiPredicate<T, T> same, Function<T, String> show, boolean repeat) {
        Claim claim = new Claim(routine, kernel);
        if (!claims.contains(claim)) throw new NotClaimedCall(claim);
        synchronized (this) {
            called.add(claim);
        }
        Outcome<T> first = timed(claim, callText, body);
        if (first.value() == null && first.bug() == null)
            throw new ImplementationFailure(callText.get() + " for kernel " + kernel + " returned null; expected a value");
        if (first.value() != null) {
            String problem;
            try {
                problem = shapeProblem.apply(first.value());
            } catch (RuntimeException e) {
                throw new ImplementationFailure(callText.get() + " for kernel " + kernel + " returned a value the kit cannot read: " + e, e);
            }
            if (problem != null)
                throw new ImplementationFailure(callText.get() + " for kernel " + kernel + " returned " + problem + "; expected the SPI's shape");
        }
        if (repeat) {
            Outcome<T> second = timed(claim, callText, body);
            boolean agree = first.bug() != null ? second.bug() != null && second.bug().kind().equals(first.bug().kind())
                    : second.value() != null && same.test(first.value(), second.value());
            if (!agree)
                throw new ImplementationFailure(callText.get() + " for kernel " + kernel + " is nondeterministic: first "
                        + describe(first, show) + ", then " + describe(second, show) + "; expected the same answer twice");
        }
        if (first.bug() != null) throw first.bug();
        return first.value();
    }

    private static <T> String describe(Outcome<T> o, Function<T, String> show) {
        return o.bug() != null ? "KernelBug " + o.bug().kind() : o.value() == null ? "null" : show.apply(o.value());
    }

    private <T> Outcome<T> timed(Claim claim, Supplier<String> callText, Supplier<T> body) {
        calls.incrementAndGet();
        if (delegate instanceof RemoteImplementation) {
            // It bounds each request itself and may take calls side by side: no watchdog thread.
            try {
                return new Outcome<>(copyOf(body.get()), null);
            } catch (RuntimeException e) {
                return failed(claim, callText, e);
            }
        }
        long start = System.nanoTime();
        try {
            return watched(claim, callText, body);
        } finally {
            nanosInside.addAndGet(System.nanoTime() - start);
        }
    }

    /** The calls made so far (each repeated call counted), and the time spent inside them (not for a remote implementation). */
    public Workload.Calls callsSoFar() {
        return new Workload.Calls(calls.get(), java.time.Duration.ofNanos(nanosInside.get()));
    }

    /** The call made on this thread, within the timeout: what it threw is judged here, as it comes. */
    private <T> Outcome<T> watched(Claim claim, Supplier<String> callText, Supplier<T> body) {
        return watchdog.call(callText, claim.kernel(), () -> {
            try {
                // Copied as soon as the implementation returns it.
                return new Outcome<>(copyOf(body.get()), null);
            } catch (Throwable t) {
                return failed(claim, callText, t);
            }
        });
    }

    /** What a call that threw {@code c} gives: a modelled kernel bug is an outcome; the rest is thrown as the guard's failure. */
    private <T> Outcome<T> failed(Claim claim, Supplier<String> callText, Throwable c) {
        String where = callText.get() + " for kernel " + claim.kernel();
        if (c instanceof KernelBug bug) return new Outcome<>(null, bug);
        // A booted kernel's calls about a machine none of its guests runs on: the pool of the run says so, not the implementation.
        if (c instanceof MachineOutOfReach n && pool.isPresent() && n.raisedBy(pool.get())) throw n;
        // The kit's own signals mean something only when the kit throws them: from the implementation,
        // "not applicable" would drop the input (a claimed call it may not refuse) and a violation
        // would be a verdict it wrote itself. Neither keeps the signal as its cause, so nothing finds it.
        if (c instanceof NotApplicable || c instanceof Violation || c instanceof CannotJudge || c instanceof KitFailure)
            throw new ImplementationFailure("the implementation claims " + claim.routine().id() + " for kernel " + claim.kernel()
                    + " but refused " + callText.get() + ": it threw the kit's " + c.getClass().getSimpleName()
                    + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")") + "; expected an answer to every call of a claimed routine");
        if (c instanceof ImplementationFailure fail) throw new ImplementationFailure(where + ": " + fail.getMessage(), fail);
        if (c instanceof UnsupportedOperationException)
            throw new ImplementationFailure("the implementation claims " + claim.routine().id() + " for kernel " + claim.kernel()
                    + " but " + callText.get() + " threw UnsupportedOperationException" + (c.getMessage() == null ? "" : ": " + c.getMessage()), c);
        throw new ImplementationFailure(where + " crashed: " + c, c);
    }
}
