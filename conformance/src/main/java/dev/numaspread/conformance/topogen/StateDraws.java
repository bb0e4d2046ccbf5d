package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.conformance.gen.Gen;

import java.util.List;

/**
 * The run-time state of a planned machine: the modes drawn up front with the hardware (how many
 * CPUs are possible but not present, which go offline) and their details drawn last, with the
 * clusters, in the span "state" (all 0: every CPU present and online, no clusters).
 */
final class StateDraws {
    private StateDraws() {}

    static final Gen<Integer> POSSIBLE_MODE = Gen.weighted(70, 25, 5);
    static final Gen<Integer> OFFLINE_MODE = Gen.weighted(76, 6, 8, 3, 4, 3);
    static final List<MachinePlan.Offline> OFFLINE = List.of(MachinePlan.Offline.values());
    /** Dense CPU ids (0), or sparse ones (1): holes in the possible ids and, on a machine of two cores or more, an id past 63. */
    static final Gen<Integer> SPARSE_MODE = Gen.weighted(75, 25);

    /** Most ids one hole of sparse numbering skips: the literal form's id gap ({@code MachineCode.MAX_GAP}) must hold it. */
    static final int MAX_HOLE = 200;

    /**
     * Draws the details of the state modes drawn up front (how many not-present CPUs, which CPUs
     * go offline) and the clusters; all 0: every CPU present and online, no clusters.
     */
    static void draw(Choices c, MachinePlan plan, int maxCpus, int possibleMode, MachinePlan.Offline offlineMode, boolean sparse) {
        c.startSpan("state");
        int present = plan.totalCores() * plan.smt;
        int room = Math.max(0, maxCpus - present);
        int extra = switch (possibleMode) {
            case 0 -> 0;
            case 1 -> c.chance(50) ? Integer.highestOneBit(present) * 2 - present : present * (1 + c.choose(0, 2));
            default -> room;
        };
        plan.extraPossible = Math.min(extra, room);
        MachinePlan.Offline mode = offlineMode;
        int cores = plan.totalCores();
        switch (mode) {
            case SMT_OFF -> { if (plan.smt == 1) mode = MachinePlan.Offline.NONE; }
            case HALF_SMT -> {
                if (plan.smt == 1) mode = MachinePlan.Offline.NONE;
                else plan.offlinePicks = picks(c, 1 + c.choose(0, Math.max(0, cores - 1)), cores);
            }
            case FEW -> plan.offlinePicks = picks(c, 1 + c.choose(0, 2), present);
            case NODE -> {
                if (plan.cpuNodeCount() < 2) mode = MachinePlan.Offline.NONE;
                else plan.offlinePicks = new int[] {c.choose(0, plan.cpuNodeCount() - 1)};
            }
            default -> { }
        }
        plan.offline = mode;
        if (sparse) sparseIds(c, plan);
        // Clusters (7.0+ groups a node by them, GRP-11..GRP-15): two machines in five, of 2 to 8
        // cores, one in three split (a cluster's cores numbered apart); and, with clusters, an
        // offline CPU inside one two times in five, which turns the cluster step off for its node.
        if (c.chance(40)) {
            plan.clusterCores = 2 + c.choose(0, 6);
            plan.clusterSplit = c.chance(33);
            // A cluster across a node boundary (TOPO-15) two times in three where two nodes have
            // cores: x86 splits it, and a grouping that does not deals its CPUs in both nodes.
            plan.clusterAcross = plan.cpuNodeCount() > 1 && c.chance(66);
            if (plan.offline == MachinePlan.Offline.NONE && c.chance(40)) {
                plan.offline = MachinePlan.Offline.FEW;
                plan.offlinePicks = picks(c, 1 + c.choose(0, 1), present);
            }
        }
        c.endSpan();
    }

    /**
     * Sparse CPU ids, as firmware numbers big machines and a few CPUs of them come up (issue 24): a
     * small hole before a node's cores half of the time; on a machine of two cores or more, one
     * jump before a drawn core to an id from 64 to 191 (a mask or map kept in one 64-bit word
     * loses the CPUs past it); with split numbering, a stride of 64, 128 or 256 between a core's
     * threads half of the time; and half of the time a hole before the not-present CPUs. The
     * possible ids then have holes and {@code nr_cpu_ids} exceeds the possible CPUs. CPU 0 stays.
     */
    static void sparseIds(Choices c, MachinePlan plan) {
        int total = plan.totalCores();
        int core = 0;
        for (MachinePlan.NodePlan n : plan.nodes) {
            if (n.cores == 0) continue;
            if (core > 0 && c.chance(50)) plan.coreHoles.merge(core, 1 + c.choose(0, 7), Integer::sum);
            core += n.cores;
        }
        if (total > 1) {
            int at = c.choose(1, total - 1);
            int slotsBefore = at;
            for (var h : plan.coreHoles.headMap(at, true).entrySet()) slotsBefore += h.getValue();
            int hole = Math.max(0, 64 - slotsBefore) + c.choose(0, 127);
            plan.coreHoles.merge(at, Math.min(hole, MAX_HOLE - plan.coreHoles.getOrDefault(at, 0)), Integer::sum);
        }
        if (plan.split && c.chance(50)) {
            int slots = total;
            for (int h : plan.coreHoles.values()) slots += h;
            int stride = 64 << c.choose(0, 2);
            plan.stride = Math.min(stride, slots + MAX_HOLE);
        }
        if (c.chance(50)) plan.extraHole = 1 + c.choose(0, MAX_HOLE - 1);
    }

    private static int[] picks(Choices c, int count, int of) {
        int[] out = new int[count];
        for (int k = 0; k < count; k++) out[k] = c.choose(0, of - 1);
        return out;
    }
}
