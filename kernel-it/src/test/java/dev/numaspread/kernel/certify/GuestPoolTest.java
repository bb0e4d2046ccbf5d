package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.certify.MachineOutOfReach;
import dev.numaspread.conformance.topogen.MachinePool;
import dev.numaspread.conformance.topogen.Machines;
import dev.numaspread.kernel.guest.BootableKernel;
import dev.numaspread.kernel.guest.Guest;
import dev.numaspread.kernel.guest.GuestFailure;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a pool of booted machines answers calls: which machine, which online CPUs, and what it does not answer. */
class GuestPoolTest {

    static final KernelRelease K73 = KernelRelease.of(7, 3);

    static Topology twoNodes() {
        return TopologyBuilder.machine("two").node(0, "0-3").node(1, "4-7").smtAdjacent(2).distances(new int[]{10, 20}, new int[]{20, 10})
                .build();
    }

    static GuestPool pool(BootableKernel kernel, Topology... machines) {
        return GuestPool.boot(kernel, List.of(machines), 2, Duration.ofSeconds(30), line -> {});
    }

    @Test
    void aCallOnABootedMachineIsAnsweredByItsGuest() {
        try (GuestPool p = pool(new ModelKernel(K73), twoNodes())) {
            Topology booted = p.machines().get(0);
            assertArrayEquals(new int[]{4, 5, 6, 7, 0}, p.answer(booted, "g.localSpread(1, 5", g -> g.localSpread(1, 5)));
            // The machine as asked (no packages, another name) is the same hardware.
            assertArrayEquals(new int[]{4, 5, 6, 7, 0}, p.answer(twoNodes(), "g.localSpread(1, 5", g -> g.localSpread(1, 5)));
        }
    }

    @Test
    void otherOnlineCpusGoThroughSetOnline() {
        try (GuestPool p = pool(new ModelKernel(K73), twoNodes())) {
            Topology booted = p.machines().get(0);
            assertArrayEquals(new int[]{5, 6, 7, 0}, p.answer(booted.withOnline(CpuSet.parseList("0-3,5-7")), "ls 1 4", g -> g.localSpread(1, 4)));
            assertEquals(CpuSet.parseList("0-3,5-7"), p.answer(booted.withOnline(CpuSet.parseList("0-3,5-7")), "machine", Guest::machine).online());
            assertArrayEquals(new int[]{4, 5, 6, 7}, p.answer(booted, "g.localSpread(1, 4", g -> g.localSpread(1, 4)));
        }
    }

    @Test
    void CPU_0_offlineIsOutOfReach() {
        try (GuestPool p = pool(new ModelKernel(K73), twoNodes())) {
            MachineOutOfReach e = assertThrows(MachineOutOfReach.class,
                    () -> p.answer(p.machines().get(0).withOnline(CpuSet.parseList("1-7")), "ls 0 1", g -> g.localSpread(0, 1)));
            assertEquals("the kernel cannot take the machine to online CPUs 1-7: CPU 0 cannot be taken offline on x86", e.getMessage());
        }
    }

    @Test
    void aMachineNoGuestBootedOnIsOutOfReach() {
        Topology other = TopologyBuilder.machine("three").node(0, "0-1").node(1, "2-3").node(2, "4-5").build();
        try (GuestPool p = pool(new ModelKernel(K73), twoNodes())) {
            MachineOutOfReach e = assertThrows(MachineOutOfReach.class, () -> p.answer(other, "g.localSpread(0, 1", g -> g.localSpread(0, 1)));
            assertTrue(e.getMessage().startsWith("the call is about a machine no guest booted on"), e.getMessage());
        }
    }

    /**
     * During scenarios a machine is booted when first asked about, once; one QEMU cannot build, or
     * one the kernel boots otherwise than asked, is out of reach with the reason.
     */
    @Test
    void scenarioMachinesAreBootedOnceAndOthersAreOutOfReach() {
        CountingKernel kernel = new CountingKernel(new ModelKernel(K73));
        Topology sparse = TopologyBuilder.machine("sparse").node(0, "0-1").node(2, "2-3").build();
        Topology plain = TopologyBuilder.machine("plain").node(0, "0-1").node(1, "2-3").build();
        try (GuestPool p = pool(kernel, twoNodes())) {
            p.scenarios(MachinePool.ScenarioPhase.RUNNING);
            assertArrayEquals(new int[]{2, 3}, p.answer(plain, "g.localSpread(1, 2", g -> g.localSpread(1, 2)));
            assertArrayEquals(new int[]{2, 3, 0}, p.answer(plain, "g.localSpread(1, 3", g -> g.localSpread(1, 3)));
            assertEquals(2, kernel.boots.get());
            MachineOutOfReach e = assertThrows(MachineOutOfReach.class, () -> p.answer(sparse, "g.localSpread(2, 1", g -> g.localSpread(2, 1)));
            assertTrue(e.getMessage().startsWith("QEMU cannot build its machine: node ids 0,2 have gaps"), e.getMessage());
            p.scenarios(MachinePool.ScenarioPhase.DONE);
            Topology other = TopologyBuilder.machine("other").node(0, "0-2").build();
            assertThrows(MachineOutOfReach.class, () -> p.answer(other, "g.localSpread(0, 1", g -> g.localSpread(0, 1)));
            assertEquals(2, kernel.boots.get());
        }
        // A kernel that keeps no CPU that is not present (6.12 under TCG without a hypervisor it knows).
        BootableKernel dropsHotplug = new CountingKernel(new ModelKernel(K73)) {
            @Override
            public Guest boot(Topology m) {
                Topology present = TopologyBuilder.machine(m.name()).node(0, m.present().toList()).build();
                return new ModelKernel(K73).boot(present);
            }
        };
        Topology withHotplug = TopologyBuilder.machine("hotplug").node(0, "0-3").possible("0-3").present("0-1").online("0-1").build();
        try (GuestPool p = pool(dropsHotplug, twoNodes())) {
            p.scenarios(MachinePool.ScenarioPhase.RUNNING);
            MachineOutOfReach e = assertThrows(MachineOutOfReach.class, () -> p.answer(withHotplug, "g.localSpread(0, 1", g -> g.localSpread(0, 1)));
            assertEquals("the machine booted otherwise than asked: possible CPUs 0-3 became 0-1", e.getMessage());
        }
    }

    /**
     * The scenarios' machines are named in a first run (LISTING) and booted side by side when the
     * judging run begins, each once; one too large to boot under TCG is not run, with the reason.
     */
    @Test
    void scenarioMachinesAreListedThenBootedTogether() {
        CountingKernel kernel = new CountingKernel(new ModelKernel(K73));
        Topology a = TopologyBuilder.machine("a").node(0, "0-1").node(1, "2-3").build();
        Topology b = TopologyBuilder.machine("b").node(0, "0-2").build();
        Topology large = TopologyBuilder.machine("large").node(0, "0-" + GuestPool.SCENARIO_VCPUS_TCG).build();
        try (GuestPool p = pool(kernel, twoNodes())) {
            p.scenarios(MachinePool.ScenarioPhase.LISTING);
            for (Topology m : List.of(a, b, a, large))
                assertThrows(MachineOutOfReach.class, () -> p.answer(m, "g.localSpread(0, 1", g -> g.localSpread(0, 1)));
            assertEquals(1, kernel.boots.get());
            p.scenarios(MachinePool.ScenarioPhase.RUNNING);
            assertEquals(3, kernel.boots.get());
            assertArrayEquals(new int[]{2, 3}, p.answer(a, "g.localSpread(1, 2", g -> g.localSpread(1, 2)));
            assertArrayEquals(new int[]{0, 1, 2}, p.answer(b, "g.localSpread(0, 3", g -> g.localSpread(0, 3)));
            MachineOutOfReach e = assertThrows(MachineOutOfReach.class, () -> p.answer(large, "g.localSpread(0, 1", g -> g.localSpread(0, 1)));
            assertEquals("its machine has 33 present CPUs: without KVM a boot takes minutes past 32 vCPUs (160 vCPUs took 5 minutes on"
                    + " 2 cores), so its scenarios run where /dev/kvm is", e.getMessage());
            assertEquals(3, kernel.boots.get());
            p.scenarios(MachinePool.ScenarioPhase.DONE);
            assertThrows(MachineOutOfReach.class, () -> p.answer(a, "g.localSpread(0, 1", g -> g.localSpread(0, 1)));
        }
    }

    /** Few machines booted on demand keep running; one powered off is booted again when asked about. */
    @Test
    void machinesBootedOnDemandArePoweredOffAndBootedAgain() {
        CountingKernel kernel = new CountingKernel(new ModelKernel(K73));
        try (GuestPool p = pool(kernel, twoNodes())) {
            p.scenarios(MachinePool.ScenarioPhase.RUNNING);
            List<Topology> machines = new ArrayList<>();
            for (int n = 1; n <= GuestPool.MAX_ON_DEMAND + 1; n++) machines.add(TopologyBuilder.machine("m" + n).node(0, "0-" + n).build());
            for (Topology m : machines) assertArrayEquals(new int[]{0}, p.answer(m, "g.localSpread(0, 1", g -> g.localSpread(0, 1)));
            assertEquals(1 + GuestPool.MAX_ON_DEMAND + 1, kernel.boots.get());
            assertArrayEquals(new int[]{0, 1}, p.answer(machines.get(0), "g.localSpread(0, 2", g -> g.localSpread(0, 2)));
            assertEquals(1 + GuestPool.MAX_ON_DEMAND + 2, kernel.boots.get());
        }
    }

    /**
     * An oops is an answer the rules judge once the call alone gives it again on the machine booted
     * anew; the guest is booted again for the next call.
     */
    @Test
    void aGuestThatOopsedIsBootedAgain() {
        CountingKernel kernel = new CountingKernel(new ModelKernel(K73));
        try (GuestPool p = pool(kernel, twoNodes())) {
            Topology m = p.machines().get(0);
            assertThrows(KernelBug.class, () -> p.answer(m, "modelled oops", g -> { throw new KernelBug("BUG", "a modelled oops"); }));
            assertEquals(2, kernel.boots.get(), "booted anew for the call alone");
            assertArrayEquals(new int[]{0}, p.answer(m, "g.localSpread(0, 1", g -> g.localSpread(0, 1)));
            assertEquals(3, kernel.boots.get());
            assertEquals(List.of(), p.notes());
        }
    }

    /**
     * An oops the call alone does not give again on the machine booted anew (the guest was broken
     * before it: earlier calls, a starved host) is not the call's answer: the answer it gives then is
     * judged, and the certificate's notes say what happened.
     */
    @Test
    void anOopsThatDoesNotComeBackAloneIsNotTheCallsAnswer() {
        CountingKernel kernel = new CountingKernel(new ModelKernel(K73));
        try (GuestPool p = pool(kernel, twoNodes())) {
            Topology m = p.machines().get(0);
            int[] calls = {0};
            int[] answer = p.answer(m, "grp 1", g -> {
                if (calls[0]++ == 0) throw new KernelBug("double fault", "Oops: double fault: 0000 [#1] PREEMPT SMP NOPTI");
                return g.localSpread(0, 2);
            });
            assertArrayEquals(new int[]{0, 1}, answer);
            assertEquals(2, calls[0]);
            assertEquals(2, kernel.boots.get());
            assertEquals(1, p.notes().size(), p.notes().toString());
            assertTrue(p.notes().get(0).startsWith("Linux 7.3.0-model oopsed on grp 1 on 2 nodes, 8 CPUs after other calls ("), p.notes().get(0));
            assertTrue(p.notes().get(0).endsWith("on a clean guest the call alone answered, and that answer was judged"), p.notes().get(0));
            assertArrayEquals(new int[]{0, 1}, p.answer(m, "ls 0 2", g -> g.localSpread(0, 2)));
            assertEquals(2, kernel.boots.get(), "the guest booted anew keeps answering");
        }
    }

    /**
     * A call that oopsed the kernel on some online CPUs is not made again there: its oops is given
     * again without a boot. A call that finds the guest broken by another call's oops is made again
     * on the machine booted anew.
     */
    @Test
    void anOopsIsRememberedAndAnotherCallsOopsBootsAgain() {
        CountingKernel kernel = new CountingKernel(new ModelKernel(KernelRelease.of(6, 1)));
        try (GuestPool p = pool(kernel, twoNodes())) {
            Topology m = p.machines().get(0);
            KernelBug first = assertThrows(KernelBug.class, () -> p.answer(m, "grp 0", g -> g.groupCpusEvenly(0)));
            assertEquals(2, kernel.boots.get(), "the oops came back on the machine booted anew");
            KernelBug again = assertThrows(KernelBug.class, () -> p.answer(m, "grp 0", g -> g.groupCpusEvenly(0)));
            assertSame(first, again);
            assertEquals(2, kernel.boots.get());
            // The guest is broken; the next call (of a caller that did not see the oops) boots it again.
            assertArrayEquals(new int[]{0, 1}, p.answer(m, "ls 0 2", g -> g.localSpread(0, 2)));
            assertEquals(3, kernel.boots.get());
        }
        // Two callers side by side: the second meets the guest the first one's oops broke.
        CountingKernel side = new CountingKernel(new ModelKernel(KernelRelease.of(6, 1)));
        try (GuestPool p = pool(side, twoNodes())) {
            Topology m = p.machines().get(0);
            Guest[] seen = new Guest[1];
            p.answer(m, "look", g -> seen[0] = g);
            assertThrows(KernelBug.class, () -> seen[0].groupCpusEvenly(0));   // the oops, outside the pool's view
            assertArrayEquals(new int[]{4, 5}, p.answer(m, "ls 1 2", g -> g.localSpread(1, 2)));
            assertEquals(2, side.boots.get());
        }
    }

    /**
     * A kernel that keeps a snapshot of a clean guest (from the boot of each drawn machine) gives it
     * back after an oops instead of a boot: the call alone is made on the restored guest (where the
     * oops comes back and is judged), and the next call on another one; nothing is booted after the
     * first boot.
     */
    @Test
    void aGuestThatOopsedIsRestoredWhereTheKernelKeepsASnapshot() {
        RestoringKernel kernel = new RestoringKernel(new ModelKernel(KernelRelease.of(6, 1)));
        List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
        try (GuestPool p = GuestPool.boot(kernel, List.of(twoNodes()), 2, Duration.ofSeconds(30), lines::add)) {
            Topology m = p.machines().get(0);
            List<Guest> askedOn = new ArrayList<>();
            assertThrows(KernelBug.class, () -> p.answer(m, "grp 0", g -> {
                askedOn.add(g);
                return g.groupCpusEvenly(0);
            }));
            assertEquals(1, kernel.boots.get());
            assertEquals(1, kernel.kept.get(), "the drawn machine's clean guest is kept from its boot");
            assertEquals(1, kernel.restored.size());
            assertEquals(2, askedOn.size(), "the call on the booted guest, then alone on the restored one");
            assertSame(kernel.restored.get(0), askedOn.get(1));
            assertArrayEquals(new int[]{0, 1}, p.answer(m, "ls 0 2", g -> {
                assertSame(kernel.restored.get(1), g);
                return g.localSpread(0, 2);
            }));
            assertEquals(1, kernel.boots.get());
            assertEquals(List.of(), p.notes());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("restored 2 nodes, 8 CPUs from its snapshot after an oops (")), lines.toString());
        }
    }

    @Test
    void aGuestThatStopsAnsweringIsTheKernelsError() {
        try (GuestPool p = pool(new ModelKernel(K73), twoNodes())) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class,
                    () -> p.answer(p.machines().get(0), "hang", g -> { throw new GuestFailure("no answer in 10 s; console:\nKernel panic"); }));
            assertTrue(e.getMessage().startsWith("Linux 7.3.0-model stopped answering on 2 nodes, 8 CPUs: no answer in 10 s"), e.getMessage());
        }
    }

    /** A machine QEMU cannot build is left out of the pool with a note; a pool of none is an error naming why. */
    @Test
    void machinesThatCannotBeBuiltAreLeftOut() {
        Topology cpu0 = TopologyBuilder.machine("cpu0").node(0, "0-3").online("1-3").build();
        try (GuestPool p = pool(new ModelKernel(K73), cpu0, twoNodes())) {
            assertEquals(1, p.machines().size());
            assertEquals(List.of("not booted, machine 1 of 2 (1 node, 4 CPUs (3 online)): cpu 0 offline: x86 Linux cannot take CPU 0"
                    + " offline"), p.notes());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool(new ModelKernel(K73), cpu0));
        assertTrue(e.getMessage().startsWith("no machine could be booted with Linux 7.3.0-model: machine 1 of 1"), e.getMessage());
    }

    /** Not-present CPUs do not count against a check's most CPUs: they are how x86 reaches CPU ids past 63. */
    @Test
    void notPresentCpusDoNotCountAgainstMaxCpus() {
        Topology past63 = TopologyBuilder.machine("p").node(0, "0-79").possible("0-79").present("0-3").online("0-3").build();
        try (GuestPool p = pool(new ModelKernel(K73), past63)) {
            assertTrue(p.admits(Machines.Options.DEFAULT.withMaxCpus(16), p.machines().get(0)));
            assertFalse(p.admits(Machines.Options.DEFAULT.withMaxCpus(2), p.machines().get(0)));
            assertFalse(Machines.Options.DEFAULT.withMaxCpus(16).admits(p.machines().get(0)));
        }
    }

    /** Every machine the generator draws, QEMU can build and the kernel keeps as built (the pool meets it unchanged). */
    @Test
    void drawnMachinesAreBuiltAsDrawn() {
        ModelKernel kernel = new ModelKernel(K73);
        List<String> problems = new ArrayList<>();
        for (long seed = 0; seed < 40; seed++)
            for (Topology m : QemuMachines.draw(seed, 12)) {
                List<String> cannot = kernel.cannotBuild(m);
                if (!cannot.isEmpty()) problems.add(m.source() + ": " + cannot);
                else if (!SameMachine.differences(m, ModelKernel.booted(m), true).isEmpty())
                    problems.add(m.source() + ": " + SameMachine.differences(m, ModelKernel.booted(m), true));
                if (m.present().size() > QemuMachines.MAX_PRESENT) problems.add(m.source() + ": " + m.present().size() + " present CPUs");
            }
        assertEquals(List.of(), problems);
    }

    /** The first machines of a run are one of each kind, so two or four machines already meet what the rules are about. */
    @Test
    void theFirstMachinesAreOneOfEachKind() {
        for (long seed = 0; seed < 20; seed++) {
            List<Topology> m = QemuMachines.draw(seed, 4);
            assertTrue(m.get(0).smtSiblings().get(0).size() == 2 && m.get(0).online().equals(m.get(0).possible())
                    && m.get(0).nodes().size() >= 2, m.get(0).source());
            assertTrue(m.get(1).nodes().stream().anyMatch(n -> n.cpus().isEmpty()) && m.get(1).nodes().size() >= 3, m.get(1).source());
            assertTrue(m.get(2).possible().last() > 63 && m.get(2).present().size() <= 16 && m.get(2).nodes().size() <= 4,
                    m.get(2).source());
            assertTrue(m.get(3).cpuModel().isSncDistanceModel() && m.get(3).packages().size() == 2, m.get(3).source());
        }
    }

    /** The same seed draws the same machines: a run is replayable. */
    @Test
    void aSeedDrawsOneList() {
        List<Topology> a = QemuMachines.draw(0x5eedL, 6), b = QemuMachines.draw(0x5eedL, 6);
        for (int i = 0; i < a.size(); i++) assertTrue(a.get(i).sameMachineAs(b.get(i)));
        assertSame(a.size(), b.size());
    }

    /** A kernel that gives a guest in place of another as if restored from a snapshot, and keeps the guests it gave. */
    static final class RestoringKernel extends CountingKernel {
        final List<Guest> restored = java.util.Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger kept = new AtomicInteger();

        RestoringKernel(BootableKernel k) {
            super(k);
        }

        @Override
        public Guest bootKept(Topology machine) {
            kept.incrementAndGet();
            return boot(machine);
        }

        @Override
        public Guest again(Guest old, Topology machine) {
            old.close();
            Guest fresh = k.boot(machine);
            Guest g = (Guest) java.lang.reflect.Proxy.newProxyInstance(Guest.class.getClassLoader(), new Class<?>[]{Guest.class},
                    (proxy, method, args) -> {
                        if (method.getName().equals("restored")) return true;
                        try {
                            return method.invoke(fresh, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            restored.add(g);
            return g;
        }
    }

    /** A kernel that counts its boots. */
    static class CountingKernel implements BootableKernel {
        final BootableKernel k;
        final AtomicInteger boots = new AtomicInteger();

        CountingKernel(BootableKernel k) {
            this.k = k;
        }

        @Override public String release() { return k.release(); }
        @Override public KernelRelease series() { return k.series(); }
        @Override public Set<Guest.Call> answers() { return k.answers(); }
        @Override public Optional<String> whyNot(Guest.Call call) { return k.whyNot(call); }
        @Override public List<String> cannotBuild(Topology machine) { return k.cannotBuild(machine); }
        @Override public List<String> commandLine(Topology machine) { return k.commandLine(machine); }

        @Override
        public Guest boot(Topology machine) {
            boots.incrementAndGet();
            return k.boot(machine);
        }
    }
}
