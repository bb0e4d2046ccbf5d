package dev.numaspread.kernel.guest;

import dev.numaspread.kernel.cache.KernelCache;
import dev.numaspread.kernel.cache.KernelFiles;
import dev.numaspread.kernel.debian.DebianArchive;
import dev.numaspread.kernel.debian.DebianKernels;
import dev.numaspread.kernel.host.HostCommand;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.BlkMqMap;
import dev.numaspread.model.group.GroupCpusEvenly;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.numa.NumaHops;
import dev.numaspread.model.numa.NumaLevels;
import dev.numaspread.model.spread.LocalSpread;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * One boot of a real kernel (QEMU, a kernel from the cache): the machine it reads back is the one
 * asked for, and its answers are the reference model's for its series. Needs
 * {@code qemu-system-x86_64} and a fetched kernel ({@code numaspread kernel fetch debian-6.12}, or
 * {@code NUMASPREAD_TEST_KERNEL=SOURCE}); under {@code CI=true} a missing one is a failure, elsewhere
 * the test is skipped, never passed.
 */
class QemuBootTest {

    /** Split SMT numbering (built by CPU hot-add through QMP), two nodes, CPU 6 offline. */
    static final String MACHINE = """
            topology boot-test-2node-split
            possible 0-7
            online 0-5,7
            smt 2 stride 4
            node-of 6 1
            available: 2 nodes (0-1)
            node 0 cpus: 0 1 4 5
            node 1 cpus: 2 3 7
            node distances:
            node   0   1
              0:  10  21
              1:  21  10
            """;

    static void need(boolean ok, String what) {
        if (ok) return;
        if ("true".equals(System.getenv("CI"))) fail(what + " (CI=true: a real-kernel test must run in CI, not be skipped)");
        assumeTrue(false, what);
    }

    /** The kernel to boot: NUMASPREAD_TEST_KERNEL, else the newest cached one this machine builds modules for, else the newest. */
    static Optional<KernelFiles> kernel(KernelCache cache) {
        String source = System.getenv("NUMASPREAD_TEST_KERNEL");
        if (source != null && !source.isBlank()) return Optional.of(GuestImage.files(source, cache, System.err::println));
        DebianKernels debian = new DebianKernels(new DebianArchive(cache, s -> {}), s -> {});
        return debian.cachedReleases().stream().map(debian::cached).flatMap(Optional::stream)
                .min(Comparator.comparing((KernelFiles k) -> k.buildSuite().isPresent()));
    }

    /** The guest of the test kernel; skips (fails under CI) without QEMU or a kernel. */
    static GuestImage image() {
        need(HostCommand.installed("qemu-system-x86_64"), "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)");
        KernelCache cache = KernelCache.fromEnvironment();
        Optional<KernelFiles> k = kernel(cache);
        need(k.isPresent(), "no kernel in " + cache.kernels() + " (numaspread kernel fetch debian-6.12, or NUMASPREAD_TEST_KERNEL=SOURCE)");
        GuestImage image = GuestImage.prepare(k.get(), cache, System.err::println);
        return image;
    }

    @Test
    void aBootedKernelReadsBackItsMachineAndAnswersAsTheModel() {
        GuestImage image = image();
        Topology asked = TopoFormat.read(MACHINE, "boot-test-2node-split.topo").topology();
        try (QemuGuest g = QemuGuest.boot(image, asked, QemuGuest.Options.defaults(System.err::println)
                .withBootTimeout(Duration.ofMinutes(4)))) {
            g.keepClean();
            Topology seen = g.machine();
            assertEquals(image.release(), g.release());
            assertEquals(asked.possible(), seen.possible());
            assertEquals(asked.present(), seen.present());
            assertEquals(CpuSet.parseList("0-5,7"), seen.online(), "CPU 6 was taken offline");
            assertEquals(asked.nodes().stream().map(Node::cpus).toList(), seen.nodes().stream().map(Node::cpus).toList());
            assertEquals(21, seen.distance(0, 1));
            assertEquals(asked.smtSiblings(), seen.smtSiblings());

            KernelRelease series = g.series();
            assertTrue(g.answers().containsAll(List.of(Guest.Call.LOCAL_SPREAD, Guest.Call.NUMA_LEVELS, Guest.Call.BLK_MQ_MAP)), g.answers().toString());
            for (int node : List.of(0, 1))
                assertArrayEquals(LocalSpread.localSpreadCpus(series, seen, node, 15), g.localSpread(node, 15), "local spread from node " + node);
            assertArrayEquals(NumaLevels.of(series, seen).distances(), g.numaLevels());
            for (int queues = 1; queues <= 9; queues++)
                assertArrayEquals(BlkMqMap.blkMqMapQueues(series, seen, queues, 0), g.blkMqMapQueues(queues, 0), queues + " queues");
            if (g.answers().contains(Guest.Call.GROUP_CPUS))
                for (int groups = 1; groups <= 9; groups++)
                    assertEquals(GroupCpusEvenly.groupCpusEvenly(series, seen, groups), g.groupCpusEvenly(groups), groups + " groups");
            if (g.answers().contains(Guest.Call.HOP_MASKS))
                assertEquals(NumaHops.hopMasks(series, seen, 1), g.hopMasks(1));

            // group_cpus_evenly from a CPU hotplug callback as CPU 6 comes online (HP-6): the online holds the
            // hotplug lock for writing, the routine answers as the model, and CPU 6 is offline again after.
            if (g.callsUnderHotplug()) {
                Guest.UnderHotplug u = g.groupCpusDuringOnline(2, 6);
                assertEquals(6, u.cpu());
                assertTrue(u.lockHeld(), "cpus_read_trylock() failed in the callback: the online held the lock");
                assertEquals(GroupCpusEvenly.groupCpusEvenly(series, seen, 2), u.groups());
                assertEquals(Optional.of("0-5,7\n"), g.sysfs("sys/devices/system/cpu/online"));
            }

            g.setOnline(CpuSet.parseList("0-7"));
            assertEquals(CpuSet.parseList("0-7"), g.machine().online());
            assertArrayEquals(LocalSpread.localSpreadCpus(series, g.machine(), 1, 9), g.localSpread(1, 9));
            assertEquals("cpu 0 offline: x86 Linux cannot take CPU 0 offline",
                    assertThrows(CannotBuild.class, () -> g.setOnline(CpuSet.parseList("1-7"))).getMessage());

            // An oops in the guest is the call's KernelBug, and the guest is not asked again.
            KernelBug bug = assertThrows(KernelBug.class, () -> g.ask(List.of("selftest-bug")));
            assertTrue(bug.getMessage().contains("failed on 'selftest-bug'"), bug.getMessage());
            GuestFailure after = assertThrows(GuestFailure.class, () -> g.localSpread(0, 1));
            assertTrue(after.getMessage().startsWith("the guest is not trusted after the kernel failed on 'selftest-bug'"), after.getMessage());

            // The clean guest kept right after the boot comes back in place of the broken one: its CPUs
            // as booted (the hot-added ones too), answering as the model. The snapshot passes to it.
            try (QemuGuest clean = g.restoreClean()) {
                assertTrue(clean.restored());
                assertTrue(clean.keepsClean());
                assertFalse(g.keepsClean());
                assertEquals(CpuSet.parseList("0-5,7"), clean.machine().online());
                for (int node : List.of(0, 1))
                    assertArrayEquals(LocalSpread.localSpreadCpus(series, seen, node, 15), clean.localSpread(node, 15), "restored: node " + node);
                clean.setOnline(CpuSet.parseList("0-7"));
                assertArrayEquals(LocalSpread.localSpreadCpus(series, clean.machine(), 1, 9), clean.localSpread(1, 9));

                // A routine that takes cpus_read_lock() in the callback (the probe's selftest, as 6.3 to 6.5 did):
                // the online never completes, and the unanswered request is the kernel's deadlock, not a hang.
                if (clean.callsUnderHotplug()) {
                    KernelBug deadlock = assertThrows(KernelBug.class,
                            () -> clean.groupCpusDuringOnline(2, 7, true, Duration.ofSeconds(5)));
                    assertEquals("deadlock", deadlock.kind());
                    assertTrue(deadlock.getMessage().contains("bringing cpu 7 online did not complete"), deadlock.getMessage());
                    assertTrue(clean.oopsed());
                }
            }
        }
    }

    @Test
    void aGuestThatIsNotReadyInTimeFailsWithItsConsole() {
        GuestImage image = image();
        Topology asked = TopoFormat.read(MACHINE, "boot-test-2node-split.topo").topology();
        GuestFailure e = assertThrows(GuestFailure.class, () -> QemuGuest.boot(image, asked, QemuGuest.Options.defaults(s -> {})
                .withBootTimeout(Duration.ofMillis(1500)).withRetries(0)));
        assertTrue(e.getMessage().startsWith("the guest was not ready within 1 s: "), e.getMessage());
    }

    /**
     * A kernel that panics while booting (here: it finds no init, {@code rdinit=/nonexistent}, and no
     * root to mount) is a {@link GuestFailure} that quotes the panic and the console's last lines, not
     * a guest and not a stack trace.
     */
    @Test
    void aGuestWhoseKernelPanicsFailsWithThePanicAndItsConsole() {
        GuestImage image = image();
        Topology asked = TopoFormat.read("possible 0-1\navailable: 1 nodes (0)\nnode 0 cpus: 0 1\n", "panic.topo").topology();
        GuestFailure e = assertThrows(GuestFailure.class, () -> QemuGuest.boot(image, asked, QemuGuest.Options.defaults(s -> {})
                .withBootTimeout(Duration.ofMinutes(4)).withRetries(0).withAppend("rdinit=/nonexistent")));
        String m = e.getMessage();
        assertTrue(m.startsWith("the kernel failed while booting: ") || m.startsWith("QEMU exited ("), m);
        assertTrue(m.contains("Kernel panic - not syncing"), m);
        assertTrue(m.contains("/nonexistent") || m.contains("Unable to mount root fs"), "the console's lines before the panic: " + m);
    }
}
