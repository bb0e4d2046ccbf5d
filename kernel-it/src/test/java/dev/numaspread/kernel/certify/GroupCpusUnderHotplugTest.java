package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.fixtures.Fixtures;
import dev.numaspread.kernel.guest.BootableKernel;
import dev.numaspread.kernel.guest.Guest;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.hotplug.Machine;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HP-6 on a booted kernel (issue 21): what the guest's experiment (group_cpus_evenly from a CPU
 * hotplug callback while a CPU comes online) makes on the model machine the check judges.
 */
class GroupCpusUnderHotplugTest {

    static final KernelRelease K73 = KernelRelease.of(7, 3);

    /** The machine HP-6 judges on: the kernel comment's 2 nodes x 2 cores x 2 threads. */
    static Topology commentMachine() {
        return Fixtures.topology("mana-2node-2c-smt2");
    }

    /** A pool of the comment machine's hardware (2 nodes of 2 SMT cores). */
    static KernelImplementation implementation(BootableKernel kernel) {
        return new KernelImplementation(GuestPoolTest.pool(kernel, GuestPoolTest.twoNodes()), K73);
    }

    /** A guest that answered while its last CPU came online shows no lock: that is recorded on the machine, and its groups returned. */
    @Test
    void anAnswerUnderTheOnlineIsRecordedAsReturnedUnderHotplug() {
        GuestPoolTest.CountingKernel kernel = new GuestPoolTest.CountingKernel(new ModelKernel(K73));
        try (KernelImplementation impl = implementation(kernel)) {
            Machine m = Machine.boot(commentMachine(), K73);
            Optional<List<CpuSet>> groups = m.duringHotplug(() -> impl.groupCpusEvenly(K73, m, 2));
            assertEquals(Optional.of(List.of(CpuSet.parseList("0-3"), CpuSet.parseList("4-7"))), groups);
            assertEquals(List.of("returned_under_hotplug"), m.calls().stream().map(Machine.ServiceCall::service).toList());
            assertEquals("group_cpus_evenly(2) in the online of cpu 7 returned under CPU hotplug", m.calls().get(0).call());
            assertEquals(0, m.lockDepth());
            assertEquals(1, kernel.boots.get(), "the experiment runs on the booted guest");
        }
    }

    /** A guest whose online never completed: the lock is taken on the machine and the kernel's deadlock is thrown in its words. */
    @Test
    void aDeadlockedOnlineTakesTheLockOnTheMachine() {
        try (KernelImplementation impl = implementation(new ModelKernel(K73, KernelRelease.of(6, 4)))) {
            Machine m = Machine.boot(commentMachine(), K73);
            KernelBug bug = assertThrows(KernelBug.class, () -> m.duringHotplug(() -> impl.groupCpusEvenly(K73, m, 2)));
            assertEquals("deadlock", bug.kind());
            assertTrue(bug.getMessage().contains("did not bring cpu 7 online"), bug.getMessage());
            assertEquals(List.of("cpus_read_lock"), m.calls().stream().map(Machine.ServiceCall::service).toList());
        }
    }

    /** A guest that cannot make the experiment (a probe built before it) makes no call on the machine. */
    @Test
    void aGuestWithoutTheExperimentShowsNothing() {
        BootableKernel without = new GuestPoolTest.CountingKernel(new ModelKernel(K73)) {
            @Override
            public Guest boot(Topology machine) {
                Guest g = super.boot(machine);
                return (Guest) java.lang.reflect.Proxy.newProxyInstance(Guest.class.getClassLoader(), new Class<?>[]{Guest.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("groupCpusDuringOnline"))
                                throw new UnsupportedOperationException("no grp-hotplug in this probe");
                            try {
                                return method.invoke(g, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }
        };
        try (KernelImplementation impl = implementation(without)) {
            Machine m = Machine.boot(commentMachine(), K73);
            assertEquals(2, m.duringHotplug(() -> impl.groupCpusEvenly(K73, m, 2)).orElseThrow().size());
            assertTrue(m.calls().isEmpty(), m.calls().toString());
        }
    }

    /**
     * Certified on a booted machine of the pool: HP-6 PASSes a kernel whose routine answers under the
     * online, and FAILs one that deadlocks, naming the deadlock.
     */
    @Test
    void HP_6_passesAnAnswerAndFailsADeadlock() {
        Certificate pass = KernelRunTest.certify(new ModelKernel(K73), Optional.empty(), 1, 5, Optional.of("HP-6"));
        assertTrue(KernelRunTest.result(pass, "HP-6").verdict() instanceof Verdict.Pass && KernelRunTest.result(pass, "HP-6").machines() == 1,
                ConsoleCertificate.render(pass));
        Certificate fail = KernelRunTest.certify(new ModelKernel(K73, KernelRelease.of(6, 4)), Optional.empty(), 1, 5, Optional.of("HP-6"));
        String text = ConsoleCertificate.render(fail);
        assertTrue(KernelRunTest.result(fail, "HP-6").verdict() instanceof Verdict.Fail f
                && f.counterexample().actual().startsWith("deadlock: ") && f.counterexample().actual().contains("in its hotplug callback takes cpus_read_lock()"), text);
    }
}
