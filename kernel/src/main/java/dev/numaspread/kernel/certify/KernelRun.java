package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.kernel.guest.BootableKernel;
import dev.numaspread.kernel.guest.CannotBuild;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One certification of a booted kernel ({@code certify --impl kernel:SOURCE}): the machines to boot
 * (drawn by {@link QemuMachines} from the run's seed, {@code --machines N} of them, or the one of
 * {@code --topology}), the share of them a shard boots ({@code --shard K/N} splits the machines, and
 * each shard runs its share of every property's tries on its own machines), the pool of booted
 * guests, and the implementation that answers through them. Close it to power the guests off.
 */
public final class KernelRun implements AutoCloseable {

    /** Machines booted when {@code --machines} is not given: a few minutes under TCG on 2 cores. */
    public static final int DEFAULT_MACHINES = 4;
    /** Most machines one run boots. */
    public static final int MAX_MACHINES = 1000;
    /**
     * A property's time on a booted kernel unless {@code --budget} (or {@code -Dnumaspread.budget.seconds})
     * says otherwise: calls under TCG on 2 shared cores are slow, and a call that oopses the guest
     * needs two clean guests (the call alone, then the next call), each a snapshot restored in 1 to
     * 8 s. Before snapshots each was a boot of 10 to 40 s, and 6.1, whose group_cpus_evenly(0)
     * oopses, lost 12 rules to the kit's 20 s on 20 machines, and 6 to these 180 s.
     */
    public static final int DEFAULT_BUDGET_SECONDS = 180;
    /** {@link #DEFAULT_BUDGET_SECONDS} as a duration. */
    public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(DEFAULT_BUDGET_SECONDS);

    /** The budget of a kernel run: {@code given} seconds, else the system property's, else {@link #DEFAULT_BUDGET}. */
    public static Duration budget(Optional<Integer> given) {
        if (given.isPresent()) return Duration.ofSeconds(given.get());
        Long property = Long.getLong("numaspread.budget.seconds");
        return property != null ? Duration.ofSeconds(property) : DEFAULT_BUDGET;
    }

    /** Time that boots on demand (scenario machines, smaller machines while shrinking) may take in all, unless given. */
    public static final Duration DEFAULT_BOOT_BUDGET = Duration.ofMinutes(3);

    private final KernelImplementation implementation;
    private final Settings settings;
    private final List<Topology> asked;

    private KernelRun(KernelImplementation implementation, Settings settings, List<Topology> asked) {
        this.implementation = implementation;
        this.settings = settings;
        this.asked = asked;
    }

    /**
     * Boots the machines of a run and returns it ready to certify.
     *
     * @param kernel     the kernel to boot
     * @param claimedAs  the release the kernel is judged as ({@code --kernel}); its own series when empty
     * @param settings   the run's settings: seed and shard choose the machines; the returned settings draw from the pool
     * @param machines   how many machines the whole run boots ({@code --machines}), shards together
     * @param topology   the one machine to boot instead ({@code --topology})
     * @param parallel   boots side by side
     * @param bootBudget time for boots on demand (scenarios, shrinking)
     * @param progress   receives a line per boot
     * @throws IllegalArgumentException a machine of {@code --topology} QEMU cannot build (the message names the features),
     *                                  or a shard without a machine
     * @throws IllegalStateException    when no machine booted
     */
    public static KernelRun boot(BootableKernel kernel, Optional<KernelRelease> claimedAs, Settings settings, int machines,
                                 Optional<Topology> topology, int parallel, Duration bootBudget, Consumer<String> progress) {
        if (machines < 1 || machines > MAX_MACHINES)
            throw new IllegalArgumentException("--machines " + machines + ": out of range; expected 1 to " + MAX_MACHINES);
        List<Topology> asked;
        if (topology.isPresent()) {
            List<String> cannot = kernel.cannotBuild(topology.get());
            if (!cannot.isEmpty())
                throw new IllegalArgumentException("--topology " + topology.get().name() + ": QEMU cannot build this machine: "
                        + String.join("; ", cannot) + "; expected a machine QEMU can build (README, \"Certify a kernel\")");
            asked = List.of(topology.get());
        } else {
            asked = shareOf(QemuMachines.draw(settings.seed(), machines), settings.shard());
        }
        progress.accept("booting " + asked.size() + " machine" + (asked.size() == 1 ? "" : "s") + " with Linux " + kernel.release()
                + ", " + Math.min(parallel, asked.size()) + " at a time");
        GuestPool pool = GuestPool.boot(kernel, asked, parallel, bootBudget, progress);
        pool.describedAs("Linux " + kernel.release() + " on " + (topology.isPresent()
                ? "the machine of --topology, " + dev.numaspread.conformance.certify.RunOptions.machines(dev.numaspread.conformance.topogen.MachinePool.of(List.of(topology.get()))) : machines + " machines drawn from the seed"));
        if (topology.isPresent())
            pool.withoutScenarios("a machine was given (--topology): the checks that draw machines ran on it, booted; scenarios,"
                    + " which bring their own machines, were not run");
        KernelImplementation impl = new KernelImplementation(pool, claimedAs.orElse(kernel.series()));
        return new KernelRun(impl, settings.withPool(pool), asked);
    }

    /**
     * The machines of {@code all} that {@code shard} boots: machine {@code i} (from 0) belongs to
     * the shard that owns ordinal {@code i}, so the shards together boot every machine once.
     *
     * @throws IllegalArgumentException when the shard owns none
     */
    static List<Topology> shareOf(List<Topology> all, Shard shard) {
        List<Topology> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) if (shard.owns(i)) out.add(all.get(i));
        if (out.isEmpty())
            throw new IllegalArgumentException("--shard " + shard + ": " + all.size() + " machine" + (all.size() == 1 ? "" : "s")
                    + " leave this shard none; expected --machines at least the shard count " + shard.count());
        return out;
    }

    /** This run, running no scenario for {@code reason} (its checks only). */
    public KernelRun withoutScenarios(String reason) {
        implementation.pool().withoutScenarios(reason);
        return this;
    }

    /** The booted kernel as an implementation. */
    public KernelImplementation implementation() {
        return implementation;
    }

    /** The run's settings, drawing every machine from the booted ones. */
    public Settings settings() {
        return settings;
    }

    /** The machines the run asked QEMU for, before the kernel renumbered anything. */
    public List<Topology> asked() {
        return asked;
    }

    /**
     * {@code c} with what the reader of a kernel's certificate needs besides the rules: the machines
     * that did not boot, and for each failure found on a machine, the QEMU command line that boots
     * it (the machine's {@code .topo} is in the failure).
     */
    public Certificate annotate(Certificate c) {
        List<String> notes = new ArrayList<>(c.notes());
        notes.add("booted " + implementation.pool().machines().size() + " machine" + (implementation.pool().machines().size() == 1 ? "" : "s")
                + " with Linux " + implementation.pool().kernel().release() + "; each rule's tries ran on them");
        notes.addAll(implementation.pool().notes());
        for (RuleResult r : c.results()) {
            if (!(r.verdict() instanceof Verdict.Fail f)) continue;
            Optional<String> topo = f.counterexample().machine();
            if (topo.isEmpty()) continue;
            try {
                Topology m = TopoFormat.read(topo.get(), r.rule() + ".topo").topology();
                notes.add("FAIL " + r.rule() + ": boot its machine with: " + String.join(" ", implementation.pool().kernel().commandLine(m)));
            } catch (CannotBuild e) {
                notes.add("FAIL " + r.rule() + ": QEMU cannot build its machine (" + e.getMessage() + ")");
            } catch (RuntimeException e) {
                notes.add("FAIL " + r.rule() + ": its machine cannot be read back for a QEMU command line (" + e.getMessage() + ")");
            }
        }
        return new Certificate(c.implementation(), c.implSpec(), c.claims(), c.suiteVersion(), c.settings(), c.started(), c.finished(),
                c.results(), notes, c.workload());
    }

    @Override
    public void close() {
        implementation.close();
    }
}
