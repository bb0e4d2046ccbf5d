package dev.numaspread.cli;

import dev.numaspread.conformance.rules.Proves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static dev.numaspread.cli.PlanKernelExamplesTest.run;
import static dev.numaspread.cli.PlanKernelExamplesTest.small;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code numaspread races} on the 2-node, 4-core, 8-CPU machine of the irq_setup() kernel comment.
 * The service-call sequences asserted are read off the 6.9 {@code mana_gd_setup_irqs()} of commit
 * 8afefc361209 "net: mana: Assigning IRQ affinity on HT cores" by hand: #0 num_online_cpus(),
 * #1 pci_alloc_irq_vectors(2, 9), #2 num_online_cpus() (9 vectors > 8 CPUs), #3
 * cpumask_local_spread(0, node 0), #4 irq_set_affinity_and_hint(irq 0, 0) for the HWC.
 */
class RacesCommandTest {

    @Test
    @Proves({"HP-1", "HP-2"})
    void HP_2_theUnlockedSetupBindsTheHwcToAnOfflineCpu(@TempDir Path dir) throws IOException {
        var r = run("races", "--routine", "mana-setup-irqs", "--kernel", "6.9", "--topology", small(dir), "--node", "0",
                "--variant", "unlocked");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("graded atomic"), r.out());
        assertTrue(r.out().contains("\nforbidden interleavings:\n"), r.out());
        // CPU 0 goes offline just before the HWC's affinity is set: the HWC is bound to offline CPU 0.
        assertTrue(r.out().contains("  cpu 0 goes offline before #4 irq_set_affinity_and_hint(irq 0, 0)\n"
                + "    offline-target (FORBIDDEN): an IRQ was bound to a CPU that was offline when its affinity was set\n"
                + "    irq 0 bound to 0 while cpu 0 was offline (online 1-7)\n"), r.out());
        assertTrue(r.out().matches("(?s).*\\n  offline-target +FORBIDDEN +[1-9]\\d* .*"), r.out());
        assertTrue(r.out().endsWith(" forbidden interleavings\n"), r.out());
    }

    @Test
    @Proves("HP-1")
    void HP_1_theLockedSetupHasNoForbiddenOutcome(@TempDir Path dir) throws IOException {
        String topo = small(dir);
        for (List<String> variant : List.of(List.<String>of(), List.of("--variant", "locked"))) {
            List<String> args = new java.util.ArrayList<>(List.of("races", "--routine", "mana-setup-irqs", "--kernel", "6.9",
                    "--topology", topo, "--node", "0"));
            args.addAll(variant);
            var r = run(args.toArray(String[]::new));
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().matches("(?s).*\\n  offline-target +FORBIDDEN +0 .*"), r.out());
            assertTrue(r.out().matches("(?s).*\\n  mixed +FORBIDDEN +0 .*"), r.out());
            assertTrue(r.out().matches("(?s).*\\n  stale-count +FORBIDDEN +0 .*"), r.out());
            assertFalse(r.out().contains("forbidden interleavings:"), r.out());
            assertTrue(r.out().endsWith("\nno forbidden outcome\n"), r.out());
        }
    }

    @Test
    @Proves("HP-1")
    void HP_1_lockAfterSizingSizesFromAStaleCount(@TempDir Path dir) throws IOException {
        var r = run("races", "--routine", "mana-setup-irqs", "--kernel", "6.9", "--topology", small(dir), "--node", "0",
                "--variant", "lock-after-sizing");
        assertEquals(1, r.code(), r.err());
        // CPU 7 goes offline between the sizing read (#0) and cpus_read_lock() (#1): 9 vectors for 7 CPUs.
        assertTrue(r.out().contains("  cpu 7 goes offline before #1 cpus_read_lock()\n    stale-count (FORBIDDEN)"), r.out());
    }

    @Test
    @Proves("HP-1")
    void HP_1_irqSetupUnderTheLockIsAtomicAndWithoutItIsNot(@TempDir Path dir) throws IOException {
        String topo = small(dir);
        var locked = run("races", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--node", "0", "--count", "8");
        assertEquals(0, locked.code(), locked.out() + locked.err());
        assertTrue(locked.out().startsWith("irq_setup(8 IRQs, node 0) under cpus_read_lock()\n"), locked.out());
        var unlocked = run("races", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--node", "0", "--count", "8",
                "--variant", "unlocked");
        assertEquals(1, unlocked.code(), unlocked.err());
    }

    @Test
    @Proves("HP-5")
    void HP_5_classicLocalSpreadWithoutTheLockReachesBug(@TempDir Path dir) throws IOException {
        String topo = small(dir);
        // Queue 7 takes 7 mod num_online_cpus() = 7 (call #14), then walks the online CPUs (#15):
        // any CPU going offline in between leaves 7 online CPUs and no 8th to return. 8 CPUs, 8 BUGs.
        var r = run("races", "--routine", "local-spread", "--kernel", "6.1", "--topology", topo, "--node", "0", "--count", "8");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*\\n  BUG +FORBIDDEN +8  .*"), r.out());
        assertTrue(r.out().contains("\n  cpu 3 goes offline before #15 cpumask_local_spread(7, node 0): walk cpu_online_mask\n"
                + "    BUG (FORBIDDEN): the kernel reached BUG()\n"), r.out());
        var locked = run("races", "--routine", "local-spread", "--kernel", "6.1", "--topology", topo, "--node", "0", "--count", "8",
                "--variant", "locked");
        assertEquals(0, locked.code(), locked.out());
        // Graded as the kernel promises (nothing), the same runs only interest.
        var shown = run("races", "--routine", "local-spread", "--kernel", "6.1", "--topology", topo, "--node", "0", "--count", "8",
                "--expect", "unprotected");
        assertEquals(0, shown.code(), shown.out());
        assertTrue(shown.out().matches("(?s).*\\n  BUG +INTERESTING +8  .*"), shown.out());
    }

    @Test
    void pairsOnTheSmallMachineAreOrderedPairsOfEvents(@TempDir Path dir) throws IOException {
        var r = run("races", "--routine", "local-spread", "--kernel", "6.12", "--topology", small(dir), "--node", "0",
                "--count", "2", "--variant", "locked", "--pairs");
        assertEquals(0, r.code(), r.out());
        // 8 events (each CPU offline); the locked run makes 4 calls: lock, 2 spreads, unlock.
        // Singles 8 x 4 = 32; ordered pairs 8 x 7 x (4 x 5 / 2) = 560.
        assertTrue(r.out().contains("\n592 interleavings on 2node-4core-8cpu (Linux 6.12): 4 points, 8 events, "
                + "single events and ordered pairs; graded atomic\n"), r.out());
    }

    @Test
    void usageErrorsAreOneLineAndExit2(@TempDir Path dir) throws IOException {
        String topo = small(dir);
        for (String[] args : List.of(
                new String[]{"races", "--routine", "group-cpus", "--kernel", "6.9", "--topology", topo},
                new String[]{"races", "--routine", "irq-setup", "--kernel", "2.6", "--topology", topo},
                new String[]{"races", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--node", "5"},
                new String[]{"races", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--variant", "sloppy"},
                new String[]{"races", "--routine", "mana-setup-irqs", "--kernel", "6.1", "--topology", topo, "--variant", "unlocked"},
                new String[]{"races", "--routine", "irq-setup", "--kernel", "6.9", "--topology", topo, "--variant", "lock-after-sizing"})) {
            var r = run(args);
            assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.out() + r.err());
            assertEquals(1, r.err().split("\n").length, r.err());
            assertTrue(r.err().startsWith("numaspread races: "), r.err());
        }
    }

    /** Issue 16: a billion IRQs filled the heap (exit 3) before the explorer counted its runs. */
    @Test
    void aCountPastPlansBoundIsAUsageError(@TempDir Path dir) throws IOException {
        var r = run("races", "--routine", "irq-setup", "--kernel", "6.12", "--topology", small(dir), "--count", "1000000000");
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals("numaspread races: --count 1000000000: out of range; expected 1 to 65536\n", r.err());
    }
}
