package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * How a machine numbers its SMT threads, in the words of a {@code .topo} file: {@code smt none},
 * {@code smt 2 adjacent} (siblings 0-1, 2-3, ...), {@code smt 2 stride 128} (siblings 0,128,
 * 1,129, ...) or an explicit {@code siblings} list (spec/formats.md FMT-7).
 *
 * @param kind   the numbering
 * @param width  threads per core for {@code ADJACENT} and {@code STRIDE}, else 1 or 0
 * @param stride the id distance between threads of a core for {@code STRIDE}, else 0
 * @param groups the non-singleton sibling groups for {@code SIBLINGS}, else empty
 */
public record SmtLayout(Kind kind, int width, int stride, List<CpuSet> groups) {

    /** The four ways a file gives SMT siblings. */
    public enum Kind { NONE, ADJACENT, STRIDE, SIBLINGS }

    public SmtLayout {
        groups = List.copyOf(groups);
    }

    /**
     * The simplest layout that gives exactly the machine's sibling groups: none, then adjacent,
     * then stride, else the explicit groups.
     */
    public static SmtLayout of(Topology t) {
        List<CpuSet> actual = t.smtSiblings();
        int width = actual.stream().mapToInt(CpuSet::size).max().orElse(1);
        if (width == 1) return new SmtLayout(Kind.NONE, 1, 0, List.of());
        if (adjacentGroups(t.possible(), width).equals(actual)) return new SmtLayout(Kind.ADJACENT, width, 0, List.of());
        CpuSet wide = actual.stream().filter(g -> g.size() >= 2).findFirst().orElseThrow();
        int stride = wide.nth(1) - wide.first();
        if (strideGroups(t.possible(), width, stride).equals(actual)) return new SmtLayout(Kind.STRIDE, width, stride, List.of());
        return new SmtLayout(Kind.SIBLINGS, 0, 0, actual.stream().filter(g -> g.size() >= 2).toList());
    }

    /**
     * Adjacent numbering: CPU {@code c} is thread {@code c mod width} of core {@code c / width};
     * groups of possible CPUs, ascending by first CPU.
     */
    public static List<CpuSet> adjacentGroups(CpuSet possible, int width) {
        TreeMap<Integer, CpuSet.Builder> byCore = new TreeMap<>();
        possible.forEachCpu(c -> byCore.computeIfAbsent(c / width, k -> CpuSet.builder()).add(c));
        return build(byCore);
    }

    /**
     * Split numbering: thread {@code k} of a core is its first thread plus {@code k * stride}.
     * First threads are the CPUs whose block of {@code stride} ids has an index divisible by
     * {@code width} (0-127 for {@code smt 2 stride 128}; 0-15, 32-47, ... for stride 16), so the
     * core of {@code c} starts at {@code c - ((c / stride) mod width) * stride}.
     */
    public static List<CpuSet> strideGroups(CpuSet possible, int width, int stride) {
        TreeMap<Integer, CpuSet.Builder> byCore = new TreeMap<>();
        possible.forEachCpu(c -> byCore.computeIfAbsent(c - ((c / stride) % width) * stride, k -> CpuSet.builder()).add(c));
        return build(byCore);
    }

    private static List<CpuSet> build(TreeMap<Integer, CpuSet.Builder> byCore) {
        List<CpuSet> out = new ArrayList<>();
        for (CpuSet.Builder b : byCore.values()) out.add(b.build());
        out.sort((a, b) -> Integer.compare(a.first(), b.first()));
        return out;
    }

    /** The {@code .topo} line: {@code smt none}, {@code smt 2 stride 128}, {@code siblings 0-1 2-3}. */
    public String toTopoLine() {
        return switch (kind) {
            case NONE -> "smt none";
            case ADJACENT -> "smt " + width + " adjacent";
            case STRIDE -> "smt " + width + " stride " + stride;
            case SIBLINGS -> "siblings " + String.join(" ", groups.stream().map(CpuSet::toList).toList());
        };
    }

    /** The description a reader wants: {@code 2 threads per core, split numbering (stride 128)}. */
    public String describe() {
        return switch (kind) {
            case NONE -> "none (1 thread per core)";
            case ADJACENT -> width + " threads per core, adjacent numbering (siblings " + "0-" + (width - 1) + ", ...)";
            case STRIDE -> width + " threads per core, split numbering (stride " + stride + ")";
            case SIBLINGS -> "irregular sibling groups (" + groups.size() + " with more than one thread)";
        };
    }
}
