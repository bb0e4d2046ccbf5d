package dev.numaspread.conformance.topogen;

import dev.numaspread.model.topology.Topology;

import java.util.List;
import java.util.Optional;

/**
 * The machines a run's checks draw from instead of generating them: the one machine of
 * {@code certify --topology}, or the machines a booted kernel runs on ({@code --impl kernel:},
 * one boot serving every check's tries on it). Every machine generator of {@link Machines} gives a
 * machine of the pool that its narrowing ({@link Machines.Options#admits}) admits, picked by a
 * choice, so shrinking moves to the first; a draw whose narrowing admits none is discarded, and a
 * check whose draws were all discarded does not apply.
 *
 * <p>A pool that can {@link #grow} lets the shrinker leave it: a failing try's machine is rewritten
 * to its literal form and to smaller machines ({@link MachineGen}), which {@link #grow} makes ready
 * (a boot) when a try reaches them.
 */
public interface MachinePool {

    /** The machines, in the order tries pick them (the first is where shrinking goes); never empty. */
    List<Topology> machines();

    /**
     * True when a check whose draws are narrowed by {@code options} may be given {@code machine}. The
     * default is {@link Machines.Options#admits}; a booted kernel's pool does not count its
     * not-present CPUs against {@code maxCpus} (they cost a boot nothing, and they are how x86 reaches
     * CPU ids past 63, having no holes in its possible CPUs).
     */
    default boolean admits(Machines.Options options, Topology machine) {
        return options.admits(machine);
    }

    /**
     * A machine of the pool standing for {@code wanted}, made ready now (booted), to go on shrinking
     * on: the machine as it was made, which may differ from {@code wanted} (a kernel renumbers nodes);
     * empty when it cannot be made or the pool does not grow. The default does not grow.
     */
    default Optional<Topology> grow(Topology wanted) {
        return Optional.empty();
    }

    /** True when {@link #grow} may give a machine: the shrinker then tries machines outside the pool. */
    default boolean grows() {
        return false;
    }

    /**
     * Why scenarios are not run with this pool; empty when they are. {@code --topology}'s pool runs
     * none: its machine replaces drawn machines, and scenarios bring their own.
     */
    default Optional<String> whyNoScenarios() {
        return Optional.of("a machine was given (--topology): the checks that draw machines ran on it; scenarios were not run");
    }

    /** Where the scenarios are, for a pool that runs them ({@link #scenarios}). */
    enum ScenarioPhase {
        /** A first run of the scenarios whose calls only name the machines they are about: none is judged. */
        LISTING,
        /** The run that judges. */
        RUNNING,
        /** The scenarios have ended. */
        DONE
    }

    /**
     * True when the pool wants the scenarios' machines named before they run ({@link ScenarioPhase#LISTING}):
     * a booted kernel then boots them side by side, each once. The default does not.
     */
    default boolean listsScenarioMachines() {
        return false;
    }

    /**
     * Told where the scenarios are, for a pool that runs them: a booted kernel notes the machines
     * named while LISTING, boots them when RUNNING begins (a machine it cannot build makes the
     * scenario's call {@link dev.numaspread.conformance.certify.MachineOutOfReach}), and powers them
     * off when DONE.
     */
    default void scenarios(ScenarioPhase phase) {}

    /**
     * What the pool is, as the run it serves is known by it ({@code merge-reports} joins only shards
     * of one run): the same in every shard of a run even where the shards hold different machines
     * (a booted kernel's: {@code Linux 7.3.4+deb13-amd64 on 8 machines drawn from the seed}). Empty
     * (the default): the pool is known by its machines.
     */
    default Optional<String> description() {
        return Optional.empty();
    }

    /** The pool of {@code machines} that does not grow and runs no scenario ({@code certify --topology}). */
    static MachinePool of(List<Topology> machines) {
        if (machines.isEmpty()) throw new IllegalArgumentException("a machine pool of no machine; expected at least one");
        List<Topology> copy = List.copyOf(machines);
        return () -> copy;
    }
}
