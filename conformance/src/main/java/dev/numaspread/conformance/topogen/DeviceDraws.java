package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Machines with the node of a device on them, for the routines that take one (local spread, hop
 * masks, mlx5): drawn so that the device nodes telling implementations apart come often, and the
 * machine edits that make them (a CPU-less node with a row of its own, a distance outside the
 * kernel's range).
 */
public final class DeviceDraws {
    private DeviceDraws() {}

    /** A machine and the node a device sits on ({@code NUMA_NO_NODE} included). */
    public record Device(Topology machine, int node) {}

    /**
     * Machines narrowed by {@code options}, each with the node of a device, drawn so that the nodes
     * telling implementations apart come often, in span {@code "device"}: {@code NUMA_NO_NODE}
     * one draw in eight; one in five a CPU-less node added to a machine with three or more nodes
     * with CPUs, whose distance row orders those nodes otherwise than the row of the node standing
     * in for it (the mlx5 2022 patch measured from the wrong one); else a node of the machine, one
     * of its CPU-less nodes half of the time when it has some. The simplest is node 0 of the
     * simplest machine.
     */
    public static Gen<Device> devices(Machines.Options options) {
        MachineGen plain = Machines.realistic(options);
        boolean roomForThree = options.maxNodes() >= 4 && options.maxCpus() >= 3 * (options.smt() == Machines.Smt.ALWAYS ? 2 : 1);
        MachineGen three = roomForThree ? Machines.realistic(options.withMaxNodes(options.maxNodes() - 1).withAtLeastCpuNodes(3)) : plain;
        return c -> {
            c.startSpan("device");
            try {
                int kind = c.weighted(68, 12, 20);   // any node, NUMA_NO_NODE, an added reordering CPU-less node
                if (kind == 2 && roomForThree) {
                    Topology m = three.generate(c);
                    Optional<Device> d = withReorderingCpulessNode(c, m);
                    if (d.isPresent()) return d.get();
                    return new Device(m, MachineDraws.anyNode(m).generate(c));
                }
                Topology m = plain.generate(c);
                if (kind == 1) return new Device(m, Numa.NUMA_NO_NODE);
                List<Integer> cpuless = new ArrayList<>();
                for (Node n : m.nodes()) if (m.isCpuless(n.id())) cpuless.add(n.id());
                if (!cpuless.isEmpty() && c.chance(50)) return new Device(m, cpuless.get(c.choose(0, cpuless.size() - 1)));
                return new Device(m, MachineDraws.anyNode(m).generate(c));
            } finally {
                c.endSpan();
            }
        };
    }

    /**
     * Machines narrowed by {@code options}, each with a device on {@code NUMA_NO_NODE}, in span
     * {@code "device"}: the draws of {@link #devices} that put the device there, drawn directly
     * (the same machines, by the same law) instead of one draw in eight. The simplest is the
     * simplest machine.
     */
    public static Gen<Device> noNodeDevices(Machines.Options options) {
        MachineGen plain = Machines.realistic(options);
        return c -> {
            c.startSpan("device");
            try {
                return new Device(plain.generate(c), Numa.NUMA_NO_NODE);
            } finally {
                c.endSpan();
            }
        };
    }

    /**
     * {@code m} with a CPU-less node added (the next node id, memory, no CPUs) near one of its
     * nodes with CPUs, its stand-in; farther, the other nodes with CPUs in the reverse of the
     * stand-in's order, so the two rows order them differently. Empty when {@code m} has fewer
     * than three nodes with online CPUs or no literal form.
     */
    static Optional<Device> withReorderingCpulessNode(Choices c, Topology m) {
        List<Integer> withCpus = new ArrayList<>();
        for (int id : m.nodeIds()) if (!m.isCpuless(id)) withCpus.add(id);
        if (withCpus.size() < 3) return Optional.empty();
        int standIn = withCpus.get(c.choose(0, withCpus.size() - 1));
        List<Integer> others = new ArrayList<>(withCpus);
        others.remove(Integer.valueOf(standIn));
        others.sort(Comparator.<Integer>comparingInt(n -> m.distance(standIn, n)).thenComparingInt(n -> n));
        int[] ids = m.nodeIds();
        int[] to = new int[ids.length];
        for (int j = 0; j < ids.length; j++) {
            int rank = others.indexOf(ids[j]);
            to[j] = ids[j] == standIn ? 12 + c.choose(0, 5) : rank >= 0 ? 20 + 5 * (others.size() - rank) : 40;
        }
        return withCpulessNode(m, to);
    }

    /**
     * {@code m} with a CPU-less node of the next id, memory, at distances {@code to} (both ways) from its nodes, and a device on it.
     *
     * <p>Cost: the machine last built on this thread is given again for the same {@code m} (the
     * same instance) and {@code to}: an exhaustive walk draws one such machine for many leaves in a
     * row (the counts and flags drawn after it), and building it was a tenth of the walk (issue 26).
     */
    private static Optional<Device> withCpulessNode(Topology m, int[] to) {
        Built last = LAST_BUILT.get();
        if (last != null && last.m() == m && Arrays.equals(last.to(), to)) return last.device();
        Optional<Device> d = buildWithCpulessNode(m, to);
        LAST_BUILT.set(new Built(m, to.clone(), d));
        return d;
    }

    /**
     * The machine {@link #withCpulessNode(Topology, int[])} built last on this thread. Not a
     * mutable value anyone sees: a memo of a function of ({@code m}, {@code to}) over immutable
     * machines, per thread so that no two threads share it.
     */
    private static final ThreadLocal<Built> LAST_BUILT = new ThreadLocal<>();

    private record Built(Topology m, int[] to, Optional<Device> device) {}

    private static Optional<Device> buildWithCpulessNode(Topology m, int[] to) {
        Optional<MachineCode.Shape> shape = MachineCode.shapeOf(m);
        if (shape.isEmpty()) return Optional.empty();
        MachineCode.Shape s = shape.get().copy();
        int[] ids = m.nodeIds();
        MachineCode.NodeShape added = new MachineCode.NodeShape();
        added.id = ids[ids.length - 1] + 1;
        added.to = to;
        added.from = to.clone();
        s.nodes.add(added);
        return MachineCode.build(s).map(t -> new Device(t, added.id));
    }

    /**
     * {@code m} with a CPU-less node added (the next node id, memory, no CPUs) at a drawn distance
     * of 12 to 40 from every other node, and a device on it; empty when {@code m} has no literal
     * form. For checks whose machines seldom have a CPU-less node of their own.
     *
     * <p>In an exhaustive walk ({@link Choices#smallScope()}) the distances run over 12 to 12 + k - 1
     * for k nodes: every order of the new node's distances, ties included, which is all a rule can
     * tell apart, and not 29 values a node (a walk of 841 machines for each 2-node machine).
     */
    public static Optional<Device> withCpulessNode(Choices c, Topology m) {
        int[] to = new int[m.nodeIds().length];
        int spread = c.smallScope().isPresent() ? Math.min(28, to.length - 1) : 28;
        for (int j = 0; j < to.length; j++) to[j] = 12 + c.choose(0, spread);
        return withCpulessNode(m, to);
    }

    /**
     * {@code m} with the distance between nodes {@code a} and {@code b} (both directions) set to
     * {@code value}, outside the kernel's 10..255, so the kernel builds no NUMA levels (LVL-4): a
     * machine built with {@code expect slit-invalid}.
     */
    public static Topology withDistance(Topology m, int a, int b, int value) {
        int[] ids = m.nodeIds();
        int[][] rows = new int[ids.length][];
        for (int i = 0; i < ids.length; i++) rows[i] = m.distances().row(ids[i]);
        int ia = java.util.Arrays.binarySearch(ids, a), ib = java.util.Arrays.binarySearch(ids, b);
        rows[ia][ib] = value;
        rows[ib][ia] = value;
        Optional<MachineCode.Shape> shape = MachineCode.shapeOf(m);
        if (shape.isPresent()) {
            MachineCode.Shape s = shape.get().copy();
            for (int i = 0; i < ids.length; i++)
                for (int j = 0; j < i; j++) {
                    s.nodes.get(i).to[j] = rows[i][j];
                    s.nodes.get(i).from[j] = rows[j][i];
                }
            Optional<Topology> t = MachineCode.build(s);
            if (t.isPresent()) return t.get();
        }
        dev.numaspread.model.topology.TopologyBuilder b2 = dev.numaspread.model.topology.TopologyBuilder.machine("out-of-range")
                .expect(dev.numaspread.model.topology.TopologyValidation.SLIT_INVALID);
        for (int id : ids) b2.node(id, m.cpusOf(id));
        return b2.distances(rows).possible(m.possible()).present(m.present()).online(m.online()).build();
    }

    /**
     * {@code d} with, one draw in {@code oneIn}, a distance between its first two nodes outside
     * 10..255 (256 or 5): a machine without NUMA levels (LVL-4), for the exact checks of routines
     * that walk them. Unchanged on a machine of one node.
     */
    public static Gen<Device> sometimesWithoutNumaLevels(Gen<Device> d, int oneIn) {
        return c -> {
            Device x = d.generate(c);
            int[] ids = x.machine().nodeIds();
            if (ids.length < 2 || !c.chance(100 / oneIn)) return x;
            return new Device(withDistance(x.machine(), ids[0], ids[1], c.choose(0, 1) == 0 ? 256 : 5), x.node());
        };
    }

}
