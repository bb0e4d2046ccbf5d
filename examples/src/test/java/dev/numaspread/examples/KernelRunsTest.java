package dev.numaspread.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.conformance.checks.KernelRunChecks;
import dev.numaspread.conformance.fixtures.KernelRuns;
import dev.numaspread.conformance.fixtures.KernelRuns.Run;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.nic.AffinitySetting;
import dev.numaspread.model.nic.NicQueues;
import dev.numaspread.model.nic.QueueIrq;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.numaspread.conformance.fixtures.KernelRuns.forEachField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel runs (fixtures/kernel-runs, what Debian's kernels printed on QEMU machines) are the
 * ground truth. The kit replays every run's answers to the SPI ({@link KernelRunChecks}: local spread,
 * hop masks, the n-th and the closest CPU, the levels' distances, the groups and their count, the
 * queue maps, the affinity masks) in each certification of the example ({@link CertificationTest}),
 * so this test keeps only what no SPI method answers: the example's own view of the machine (each
 * CPU's siblings, cluster and node; the scheduler's level masks and their count) and what a booted
 * guest showed of its virtio-net device. Runs are read through the kit's reader ({@link KernelRuns}).
 */
class KernelRunsTest {
    /** The runs in the checkout, for tests that read one run's machine with the example's own {@link TopoText}. */
    static final Path RUNS = Path.of("..", "fixtures", "kernel-runs");
    /** The keys read here; every other key of a run is one the kit replays. */
    private static final Set<String> OWN_KEYS = Set.of("numa_levels", "cpus", "devices");

    private final KernelStyleSpread example = new KernelStyleSpread();

    /** The runs of the releases the example claims routines for. */
    static List<Run> runs() {
        Set<KernelRelease> claimed = new TreeSet<>();
        new KernelStyleSpread().claims().forEach(c -> claimed.add(c.kernel()));
        return KernelRuns.all().stream().filter(r -> claimed.contains(r.kernel())).toList();
    }

    @Test
    void theRunsAreThere() {
        List<Run> runs = runs();
        // At least the runs of today: runs may be added (the same key set on other machines), none may go missing.
        assertTrue(runs.size() >= 37, runs.size() + " kernel runs of the example's releases; expected at least 37");
        assertTrue(runs.stream().filter(r -> r.kernel().equals(KernelRelease.of(6, 1))).count() >= 11, "6.1 runs");
        assertTrue(runs.stream().filter(r -> r.kernel().equals(KernelRelease.of(6, 12))).count() >= 11, "6.12 runs");
        assertTrue(runs.stream().filter(r -> r.kernel().equals(KernelRelease.of(7, 3))).count() >= 15, "7.3 runs");
    }

    /** A key nobody reads is a kernel answer nothing holds the example to. */
    @Test
    void everyKeyIsReplayedByTheKitOrReadHere() {
        Set<String> unread = new TreeSet<>();
        for (Run run : KernelRuns.all())
            run.results().fieldNames().forEachRemaining(key -> {
                if (!KernelRunChecks.replayedKeys().contains(key) && !OWN_KEYS.contains(key)) unread.add(run.name() + ": " + key);
            });
        assertEquals(Set.of(), unread, "result keys neither KernelRunChecks nor this test reads");
    }

    @TestFactory
    Stream<DynamicTest> theExamplesViewOfEveryRun() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Run run : runs())
            for (String key : OWN_KEYS)
                if (run.results().has(key))
                    tests.add(DynamicTest.dynamicTest(run.name() + ": " + key, () -> check(run, key, run.results().get(key))));
        return tests.stream();
    }

    private void check(Run run, String key, JsonNode expected) {
        Topology t = run.machine();
        KernelRelease kernel = run.kernel();
        switch (key) {
            case "numa_levels" -> {
                // The distances are LVL-1's replay; the level count and sched_domains_numa_masks are the example's own.
                assertEquals(expected.get("levels").asInt(), example.numaLevels(kernel, t).length, run.name() + " levels");
                KernelView k = new KernelView(t);
                NumaDistance numa = new NumaDistance(k);
                forEachField(expected.get("masks"), (node, masks) -> {
                    int n = Integer.parseInt(node);
                    for (int l = 0; l < masks.size(); l++) {
                        long[] mine = numa.masks[l][n];
                        CpuSet got = mine == null ? CpuSet.EMPTY : k.cpuSet(mine);
                        assertEquals(CpuSet.parseList(masks.get(l).asText()), got,
                                run.name() + " sched_domains_numa_masks[" + l + "][" + node + "]");
                    }
                });
            }
            case "cpus" -> {
                // The kernel's view of each possible CPU: the example's sibling and live cluster masks (TOPO-3, TOPO-13).
                KernelView k = new KernelView(t);
                forEachField(expected, (cpu, seen) -> {
                    int c = Integer.parseInt(cpu);
                    assertEquals(CpuSet.parseList(seen.get("smt").asText()), k.cpuSet(k.siblings[c]), run.name() + " topology_sibling_cpumask(" + cpu + ")");
                    assertEquals(CpuSet.parseList(seen.get("cluster").asText()), k.cpuSet(k.clusters[c]), run.name() + " topology_cluster_cpumask(" + cpu + ")");
                    assertEquals(seen.get("node").asInt(), k.cpuToNode[c], run.name() + " cpu_to_node(" + cpu + ")");
                });
            }
            // What a booted guest showed of virtio-net (issue 27): each pair's IRQs and XPS map as the example spreads them.
            case "devices" -> virtioNetAsShown(run, kernel, t, expected);
            default -> throw new AssertionError(run.name() + ": key '" + key + "' is not read here");
        }
    }

    private static final Pattern VIRTIO_NET_IRQ = Pattern.compile("^\\s*(\\d+):.*\\s(virtio\\d+)-(input|output)\\.(\\d+)$");

    /**
     * A device run (fixtures/kernel-runs dev-*): every virtio-net IRQ the example forces shows its
     * mask in the guest's /proc/irq/N/smp_affinity_list, and each transmit queue's XPS map is the
     * example's. The other IRQs are not the example's to place (spec/nic.md NIC-3).
     */
    private void virtioNetAsShown(Run run, KernelRelease kernel, Topology t, JsonNode devices) {
        int pairs = devices.at("/asked/virtio_net_queue_pairs").asInt();
        if (pairs == 0 || !example.claims().contains(new Claim(Routine.VIRTIO_NET_IRQS, kernel))) return;
        NicQueues mine = example.virtioNetIrqs(kernel, t, -1, pairs);
        JsonNode files = devices.path("files");
        int seen = 0;
        for (String line : files.path("proc/interrupts").asText().split("\n")) {
            Matcher m = VIRTIO_NET_IRQ.matcher(line);
            if (!m.matches()) continue;
            int q = Integer.parseInt(m.group(4));
            QueueIrq irq = mine.irq(m.group(3).equals("input") ? QueueIrq.Role.RX : QueueIrq.Role.TX, q).orElseThrow();
            if (irq.setting() != AffinitySetting.FORCED) continue;
            String shown = files.path("proc/irq/" + m.group(1) + "/smp_affinity_list").asText().strip();
            assertEquals(irq.mask(), CpuSet.parseList(shown), run.name() + ": " + m.group(2) + "-" + m.group(3) + "." + q);
            seen++;
        }
        assertEquals(2 * mine.xps().size(), seen, run.name() + ": the forced virtio-net IRQs the guest showed");
        for (int q = 0; q < mine.xps().size(); q++) {
            Pattern xpsFile = Pattern.compile("sys/class/net/[^/]+/queues/tx-" + q + "/xps_cpus");
            Optional<String> xps = Optional.empty();
            for (Iterator<String> it = files.fieldNames(); it.hasNext() && xps.isEmpty(); ) {
                String f = it.next();
                if (xpsFile.matcher(f).matches()) xps = Optional.of(files.get(f).asText().strip());
            }
            assertTrue(xps.isPresent(), run.name() + ": no XPS map of tx-" + q);
            assertEquals(mine.xps().get(q), CpuSet.parseMask(xps.get()), run.name() + ": XPS of tx-" + q);
        }
    }
}
