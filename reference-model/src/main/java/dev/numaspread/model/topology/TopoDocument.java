package dev.numaspread.model.topology;

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
 * @param expect   the {@code expect} tags, sorted; non-empty means the file asks for lenient mode
 * @param warnings what validation reported, in file order of their lines
 */
public record TopoDocument(Topology topology, List<String> notes, Set<String> expect, List<TopologyWarning> warnings) {
    public TopoDocument {
        Objects.requireNonNull(topology, "topology");
        notes = List.copyOf(notes);
        expect = Collections.unmodifiableSortedSet(new TreeSet<>(expect));
        warnings = List.copyOf(warnings);
    }

    /** A document with just the machine: no notes, no tags, no warnings. */
    public static TopoDocument of(Topology topology) {
        return new TopoDocument(topology, List.of(), Set.of(), List.of());
    }

    /** True when some warning carries {@code code}. */
    public boolean warns(String code) {
        return warnings.stream().anyMatch(w -> w.code().equals(code));
    }
}
