package dev.numaspread.conformance.topogen;

import dev.numaspread.model.topology.Topology;

import java.util.List;

/** Every machine up to a number of CPUs (exhaustive small scope). */
public final class SmallMachines {
    private SmallMachines() {}

    public static List<Topology> upTo(int maxCpus, Machines.Options options) {
        return List.of();
    }
}
