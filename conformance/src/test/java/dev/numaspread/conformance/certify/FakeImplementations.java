package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Small implementations, checks and a spec for the certifier's own tests. */
final class FakeImplementations {
    private FakeImplementations() {}

    /** Two nodes of two CPUs: node 0 = 0-1, node 1 = 2-3, distance 20. */
    static final Topology TWO_NODES = TopologyBuilder.machine("two-nodes").node(0, "0-1").node(1, "2-3")
            .distances(new int[]{10, 20}, new int[]{20, 10}).build();

    static final String SPEC = String.join("\n",
            "# Local spread (test)",
            "",
            "### LS-1 Local CPUs come first",
            "level: MUST; kernels: all; sources: test",
            "",
            "### LS-2 The wrap uses the online count",
            "level: MUST; kernels: all; sources: test",
            "",
            "### LS-3 Rings in ascending CPU id",
            "level: EXACT; kernels: 6.3+; sources: test",
            "",
            "### LS-4 Something nothing checks",
            "level: SHOULD; kernels: all; sources: test",
            "",
            "### LS-5 The 2020 proposal goes node by node",
            "level: EXACT; kernels: all; sources: test",
            "");

    static final String GROUP_SPEC = String.join("\n",
            "### GRP-1 Every CPU in one group",
            "level: MUST; kernels: 6.3+; sources: test",
            "",
            "### GRP-2 Groups and local spread agree on the local CPUs",
            "level: MUST; kernels: all; sources: test",
            "");

    static RuleRegistry registry() {
        return RuleRegistry.parse(new java.util.TreeMap<>(Map.of("spec/local-spread.md", SPEC, "spec/group-cpus.md", GROUP_SPEC)));
    }

    /** The classic answer on {@link #TWO_NODES}: local CPUs of the node, then the others. */
    static int[] classic(int node, int count) {
        int[] order = node == 1 ? new int[]{2, 3, 0, 1} : new int[]{0, 1, 2, 3};
        int[] out = new int[count];
        for (int i = 0; i < count; i++) out[i] = order[i % 4];
        return out;
    }

    /** Claims local-spread for 6.1 and answers classically; optionally wrong for node 1. */
    static class Spread implements Implementation {
        @Override public String name() { return "fake <spread> & co"; }
        @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.1")); }
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            return classic(node, count);
        }
    }

    /** LS-1 on the fixed machine: the first CPU for node 1 must be 2 or 3. */
    static final Check LOCAL_FIRST = Check.of("LS-1", Routine.LOCAL_SPREAD, "LS_1_localCpusComeFirst", ctx ->
            ctx.forAll(Gen.ints(0, 1), node -> {
                int cpu = ctx.implementation().localSpreadCpus(ctx.kernel(), TWO_NODES, node, 1)[0];
                if (TWO_NODES.nodeOf(cpu) != node)
                    throw Violation.of("LS-1", "localSpread(i=0, node=" + node + ")", "a CPU of node " + node,
                            "cpu " + cpu + " (node " + TWO_NODES.nodeOf(cpu) + ")").hint("are nodes visited by id?").on(TWO_NODES);
            }));

    /** LS-2: index 4 wraps to index 0. */
    static final Check WRAP = Check.of("LS-2", Routine.LOCAL_SPREAD, "LS_2_wrapUsesOnlineCount", ctx -> {
        int[] r = ctx.implementation().localSpreadCpus(ctx.kernel(), TWO_NODES, 1, 5);
        if (r[4] != r[0]) throw Violation.of("LS-2", "localSpread(i=4, node=1)", "cpu " + r[0], "cpu " + r[4]);
    });

    /** LS-3 check that throws something other than a Violation: the kit's own bug shows as ERROR. */
    static final Check CRASHING = Check.of("LS-3", Routine.LOCAL_SPREAD, "LS_3_crashes", ctx -> {
        throw new IllegalStateException("boom <b>");
    });

    /** LS-5 check: a rule of spec/local-spread.md that belongs to the nearest-node proposal. */
    static final Check NEAREST_NODE = Check.of("LS-5", Routine.LOCAL_SPREAD_NEAREST_NODE, "LS_5_nodeByNode", ctx ->
            ctx.implementation().localSpreadNearestNodeCpus(ctx.kernel(), TWO_NODES, 1, 2));

    /** GRP-1 check: group-cpus is not claimed by {@link Spread}. */
    static final Check GROUPS = Check.of("GRP-1", Routine.GROUP_CPUS, "GRP_1_everyCpuInOneGroup", ctx ->
            ctx.implementation().groupCpusEvenly(ctx.kernel(), TWO_NODES, 2));

    /** Answers differently on every second call. */
    static final class Flaky extends Spread {
        private final AtomicInteger calls = new AtomicInteger();
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            int[] r = classic(node, count);
            if (calls.incrementAndGet() % 2 == 0) r[0] = r[0] ^ 1;
            return r;
        }
    }

    /** Never answers. */
    static final class Hanging extends Spread {
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return classic(node, count);
        }
    }

    /**
     * Takes two seconds over a call of {@code stuckCount} CPUs, and an interrupt does not shorten it:
     * the watchdog has to leave the call behind. Other calls are answered at once.
     */
    static final class Unstoppable extends Spread {
        private final int stuckCount;
        Unstoppable(int stuckCount) {
            this.stuckCount = stuckCount;
        }
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            if (count == stuckCount) {
                long until = System.nanoTime() + 2_000_000_000L;
                while (System.nanoTime() < until) java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
            }
            return classic(node, count);
        }
    }

    /** Visits nodes by id: node 1 gets CPU 0 first. */
    static final class NodesVisitedById extends Spread {
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            return classic(0, count);
        }
    }

    /** Claims local-spread but implements nothing. */
    static final class Liar implements Implementation {
        @Override public String name() { return "liar"; }
        @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.1")); }
    }

    /** Returns fewer CPUs than asked. */
    static final class ShortAnswer extends Spread {
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            return classic(node, Math.max(0, count - 1));
        }
    }

    /** Throws a NullPointerException. */
    static final class Crashing extends Spread {
        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            throw new NullPointerException("masks");
        }
    }
}
