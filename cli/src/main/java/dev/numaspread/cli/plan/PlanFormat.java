package dev.numaspread.cli.plan;

import java.util.List;
import java.util.Optional;

/**
 * One text form of a plan ({@code plan --format NAME}). A format is one class: to add one, write
 * the class and list it in {@link #all()}.
 */
public interface PlanFormat {

    /** The {@code --format} value: {@code list}, {@code smp_affinity}, ... */
    String name();

    /**
     * The text {@code plan} prints for the plans of the releases {@code --kernel} names, in its
     * order; one plan unless {@link #takesSeveralReleases()}.
     */
    String render(List<Planned> plans);

    /** True when the format shows several releases at once ({@code --kernel 6.1,6.12,7.3}). */
    default boolean takesSeveralReleases() {
        return false;
    }

    /** Every format, in the order help lists them; {@code list} (the default) first. */
    static List<PlanFormat> all() {
        return List.of(new ListFormat(), new SmpAffinityFormat(), new TableFormat(), new JsonFormat(), new CpuListFormat(), new SvgFormat());
    }

    /** The format named {@code name}, if there is one. */
    static Optional<PlanFormat> named(String name) {
        return all().stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /** The one plan of a format that takes one release. */
    static Planned only(List<Planned> plans) {
        if (plans.size() != 1) throw new IllegalStateException("a format of one release was given " + plans.size() + " plans");
        return plans.get(0);
    }
}
