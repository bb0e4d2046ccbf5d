package dev.numaspread.conformance.topogen;

import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * The kernel's value rules that {@code new Topology(...)} does not check (it checks the structural
 * ones: online ⊆ present ⊆ possible, a CPU in exactly one node, siblings in one node). Stands in
 * for strict {@code TopologyValidation} until the formats engineer's validator lands; then the
 * tests should call that instead.
 */
final class KernelValueRules {
    private KernelValueRules() {}

    /** The broken rules, as messages; empty when the machine passes strict validation. */
    static List<String> violations(Topology t) {
        List<String> out = new ArrayList<>();
        int[] ids = t.nodeIds();
        for (int a : ids)
            for (int b : ids) {
                int d = t.distance(a, b);
                if (a == b && d != 10) out.add("distance(" + a + ", " + a + ") = " + d + "; expected 10");
                if (a != b && (d < 11 || d > 255)) out.add("distance(" + a + ", " + b + ") = " + d + "; expected 11..255");
            }
        if (t.online().isEmpty()) out.add("no online CPU; expected at least one");
        return out;
    }
}
