package dev.numaspread.model.topology;

import dev.numaspread.model.cpu.CpuSet;

import java.util.PrimitiveIterator;
import java.util.stream.IntStream;

/**
 * An immutable set of node ids (a kernel {@code nodemask_t}), iterated in ascending id order. Node
 * ids are not CPU ids: a set of nodes is a {@code NodeMask}, never a {@link CpuSet}. It prints as the
 * kernel prints a nodemask ({@code %*pbl}, as in {@code /sys/devices/system/node/online}):
 * {@code 0-3,8}; in prose the empty mask is {@value CpuSet#NONE}.
 */
public final class NodeMask implements Iterable<Integer> {

    /** No node. */
    public static final NodeMask EMPTY = new NodeMask(CpuSet.EMPTY);

    // The same bitmap as a CpuSet, read as node ids; never handed out as one.
    private final CpuSet bits;

    private NodeMask(CpuSet bits) {
        this.bits = bits;
    }

    /** The mask of the given node ids. */
    public static NodeMask of(int... nodes) {
        return new NodeMask(CpuSet.of(nodes));
    }

    /** The mask of the node ids {@code nodes} gives. */
    public static NodeMask ofStream(IntStream nodes) {
        return new NodeMask(CpuSet.ofStream(nodes));
    }

    /** The nodes {@code first..last}, both included; empty when {@code last < first}. */
    public static NodeMask range(int first, int last) {
        return new NodeMask(CpuSet.range(first, last));
    }

    /**
     * Reads a node list as the kernel and numactl print one ({@code 0-3,8}, {@code 0 1 2 3}); the
     * dialects of {@link CpuSet#parseList(String)}.
     *
     * @throws IllegalArgumentException naming the offending piece
     */
    public static NodeMask parseList(String text) {
        return new NodeMask(CpuSet.parseList(text));
    }

    public boolean contains(int node) {
        return bits.contains(node);
    }

    public boolean isEmpty() {
        return bits.isEmpty();
    }

    /** The number of nodes ({@code nodes_weight}). */
    public int size() {
        return bits.size();
    }

    /** The lowest node id, or -1 for the empty mask. */
    public int first() {
        return bits.first();
    }

    /** The highest node id, or -1 for the empty mask. */
    public int last() {
        return bits.last();
    }

    /** The nodes of this mask or of {@code other}. */
    public NodeMask or(NodeMask other) {
        return new NodeMask(bits.or(other.bits));
    }

    /** The node ids, ascending. */
    public int[] toArray() {
        return bits.toArray();
    }

    public IntStream stream() {
        return bits.stream();
    }

    @Override
    public PrimitiveIterator.OfInt iterator() {
        return bits.iterator();
    }

    /** The nodes of this mask that are not in {@code other}. */
    public NodeMask andNot(NodeMask other) {
        return new NodeMask(bits.andNot(other.bits));
    }

    /** The kernel's list form ({@code %*pbl}): {@code 0-3,8}; the empty mask is "". */
    public String toList() {
        return bits.toList();
    }

    /** The mask as tables, messages and reports write it: the list form, {@value CpuSet#NONE} for the empty mask. */
    public String toText() {
        return bits.toText();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeMask other && bits.equals(other.bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }

    /** The list form, so messages print kernel notation. */
    @Override
    public String toString() {
        return toList();
    }
}
