package dev.numaspread.conformance.topogen;

import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * One call a check made to the implementation: the SPI method ({@code groupCpusEvenly}), the
 * release, the machine it was about, and the other arguments by their SPI parameter names
 * ({@code numgrps=4}). What {@link InputClass} judges.
 */
public record Call(String method, KernelRelease kernel, Topology machine, Map<String, Object> args) {

    /** The parameters that count queues, groups or vectors, in SPI words. */
    static final java.util.List<String> COUNTS = java.util.List.of("count", "numgrps", "nrQueues", "nvecs", "len", "queues");

    public Call {
        args = java.util.Collections.unmodifiableMap(new TreeMap<>(args));
    }

    /** The integer argument {@code name}, if the call has one. */
    public OptionalInt intArg(String name) {
        return args.get(name) instanceof Integer i ? OptionalInt.of(i) : OptionalInt.empty();
    }

    /** The count of queues, groups or vectors the call asks for, if it asks for one. */
    public OptionalInt count() {
        for (String n : COUNTS) {
            OptionalInt v = intArg(n);
            if (v.isPresent()) return v;
        }
        return OptionalInt.empty();
    }

    /** The node argument ({@code NUMA_NO_NODE} is -1), if the call has one. */
    public OptionalInt node() {
        return intArg("node");
    }

    /** The argument {@code name} as {@code type}, if the call has one of that type. */
    public <T> Optional<T> arg(String name, Class<T> type) {
        Object v = args.get(name);
        return type.isInstance(v) ? Optional.of(type.cast(v)) : Optional.empty();
    }
}
