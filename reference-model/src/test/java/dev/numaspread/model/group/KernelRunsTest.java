package dev.numaspread.model.group;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.model.cpu.CpuSet;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GRP-10, GRP-14, MQ-8, MQ-9, TOPO-13: every kernel run in fixtures/kernel-runs reproduced exactly,
 * for the release named in the run. The expected values are what the real kernels printed.
 */
class KernelRunsTest {

    @TestFactory
    Stream<DynamicTest> GRP_10_groupCpusEvenlyAsTheKernelPrinted() {
        List<KernelRuns> runs = KernelRuns.all();
        // At least the runs of today: runs may be added (the same key set on other machines), none may go missing.
        assertTrue(runs.size() >= 37, runs.size() + " kernel runs in " + KernelRuns.DIR + "; expected at least 37");
        return runs.stream().map(run -> DynamicTest.dynamicTest(run.name(), () -> {
            JsonNode r = run.results().get("group_cpus_evenly");
            assertTrue(r.size() >= 3, run.name() + ": group_cpus_evenly results");
            for (Iterator<Map.Entry<String, JsonNode>> it = r.fields(); it.hasNext(); ) {
                var e = it.next();
                int numgrps = Integer.parseInt(e.getKey());
                List<String> got = GroupCpusEvenly.groupCpusEvenly(run.kernel(), run.machine(), numgrps).orElseThrow()
                        .stream().map(CpuSet::toList).toList();
                assertEquals(KernelRuns.lists(e.getValue()), got, run.name() + " groupCpusEvenly(" + numgrps + ")");
            }
        }));
    }

    /** 7.3 runs: the nummasks group_cpus_evenly(k, &nummasks) reported (b6139a6abf67, 6.17). */
    @TestFactory
    Stream<DynamicTest> GRP_14_nummasksAsTheKernelPrinted() {
        List<KernelRuns> runs = KernelRuns.all().stream().filter(r -> r.results().has("group_cpus_evenly_nummasks")).toList();
        assertTrue(runs.size() >= 15, runs.size() + " 7.3 runs with group_cpus_evenly_nummasks; expected at least 15");
        return runs.stream().map(run -> DynamicTest.dynamicTest(run.name(), () -> {
            for (Iterator<Map.Entry<String, JsonNode>> it = run.results().get("group_cpus_evenly_nummasks").fields(); it.hasNext(); ) {
                var e = it.next();
                int numgrps = Integer.parseInt(e.getKey());
                assertEquals(e.getValue().asInt(), GroupCpusEvenly.grouping(run.kernel(), run.machine(), numgrps).orElseThrow().nummasks(),
                        run.name() + " nummasks of group_cpus_evenly(" + numgrps + ")");
            }
        }));
    }

    /**
     * 7.3 runs: every possible CPU as the kernel saw it (online, present, node, the live
     * topology_sibling_cpumask and topology_cluster_cpumask), TOPO-13.
     */
    @TestFactory
    Stream<DynamicTest> TOPO_13_cpusAsTheKernelSawThem() {
        List<KernelRuns> runs = KernelRuns.all().stream().filter(r -> r.results().has("cpus")).toList();
        assertTrue(runs.size() >= 15, runs.size() + " 7.3 runs with cpus; expected at least 15");
        return runs.stream().map(run -> DynamicTest.dynamicTest(run.name(), () -> {
            var m = run.machine();
            JsonNode cpus = run.results().get("cpus");
            assertEquals(m.possible().size(), cpus.size(), run.name() + ": one entry per possible CPU");
            for (Iterator<Map.Entry<String, JsonNode>> it = cpus.fields(); it.hasNext(); ) {
                var e = it.next();
                int cpu = Integer.parseInt(e.getKey());
                JsonNode k = e.getValue();
                String want = k.get("online").asInt() + " " + k.get("present").asInt() + " " + k.get("node").asInt()
                        + " smt=" + k.get("smt").asText() + " cluster=" + k.get("cluster").asText();
                String got = (m.online().contains(cpu) ? 1 : 0) + " " + (m.present().contains(cpu) ? 1 : 0) + " " + m.nodeOf(cpu)
                        + " smt=" + GroupCpusEvenly.liveSiblingsOf(m, cpu).toList() + " cluster=" + m.topologyClusterCpumask(cpu).toList();
                assertEquals(want, got, run.name() + " cpu " + cpu + ": online present node smt cluster");
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> MQ_8_blkMqMapQueuesAsTheKernelPrinted() {
        return KernelRuns.all().stream().map(run -> DynamicTest.dynamicTest(run.name(), () -> {
            JsonNode r = run.results().get("blk_mq_map_queues");
            for (Iterator<Map.Entry<String, JsonNode>> it = r.fields(); it.hasNext(); ) {
                var e = it.next();
                int nrQueues = Integer.parseInt(e.getKey());
                int[] map = BlkMqMap.blkMqMapQueues(run.kernel(), run.machine(), nrQueues, 0);
                List<String> want = new ArrayList<>(), got = new ArrayList<>();
                for (Iterator<Map.Entry<String, JsonNode>> c = e.getValue().fields(); c.hasNext(); ) {
                    var cq = c.next();
                    int cpu = Integer.parseInt(cq.getKey());
                    want.add(cpu + ":" + cq.getValue().asInt());
                    got.add(cpu + ":" + map[cpu]);
                }
                assertEquals(run.machine().possible().size(), want.size(), run.name() + ": one queue per possible CPU");
                assertEquals(want, got, run.name() + " blkMqMapQueues(" + nrQueues + ")");
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> MQ_9_irqCreateAffinityMasksAsTheKernelPrinted() {
        return KernelRuns.all().stream().map(run -> DynamicTest.dynamicTest(run.name(), () -> {
            JsonNode r = run.results().get("irq_create_affinity_masks");
            assertEquals(2, r.size(), run.name() + ": pre_vectors=0 and pre_vectors=1");
            for (Iterator<Map.Entry<String, JsonNode>> pv = r.fields(); pv.hasNext(); ) {
                var byPre = pv.next();
                int pre = Integer.parseInt(byPre.getKey().replace("pre_vectors=", ""));
                for (Iterator<Map.Entry<String, JsonNode>> it = byPre.getValue().fields(); it.hasNext(); ) {
                    var e = it.next();
                    int nvecs = Integer.parseInt(e.getKey());
                    var descs = IrqAffinity.irqCreateAffinityMasks(run.kernel(), run.machine(), nvecs, pre, 0, List.of())
                            .orElseThrow();
                    List<String> masks = descs.stream().map(d -> d.mask().toList()).toList();
                    List<Integer> managed = descs.stream().map(d -> d.managed() ? 1 : 0).toList();
                    String call = run.name() + " irqCreateAffinityMasks(nvecs=" + nvecs + ", pre=" + pre + ")";
                    assertEquals(KernelRuns.lists(e.getValue().get("masks")), masks, call);
                    List<Integer> wantManaged = new ArrayList<>();
                    e.getValue().get("managed").forEach(n -> wantManaged.add(n.asInt()));
                    assertEquals(wantManaged, managed, call);
                }
            }
        }));
    }
}
