package dev.numaspread.conformance.checks;

import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.topology.Node;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the page pool properties draw: the classes of pools and actions they must reach. */
class PagePoolChecksTest {

    @Test
    void drawsMemorylessNodesNoNodePoolsUntrackedDriversAndLongSequences() {
        int memless = 0, pollOnMemless = 0, noNode = 0, untracked = 0, haveMemless = 0, long8 = 0, n = 500;
        Gen<PagePoolChecks.Case> gen = PagePoolChecks.cases();
        for (int i = 0; i < n; i++) {
            PagePoolChecks.Case c = gen.sample(0x5eedL + i);
            Topology m = c.machine();
            boolean hasMemless = m.nodes().stream().anyMatch(node -> !node.hasMemory() && !node.cpus().isEmpty());
            if (hasMemless) memless++;
            if (c.params().nid() == Numa.NUMA_NO_NODE) noNode++;
            if (!c.params().tracksNapiNode()) untracked++;
            if (c.params().haveMemorylessNodes()) haveMemless++;
            if (c.moves().size() >= 8) long8++;
            if (hasMemless) {
                for (PagePoolChecks.Move mv : c.moves()) {
                    if (mv.kind() != PagePoolChecks.Kind.POLL) continue;
                    int[] cpus = m.online().toArray();
                    if (m.isMemoryless(m.nodeOf(cpus[mv.pick() % cpus.length]))) { pollOnMemless++; break; }
                }
            }
            assertTrue(m.nodes().stream().filter(node -> !node.cpus().isEmpty()).count() >= 2, "a machine of one node with CPUs: " + m);
            assertTrue(m.nodes().stream().anyMatch(Node::hasMemory), "a machine without memory: " + m);
        }
        String stats = "memless " + memless + ", poll on memless " + pollOnMemless + ", NUMA_NO_NODE " + noNode + ", untracked " + untracked
                + ", have-memoryless-nodes " + haveMemless + ", >= 8 moves " + long8 + " of " + n;
        assertTrue(memless >= n / 10, stats);
        assertTrue(pollOnMemless >= n / 20, stats);
        assertTrue(noNode >= n / 20, stats);
        assertTrue(untracked >= n / 20, stats);
        assertTrue(haveMemless >= n / 5, stats);
        assertTrue(long8 >= n / 5, stats);
    }

    @Test
    void theSimplestCaseIsTwoNodesAPoolOnNodeZeroAndNoMove() {
        PagePoolChecks.Case c = PagePoolChecks.cases().simplest();
        assertEquals(new PagePool.Params(0, 0, 1, 1, 1, true, false), c.params());
        assertEquals(List.of(), c.moves());
        assertEquals(2, c.machine().nodes().size());
    }

    @Test
    void movesPickPagesInUseAndSkipWhenThereIsNone() {
        Topology m = dev.numaspread.model.topology.TopologyBuilder.machine("two").node(0, "0-1").node(1, "2-3").build();
        PagePool pool = PagePool.create(dev.numaspread.model.kernel.KernelRelease.of(6, 12), m, PagePool.Params.of(0, 0).withSizes(4, 2, 4));
        PagePoolChecks.Move recycle = new PagePoolChecks.Move(PagePoolChecks.Kind.RECYCLE, 5, true);
        assertTrue(PagePoolChecks.resolve(recycle, m, pool.state()).isEmpty());
        pool.apply(Action.alloc());
        pool.apply(Action.alloc());
        assertEquals(new Action.Recycle(1, true), PagePoolChecks.resolve(recycle, m, pool.state()).orElseThrow());
        assertEquals(new Action.Poll(1), PagePoolChecks.resolve(new PagePoolChecks.Move(PagePoolChecks.Kind.POLL, 5, false), m, pool.state()).orElseThrow());
        assertEquals(new Action.UpdateNid(-1), PagePoolChecks.resolve(new PagePoolChecks.Move(PagePoolChecks.Kind.UPDATE_NID, 2, false), m, pool.state()).orElseThrow());
        assertEquals(3, PagePoolChecks.actionsIn("create nid 0 cpu 0 cache 1 refill 1 pool_size 1; alloc; alloc; free 0"));
    }
}
