package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.certify.DaemonThreads;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.certify.MachineOutOfReach;
import dev.numaspread.conformance.topogen.MachinePool;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.kernel.guest.BootableKernel;
import dev.numaspread.kernel.guest.CannotBuild;
import dev.numaspread.kernel.guest.Guest;
import dev.numaspread.kernel.guest.GuestFailure;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The machines a booted kernel runs on, one guest per machine, as the kit draws them
 * ({@link MachinePool}): booted side by side up to the cores, each serving every check's tries on
 * it. A call about a machine is answered by the guest booted on that machine ({@link SameMachine}),
 * after {@link Guest#setOnline} when the call's online CPUs differ; a call about any other machine
 * is {@link MachineOutOfReach}, never the kernel's fault. While scenarios run, a scenario's machine
 * is booted when a call first asks about it (once; later scenarios share it); while a failure
 * shrinks, the smaller machines the shrinker tries are booted ({@link #grow}).
 *
 * <p>A guest that oopsed (a {@link KernelBug}, an answer the rules judge) answers nothing more: the
 * next call about its machine gets a clean guest on it ({@link BootableKernel#again}: a snapshot of
 * the clean guest restored, or a boot). A guest that stops answering otherwise is the
 * kernel's ERROR ({@link ImplementationFailure} with its console's last lines).
 *
 * <p>Over 450 lines (issue 26): the booted guests a run shares (boots, reuse, a clean guest after an
 * oops, the scenario phases); not split this round.
 */
final class GuestPool implements MachinePool, AutoCloseable {

    /** Most guests booted on demand (scenarios, shrinking) kept running at once; older ones are powered off. */
    static final int MAX_ON_DEMAND = 4;

    private final BootableKernel kernel;
    private final List<Booted> pool;
    /** Machines booted on demand, by the {@code .topo} text asked for; a failed boot is kept with its reason. */
    private final Map<String, OnDemand> onDemand = new LinkedHashMap<>();
    private final Consumer<String> progress;
    private final List<String> notes = new ArrayList<>();
    private volatile ScenarioPhase phase = ScenarioPhase.DONE;
    /** The machines the scenarios named while LISTING, by {@code .topo} text. */
    private final Map<String, Topology> listed = new LinkedHashMap<>();
    private final int parallel;
    private volatile boolean closing;
    private String description;
    /** Why scenarios are not run on this pool; empty when they are. */
    private Optional<String> noScenarios = Optional.empty();
    private final Duration bootBudget;
    private long bootNanosSpent;

    private GuestPool(BootableKernel kernel, List<Booted> pool, Consumer<String> progress, Duration bootBudget, int parallel) {
        this.parallel = Math.max(1, parallel);
        this.kernel = kernel;
        this.pool = pool;
        this.progress = progress;
        this.bootBudget = bootBudget;
    }

    /** A machine booted on demand, or why it could not be. */
    private record OnDemand(Optional<Booted> booted, String why) {}

    /**
     * Boots {@code machines} side by side, {@code parallel} at a time, and keeps those that booted,
     * smallest first (where shrinking goes). A machine QEMU cannot build, or whose guest did not
     * boot, is left out with a note ({@link #notes()}). Each guest is kept clean
     * ({@link BootableKernel#bootKept}): an oops on it costs a restore, not a boot.
     *
     * @param bootBudget the time boots on demand may take in all (scenario machines, shrinking)
     * @throws IllegalStateException when no machine booted (the message gives each reason)
     */
    static GuestPool boot(BootableKernel kernel, List<Topology> machines, int parallel, Duration bootBudget, Consumer<String> progress) {
        List<Booted> booted = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        ExecutorService boots = Executors.newFixedThreadPool(Math.max(1, Math.min(parallel, machines.size())), DaemonThreads.named("numaspread-boot"));
        try {
            List<Future<Booted>> futures = new ArrayList<>();
            for (Topology m : machines) futures.add(boots.submit(() -> Booted.of(kernel, m, true, progress)));
            for (int i = 0; i < machines.size(); i++) {
                String which = "machine " + (i + 1) + " of " + machines.size() + " (" + shape(machines.get(i)) + ")";
                try {
                    Booted b = futures.get(i).get();
                    booted.add(b);
                    progress.accept("booted " + which + " in " + b.bootTime.toMillis() / 1000.0 + " s");
                } catch (ExecutionException e) {
                    String why = e.getCause() instanceof CannotBuild || e.getCause() instanceof GuestFailure
                            ? e.getCause().getMessage() : String.valueOf(e.getCause());
                    failed.add(which + ": " + why);
                    progress.accept("not booted: " + which + ": " + firstLine(why));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            booted.forEach(Booted::close);
            throw new IllegalStateException("interrupted while booting the machines");
        } finally {
            boots.shutdownNow();
        }
        if (booted.isEmpty())
            throw new IllegalStateException("no machine could be booted with Linux " + kernel.release() + ": " + String.join("; ", failed));
        booted.sort(Comparator.comparingInt((Booted b) -> b.machine.possible().size()).thenComparingInt(b -> b.machine.nodes().size()));
        GuestPool p = new GuestPool(kernel, booted, progress, bootBudget, parallel);
        p.description = "Linux " + kernel.release() + " on " + machines.size() + " machine" + (machines.size() == 1 ? "" : "s");
        for (String f : failed) p.notes.add("not booted, " + f);
        return p;
    }

    /** What the pool could not boot, for the certificate's notes. */
    synchronized List<String> notes() {
        List<String> all = new ArrayList<>(notes);
        for (Booted b : pool) all.addAll(b.unconfirmed);
        for (OnDemand d : onDemand.values()) d.booted().ifPresent(b -> all.addAll(b.unconfirmed));
        return all;
    }

    /** Why the kernel cannot answer {@code call}, as a booted guest says it (else the kernel); empty when it can. */
    Optional<String> whyNot(Guest.Call call) {
        try {
            return pool.get(0).guest.whyNot(call);
        } catch (RuntimeException e) {
            return kernel.whyNot(call);
        }
    }

    /** The kernel the guests run. */
    BootableKernel kernel() {
        return kernel;
    }

    // ------------------------------------------------------------ MachinePool

    @Override
    public List<Topology> machines() {
        return pool.stream().map(b -> b.machine).toList();
    }

    /** Not-present CPUs do not count against the narrowing's most CPUs (the interface says why). */
    @Override
    public boolean admits(Machines.Options options, Topology machine) {
        return options.withMaxCpus(Math.max(options.maxCpus(), machine.possible().size())).admits(machine)
                && machine.present().size() <= options.maxCpus();
    }

    @Override
    public boolean grows() {
        return true;
    }

    /** Boots {@code wanted} for the shrinker, within the boot budget; the machine as the kernel saw it. */
    @Override
    public Optional<Topology> grow(Topology wanted) {
        return bootOnDemand(wanted).booted().map(b -> b.machine);
    }

    @Override
    public Optional<String> description() {
        return Optional.of(description);
    }

    /** This pool, known to the run as {@code text} ({@code Linux 7.3.4+deb13-amd64 on 8 machines drawn from the seed}). */
    GuestPool describedAs(String text) {
        description = text;
        return this;
    }

    @Override
    public Optional<String> whyNoScenarios() {
        return noScenarios;
    }

    /** This pool, running no scenario for {@code reason} ({@code --topology}: the one machine asked for is certified). */
    GuestPool withoutScenarios(String reason) {
        noScenarios = Optional.of(reason);
        return this;
    }

    @Override
    public boolean listsScenarioMachines() {
        return true;
    }

    /**
     * LISTING: notes the machines the scenarios call about; RUNNING: boots them side by side (those
     * QEMU can build, of at most {@link #SCENARIO_VCPUS_TCG} present CPUs under TCG), to run every
     * scenario of a machine on one boot; DONE: powers them off.
     */
    @Override
    public void scenarios(ScenarioPhase phase) {
        this.phase = phase;
        if (phase == ScenarioPhase.RUNNING) bootListed();
        if (phase == ScenarioPhase.DONE) {
            synchronized (this) {
                for (OnDemand d : onDemand.values()) d.booted().ifPresent(Booted::close);
                onDemand.clear();
            }
        }
    }

    /**
     * Most present CPUs of a scenario's machine booted under TCG: a boot takes seconds per vCPU
     * (measured at load 11 on 2 cores: 8 vCPUs 12-15 s, 24 vCPUs 55 s, 96 vCPUs 66 s, 160 vCPUs
     * 293 s), so larger scenario machines are booted with KVM only.
     */
    static final int SCENARIO_VCPUS_TCG = 32;

    private void bootListed() {
        List<Topology> wanted = new ArrayList<>();
        synchronized (this) {
            for (Map.Entry<String, Topology> e : listed.entrySet()) {
                Optional<String> why = whyNotBooted(e.getValue());
                if (why.isPresent()) onDemand.put(e.getKey(), new OnDemand(Optional.empty(), why.get()));
                else wanted.add(e.getValue());
            }
            listed.clear();
        }
        if (wanted.isEmpty()) return;
        progress.accept("booting the " + wanted.size() + " machine" + (wanted.size() == 1 ? "" : "s") + " of the scenarios, "
                + Math.min(parallel, wanted.size()) + " at a time");
        ExecutorService boots = Executors.newFixedThreadPool(Math.min(parallel, wanted.size()), DaemonThreads.named("numaspread-boot"));
        try {
            List<Future<Booted>> futures = new ArrayList<>();
            for (Topology m : wanted) futures.add(boots.submit(() -> Booted.of(kernel, m, false, progress)));
            for (int i = 0; i < wanted.size(); i++) {
                OnDemand d;
                try {
                    Booted b = futures.get(i).get();
                    d = new OnDemand(Optional.of(b), "");
                    progress.accept("booted the scenarios' machine " + wanted.get(i).name() + " (" + shape(b.machine) + ") in "
                            + b.bootTime.toMillis() / 1000.0 + " s");
                } catch (ExecutionException e) {
                    d = new OnDemand(Optional.empty(), "its machine did not boot: " + firstLine(String.valueOf(e.getCause().getMessage())));
                }
                synchronized (this) {
                    onDemand.put(key(wanted.get(i)), d);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while booting the scenarios' machines");
        } finally {
            boots.shutdownNow();
        }
    }

    /** Why a scenario's machine is not booted (QEMU cannot build it, or it is too large for TCG); empty when it is. */
    private Optional<String> whyNotBooted(Topology m) {
        List<String> cannot = kernel.cannotBuild(m);
        if (!cannot.isEmpty()) return Optional.of("QEMU cannot build its machine: " + String.join("; ", cannot));
        if (!kernel.bootsQuickly() && m.present().size() > SCENARIO_VCPUS_TCG)
            return Optional.of("its machine has " + m.present().size() + " present CPUs: without KVM a boot takes minutes past "
                    + SCENARIO_VCPUS_TCG + " vCPUs (160 vCPUs took 5 minutes on 2 cores), so its scenarios run where /dev/kvm is");
        return Optional.empty();
    }

    private static String key(Topology m) {
        return TopoFormat.write(m.named("asked", "asked"));
    }

    // ------------------------------------------------------------ answering

    /**
     * What {@code call} answers on the guest booted on {@code machine}, with {@code machine}'s CPUs
     * online; {@code request} names the call and its arguments ({@code groupCpusEvenly(numgrps=0)}).
     *
     * @throws MachineOutOfReach when no guest runs on that machine (nor can, for a scenario)
     * @throws KernelBug         when the kernel oopsed on the call (a clean guest answers the next one)
     * @throws ImplementationFailure when the guest stopped answering otherwise
     */
    <T> T answer(Topology machine, String request, Function<Guest, T> call) {
        return answer(machine, request, call, false);
    }

    /**
     * As {@link #answer}, made with no other call on that guest meanwhile: an experiment that changes
     * the guest's online CPUs while it runs (HP-6's CPU hotplug).
     */
    <T> T answerAlone(Topology machine, String request, Function<Guest, T> call) {
        return answer(machine, request, call, true);
    }

    private <T> T answer(Topology machine, String request, Function<Guest, T> call, boolean alone) {
        Booted b = find(machine);
        try {
            return b.call(machine.online(), request, call, alone);
        } catch (CannotBuild e) {
            throw new MachineOutOfReach(this, "the kernel cannot take the machine to online CPUs " + machine.online().toList() + ": " + e.getMessage());
        } catch (GuestFailure e) {
            throw new ImplementationFailure("Linux " + kernel.release() + " stopped answering on " + shape(b.machine) + ": " + e.getMessage(), e);
        }
    }

    private Booted find(Topology machine) {
        if (closing) throw new IllegalStateException("the pool's guests were powered off; expected no call after the certification");
        for (Booted b : pool) if (b.machine == machine) return b;
        for (Booted b : pool) if (SameMachine.sameHardware(machine, b.machine)) return b;
        for (Booted b : pool)
            if (SameMachine.sameHardware(machine, b.asked))
                throw new MachineOutOfReach(this, "the machine booted otherwise than asked: "
                        + String.join("; ", SameMachine.differences(b.asked, b.machine, false)));
        synchronized (this) {
            for (OnDemand d : onDemand.values())
                if (d.booted().isPresent() && SameMachine.sameHardware(machine, d.booted().get().machine)) return d.booted().get();
        }
        if (phase == ScenarioPhase.LISTING) {
            synchronized (this) {
                listed.putIfAbsent(key(machine), machine);
            }
            throw new MachineOutOfReach(this, "listing the scenarios' machines");
        }
        if (phase != ScenarioPhase.RUNNING)
            throw new MachineOutOfReach(this, "the call is about a machine no guest booted on (a machine the check built or derived"
                    + " from a drawn one); Linux " + kernel.release() + " answers for the machines it booted on");
        OnDemand d = bootOnDemand(machine);
        if (d.booted().isEmpty()) throw new MachineOutOfReach(this, d.why());
        List<String> differ = SameMachine.differences(machine, d.booted().get().machine, false);
        if (!differ.isEmpty())
            throw new MachineOutOfReach(this, "the machine booted otherwise than asked: " + String.join("; ", differ));
        return d.booted().get();
    }

    private synchronized OnDemand bootOnDemand(Topology wanted) {
        String key = key(wanted);
        OnDemand known = onDemand.get(key);
        if (known != null) {
            if (known.booted().isPresent() && known.booted().get().dead()) known.booted().get().close();
            else return known;
        }
        OnDemand d;
        Optional<String> why = whyNotBooted(wanted);
        if (why.isPresent()) {
            d = new OnDemand(Optional.empty(), why.get());
        } else if (bootNanosSpent > bootBudget.toNanos()) {
            d = new OnDemand(Optional.empty(), "the boot budget (" + bootBudget.toSeconds() + " s for machines booted on demand) is spent");
        } else {
            long start = System.nanoTime();
            try {
                Booted b = Booted.of(kernel, wanted, false, progress);
                d = new OnDemand(Optional.of(b), "");
                progress.accept("booted " + shape(b.machine) + " on demand in " + b.bootTime.toMillis() / 1000.0 + " s");
            } catch (CannotBuild | GuestFailure e) {
                d = new OnDemand(Optional.empty(), "its machine did not boot: " + firstLine(e.getMessage()));
            } finally {
                bootNanosSpent += System.nanoTime() - start;
            }
        }
        onDemand.put(key, d);
        // Keep the newest few running: a scenario's machine serves the scenarios next to it.
        List<OnDemand> running = onDemand.values().stream().filter(x -> x.booted().isPresent() && !x.booted().get().closed()).toList();
        for (int i = 0; i < running.size() - MAX_ON_DEMAND; i++) running.get(i).booted().get().close();
        return d;
    }

    /** {@code 2 nodes, 8 CPUs (6 online)}. */
    static String shape(Topology m) {
        return m.nodes().size() + " node" + (m.nodes().size() == 1 ? "" : "s") + ", " + m.possible().size() + " CPU"
                + (m.possible().size() == 1 ? "" : "s") + (m.online().size() < m.possible().size() ? " (" + m.online().size() + " online)" : "");
    }

    private static String firstLine(String s) {
        int nl = s == null ? -1 : s.indexOf('\n');
        return s == null ? "" : nl < 0 ? s : s.substring(0, nl);
    }

    @Override
    public synchronized void close() {
        closing = true;
        for (Booted b : pool) b.close();
        for (OnDemand d : onDemand.values()) d.booted().ifPresent(Booted::close);
    }

    /**
     * One machine and the guest running on it. Calls with the guest's current online CPUs run side
     * by side (read lock); a call that needs other online CPUs changes them alone (write lock). A
     * guest that oopsed is made clean again (restored or booted) before the next call.
     */
    static final class Booted {
        private final BootableKernel kernel;
        final Topology asked;
        final Topology machine;
        final Duration bootTime;
        private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        /** The oopses calls gave, by online CPUs and call. */
        private final java.util.concurrent.ConcurrentHashMap<String, KernelBug> oopses = new java.util.concurrent.ConcurrentHashMap<>();
        private Guest guest;
        private CpuSet online;
        private volatile boolean oopsed;
        private volatile boolean closed;

        private final Consumer<String> progress;
        /** Oopses that the call alone on a clean guest did not give again (notes of the certificate). */
        final List<String> unconfirmed = java.util.Collections.synchronizedList(new ArrayList<>());
        /** The call whose oops broke the guest last, for the line that says why it boots again. */
        private volatile String brokenBy = "";

        private Booted(BootableKernel kernel, Topology asked, Guest guest, Duration bootTime, Consumer<String> progress) {
            this.kernel = kernel;
            this.progress = progress;
            this.asked = asked;
            this.guest = guest;
            // Named as asked, so a counterexample's .topo reads back (and names the machine of the run).
            this.machine = guest.machine().named(asked.name(), "Linux " + kernel.release() + " booted under QEMU");
            this.online = machine.online();
            this.bootTime = bootTime;
        }

        /**
         * Boots {@code m}; {@code kept}: and keeps the clean guest ({@link BootableKernel#bootKept}), as
         * for the machines drawn for the checks, whose calls may oops the kernel many times (6.1 on
         * {@code group_cpus_evenly(0)}); a scenario's machine or a shrinker's keeps one only once it
         * oopsed ({@link BootableKernel#again}).
         */
        static Booted of(BootableKernel kernel, Topology m, boolean kept, Consumer<String> progress) {
            long start = System.nanoTime();
            Guest g = kept ? kernel.bootKept(m) : kernel.boot(m);
            return new Booted(kernel, m, g, Duration.ofNanos(System.nanoTime() - start), progress);
        }

        boolean dead() {
            return oopsed;
        }

        boolean closed() {
            return closed;
        }

        /**
         * {@code call} on this guest with {@code wanted} online. A call that oopsed the kernel once on
         * these online CPUs is not made again: the oops it gave is given again (a kernel routine is a
         * function of the machine, and each oops costs a boot). A call that finds the guest broken by
         * another call's oops (calls run side by side) is made again on a clean guest. {@code exclusive}:
         * no other call is made on the guest meanwhile.
         */
        <T> T call(CpuSet wanted, String request, Function<Guest, T> call, boolean exclusive) {
            String key = wanted.toList() + " " + request;
            KernelBug known = oopses.get(key);
            if (known != null) throw known;
            for (int attempt = 0; ; attempt++) {
                try {
                    return exclusive ? alone(wanted, call, false) : callOnce(wanted, call);
                } catch (KernelBug bug) {
                    T alone;
                    try {
                        alone = alone(wanted, call, true);
                    } catch (KernelBug again) {
                        oopses.put(key, again);
                        throw again;
                    }
                    String note = "Linux " + kernel.release() + " oopsed on " + request + " on " + shape(machine) + " after other calls ("
                            + firstLine(bug.getMessage()) + "); on a clean guest the call alone answered, and that answer was judged";
                    unconfirmed.add(note);
                    progress.accept(note);
                    return alone;
                } catch (GuestFailure e) {
                    // Another call's oops broke the guest while this one waited for it: a clean guest, once.
                    if (attempt > 0 || !(oopsed || guest.oopsed())) throw e;
                    oopsed = true;
                }
            }
        }

        private <T> T callOnce(CpuSet wanted, Function<Guest, T> call) {
            lock.readLock().lock();
            boolean reading = true;
            try {
                if (oopsed || closed || !online.equals(wanted)) {
                    lock.readLock().unlock();
                    reading = false;
                    lock.writeLock().lock();
                    try {
                        // Oopsed, or powered off to keep few guests running: a clean guest.
                        if (oopsed || closed) reboot();
                        takeOnline(wanted);
                        lock.readLock().lock();
                        reading = true;
                    } finally {
                        lock.writeLock().unlock();
                    }
                }
                return apply(call);
            } finally {
                if (reading) lock.readLock().unlock();
            }
        }

        private void takeOnline(CpuSet wanted) {
            if (!online.equals(wanted)) {
                guest.setOnline(wanted);
                online = wanted;
            }
        }

        /** {@code call} on the guest; an oops marks the guest broken, naming the call. */
        private <T> T apply(Function<Guest, T> call) {
            try {
                return call.apply(guest);
            } catch (KernelBug bug) {
                brokenBy = firstLine(bug.getMessage());
                oopsed = true;
                throw bug;
            }
        }

        /**
         * {@code call} alone on this guest, no other call made meanwhile. {@code clean}: on a clean guest
         * on this machine (restored or booted anew), as after an oops, which is the call's answer only
         * when it comes back so. A guest can be broken before the call by earlier calls or by a starved
         * host (6.12.117 double-faulted once on {@code group_cpus_evenly(1)}
         * after a WARN, under a load of 19 on 2 cores, and answered the same call on the same machine
         * booted anew).
         */
        private <T> T alone(CpuSet wanted, Function<Guest, T> call, boolean clean) {
            lock.writeLock().lock();
            try {
                if (clean) oopsed = true;
                if (oopsed || closed) reboot();
                takeOnline(wanted);
                T out = apply(call);
                online = guest.machine().online();   // an experiment that changes the online CPUs may leave others than it found
                return out;
            } finally {
                lock.writeLock().unlock();
            }
        }

        /**
         * A clean guest on the machine again (after an oops, or powered off), with the online CPUs it
         * booted with: restored from the kernel's snapshot of it, or booted ({@link BootableKernel#again}).
         */
        private void reboot() {
            String why = oopsed ? "after an oops (" + brokenBy + ")" : "(powered off to keep few guests running)";
            long start = System.nanoTime();
            guest = kernel.again(guest, asked);
            progress.accept((guest.restored() ? "restored " + shape(machine) + " from its snapshot " : "booted " + shape(machine) + " again ")
                    + why + " in " + (System.nanoTime() - start) / 1_000_000 / 1000.0 + " s");
            online = guest.machine().online();
            oopsed = false;
            closed = false;
        }

        void close() {
            lock.writeLock().lock();
            try {
                closed = true;
                guest.close();
            } finally {
                lock.writeLock().unlock();
            }
        }
    }
}
