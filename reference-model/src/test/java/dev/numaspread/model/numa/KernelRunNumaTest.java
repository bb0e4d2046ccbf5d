package dev.numaspread.model.numa;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.model.cpu.CpuSet;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The model reproduces what real 6.1 and 6.12 kernels printed (fixtures/kernel-runs): levels,
 * level masks, hop masks, {@code sched_numa_find_closest} and {@code sched_numa_find_nth_cpu}.
 * A "none" result is compared as "{@code >= nr_cpu_ids}" on both sides (the kernel printed 64 on
 * the NUMA_NO_NODE path of an 8-CPU machine, nr_cpu_ids on the others).
 */
class KernelRunNumaTest {

    @TestFactory
    List<DynamicTest> LVL_kernelRunsReproduceNumaLevels() {
        List<DynamicTest> tests = new ArrayList<>();
        for (KernelRun run : KernelRun.all()) {
            JsonNode lv = run.results().get("numa_levels");
            if (lv == null) continue;
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                NumaLevels model = NumaLevels.of(run.release(), run.machine());
                int[] expected = new int[lv.get("distance").size()];
                for (int k = 0; k < expected.length; k++) expected[k] = lv.get("distance").get(k).asInt();
                assertEquals(Arrays.toString(expected), Arrays.toString(model.distances()), "levels");
                assertEquals(lv.get("levels").asInt(), model.count());
                for (Iterator<Map.Entry<String, JsonNode>> it = lv.get("masks").fields(); it.hasNext(); ) {
                    var e = it.next();
                    int node = KernelRun.nodeKey(e.getKey());
                    List<String> want = new ArrayList<>();
                    e.getValue().forEach(m -> want.add(m.asText()));
                    if (want.stream().allMatch(String::isEmpty)) {
                        // The test module printed a NULL mask (a CPU-less node) as an empty list.
                        assertFalse(model.hasMasks(node), "node " + node + " should have no masks");
                    } else {
                        assertEquals(want, model.masksOf(node).stream().map(CpuSet::toList).toList(), "masks of node " + node);
                    }
                }
            }));
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> HOP_kernelRunsReproduceHopMasks() {
        List<DynamicTest> tests = new ArrayList<>();
        for (KernelRun run : KernelRun.all()) {
            JsonNode hm = run.results().get("hop_masks");
            if (hm == null) continue;
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                for (Iterator<Map.Entry<String, JsonNode>> it = hm.fields(); it.hasNext(); ) {
                    var e = it.next();
                    int node = KernelRun.nodeKey(e.getKey());
                    List<String> want = new ArrayList<>();
                    e.getValue().forEach(m -> want.add(m.asText()));
                    assertEquals(want, NumaHops.hopMasks(run.release(), run.machine(), node).stream().map(CpuSet::toList).toList(),
                            "hop masks of node " + node);
                }
            }));
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> HOP_kernelRunsReproduceFindClosest() {
        List<DynamicTest> tests = new ArrayList<>();
        for (KernelRun run : KernelRun.all()) {
            JsonNode fc = run.results().get("find_closest");
            if (fc == null) continue;
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                int nr = run.machine().nrCpuIds();
                for (Iterator<Map.Entry<String, JsonNode>> it = fc.fields(); it.hasNext(); ) {
                    var e = it.next();
                    CpuSet cpus = CpuSet.parseList(e.getValue().get("mask").asText());
                    for (Iterator<Map.Entry<String, JsonNode>> r = e.getValue().get("res").fields(); r.hasNext(); ) {
                        var c = r.next();
                        int cpu = Integer.parseInt(c.getKey());
                        int want = c.getValue().asInt();
                        int got = NumaClosest.numaClosest(run.release(), run.machine(), cpus, cpu);
                        String call = "numaClosest(" + e.getKey() + "=" + cpus + ", cpu " + cpu + ")";
                        if (want >= nr) assertTrue(got >= nr, call + ": want none, got " + got);
                        else assertEquals(want, got, call);
                    }
                }
            }));
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> HOP_kernelRunsReproduceFindNth() {
        List<DynamicTest> tests = new ArrayList<>();
        for (KernelRun run : KernelRun.all()) {
            JsonNode fn = run.results().get("find_nth");
            if (fn == null) continue;
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                int nr = run.machine().nrCpuIds();
                for (Iterator<Map.Entry<String, JsonNode>> it = fn.fields(); it.hasNext(); ) {
                    var e = it.next();
                    CpuSet cpus = CpuSet.parseList(e.getValue().get("mask").asText());
                    for (Iterator<Map.Entry<String, JsonNode>> r = e.getValue().get("by_node").fields(); r.hasNext(); ) {
                        var byNode = r.next();
                        int node = KernelRun.nodeKey(byNode.getKey());
                        for (int n = 0; n < byNode.getValue().size(); n++) {
                            int want = byNode.getValue().get(n).asInt();
                            int got = NumaNth.numaNth(run.release(), run.machine(), cpus, n, node);
                            String call = "numaNth(" + e.getKey() + "=" + cpus + ", n=" + n + ", node=" + node + ")";
                            if (want >= nr) assertTrue(got >= nr, call + ": want none, got " + got);
                            else assertEquals(want, got, call);
                        }
                    }
                }
            }));
        }
        return tests;
    }
}
