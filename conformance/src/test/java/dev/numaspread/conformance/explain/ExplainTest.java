package dev.numaspread.conformance.explain;

import dev.numaspread.conformance.explain.Explain.Reason;
import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code plan --explain} on the seeds' machines: the reasons are derived by hand from the fixtures'
 * distance tables and sibling lists, and every rule id they cite is a rule of {@code spec/}.
 */
class ExplainTest {

    static final KernelRelease V6_1 = KernelRelease.of(6, 1), V6_12 = KernelRelease.of(6, 12);

    /** Seed 003's Kunpeng 920 plan, written out: node 2 (48-71), node 3 (72-95), node 1 (24-47), node 0 (0-23), then the wrap. */
    static List<CpuSet> kunpengPlan(boolean rings) {
        List<CpuSet> out = new ArrayList<>();
        for (int i = 0; i < 97; i++) {
            int c = i < 24 ? 48 + i : i < 48 ? (rings ? 72 : 0) + i - 24 : i < 72 ? 24 + i - 48 : i < 96 ? (rings ? 0 : 72) + i - 72 : 48;
            out.add(CpuSet.of(c));
        }
        return out;
    }

    @Test
    void ringsAndTheirDistancesOnKunpengNode2() {
        Topology m = Fixtures.topology("kunpeng920-4node");
        List<Reason> r = Explain.reasons("local-spread", V6_12, m, 2, kunpengPlan(true));
        assertEquals(new Reason("ring 0: node 2 itself (distance 10), ascending CPU id across the ring", List.of("LS-3", "LS-4", "LS-6")), r.get(0));
        assertEquals(new Reason("ring 1: distance 16 from node 2 (node 3), ascending CPU id across the ring", List.of("LS-4", "LS-6")), r.get(24));
        assertEquals(new Reason("ring 2: distance 25 from node 2 (node 1), ascending CPU id across the ring", List.of("LS-4", "LS-6")), r.get(48));
        assertEquals(new Reason("ring 3: distance 32 from node 2 (node 0), ascending CPU id across the ring", List.of("LS-4", "LS-6")), r.get(72));
        assertEquals(new Reason("wraps: 96 mod 96 online CPUs = 0; ring 0: node 2 itself (distance 10), ascending CPU id across the ring",
                List.of("LS-2", "LS-3", "LS-4", "LS-6")), r.get(96));
    }

    @Test
    void classicOrderIgnoresDistance() {
        Topology m = Fixtures.topology("kunpeng920-4node");
        List<Reason> r = Explain.reasons("local-spread", V6_1, m, 2, kunpengPlan(false));
        assertEquals(new Reason("local node 2, ascending CPU id", List.of("LS-3", "LS-7")), r.get(0));
        assertEquals(new Reason("another node, ascending CPU id; distance ignored", List.of("LS-7")), r.get(24));
    }

    @Test
    void groupsNameTheirNodeShareAndSiblings() {
        Topology m = Fixtures.topology("a-2node-2s2c2t-linux-6.12-boot");
        // The 6.12 kernel run printed group_cpus_evenly(3) = 4-7 | 0-1 | 2-3.
        List<CpuSet> groups = List.of(CpuSet.parseList("4-7"), CpuSet.parseList("0-1"), CpuSet.parseList("2-3"));
        List<Reason> r = Explain.reasons("group-cpus", V6_12, m, -1, groups);
        assertEquals(new Reason("node 1: one of its 1 group of 4 present CPUs; SMT siblings kept together", List.of("GRP-2", "GRP-3", "GRP-4", "GRP-5")), r.get(0));
        assertEquals(new Reason("node 0: one of its 2 groups of 4 present CPUs; SMT siblings kept together", List.of("GRP-2", "GRP-3", "GRP-4", "GRP-5")), r.get(1));
        List<Reason> one = Explain.reasons("group-cpus", V6_12, m, -1, List.of(CpuSet.parseList("0-7")));
        assertEquals(new Reason("nodes 0-1 dealt whole: fewer groups than nodes; SMT siblings kept together", List.of("GRP-8", "GRP-5")), one.get(0));
    }

    /** The reasons of a 7.x grouping, derived by hand: GRP-4 ends at 6.19, the cluster rules say how each node was dealt. */
    @Test
    void groupsFrom70NameTheClusterStepOrItsFallBack() {
        KernelRelease k = KernelRelease.of(7, 3);
        Topology cl1 = Fixtures.topology("cl1-1node-40cpu-cluster4-linux-7.3-boot");
        // The 7.3.4 kernel run printed group_cpus_evenly(11): 4-7, 12-15, ..., 36-39, 8-11, 0-1, 2-3.
        List<CpuSet> groups = new ArrayList<>();
        for (String g : List.of("4-7", "12-15", "16-19", "20-23", "24-27", "28-31", "32-35", "36-39", "8-11", "0-1", "2-3"))
            groups.add(CpuSet.parseList(g));
        List<Reason> r = Explain.reasons("group-cpus", k, cl1, -1, groups);
        List<String> step = List.of("GRP-2", "GRP-3", "GRP-11", "GRP-12", "GRP-15");
        assertEquals(new Reason("node 0: one of its 11 groups of 40 present CPUs; cluster 4-7, whole (clusters in heapsort order)", step), r.get(0));
        assertEquals(new Reason("node 0: one of its 11 groups of 40 present CPUs; cluster 0-3, split (clusters in heapsort order)", step), r.get(10));
        // 7 groups for its 10 clusters: node-wide, as before 7.0 (the first group as 6.18 deals it: 0-5).
        List<Reason> seven = Explain.reasons("group-cpus", k, cl1, -1, List.of(CpuSet.parseList("0-5")));
        assertEquals(new Reason("node 0: one of its 1 group of 40 present CPUs; node-wide: 10 clusters for 1 group",
                List.of("GRP-2", "GRP-3", "GRP-13")), seven.get(0));
        // Kernel run cl2, offline phase (CPU 3 offline), 4 groups: 12-15, 8-11, 0-3, 4-7.
        Topology cl2 = Fixtures.topology("cl2-2node-2cl-2c-2t-linux-7.3-offline");
        List<Reason> off = Explain.reasons("group-cpus", k, cl2, -1,
                List.of(CpuSet.parseList("12-15"), CpuSet.parseList("8-11"), CpuSet.parseList("0-3"), CpuSet.parseList("4-7")));
        assertEquals(new Reason("node 1: one of its 2 groups of 8 present CPUs; cluster 12-15, whole (clusters in heapsort order);"
                + " SMT siblings kept together", List.of("GRP-2", "GRP-3", "GRP-11", "GRP-12", "GRP-15", "GRP-5")), off.get(0));
        assertEquals(new Reason("node 0: one of its 2 groups of 8 present CPUs; node-wide: CPU 3 has no cluster mask (offline);"
                + " SMT siblings kept together", List.of("GRP-2", "GRP-3", "GRP-13", "GRP-5")), off.get(2));
    }

    @Test
    void everyCitedRuleExists() {
        RuleRegistry rules = RuleRegistry.load();
        TreeSet<String> cited = new TreeSet<>();
        for (String name : List.of("kunpeng920-4node", "mana-2node-32c-smt2", "c-epyc-4node-smt-split-linux-6.12-offline", "patho-cpuless-node"))
            for (KernelRelease k : List.of(V6_1, KernelRelease.of(6, 9), V6_12, KernelRelease.NEWEST)) {
                Topology m = Fixtures.topology(name);
                int node = m.nodeIds()[m.nodeIds().length - 1];
                List<CpuSet> one = new ArrayList<>();
                for (int c : m.online().toArray()) one.add(CpuSet.of(c));
                List<CpuSet> cores = new ArrayList<>();
                for (CpuSet s : m.smtSiblings()) if (!s.and(m.online()).isEmpty()) cores.add(s.and(m.online()));
                for (String routine : List.of("local-spread", "mlx5-comp-irqs", "irq-setup", "mana-setup-irqs"))
                    Explain.reasons(routine, k, m, node, routine.startsWith("local") || routine.startsWith("mlx5") ? one : cores)
                            .forEach(x -> cited.addAll(x.rules()));
                GroupCpusEvenly.groupCpusEvenly(k, m, 3).ifPresent(g -> {
                    Explain.reasons("group-cpus", k, m, -1, g).forEach(x -> cited.addAll(x.rules()));
                    Explain.reasons("blk-mq-map", k, m, -1, g).forEach(x -> cited.addAll(x.rules()));
                });
            }
        assertTrue(cited.size() >= 15, "the explanations cite the rules of several families: " + cited);
        for (String id : cited) assertTrue(rules.byId(id).isPresent(), id + " is cited by plan --explain but is no rule of spec/");
    }

    /**
     * The closest CPU, derived by hand from seed 003's Kunpeng 920 (row 0: 10 16 32 33; the levels
     * are the table's values 10 16 25 32 33): the nearest level of node 0 holding a CPU of 0-47 is
     * node 0 itself (0-23); of 48-95, the level within 32 (node 2, 48-71).
     */
    @Test
    void closestNamesTheNearestLevelThenLowestIdOrTheCallingCpusState() {
        Topology m = Fixtures.topology("kunpeng920-4node");
        CpuSet set = CpuSet.parseList("0-47");
        String level0 = "level 0: node 0 itself, the nearest holding 0-23 of the set";
        assertEquals(List.of(new Reason(level0 + "; its lowest id", List.of("HOP-5", "HOP-9"))),
                Explain.numaClosest(KernelRelease.of(6, 15), m, set, 0, 0, 0, List.of(CpuSet.of(0))));
        assertEquals(List.of(new Reason("level 3: within distance 32 of node 0, the nearest holding 48-71 of the set; its lowest id",
                List.of("HOP-5", "HOP-9"))), Explain.numaClosest(KernelRelease.of(6, 15), m, CpuSet.parseList("48-95"), 0, 0, 0, List.of(CpuSet.of(48))));
        // 7.3, calls in turn on cpu 5 from state 22: 23, then none above 23 so 0, then 1 (PlanNumaClosestTest).
        List<Reason> r = Explain.numaClosest(KernelRelease.of(7, 3), m, set, 0, 5, 22, List.of(CpuSet.of(23), CpuSet.of(0), CpuSet.of(1)));
        List<String> hop10 = List.of("HOP-5", "HOP-10");
        assertEquals(List.of(new Reason(level0 + "; the first above 22 (cpu 5's distribute_cpu_mask_prev)", hop10),
                new Reason(level0 + "; none above 23, so its lowest (cpu 5's distribute_cpu_mask_prev)", hop10),
                new Reason(level0 + "; the first above 0 (cpu 5's distribute_cpu_mask_prev)", hop10)), r);
        // An answer the rules do not give is named, not explained away; "none" where the levels hold no CPU of the set.
        assertEquals(new Reason("cpu 30, outside the nearest " + level0, List.of("HOP-5")),
                Explain.numaClosest(KernelRelease.of(6, 15), m, set, 0, 0, 0, List.of(CpuSet.of(30))).get(0));
        assertEquals(new Reason("none: no level of node 0 (of cpu 0) holds an online CPU of 200", List.of("HOP-5")),
                Explain.numaClosest(KernelRelease.of(6, 15), m, CpuSet.of(200), 0, 0, 0, List.of(CpuSet.EMPTY)).get(0));
    }

    @Test
    void textPutsReasonAndRulesOnEachLine() {
        Topology m = Fixtures.topology("kunpeng920-4node");
        List<CpuSet> plan = kunpengPlan(true).subList(0, 2);
        String t = Explain.text("queue", plan, Explain.reasons("local-spread", V6_12, m, 2, plan));
        assertEquals("queue   cpus           why" + " ".repeat(68) + "rules", t.lines().findFirst().orElseThrow());
        assertTrue(t.lines().skip(1).findFirst().orElseThrow().matches("0 +48 +ring 0: node 2 itself \\(distance 10\\), ascending CPU id across the ring +LS-3 LS-4 LS-6"), t);
    }
}
