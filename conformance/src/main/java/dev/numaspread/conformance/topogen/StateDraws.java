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

    /**
     * Draws the details of the state modes drawn up front (how many not-present CPUs, which CPUs
     * go offline) and the clusters; all 0: every CPU present and online, no clusters.
     */
    static void draw(Choices c, MachinePlan plan, int maxCpus, int possibleMode, MachinePlan.Offline offlineMode) {
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
        // Clusters (7.0+ groups a node by them, GRP-11..GRP-15): one machine in four, of 2 to 8
        // cores, one in three split (a cluster's cores numbered apart); and, with clusters, an
        // offline CPU inside one two times in five, which turns the cluster step off for its node.
        if (c.chance(25)) {
            plan.clusterCores = 2 + c.choose(0, 6);
            plan.clusterSplit = c.chance(33);
            if (plan.offline == MachinePlan.Offline.NONE && c.chance(40)) {
                plan.offline = MachinePlan.Offline.FEW;
                plan.offlinePicks = picks(c, 1 + c.choose(0, 1), present);
            }
        }
        c.endSpan();
    }

    private static int[] picks(Choices c, int count, int of) {
        int[] out = new int[count];
        for (int k = 0; k < count; k++) out[k] = c.choose(0, of - 1);
        return out;
    }
}
