package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Self-test of features/page-pool.feature: run against each page pool zoo member, the scenarios of
 * the rule that names its slip fail; run against the slip-free second implementation they all
 * pass. The scenarios' expectations can fail, and the glue drives the implementation under test.
 */
class PagePoolFeaturesRejectZooTest {

    record Member(String rule, SlippedPagePool.Slip slip) {}

    static List<Member> members() {
        return List.of(
                new Member("PP-1", SlippedPagePool.Slip.POLL_USES_CREATION_CPU),
                new Member("PP-2", SlippedPagePool.Slip.UPDATE_ON_EVERY_POLL),
                new Member("PP-3", SlippedPagePool.Slip.UPDATE_KEEPS_CACHE),
                new Member("PP-3", SlippedPagePool.Slip.POLL_SETS_NID_WITHOUT_UPDATE),
                new Member("PP-4", SlippedPagePool.Slip.REFILL_WITHOUT_NUMA_TEST),
                new Member("PP-5", SlippedPagePool.Slip.REFILL_SKIPS_FOREIGN_PAGE),
                new Member("PP-6", SlippedPagePool.Slip.REFILL_WHILE_CACHE_HOLDS_PAGES),
                new Member("PP-7", SlippedPagePool.Slip.PAGE_LOST_ON_FULL_RING),
                new Member("PP-8", SlippedPagePool.Slip.RECYCLE_TESTS_NODE),
                new Member("PP-9", SlippedPagePool.Slip.PFMEMALLOC_RECYCLED),
                new Member("PP-10", SlippedPagePool.Slip.RECYCLE_TESTS_NODE),
                new Member("PP-11", SlippedPagePool.Slip.NUMA_MEM_ID_IGNORES_ARCH),
                new Member("PP-12", SlippedPagePool.Slip.SLOW_PATH_ON_NAPI_NODE),
                new Member("PP-13", SlippedPagePool.Slip.UPDATE_KEEPS_CACHE));
    }

    /** An implementation whose pools have {@code slips}. */
    static Implementation pools(SlippedPagePool.Slip... slips) {
        return new Implementation() {
            @Override public String name() { return "slipped page pool " + List.of(slips); }
            @Override public List<Claim> claims() { return List.of(); }
            @Override public PagePoolSession pagePool(KernelRelease kernel, Topology machine, PagePool.Params params) {
                return new SlippedPagePool(kernel, machine, params, slips);
            }
        };
    }

    /** Cucumber's exit status for the page-pool scenarios tagged {@code tags}, run against {@code impl}. */
    static byte runTagged(Implementation impl, String tags, StringBuilder output) {
        return FeaturesRejectZooTest.runTagged(impl, tags, "classpath:numaspread/features/page-pool.feature", output);
    }

    @TestFactory
    List<DynamicTest> everyZooMemberFailsTheScenariosOfItsRule() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Member m : members())
            tests.add(DynamicTest.dynamicTest(m.rule().replace('-', '_') + "_rejects_" + m.slip(), () -> {
                StringBuilder out = new StringBuilder();
                assertNotEquals(0, runTagged(pools(m.slip()), "@" + m.rule(), out), m.slip() + " passed every scenario tagged @" + m.rule());
            }));
        return tests;
    }

    @Test
    void theSecondImplementationWithoutSlipsPassesEveryScenario() {
        StringBuilder out = new StringBuilder();
        assertEquals(0, runTagged(pools(), "@PP-1 or @PP-2 or @PP-3 or @PP-4 or @PP-5 or @PP-6 or @PP-7 or @PP-8 or @PP-9 or @PP-10"
                + " or @PP-11 or @PP-12 or @PP-13", out), out.toString());
    }
}
