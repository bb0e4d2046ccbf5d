package dev.numaspread.conformance.spi;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A family of rules: one spec file ({@code spec/local-spread.md}) and its one feature file
 * ({@code features/local-spread.feature}), under one name (spec/README.md). Most families specify
 * routines ({@link Routine#family()}); the others are declared here as families of no routine,
 * with the reason.
 */
public enum Family {
    LOCAL_SPREAD("local-spread"),
    NUMA_LEVELS("numa-levels"),
    NUMA_HOPS("numa-hops"),
    MLX5("mlx5"),
    SIBLING_SPREAD("sibling-spread"),
    GROUP_CPUS("group-cpus"),
    BLK_MQ("blk-mq"),
    PAGE_POOL("page-pool"),
    NIC("nic"),
    HOTPLUG("hotplug", "its rules are about the routines of other families running while CPUs come and go; "
            + "a hotplug rule belongs to the routines whose checks name it"),
    TOPOLOGY("topology", "its rules are about the machine every routine runs on"),
    FORMATS("formats", "its rules are about the text forms of CPU sets and machines"),
    RULES("rules", "its rules are about the specification itself"),
    AUDIT("audit", "its rules are what numaspread audit promises about a real machine");

    /** The files of {@code spec/} that specify no family: how rules are written, the words, the protocol. */
    public static final List<String> SPEC_DOCUMENTS = List.of("spec/README.md", "spec/glossary.md", "spec/protocol.md");

    private final String id;
    private final Optional<String> noRoutineBecause;

    Family(String id) {
        this.id = id;
        this.noRoutineBecause = Optional.empty();
    }

    Family(String id, String noRoutineBecause) {
        this.id = id;
        this.noRoutineBecause = Optional.of(noRoutineBecause);
    }

    /** The family id, which names both files: {@code local-spread}. */
    public String id() {
        return id;
    }

    /** Its spec file, from the root of the checkout or the bundle: {@code spec/local-spread.md}. */
    public String specFile() {
        return "spec/" + id + ".md";
    }

    /**
     * Its feature file, from the root of the checkout or the bundle: {@code features/local-spread.feature}.
     * A family of no routine may have none, when tests prove its rules ({@code audit}).
     */
    public String featureFile() {
        return "features/" + id + ".feature";
    }

    /** The routines it specifies, in {@link Routine} order; empty for a family of no routine. */
    public List<Routine> routines() {
        return Arrays.stream(Routine.values()).filter(r -> r.family() == this).toList();
    }

    /** Why it specifies no routine; empty for a family that specifies routines. */
    public Optional<String> noRoutineBecause() {
        return noRoutineBecause;
    }

    public static Optional<Family> byId(String id) {
        return Arrays.stream(values()).filter(f -> f.id.equals(id)).findFirst();
    }

    @Override
    public String toString() {
        return id;
    }
}
