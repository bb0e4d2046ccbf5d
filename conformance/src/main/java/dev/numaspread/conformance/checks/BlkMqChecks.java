package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.conformance.topogen.MachineDraws;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.BlkMqMap;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The checks of spec/blk-mq.md: the queue map (MQ-1..MQ-8, routine {@code blk-mq-map}) and the
 * managed IRQ affinity masks (MQ-9, MQ-10, routine {@code irq-affinity-masks}). MQ-2, MQ-7, MQ-8
 * and MQ-10 compare with the reference model of the claimed release; the others are contract checks.
 * A check whose rule does not apply to the claimed release passes without tries.
 */
public final class BlkMqChecks implements CheckFamily {

    @Override
    public List<Check> checks() {
        return List.of(
                Check.of("MQ-1", Routine.BLK_MQ_MAP, "MQ_1_everyPossibleCpuHasOneQueue", BlkMqChecks::oneQueueEach),
                Check.of("MQ-2", Routine.BLK_MQ_MAP, "MQ_2_legacyMapIsTheKernels", ctx -> exactMap(ctx, "MQ-2", ctx.kernel().before(6, 3))),
                Check.of("MQ-3", Routine.BLK_MQ_MAP, "MQ_3_aQueuesCpusLieInOneNode", BlkMqChecks::queuesInOneNode),
                Check.of("MQ-4", Routine.BLK_MQ_MAP, "MQ_4_legacyMapIgnoresNuma", BlkMqChecks::legacyMixesNodes),
                Check.of("MQ-5", Routine.BLK_MQ_MAP, "MQ_5_nullMasksSendEveryCpuToTheOffset", BlkMqChecks::nullFallback),
                Check.of("MQ-6", Routine.BLK_MQ_MAP, "MQ_6_queueOffsetShiftsTheMap", BlkMqChecks::offsetShifts),
                Check.of("MQ-7", Routine.BLK_MQ_MAP, "MQ_7_moreQueuesThanMasksReuseMasks", BlkMqChecks::masksReused),
                Check.of("MQ-8", Routine.BLK_MQ_MAP, "MQ_8_mapIsTheKernels", ctx -> exactMap(ctx, "MQ-8", true)),
                Check.of("MQ-9", Routine.IRQ_AFFINITY_MASKS, "MQ_9_preAndPostVectorsUnmanagedWithDefaultAffinity", BlkMqChecks::reservedVectors),
                Check.of("MQ-10", Routine.IRQ_AFFINITY_MASKS, "MQ_10_interruptSetsAreTheKernels", BlkMqChecks::exactSets));
    }

    /**
     * Seed 002's shape for MQ-4: two nodes with CPUs and no SMT, so the legacy map's "CPU id modulo
     * 2" is all that decides; every CPU present (not-present CPUs are dealt round-robin over the
     * nodes, which would give each node one parity) and at least 2 CPUs per node with consecutive
     * ids, so each of the 2 queues gets CPUs of both nodes.
     */
    static Gen<Topology> seed002Shape() {
        return Machines.realistic(Machines.Options.DEFAULT.withMaxNodes(2).withAtLeastCpuNodes(2).withSmt(Machines.Smt.NEVER).withAllPresent()
                .withMaxCpus(16))
                .filter(m -> m.nodes().stream().allMatch(n -> n.cpus().size() >= 2));
    }

    /** A machine, a queue count from 1 to its possible CPUs, and an offset 0..3. */
    record MapCase(Topology machine, int nrQueues, int queueOffset) {}

    static Gen<MapCase> mapCases(int extraQueues) {
        return mapCases(1, extraQueues);
    }

    /** Queue counts from {@code least} (0: the NULL path of group_cpus_evenly, where the release has one) to possible + {@code extraQueues}. */
    static Gen<MapCase> mapCases(int least, int extraQueues) {
        return GroupCpusChecks.MACHINES.flatMap(m -> c -> new MapCase(m,
                MachineDraws.counts(m, least, m.possible().size() + extraQueues).generate(c), c.choose(0, 3)));
    }

    static String callText(Topology m, int nrQueues, int offset) {
        return "blkMqMapQueues(nrQueues=" + nrQueues + ", queueOffset=" + offset + ") on " + GroupCpusChecks.describe(m);
    }

    /** {@code cpu:queue} pairs of the possible CPUs, as the CLI prints them. */
    static String show(Topology m, int[] map) {
        List<String> s = new ArrayList<>();
        for (int cpu : m.possible().toArray()) s.add(cpu + ":" + (cpu < map.length ? map[cpu] : "none"));
        return String.join(" ", s);
    }

    static void oneQueueEach(CheckContext ctx) {
        ctx.forAll(mapCases(0), c -> {
            Topology m = c.machine();
            int[] map = ctx.implementation().blkMqMapQueues(ctx.kernel(), m, c.nrQueues(), c.queueOffset());
            String call = callText(m, c.nrQueues(), c.queueOffset());
            if (map.length != m.nrCpuIds())
                throw Violation.of("MQ-1", call, "nr_cpu_ids = " + m.nrCpuIds() + " entries", map.length + " entries").on(m);
            for (int cpu = 0; cpu < map.length; cpu++) {
                boolean possible = m.possible().contains(cpu);
                boolean ok = possible ? map[cpu] >= c.queueOffset() && map[cpu] < c.queueOffset() + c.nrQueues() : map[cpu] == -1;
                if (!ok)
                    throw Violation.of("MQ-1", call, possible ? "cpu " + cpu + " on a queue in " + c.queueOffset() + ".."
                            + (c.queueOffset() + c.nrQueues() - 1) : "cpu " + cpu + " (not possible) unmapped (-1)",
                            "queue " + map[cpu] + "; map " + show(m, map)).on(m);
            }
        });
    }

    /**
     * {@code map} when it has one entry per CPU id below nr_cpu_ids; otherwise the try is MQ-1's
     * to judge (its length is a value MQ-1 speaks about, not a broken shape), and this rule says
     * nothing about it.
     */
    static int[] fullMap(Topology m, int[] map) {
        if (map.length != m.nrCpuIds())
            throw new NotApplicable("the map has " + map.length + " entries for nr_cpu_ids " + m.nrCpuIds() + ": MQ-1 judges its length");
        return map;
    }

    static void exactMap(CheckContext ctx, String rule, boolean applies) {
        if (!applies) return;
        ctx.forAll(mapCases(0, 2), c -> {
            Topology m = c.machine();
            String want = outcome(() -> BlkMqMap.blkMqMapQueues(ctx.kernel(), m, c.nrQueues(), c.queueOffset()), m);
            String got = outcome(() -> ctx.implementation().blkMqMapQueues(ctx.kernel(), m, c.nrQueues(), c.queueOffset()), m);
            if (!want.equals(got))
                throw Violation.of(rule, callText(m, c.nrQueues(), c.queueOffset()), want, got).on(m)
                        .hint(ctx.kernel().before(6, 3) ? "legacy map: present CPUs first, then siblings share (blk_mq_map_queues() of 6.1)"
                                : "queue q serves group q of group_cpus_evenly(nrQueues) (6a6dcae8f486)");
        });
    }

    interface MapCall {
        int[] get();
    }

    static String outcome(MapCall call, Topology m) {
        try {
            return show(m, call.get());
        } catch (KernelBug bug) {
            return "kernel crash";
        }
    }

    static void queuesInOneNode(CheckContext ctx) {
        if (ctx.kernel().before(6, 3)) return;
        ctx.forAll(mapCases(0), c -> {
            Topology m = c.machine();
            if (c.nrQueues() <= GroupCpusChecks.nodesWithCpusIn(m, m.present()).size()) return;
            int[] map = fullMap(m, ctx.implementation().blkMqMapQueues(ctx.kernel(), m, c.nrQueues(), c.queueOffset()));
            for (int q = c.queueOffset(); q < c.queueOffset() + c.nrQueues(); q++) {
                CpuSet.Builder cpus = CpuSet.builder();
                for (int cpu : m.present().toArray()) if (map[cpu] == q) cpus.add(cpu);
                List<Integer> nodes = GroupCpusChecks.nodesWithCpusIn(m, cpus.build());
                if (nodes.size() > 1)
                    throw Violation.of("MQ-3", callText(m, c.nrQueues(), c.queueOffset()), "queue " + q + "'s present CPUs in one node",
                            "queue " + q + " = " + cpus.build().toList() + " on nodes " + nodes).on(m)
                            .hint("is the legacy (≤ 6.2) sequential map used on a 6.3+ kernel?");
            }
        });
    }

    static void legacyMixesNodes(CheckContext ctx) {
        if (!ctx.kernel().before(6, 3)) return;
        ctx.forAll(seed002Shape(), m -> {
            int[] map = fullMap(m, ctx.implementation().blkMqMapQueues(ctx.kernel(), m, 2, 0));
            for (int q = 0; q < 2; q++) {
                CpuSet.Builder cpus = CpuSet.builder();
                for (int cpu : m.possible().toArray()) if (map[cpu] == q) cpus.add(cpu);
                List<Integer> nodes = GroupCpusChecks.nodesWithCpusIn(m, cpus.build());
                if (nodes.size() != 2)
                    throw Violation.of("MQ-4", callText(m, 2, 0), "queue " + q + " serving CPUs of both nodes (the legacy map alternates)",
                            "queue " + q + " = " + cpus.build().toList() + " on nodes " + nodes).on(m)
                            .hint("is the 6.3 group_cpus_evenly map used on a legacy kernel?");
            }
        });
    }

    static void nullFallback(CheckContext ctx) {
        if (!dev.numaspread.model.group.GroupCpusEvenly.returnsNullForZeroGroups(ctx.kernel())) return;
        ctx.forAll(mapCases(0), c -> {
            Topology m = c.machine();
            int[] map;
            try {
                map = fullMap(m, ctx.implementation().blkMqMapQueues(ctx.kernel(), m, 0, c.queueOffset()));
            } catch (KernelBug bug) {
                throw Violation.of("MQ-5", callText(m, 0, c.queueOffset()), "every CPU on queue " + c.queueOffset(),
                        "a kernel crash: " + bug.getMessage()).on(m);
            }
            for (int cpu : m.possible().toArray())
                if (map[cpu] != c.queueOffset())
                    throw Violation.of("MQ-5", callText(m, 0, c.queueOffset()), "every CPU on queue " + c.queueOffset(),
                            show(m, map)).on(m).hint("does the NULL fallback ignore queue_offset?");
        });
    }

    static void offsetShifts(CheckContext ctx) {
        ctx.forAll(mapCases(0), c -> {
            Topology m = c.machine();
            int[] base = fullMap(m, ctx.implementation().blkMqMapQueues(ctx.kernel(), m, c.nrQueues(), 0));
            int[] shifted = fullMap(m, ctx.implementation().blkMqMapQueues(ctx.kernel(), m, c.nrQueues(), c.queueOffset()));
            for (int cpu : m.possible().toArray())
                if (shifted[cpu] != base[cpu] + c.queueOffset())
                    throw Violation.of("MQ-6", callText(m, c.nrQueues(), c.queueOffset()), "the offset-0 map plus " + c.queueOffset()
                            + ": " + show(m, Arrays.stream(base).map(q -> q < 0 ? q : q + c.queueOffset()).toArray()), show(m, shifted)).on(m);
        });
    }

    static void masksReused(CheckContext ctx) {
        if (ctx.kernel().before(6, 17)) return;
        ctx.forAll(GroupCpusChecks.MACHINES.flatMap(m -> c -> new MapCase(m,
                MachineDraws.counts(m, m.possible().size() + 1, m.possible().size() + 3).generate(c), 0)), c -> {
            Topology m = c.machine();
            String want = outcome(() -> BlkMqMap.blkMqMapQueues(ctx.kernel(), m, c.nrQueues(), 0), m);
            String got = outcome(() -> ctx.implementation().blkMqMapQueues(ctx.kernel(), m, c.nrQueues(), 0), m);
            if (!want.equals(got))
                throw Violation.of("MQ-7", callText(m, c.nrQueues(), 0), want, got).on(m)
                        .hint("from 6.17 queue q takes masks[q mod nummasks] (b6139a6abf67)");
        });
    }

    /** nvecs, pre and post vectors, and interrupt sets (empty = default) on a machine. */
    record IrqCase(Topology machine, int nvecs, int pre, int post, List<Integer> sets) {
        String call() {
            return "irqCreateAffinityMasks(nvecs=" + nvecs + ", pre=" + pre + ", post=" + post + ", sets=" + sets + ") on "
                    + GroupCpusChecks.describe(machine);
        }
    }

    static Gen<IrqCase> irqCases() {
        return GroupCpusChecks.MACHINES.flatMap(m -> c -> {
            int pre = c.choose(0, 2), post = c.choose(0, 2);
            // 0 spread vectors too: nvecs == pre + post gives NULL (MQ-9)
            int affvecs = MachineDraws.counts(m, 0, m.possible().size() + 3).generate(c);
            List<Integer> sets = new ArrayList<>();
            if (c.chance(40)) {
                if (c.chance(50)) {
                    // A set larger than the possible CPUs, alone or before or after a small one:
                    // from 6.17 the next set starts after the masks it filled, not its size (MQ-10).
                    int big = m.possible().size() + 1 + c.choose(0, 2), small = c.choose(0, 2);
                    if (small > 0 && c.chance(50)) sets.add(small);
                    sets.add(big);
                    if (small > 0 && sets.size() == 1) sets.add(small);
                    affvecs = big + small;
                } else {
                    int left = affvecs;
                    while (left > 0 && sets.size() < 3) {
                        int s = sets.size() == 2 ? left : c.choose(1, left);
                        sets.add(s);
                        left -= s;
                    }
                }
            }
            return new IrqCase(m, pre + affvecs + post, pre, post, sets);
        });
    }

    static void reservedVectors(CheckContext ctx) {
        ctx.forAll(irqCases(), c -> {
            Optional<List<IrqAffinity.AffinityDesc>> r = ctx.implementation().irqCreateAffinityMasks(ctx.kernel(), c.machine(),
                    c.nvecs(), c.pre(), c.post(), c.sets());
            if (c.nvecs() == c.pre() + c.post()) {
                if (r.isPresent())
                    throw Violation.of("MQ-9", c.call(), "NULL (nothing to spread)", r.get().size() + " vectors").on(c.machine())
                            .hint("nvecs equals pre_vectors + post_vectors: is NULL returned before anything is assigned?");
                return;
            }
            if (r.isEmpty() || r.get().size() != c.nvecs())
                throw Violation.of("MQ-9", c.call(), c.nvecs() + " vectors", r.map(l -> l.size() + " vectors").orElse("NULL")).on(c.machine());
            CpuSet all = CpuSet.range(0, c.machine().nrCpuIds() - 1);
            for (int v = 0; v < c.nvecs(); v++) {
                boolean reserved = v < c.pre() || v >= c.nvecs() - c.post();
                IrqAffinity.AffinityDesc d = r.get().get(v);
                if (d.managed() == reserved || (reserved && !d.mask().equals(all)))
                    throw Violation.of("MQ-9", c.call(), "vector " + v + (reserved ? " unmanaged on " + all.toList() : " managed"),
                            "vector " + v + (d.managed() ? " managed" : " unmanaged") + " on " + d.mask().toList()).on(c.machine());
            }
        });
    }

    static void exactSets(CheckContext ctx) {
        ctx.forAll(irqCases(), c -> {
            IrqOutcome want = IrqOutcome.of(() -> IrqAffinity.irqCreateAffinityMasks(ctx.kernel(), c.machine(), c.nvecs(), c.pre(), c.post(), c.sets()));
            IrqOutcome got = IrqOutcome.of(() -> ctx.implementation().irqCreateAffinityMasks(ctx.kernel(), c.machine(), c.nvecs(), c.pre(), c.post(), c.sets()));
            if (!want.equals(got))
                throw Violation.of("MQ-10", c.call(), want.text(), got.text()).on(c.machine())
                        .hint("does a set advance by its size (≤ 6.16) or by the masks it filled (6.17+)?");
        });
    }

    interface IrqCall {
        Optional<List<IrqAffinity.AffinityDesc>> get();
    }

    /**
     * What {@code irq_create_affinity_masks()} gave: its descriptors, NULL (empty) or a kernel
     * crash. Compared as values, and written out only for a violation: writing out both answers
     * of every case to compare the texts was much of MQ-10's exhaustive walk. Two outcomes are
     * equal exactly when their texts are.
     */
    record IrqOutcome(Optional<List<IrqAffinity.AffinityDesc>> descs, boolean crashed) {
        static IrqOutcome of(IrqCall call) {
            try {
                return new IrqOutcome(call.get(), false);
            } catch (KernelBug bug) {
                return new IrqOutcome(Optional.empty(), true);
            }
        }

        /** {@code {0, 1}m {2}m}: each vector's CPUs, {@code m} when managed; or NULL, or kernel crash. */
        String text() {
            if (crashed) return "kernel crash";
            return descs.map(l -> {
                List<String> s = new ArrayList<>();
                for (IrqAffinity.AffinityDesc d : l) s.add("{" + d.mask().toList() + "}" + (d.managed() ? "m" : ""));
                return String.join(" ", s);
            }).orElse("NULL");
        }
    }
}
