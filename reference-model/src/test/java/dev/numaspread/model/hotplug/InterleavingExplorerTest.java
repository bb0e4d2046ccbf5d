package dev.numaspread.model.hotplug;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.siblingspread.SiblingSpread;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InterleavingExplorerTest {

    static final Topology EIGHT = TopologyBuilder.machine("2node-4core-8cpu").node(0, "0-3").node(1, "4-7").smtAdjacent(2).build();
    static final Machine.Config V69 = Machine.Config.of(EIGHT, KernelRelease.of(6, 9));

    static final Topology FOUR = TopologyBuilder.machine("2node-2core-4cpu").node(0, "0-1").node(1, "2-3").smtAdjacent(2).build();

    @Test
    void HP_1_lockedSetupIsAtomicOnEveryInterleaving() {
        var x = InterleavingExplorer.explore(V69, m -> SiblingSpread.Variant.LOCKED.manaSetupIrqs(m, 0), OutcomeTable.ATOMIC);
        assertFalse(x.pairsExplored());
        assertEquals(List.of(), x.forbidden(), x.report());
        assertEquals(List.of(Outcome.SAME_PLAN, Outcome.PLAN_AFTER_EVENT), List.copyOf(x.counts().keySet()));
        assertEquals(8 * x.points(), x.interleavings().size());
        // An event before cpus_read_lock() (point 0) gives the plan of the 7-CPU machine.
        assertEquals(Outcome.PLAN_AFTER_EVENT, x.interleavings().get(0).outcome());
    }

    @Test
    void HP_1_lockedSetupIsAtomicForEveryPairOfEvents() {
        Machine.Config c = Machine.Config.of(FOUR.withOnline(CpuSet.parseList("0-2")), KernelRelease.of(6, 9));
        var x = InterleavingExplorer.explore(c, m -> SiblingSpread.Variant.LOCKED.manaSetupIrqs(m, 0), OutcomeTable.ATOMIC);
        assertTrue(x.pairsExplored());
        assertEquals(List.of(), x.forbidden(), x.report());
        // 3 offline events and cpu 3 coming online, each alone at every point, then the 12 ordered pairs.
        int n = x.points();
        assertEquals(4 * n + 12 * n * (n + 1) / 2, x.interleavings().size());
    }

    @Test
    void HP_2_unlockedSetupBindsAnIrqToAnOfflineCpu() {
        var x = InterleavingExplorer.explore(V69, m -> SiblingSpread.Variant.UNLOCKED.manaSetupIrqs(m, 0), OutcomeTable.ATOMIC,
                InterleavingExplorer.Scope.only(HotplugEvent.offline(1)));
        var offline = x.withOutcome(Outcome.OFFLINE_TARGET);
        assertFalse(offline.isEmpty(), x.report());
        // The first one: cpu 1 goes offline between topology_sibling_cpumask(0) and the affinity of the IRQ that reads it.
        assertTrue(offline.get(0).detail().contains("while cpu 1 was offline"), offline.get(0).detail());
        assertFalse(x.withOutcome(Outcome.STALE_COUNT).isEmpty(), x.report());
    }

    @Test
    void HP_1_lockAfterSizingSpreadsAStaleCount() {
        var x = InterleavingExplorer.explore(V69, m -> SiblingSpread.Variant.LOCK_AFTER_SIZING.manaSetupIrqs(m, 0), OutcomeTable.ATOMIC,
                InterleavingExplorer.Scope.only(HotplugEvent.offline(7)));
        // Point 1 is cpus_read_lock(), right after the sizing read: 9 vectors sized for 8 CPUs, spread over 7.
        var i = x.interleavings().get(1);
        assertEquals(Outcome.STALE_COUNT, i.outcome(), x.report());
        assertEquals(Grade.FORBIDDEN, i.grade());
        assertEquals(List.of(Outcome.STALE_COUNT), x.forbidden().stream().map(InterleavingExplorer.Interleaving::outcome).distinct().toList());
    }

    @Test
    void HP_5_pre69SetupOnClassicLocalSpreadReachesBug() {
        Machine.Config v62 = Machine.Config.of(EIGHT, KernelRelease.of(6, 2));
        var x = InterleavingExplorer.explore(v62, m -> SiblingSpread.manaSetupIrqs(m, 0), OutcomeTable.UNPROTECTED,
                InterleavingExplorer.Scope.everyEvent(v62).singleEventsOnly());
        assertFalse(x.withOutcome(Outcome.BUG).isEmpty(), x.report());
        assertEquals(List.of(), x.forbidden());
    }

    @Test
    void HP_4_setup617SizesBeforeTheLock() {
        Machine.Config v617 = Machine.Config.of(EIGHT, KernelRelease.of(6, 17));
        var x = InterleavingExplorer.explore(v617, m -> SiblingSpread.manaSetupIrqs(m, 0), OutcomeTable.SIZED_BEFORE_LOCK,
                InterleavingExplorer.Scope.everyEvent(v617).singleEventsOnly());
        assertEquals(List.of(), x.forbidden(), x.report());
        assertFalse(x.withOutcome(Outcome.STALE_COUNT).isEmpty(), x.report());
    }

    /**
     * MANA 7.2's dynamic path in small: the HWC (irq 0) on cpu 0's core under one hold, then queue
     * k on the k-th online CPU under another; {@code unusedRead} adds a num_online_cpus() in the first
     * hold whose value nothing uses, {@code queuesLocked} false spreads the queues without the lock.
     */
    static HotplugRoutine<List<CpuSet>> twoHolds(boolean unusedRead, boolean queuesLocked) {
        return m -> {
            List<CpuSet> out = new java.util.ArrayList<>();
            m.cpusReadLock();
            if (unusedRead) m.numOnlineCpus();
            CpuSet hwc = m.topologySiblingCpumask(0);
            m.irqSetAffinityAndHint(0, hwc);
            out.add(hwc);
            m.cpusReadUnlock();
            if (queuesLocked) m.cpusReadLock();
            int queues = m.cpuOnlineMask().size();
            for (int k = 0; k < queues; k++) {
                CpuSet online = m.cpuOnlineMask();
                if (k >= online.size()) break;
                CpuSet cpu = CpuSet.of(online.nth(k));
                m.irqSetAffinityAndHint(out.size(), cpu);
                out.add(cpu);
            }
            if (queuesLocked) m.cpusReadUnlock();
            return List.copyOf(out);
        };
    }

    /** example7's finding: a read nothing uses changed stale-count into mixed. The grade reads affinities and holds only. */
    @Test
    void HP_4_anUnusedReadChangesNoGrade() {
        Machine.Config v617 = Machine.Config.of(EIGHT, KernelRelease.of(6, 17));
        var scope = InterleavingExplorer.Scope.only(HotplugEvent.offline(1));
        var plain = InterleavingExplorer.explore(v617, twoHolds(false, true), OutcomeTable.SIZED_BEFORE_LOCK, scope);
        var reads = InterleavingExplorer.explore(v617, twoHolds(true, true), OutcomeTable.SIZED_BEFORE_LOCK, scope);
        assertEquals(outcomesByResult(plain), outcomesByResult(reads));
        assertEquals(List.of(), plain.forbidden(), plain.report());
        // cpu 1 going offline between the holds: the HWC keeps 0-1, the queues see 0,2-7.
        // (An event that arrives during the first hold waits for its unlock, so several points give this run.)
        var between = plain.withOutcome(Outcome.STALE_COUNT);
        assertFalse(between.isEmpty(), plain.report());
        for (var i : between) {
            assertEquals(List.of(CpuSet.parseList("0-1"), CpuSet.of(0), CpuSet.of(2), CpuSet.of(3), CpuSet.of(4), CpuSet.of(5),
                    CpuSet.of(6), CpuSet.of(7)), i.result().orElseThrow());
            assertEquals("each hold saw one machine: irq 1 on 0,2-7 after the hold of irq 0 on 0-7 ended", i.detail());
        }
    }

    /** An event between two queues of one spread, no hold around it: mixed, which HP-4 forbids (each spread stays under the lock). */
    @Test
    void HP_4_anEventInsideASpreadWithoutTheLockIsMixed() {
        Machine.Config v617 = Machine.Config.of(EIGHT, KernelRelease.of(6, 17));
        var x = InterleavingExplorer.explore(v617, twoHolds(false, false), OutcomeTable.SIZED_BEFORE_LOCK,
                InterleavingExplorer.Scope.only(HotplugEvent.offline(1)));
        var mixed = x.withOutcome(Outcome.MIXED);
        assertFalse(mixed.isEmpty(), x.report());
        assertEquals(Grade.FORBIDDEN, mixed.get(0).grade());
        assertEquals("HP-4", mixed.get(0).row().rule());
    }

    /** A routine that sets no affinity is judged by the answers that make its result: local spread without the lock mixes two machines. */
    @Test
    void HP_1_localSpreadWithoutTheLockIsMixedNotStale() {
        Machine.Config v612 = Machine.Config.of(EIGHT, KernelRelease.of(6, 12));
        HotplugRoutine<List<CpuSet>> spread = m -> {
            List<CpuSet> out = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) out.add(CpuSet.of(m.cpumaskLocalSpread(i, 0)));
            return List.copyOf(out);
        };
        var x = InterleavingExplorer.explore(v612, spread, OutcomeTable.ATOMIC, InterleavingExplorer.Scope.only(HotplugEvent.offline(0)));
        assertFalse(x.withOutcome(Outcome.MIXED).isEmpty(), x.report());
        assertEquals(List.of(), x.withOutcome(Outcome.STALE_COUNT), x.report());
        var locked = InterleavingExplorer.explore(v612, spread.underCpusReadLock(), OutcomeTable.ATOMIC,
                InterleavingExplorer.Scope.only(HotplugEvent.offline(0)));
        assertEquals(List.of(), locked.forbidden(), locked.report());
    }

    private static java.util.Map<List<CpuSet>, java.util.Set<Outcome>> outcomesByResult(InterleavingExplorer.Exploration<List<CpuSet>> x) {
        java.util.Map<List<CpuSet>, java.util.Set<Outcome>> out = new java.util.HashMap<>();
        for (var i : x.interleavings()) out.computeIfAbsent(i.result().orElseThrow(), r -> new java.util.TreeSet<>()).add(i.outcome());
        return out;
    }

    @Test
    void HP_3_leakedLockIsReported() {
        var x = InterleavingExplorer.explore(V69, m -> { m.cpusReadLock(); return m.numOnlineCpus(); }, OutcomeTable.ATOMIC,
                InterleavingExplorer.Scope.only(HotplugEvent.offline(2)));
        assertEquals(Outcome.LOCK_LEAKED, x.interleavings().get(1).outcome());
        assertEquals(Outcome.LOCK_LEAKED, x.interleavings().get(0).outcome());
        assertEquals(Grade.FORBIDDEN, x.interleavings().get(0).grade());
    }

    @Test
    void HP_1_onlineEventIsExploredForOfflineCpus() {
        Machine.Config c = Machine.Config.of(EIGHT.withOnline(CpuSet.parseList("0-6")), KernelRelease.of(6, 9));
        var scope = InterleavingExplorer.Scope.everyEvent(c);
        assertEquals(8, scope.events().size());
        assertEquals(HotplugEvent.online(7), scope.events().get(7));
    }

    @Test
    void HP_1_manaSetupIsGradedByTheTableOfItsRelease() {
        assertEquals(OutcomeTable.UNPROTECTED, OutcomeTable.ofManaSetupIrqs(KernelRelease.of(6, 8)));
        assertEquals(OutcomeTable.ATOMIC, OutcomeTable.ofManaSetupIrqs(KernelRelease.of(6, 9)));
        assertEquals(OutcomeTable.ATOMIC, OutcomeTable.ofManaSetupIrqs(KernelRelease.of(6, 16)));
        assertEquals(OutcomeTable.SIZED_BEFORE_LOCK, OutcomeTable.ofManaSetupIrqs(KernelRelease.of(6, 17)));
        var x = InterleavingExplorer.explore(V69, m -> SiblingSpread.manaSetupIrqs(m, 0), OutcomeTable.ofManaSetupIrqs(V69.kernel()));
        assertEquals(OutcomeTable.ATOMIC, x.table());
        assertEquals(List.of(), x.forbidden());
        HotplugRoutine<List<CpuSet>> irqSetup = m -> SiblingSpread.irqSetup(m, 0, 8, false);
        var y = InterleavingExplorer.explore(V69, irqSetup.underCpusReadLock(), OutcomeTable.ATOMIC);
        assertEquals(List.of(), y.forbidden(), y.report());
        assertTrue(y.report().startsWith(y.interleavings().size() + " interleavings on 2node-4core-8cpu (Linux 6.9)"), y.report());
    }

    @Test
    void HP_1_runsCountsWhatExploreRuns() {
        Machine.Config c = Machine.Config.of(FOUR.withOnline(CpuSet.parseList("0-2")), KernelRelease.of(6, 9));
        HotplugRoutine<List<CpuSet>> setup = m -> SiblingSpread.manaSetupIrqs(m, 0);
        var scope = InterleavingExplorer.Scope.everyEvent(c);
        assertEquals(InterleavingExplorer.explore(c, setup, OutcomeTable.ATOMIC, scope).interleavings().size(),
                InterleavingExplorer.runs(c, setup, scope));
        assertEquals(InterleavingExplorer.explore(c, setup, OutcomeTable.ATOMIC, scope.singleEventsOnly()).interleavings().size(),
                InterleavingExplorer.runs(c, setup, scope.singleEventsOnly()));
    }

    @Test
    void HP_3_underCpusReadLockTakesAndDropsTheLockAroundTheRoutine() {
        HotplugRoutine<Integer> depth = Machine::lockDepth;
        Machine m = Machine.boot(V69);
        assertEquals(1, depth.underCpusReadLock().run(m));
        assertEquals(0, m.lockDepth());
        assertEquals(List.of("cpus_read_lock", "cpus_read_unlock"), m.calls().stream().map(Machine.ServiceCall::service).toList());
    }

    @Test
    void HP_1_everyTableGradesEveryOutcomeAndNamesTheRuleOfEachForbiddenOne() {
        for (OutcomeTable t : OutcomeTable.TABLES) {
            assertEquals(t, OutcomeTable.named(t.name()).orElseThrow());
            for (Outcome o : Outcome.values()) {
                OutcomeTable.Row r = t.row(o);
                assertEquals(o, r.outcome());
                assertEquals(r.grade() == Grade.FORBIDDEN, r.rule().matches("HP-[1-6]"), t + " " + o);
            }
        }
        assertEquals(List.of("HP-2", "HP-1", "HP-3"), OutcomeTable.ATOMIC.rules());
        assertEquals(List.of("HP-2", "HP-4", "HP-3"), OutcomeTable.SIZED_BEFORE_LOCK.rules());
        assertEquals(List.of("HP-3"), OutcomeTable.UNPROTECTED.rules());
        assertTrue(OutcomeTable.named("lenient").isEmpty());
        assertEquals(java.util.Optional.of(Outcome.STALE_COUNT), Outcome.byId("stale-count"));
    }

    @Test
    void HP_1_explorationIsDeterministic() {
        Machine.Config c = Machine.Config.of(FOUR, KernelRelease.of(6, 9));
        var a = InterleavingExplorer.explore(c, m -> SiblingSpread.Variant.UNLOCKED.manaSetupIrqs(m, 0), OutcomeTable.ATOMIC);
        var b = InterleavingExplorer.explore(c, m -> SiblingSpread.Variant.UNLOCKED.manaSetupIrqs(m, 0), OutcomeTable.ATOMIC);
        assertEquals(a.interleavings(), b.interleavings());
        assertEquals(a.report(), b.report());
    }
}
