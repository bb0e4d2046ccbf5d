package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.ChoiceSequence;
import dev.numaspread.conformance.gen.Rewrites;
import dev.numaspread.conformance.gen.Span;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The inputs one CPU or one queue smaller than a shrunk one: how a test shows that a
 * counterexample keeps no CPU and no queue its failure does not need. For each machine of the
 * sequence in literal form ({@link MachineCode}), the machine without each of its CPUs (the CPUs
 * above it move down one id); for each count in literal form ({@link MachineDraws#counts}), the count
 * less one.
 */
public final class OneLess {
    private OneLess() {}

    /** One smaller input: what was taken away ({@code cpu 3}, {@code one of 4 queues}) and the choices that replay it. */
    public record Candidate(String removed, int[] indices) {}

    /** Every input one CPU or one queue smaller than {@code s}, CPUs first. */
    public static List<Candidate> of(ChoiceSequence s) {
        List<Candidate> cpus = new ArrayList<>();
        List<Candidate> counts = new ArrayList<>();
        int[] indices = s.indices();
        for (Map.Entry<Integer, Rewrites> e : s.rewrites().entrySet()) {
            Span span = s.spans().get(e.getKey());
            boolean literal = indices.length > span.start() && indices[span.start()] == 0;
            if (!literal) continue;
            if (e.getValue() instanceof MachineGen.Literal m) {
                Optional<MachineCode.Shape> shape = MachineCode.shapeOf(m.machine());
                if (shape.isEmpty()) continue;
                Topology t = m.machine();
                int[] ids = t.possible().toArray();
                for (int k = 0; k < ids.length && ids.length > 1; k++) {
                    boolean[] drop = new boolean[ids.length];
                    drop[k] = true;
                    int[] form = MachineGen.Literal.withForm(MachineCode.write(MachineCode.withoutCpus(shape.get(), drop)));
                    cpus.add(new Candidate("cpu " + ids[k], replace(indices, span, form)));
                }
            } else if (span.label().equals(MachineDraws.COUNT) && span.length() == 2 && indices[span.start() + 1] > 0) {
                int value = s.value(span.start() + 1);
                counts.add(new Candidate("one of " + value + " (count " + value + " -> " + (value - 1) + ")",
                        replace(indices, span, new int[] {0, indices[span.start() + 1] - 1})));
            }
        }
        cpus.addAll(counts);
        return cpus;
    }

    private static int[] replace(int[] indices, Span span, int[] form) {
        int[] c = new int[indices.length - span.length() + form.length];
        System.arraycopy(indices, 0, c, 0, span.start());
        System.arraycopy(form, 0, c, span.start(), form.length);
        System.arraycopy(indices, span.end(), c, span.start() + form.length, indices.length - span.end());
        return c;
    }
}
