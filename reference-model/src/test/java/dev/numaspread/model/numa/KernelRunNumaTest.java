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
 * The model reproduces what real 6.1, 6.12 and 7.3 kernels printed (fixtures/kernel-runs): levels,
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

    /**
     * Up to 6.15 each answer on its own; from 6.16 (HOP-10) the answers in file order (labels in
     * order, cpu ascending: the order the test module called them, all on one CPU) from a starting
     * state of that CPU's distribute_cpu_mask_prev, which the run does not record: some start
     * must reproduce every answer, and one start that does is named in the failure message.
     */
    @TestFactory
    List<DynamicTest> HOP_kernelRunsReproduceFindClosest() {
        List<DynamicTest> tests = new ArrayList<>();
        for (KernelRun run : KernelRun.all()) {
            JsonNode fc = run.results().get("find_closest");
            if (fc == null) continue;
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                int nr = run.machine().nrCpuIds();
                List<NumaClosest.Call> calls = new ArrayList<>();
                List<Integer> answers = new ArrayList<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = fc.fields(); it.hasNext(); ) {
                    var e = it.next();
                    CpuSet cpus = CpuSet.parseList(e.getValue().get("mask").asText());
                    for (Iterator<Map.Entry<String, JsonNode>> r = e.getValue().get("res").fields(); r.hasNext(); ) {
                        var c = r.next();
                        calls.add(new NumaClosest.Call(cpus, Integer.parseInt(c.getKey())));
                        answers.add(c.getValue().asInt());
                    }
                }
                int[] want = answers.stream().mapToInt(Integer::intValue).toArray();
                if (run.release().atLeast(6, 16)) {
                    List<Integer> starts = NumaClosest.startsThatReproduce(run.release(), run.machine(), calls, want);
                    assertTrue(!starts.isEmpty(), run.name() + ": no starting distribute_cpu_mask_prev reproduces the "
                            + calls.size() + " sched_numa_find_closest answers in order");
                    return;
                }
                for (int i = 0; i < calls.size(); i++) {
                    NumaClosest.Call call = calls.get(i);
                    int got = NumaClosest.numaClosest(run.release(), run.machine(), call.cpus(), call.cpu());
                    String what = "numaClosest(" + call.cpus() + ", cpu " + call.cpu() + ")";
                    if (want[i] >= nr) assertTrue(got >= nr, what + ": want none, got " + got);
                    else assertEquals(want[i], got, what);
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
