package dev.numaspread.model.hotplug;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.spread.Mana;
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
        var x = InterleavingExplorer.explore(V69, m -> Mana.manaSetupIrqs(m, 0, Mana.Variant.LOCKED), Outcomes.ATOMIC);
        assertFalse(x.pairsExplored());
        assertEquals(List.of(), x.forbidden(), x.report());
        assertEquals(List.of(Outcomes.PLAN_AFTER_EVENT, Outcomes.SAME_PLAN), List.copyOf(x.counts().keySet()));
        assertEquals(8 * x.points(), x.interleavings().size());
        // An event before cpus_read_lock() (point 0) gives the plan of the 7-CPU machine.
        assertEquals(Outcomes.PLAN_AFTER_EVENT, x.interleavings().get(0).outcome());
    }

    @Test
    void HP_1_lockedSetupIsAtomicForEveryPairOfEvents() {
        Machine.Config c = Machine.Config.of(FOUR.withOnline(CpuSet.parseList("0-2")), KernelRelease.of(6, 9));
        var x = InterleavingExplorer.explore(c, m -> Mana.manaSetupIrqs(m, 0, Mana.Variant.LOCKED), Outcomes.ATOMIC);
        assertTrue(x.pairsExplored());
        assertEquals(List.of(), x.forbidden(), x.report());
        // 3 offline events and cpu 3 coming online, each alone at every point, then the 12 ordered pairs.
        int n = x.points();
        assertEquals(4 * n + 12 * n * (n + 1) / 2, x.interleavings().size());
    }

    @Test
    void HP_2_unlockedSetupBindsAnIrqToAnOfflineCpu() {
        var x = InterleavingExplorer.explore(V69, m -> Mana.manaSetupIrqs(m, 0, Mana.Variant.UNLOCKED), Outcomes.ATOMIC,
                InterleavingExplorer.Scope.only(HotplugEvent.offline(1)));
        var offline = x.withOutcome(Outcomes.OFFLINE_TARGET);
        assertFalse(offline.isEmpty(), x.report());
        // The first one: cpu 1 goes offline between topology_sibling_cpumask(0) and the affinity of the IRQ that reads it.
        assertTrue(offline.get(0).detail().contains("while cpu 1 was offline"), offline.get(0).detail());
        assertFalse(x.withOutcome(Outcomes.STALE_COUNT).isEmpty(), x.report());
    }

    @Test
    void HP_1_lockAfterSizingSpreadsAStaleCount() {
        var x = InterleavingExplorer.explore(V69, m -> Mana.manaSetupIrqs(m, 0, Mana.Variant.LOCK_AFTER_SIZING), Outcomes.ATOMIC,
                InterleavingExplorer.Scope.only(HotplugEvent.offline(7)));
        // Point 1 is cpus_read_lock(), right after the sizing read: 9 vectors sized for 8 CPUs, spread over 7.
        var i = x.interleavings().get(1);
        assertEquals(Outcomes.STALE_COUNT, i.outcome(), x.report());
        assertEquals(Outcomes.Grade.FORBIDDEN, i.grade());
        assertEquals(List.of(Outcomes.STALE_COUNT), x.forbidden().stream().map(InterleavingExplorer.Interleaving::outcome).distinct().toList());
    }

    @Test
    void HP_5_pre69SetupOnClassicLocalSpreadReachesBug() {
        Machine.Config v62 = Machine.Config.of(EIGHT, KernelRelease.of(6, 2));
        var x = InterleavingExplorer.explore(v62, m -> Mana.manaSetupIrqs(m, 0), Outcomes.UNPROTECTED,
                InterleavingExplorer.Scope.everyEvent(v62).singleEventsOnly());
        assertFalse(x.withOutcome(Outcomes.BUG).isEmpty(), x.report());
        assertEquals(List.of(), x.forbidden());
    }

    @Test
    void HP_4_setup617SizesBeforeTheLock() {
        Machine.Config v617 = Machine.Config.of(EIGHT, KernelRelease.of(6, 17));
        var x = InterleavingExplorer.explore(v617, m -> Mana.manaSetupIrqs(m, 0), Outcomes.SIZED_BEFORE_LOCK,
                InterleavingExplorer.Scope.everyEvent(v617).singleEventsOnly());
        assertEquals(List.of(), x.forbidden(), x.report());
        assertFalse(x.withOutcome(Outcomes.STALE_COUNT).isEmpty(), x.report());
    }

    @Test
    void HP_3_leakedLockIsReported() {
        var x = InterleavingExplorer.explore(V69, m -> { m.cpusReadLock(); return m.numOnlineCpus(); }, Outcomes.ATOMIC,
                InterleavingExplorer.Scope.only(HotplugEvent.offline(2)));
        assertEquals(Outcomes.LOCK_LEAKED, x.interleavings().get(1).outcome());
        assertEquals(Outcomes.LOCK_LEAKED, x.interleavings().get(0).outcome());
        assertEquals(Outcomes.Grade.FORBIDDEN, x.interleavings().get(0).grade());
    }

    @Test
    void HP_1_onlineEventIsExploredForOfflineCpus() {
        Machine.Config c = Machine.Config.of(EIGHT.withOnline(CpuSet.parseList("0-6")), KernelRelease.of(6, 9));
        var scope = InterleavingExplorer.Scope.everyEvent(c);
        assertEquals(8, scope.events().size());
        assertEquals(HotplugEvent.online(7), scope.events().get(7));
    }

    @Test
    void HP_1_racesEntryPointsUseTheReleaseTables() {
        var x = Mana.manaSetupIrqsRaces(V69, 0);
        assertEquals(Outcomes.ATOMIC, x.expected());
        assertEquals(List.of(), x.forbidden());
        var y = Mana.irqSetupRaces(V69, 0, 8, false);
        assertEquals(List.of(), y.forbidden(), y.report());
        assertTrue(y.report().startsWith(y.interleavings().size() + " interleavings on 2node-4core-8cpu (Linux 6.9)"), y.report());
    }

    @Test
    void HP_1_explorationIsDeterministic() {
        Machine.Config c = Machine.Config.of(FOUR, KernelRelease.of(6, 9));
        var a = InterleavingExplorer.explore(c, m -> Mana.manaSetupIrqs(m, 0, Mana.Variant.UNLOCKED), Outcomes.ATOMIC);
        var b = InterleavingExplorer.explore(c, m -> Mana.manaSetupIrqs(m, 0, Mana.Variant.UNLOCKED), Outcomes.ATOMIC);
        assertEquals(a.interleavings(), b.interleavings());
        assertEquals(a.report(), b.report());
    }
}
