package dev.numaspread.model.spread;

import com.fasterxml.jackson.databind.JsonNode;
import dev.numaspread.model.numa.KernelRun;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The model reproduces {@code cpumask_local_spread(i, node)} for i = 0..2N as real 6.1 and 6.12 kernels printed it. */
class KernelRunLocalSpreadTest {

    @TestFactory
    List<DynamicTest> LS_kernelRunsReproduceLocalSpread() {
        List<DynamicTest> tests = new ArrayList<>();
        for (KernelRun run : KernelRun.all()) {
            JsonNode ls = run.results().get("local_spread");
            if (ls == null) continue;
            tests.add(DynamicTest.dynamicTest(run.name(), () -> {
                for (Iterator<Map.Entry<String, JsonNode>> it = ls.fields(); it.hasNext(); ) {
                    var e = it.next();
                    int node = KernelRun.nodeKey(e.getKey());
                    int[] want = new int[e.getValue().size()];
                    for (int i = 0; i < want.length; i++) want[i] = e.getValue().get(i).asInt();
                    assertEquals(Arrays.toString(want), Arrays.toString(LocalSpread.localSpreadCpus(run.release(), run.machine(), node, want.length)),
                            "localSpread plan, node " + node);
                    for (int i = 0; i < want.length; i++)
                        assertEquals(want[i], LocalSpread.localSpread(run.release(), run.machine(), i, node), "localSpread(i=" + i + ", node=" + node + ")");
                }
            }));
        }
        return tests;
    }
}
