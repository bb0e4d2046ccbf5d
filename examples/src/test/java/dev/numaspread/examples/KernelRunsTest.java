package dev.numaspread.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kernel runs (fixtures/kernel-runs, copied from what Debian's 6.1.192, 6.12.117 and 7.3.4
 * printed on QEMU machines) are the ground truth: the example must reproduce every result of every
 * run, for every key whose routine it claims for that release (7.3's {@code find_closest}: from a
 * starting state that reproduces all its answers in order, HOP-10).
 */
class KernelRunsTest {
    static final Path RUNS = Path.of("..", "fixtures", "kernel-runs");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final KernelStyleSpread example = new KernelStyleSpread();

    /** One run: the machine, the release, and what the kernel printed. */
    record Run(String name, Topology machine, KernelRelease kernel, JsonNode results) {
        static Run load(Path json) throws IOException {
            String name = json.getFileName().toString().replace(".json", "");
            JsonNode root = JSON.readTree(json.toFile());
            Matcher m = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(root.get("kernel").asText());
            if (!m.find()) throw new IllegalArgumentException(json + ": kernel '" + root.get("kernel") + "'; expected X.Y...");
            return new Run(name, TopoText.read(json.resolveSibling(name + ".topo")),
                    KernelRelease.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))), root.get("results"));
        }
    }

    /** The runs of the releases the example claims routines for. */
    static List<Run> runs() throws IOException {
        java.util.Set<KernelRelease> claimed = new java.util.TreeSet<>();
        new KernelStyleSpread().claims().forEach(c -> claimed.add(c.kernel()));
        List<Run> runs = new ArrayList<>();
        try (Stream<Path> files = Files.list(RUNS)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                Matcher m = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(JSON.readTree(p.toFile()).get("kernel").asText());
                if (m.find() && !claimed.contains(KernelRelease.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))) continue;
                runs.add(Run.load(p));
            }
        }
        return runs;
    }

    @Test
    void theRunsAreThere() throws IOException {
        List<Run> runs = runs();
        // At least the runs of today: runs may be added (the same key set on other machines), none may go missing.
        assertTrue(runs.size() >= 37, runs.size() + " kernel runs in " + RUNS.toAbsolutePath() + "; expected at least 37");
        assertTrue(runs.stream().filter(r -> r.kernel().equals(KernelRelease.of(6, 1))).count() >= 11, "6.1 runs");
        assertTrue(runs.stream().filter(r -> r.kernel().equals(KernelRelease.of(6, 12))).count() >= 11, "6.12 runs");
        assertTrue(runs.stream().filter(r -> r.kernel().equals(KernelRelease.of(7, 3))).count() >= 15, "7.3 runs");
    }

    @TestFactory
    Stream<DynamicTest> everyKernelRunResult() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Run run : runs()) {
            Iterator<String> keys = run.results().fieldNames();
            while (keys.hasNext()) {
                String key = keys.next();
                // Only the releases whose irq-affinity-masks the example claims.
                if (key.equals("irq_create_affinity_masks")
                        && !new KernelStyleSpread().claims().contains(new dev.numaspread.conformance.spi.Claim(
                                dev.numaspread.conformance.spi.Routine.IRQ_AFFINITY_MASKS, run.kernel()))) continue;
                tests.add(DynamicTest.dynamicTest(run.name() + ": " + key, () -> check(run, key, run.results().get(key))));
            }
        }
        return tests.stream();
    }

    private void check(Run run, String key, JsonNode expected) {
        Topology t = run.machine();
        KernelRelease kernel = run.kernel();
        switch (key) {
            case "local_spread" -> forEachField(expected, (node, cpus) -> assertArrayEquals(ints(cpus),
                    example.localSpreadCpus(kernel, t, Integer.parseInt(node), cpus.size()),
                    run.name() + " cpumask_local_spread(i, " + node + ")"));
            case "hop_masks" -> forEachField(expected, (node, masks) -> assertEquals(cpuSets(masks),
                    example.hopMasks(kernel, t, Integer.parseInt(node)), run.name() + " for_each_numa_hop_mask(mask, " + node + ")"));
            case "find_nth" -> forEachField(expected, (label, entry) -> {
                CpuSet cpus = CpuSet.parseList(entry.get("mask").asText());
                forEachField(entry.get("by_node"), (node, results) -> {
                    for (int i = 0; i < results.size(); i++)
                        assertSameCpuOrNone(t, results.get(i).asInt(), example.numaNth(kernel, t, cpus, i, Integer.parseInt(node)),
                                run.name() + " sched_numa_find_nth_cpu(" + label + " " + cpus + ", " + i + ", " + node + ")");
                });
            });
            case "find_closest" -> {
                if (kernel.atLeast(6, 16)) findClosestSequence(run, expected);
                else forEachField(expected, (label, entry) -> {
                CpuSet cpus = CpuSet.parseList(entry.get("mask").asText());
                forEachField(entry.get("res"), (cpu, result) -> assertSameCpuOrNone(t, result.asInt(),
                        example.numaClosest(kernel, t, cpus, Integer.parseInt(cpu)),
                        run.name() + " sched_numa_find_closest(" + label + " " + cpus + ", " + cpu + ")"));
                });
            }
            case "numa_levels" -> {
                assertArrayEquals(ints(expected.get("distance")), example.numaLevels(kernel, t), run.name() + " levels");
                assertEquals(expected.get("levels").asInt(), example.numaLevels(kernel, t).length);
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
            case "irq_create_affinity_masks" -> forEachField(expected, (pre, byCount) -> {
                int preVectors = Integer.parseInt(pre.substring(pre.indexOf('=') + 1));
                forEachField(byCount, (nvecs, entry) -> {
                    List<dev.numaspread.model.group.IrqAffinity.AffinityDesc> want = new ArrayList<>();
                    for (int v = 0; v < entry.get("masks").size(); v++)
                        want.add(new dev.numaspread.model.group.IrqAffinity.AffinityDesc(
                                CpuSet.parseList(entry.get("masks").get(v).asText()), entry.get("managed").get(v).asInt() == 1));
                    assertEquals(Optional.of(want), example.irqCreateAffinityMasks(kernel, t, Integer.parseInt(nvecs), preVectors, 0, List.of()),
                            run.name() + " irq_create_affinity_masks(" + nvecs + ", pre_vectors " + preVectors + ")");
                });
            });
            case "group_cpus_evenly_nummasks" -> forEachField(expected, (numgrps, nummasks) -> assertEquals(
                    java.util.OptionalInt.of(nummasks.asInt()), example.groupCpusEvenlyNummasks(kernel, t, Integer.parseInt(numgrps)),
                    run.name() + " group_cpus_evenly(" + numgrps + ", &nummasks)"));
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
            case "group_cpus_evenly" -> forEachField(expected, (numgrps, groups) -> assertEquals(Optional.of(cpuSets(groups)),
                    example.groupCpusEvenly(kernel, t, Integer.parseInt(numgrps)), run.name() + " group_cpus_evenly(" + numgrps + ")"));
            case "blk_mq_map_queues" -> forEachField(expected, (queues, map) -> {
                int[] want = new int[t.nrCpuIds()];
                java.util.Arrays.fill(want, -1);
                forEachField(map, (cpu, queue) -> want[Integer.parseInt(cpu)] = queue.asInt());
                assertArrayEquals(want, example.blkMqMapQueues(kernel, t, Integer.parseInt(queues), 0),
                        run.name() + " blk_mq_map_queues(" + queues + " queues)");
            });
            // What a booted guest showed of virtio-net (issue 27): each pair's IRQs and XPS map as the example spreads them.
            case "devices" -> virtioNetAsShown(run, kernel, t, expected);
            default -> throw new AssertionError(run.name() + ": unknown result key '" + key + "'");
        }
    }

    /**
     * 7.3's {@code find_closest}: the calls in file order (labels in order, {@code cpu} ascending) on
     * one CPU from a state the file does not record; some starting state must reproduce every answer.
     */
    private void findClosestSequence(Run run, JsonNode expected) {
        Topology t = run.machine();
        List<dev.numaspread.model.numa.NumaClosest.Call> calls = new ArrayList<>();
        List<Integer> answers = new ArrayList<>();
        forEachField(expected, (label, entry) -> {
            CpuSet cpus = CpuSet.parseList(entry.get("mask").asText());
            java.util.TreeMap<Integer, Integer> byCpu = new java.util.TreeMap<>();
            forEachField(entry.get("res"), (cpu, result) -> byCpu.put(Integer.parseInt(cpu), result.asInt()));
            byCpu.forEach((cpu, result) -> {
                calls.add(new dev.numaspread.model.numa.NumaClosest.Call(cpus, cpu));
                answers.add(result >= t.nrCpuIds() ? t.nrCpuIds() : result);
            });
        });
        int[] want = answers.stream().mapToInt(Integer::intValue).toArray();
        List<Integer> fits = new ArrayList<>();
        for (int prev = 0; prev < t.nrCpuIds(); prev++) {
            int[] got = example.numaClosestCalls(run.kernel(), t, 0, prev, calls);
            for (int i = 0; i < got.length; i++) if (got[i] >= t.nrCpuIds()) got[i] = t.nrCpuIds();
            if (java.util.Arrays.equals(want, got)) fits.add(prev);
        }
        assertTrue(!fits.isEmpty(), run.name() + ": no starting state reproduces the " + want.length + " find_closest answers in order");
    }

    private static void assertSameCpuOrNone(Topology t, int expected, int actual, String what) {
        if (expected >= t.nrCpuIds()) assertTrue(actual >= t.nrCpuIds(), what + ": expected none (>= nr_cpu_ids), got " + actual);
        else assertEquals(expected, actual, what);
    }

    static void forEachField(JsonNode object, java.util.function.BiConsumer<String, JsonNode> body) {
        Iterator<Map.Entry<String, JsonNode>> it = object.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            body.accept(e.getKey(), e.getValue());
        }
    }

    static int[] ints(JsonNode array) {
        int[] out = new int[array.size()];
        for (int i = 0; i < out.length; i++) out[i] = array.get(i).asInt();
        return out;
    }

    static List<CpuSet> cpuSets(JsonNode array) {
        List<CpuSet> out = new ArrayList<>();
        for (JsonNode n : array) out.add(CpuSet.parseList(n.asText()));
        return out;
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
