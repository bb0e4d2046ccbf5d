package dev.numaspread.conformance.spi;

import dev.numaspread.model.input.HasId;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A family of rules: one spec file ({@code spec/local-spread.md}) and its one feature file
 * ({@code features/local-spread.feature}), under one name (spec/README.md). Most families specify
 * routines ({@link Routine#family()}); the others are declared here as families of no routine,
 * with the reason.
 */
public enum Family implements HasId {
    LOCAL_SPREAD,
    NUMA_LEVELS,
    NUMA_HOPS,
    MLX5,
    SIBLING_SPREAD,
    GROUP_CPUS,
    BLK_MQ,
    PAGE_POOL,
    NIC,
    HOTPLUG("its rules are about the routines of other families running while CPUs come and go; "
            + "a hotplug rule belongs to the routines whose checks name it"),
    TOPOLOGY("its rules are about the machine every routine runs on"),
    FORMATS("its rules are about the text forms of CPU sets and machines"),
    RULES("its rules are about the specification itself"),
    AUDIT("its rules are what numaspread audit promises about a real machine");

    /** The files of {@code spec/} that specify no family: how rules are written, the words, the protocol, how each range boundary is known. */
    public static final List<String> SPEC_DOCUMENTS = List.of("spec/README.md", "spec/glossary.md", "spec/protocol.md", "spec/boundaries.md");

    private final Optional<String> noRoutineBecause;

    Family() {
        this.noRoutineBecause = Optional.empty();
    }

    Family(String noRoutineBecause) {
        this.noRoutineBecause = Optional.of(noRoutineBecause);
    }

    /** The family id, which names both files: {@code local-spread}. */
    @Override
    public String id() {
        return HasId.super.id();
    }

    /** Its spec file, from the root of the checkout or the bundle: {@code spec/local-spread.md}. */
    public String specFile() {
        return "spec/" + id() + ".md";
    }

    /**
     * Its feature file, from the root of the checkout or the bundle: {@code features/local-spread.feature}.
     * A family of no routine may have none, when tests prove its rules ({@code audit}).
     */
    public String featureFile() {
        return "features/" + id() + ".feature";
    }

    /** The routines it specifies, in {@link Routine} order; empty for a family of no routine. */
    public List<Routine> routines() {
        return Arrays.stream(Routine.values()).filter(r -> r.family() == this).toList();
    }

    /** Why it specifies no routine; empty for a family that specifies routines. */
    public Optional<String> noRoutineBecause() {
        return noRoutineBecause;
    }

    @Override
    public String toString() {
        return id();
    }
}
