package dev.numaspread.model.topology;

import dev.numaspread.model.topology.TopologyValidation.Mode;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.Collections;

/**
 * A loaded topology file: the machine, plus what the file says about it that is not part of the
 * machine (notes, intent tags) and what the loader noticed (warnings).
 *
 * @param topology the machine
 * @param notes    the {@code note} lines, in file order
 * @param expect   the {@code expect} tags, sorted; non-empty means the file asks for lenient mode ({@link #mode()})
 * @param warnings what validation reported, in file order of their lines
 */
public record TopoDocument(Topology topology, List<String> notes, Set<String> expect, List<TopologyWarning> warnings) {
    public TopoDocument {
        Objects.requireNonNull(topology, "topology");
        notes = List.copyOf(notes);
        expect = Collections.unmodifiableSortedSet(new TreeSet<>(expect));
        warnings = List.copyOf(warnings);
    }

    /**
     * The document of a machine built in code: no notes; {@code expect} tags naming the kernel rules
     * it breaks, so the text written from it loads back as the same machine (FMT-9, FMT-11); the
     * warnings validation in that mode reports.
     */
    public static TopoDocument of(Topology topology) {
        List<TopologyWarning> warnings = TopologyValidation.validate(topology, Mode.LENIENT);
        TreeSet<String> broken = new TreeSet<>();
        for (TopologyWarning w : warnings) if (TopologyValidation.KERNEL_RULE_CODES.contains(w.code())) broken.add(w.code());
        return new TopoDocument(topology, List.of(), broken, warnings);
    }

    /** The mode this document loads in: lenient when it has {@code expect} tags (FMT-9). */
    public Mode mode() {
        return Mode.forTags(expect);
    }

    /** True when some warning carries {@code code}. */
    public boolean warns(String code) {
        return warnings.stream().anyMatch(w -> w.code().equals(code));
    }
}
