package dev.numaspread.model.hotplug;

import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MachineTest {

    static final Topology EIGHT = TopologyBuilder.machine("2node-4core-8cpu").node(0, "0-3").node(1, "4-7").smtAdjacent(2).build();

    static Machine withEventAt(int boundary, HotplugEvent e, KernelRelease k) {
        return Machine.boot(Machine.Config.of(EIGHT, k), b -> b == boundary ? List.of(e) : List.of());
    }

    @Test
    void HP_1_eventWaitsWhileTheReadLockIsHeld() {
        Machine m = withEventAt(1, HotplugEvent.offline(3), KernelRelease.of(6, 9));
        m.cpusReadLock();                  // #0
        assertEquals(8, m.numOnlineCpus()); // #1: the event arrives here and waits
        assertEquals(List.of(HotplugEvent.offline(3)), m.waitingEvents());
        assertEquals(CpuSet.parseList("2-3"), m.topologySiblingCpumask(2));
        m.cpusReadUnlock();
        assertEquals(CpuSet.parseList("0-2,4-7"), m.online());
        assertEquals(0, m.lockDepth());
    }

    @Test
    void HP_1_eventWithoutTheLockAppliesAtOnce() {
        Machine m = withEventAt(1, HotplugEvent.offline(3), KernelRelease.of(6, 9));
        assertEquals(8, m.numOnlineCpus());
        assertEquals(CpuSet.parseList("2"), m.topologySiblingCpumask(2));
        assertEquals(7, m.numOnlineCpus());
    }

    @Test
    void HP_3_unlockWithoutLockIsAKernelBug() {
        Machine m = Machine.boot(EIGHT, KernelRelease.of(6, 9));
        assertThrows(KernelBug.class, m::cpusReadUnlock);
    }

    @Test
    void HP_5_classicLocalSpreadHitsBugWhenACpuGoesOfflineMidCall() {
        // cpumask_local_spread(7, 0) on 6.2: modulo over 8 CPUs keeps 7; cpu 5 goes offline before the walk: 7 left.
        Machine m = withEventAt(1, HotplugEvent.offline(5), KernelRelease.of(6, 2));
        KernelBug bug = assertThrows(KernelBug.class, () -> m.cpumaskLocalSpread(7, 0));
        assertEquals("BUG", bug.kind());
    }

    @Test
    void HP_5_classicLocalSpreadOrderLocalThenAscending() {
        Machine m = Machine.boot(EIGHT, KernelRelease.of(6, 2));
        assertEquals(4, m.cpumaskLocalSpread(0, 1));
        assertEquals(0, m.cpumaskLocalSpread(4, 1));
        assertEquals(4, m.cpumaskLocalSpread(8, 1));
    }

    @Test
    void HP_1_offliningTheLastCpuIsRefused() {
        Topology one = EIGHT.withOnline(CpuSet.of(0));
        Machine m = Machine.boot(Machine.Config.of(one, KernelRelease.of(6, 9)), b -> List.of(HotplugEvent.offline(0)));
        assertEquals(1, m.numOnlineCpus());
        assertEquals(List.of(), m.appliedEvents());
    }

    @Test
    void HP_6_readLockInsideAHotplugOperationDeadlocks() {
        Machine m = Machine.boot(EIGHT, KernelRelease.of(6, 9));
        KernelBug bug = assertThrows(KernelBug.class, () -> m.duringHotplug(() -> { m.cpusReadLock(); return 0; }));
        assertEquals("deadlock", bug.kind());
        assertEquals(7, (int) m.duringHotplug(() -> m.topology().numOnlineCpus() - 1));
    }

    /** What a booted kernel shows under hotplug is kept as a call that takes no lock and changes nothing. */
    @Test
    void HP_6_aReturnUnderHotplugIsACallWithoutTheLock() {
        Machine m = Machine.boot(EIGHT, KernelRelease.of(7, 3));
        m.duringHotplug(() -> {
            m.returnedUnderHotplug("group_cpus_evenly(2) in the online of cpu 7");
            return 0;
        });
        assertEquals(1, m.calls().size());
        assertEquals("returned_under_hotplug", m.calls().get(0).service());
        assertEquals("group_cpus_evenly(2) in the online of cpu 7 returned under CPU hotplug", m.calls().get(0).call());
        assertEquals(0, m.lockDepth());
        assertEquals(EIGHT.online(), m.online());
    }
}
