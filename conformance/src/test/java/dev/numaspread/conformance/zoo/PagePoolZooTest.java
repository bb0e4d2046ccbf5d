package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.PagePoolChecks;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The page pool zoo: each known mistake ({@link SlippedPagePool.Slip}) is rejected by the rule that
 * names it, with its phrase, and the shrunk action sequence is short; the reference model and the
 * slip-free second implementation pass every PP check.
 */
class PagePoolZooTest {

    static final Settings SETTINGS = Settings.defaults().withTries(200).withSeed(0x5eedL);
    static final KernelRelease K612 = KernelRelease.of(6, 12);

    static PagePoolChecks checksOf(SlippedPagePool.Slip... slips) {
        return new PagePoolChecks((ctx, machine, params) -> new SlippedPagePool(ctx.kernel(), machine, params, slips));
    }

    /** Runs every PP check: the failures, by rule. */
    static TreeMap<String, CheckResult.Failed> failures(PagePoolChecks checks, KernelRelease kernel) {
        TreeMap<String, CheckResult.Failed> out = new TreeMap<>();
        for (Check c : checks.checks()) {
            CheckResult r = CheckRunner.run(c, new ReferenceModel(), kernel, SETTINGS);
            if (r instanceof CheckResult.Errored e) fail(c.name() + " errored at " + kernel + ": " + e.cause(), e.cause());
            if (r instanceof CheckResult.Failed f) out.put(f.violation().rule(), f);
        }
        return out;
    }

    static CheckResult.Failed failureOf(String rule, SlippedPagePool.Slip slip) {
        for (Check c : checksOf(slip).checks()) {
            if (!c.rule().equals(rule)) continue;
            CheckResult r = CheckRunner.run(c, new ReferenceModel(), K612, SETTINGS);
            if (r instanceof CheckResult.Errored e) fail(c.name() + " errored: " + e.cause(), e.cause());
            assertTrue(r instanceof CheckResult.Failed, slip + " should fail " + rule + "; it passed");
            return (CheckResult.Failed) r;
        }
        throw new AssertionError("no check of " + rule);
    }

    /** Rejected by {@code rule}, the message holding {@code phrase}, the shrunk call at most {@code maxActions} actions. */
    static void assertRejected(SlippedPagePool.Slip slip, String rule, String phrase, int maxActions) {
        CheckResult.Failed f = failureOf(rule, slip);
        assertEquals(rule, f.violation().rule());
        String text = f.violation().getMessage() + " / hint: " + f.violation().hint();
        assertTrue(text.contains(phrase), "message of " + rule + " should contain '" + phrase + "': " + text);
        int actions = PagePoolChecks.actionsIn(f.violation().call());
        assertTrue(actions <= maxActions, slip + " shrank to " + actions + " actions; want at most " + maxActions + ": " + f.violation().call());
    }

    @Proves({"PP-1", "PP-2", "PP-3", "PP-4", "PP-5", "PP-6", "PP-7", "PP-8", "PP-9", "PP-10", "PP-11", "PP-12", "PP-13"})
    @ParameterizedTest
    @ValueSource(strings = {"5.6", "5.12", "6.1", "6.12", "7.3"})
    void passes_referenceModel(String kernel) {
        assertEquals(new TreeMap<>(), failures(new PagePoolChecks(), KernelRelease.parse(kernel)));
    }

    @Proves({"PP-13"})
    @ParameterizedTest
    @ValueSource(strings = {"5.12", "6.12"})
    void passes_secondImplementationWithoutSlips(String kernel) {
        assertEquals(new TreeMap<>(), failures(checksOf(), KernelRelease.parse(kernel)));
    }

    /** The seeded bug of the issue: an update that keeps the alloc cache shrinks to at most 4 actions. */
    @Proves("PP-3")
    @Test
    void PP_3_seededBugShrinksToAtMostFourActions() {
        CheckResult.Failed f = failureOf("PP-3", SlippedPagePool.Slip.UPDATE_KEEPS_CACHE);
        assertNotNull(f.violation().machine().orElse(null), "the failure names its machine");
        int actions = PagePoolChecks.actionsIn(f.violation().call());
        assertTrue(actions <= 4, "shrunk to " + actions + " actions: " + f.violation().call());
        assertTrue(f.shrunk().steps() > 0 || actions <= 2, "the shrinker kept no edit: " + f.shrunk());
    }

    // ---------------------------------------------------------------- the zoo: behaviours the kernel fixed, and slips

    @Proves("PP-8")
    @Test
    void PP_8_rejects_recycleTestsNode_M21() {
        assertRejected(SlippedPagePool.Slip.RECYCLE_TESTS_NODE, "PP-8", "which is never -1", 6);
    }

    @Proves("PP-10")
    @Test
    void PP_10_rejects_recycleTestsNode_M21() {
        assertRejected(SlippedPagePool.Slip.RECYCLE_TESTS_NODE, "PP-10", "does recycling test the page's node", 6);
    }

    @Proves("PP-6")
    @Test
    void PP_6_rejects_refillWhileCacheHoldsPages_M22() {
        assertRejected(SlippedPagePool.Slip.REFILL_WHILE_CACHE_HOLDS_PAGES, "PP-6", "while the alloc cache still holds pages", 6);
    }

    @Proves("PP-3")
    @Test
    void PP_3_rejects_updateKeepsCache_M23() {
        assertRejected(SlippedPagePool.Slip.UPDATE_KEEPS_CACHE, "PP-3", "an empty alloc cache after the update", 6);
    }

    @Proves("PP-3")
    @Test
    void PP_3_rejects_pollSetsNidWithoutUpdate() {
        assertRejected(SlippedPagePool.Slip.POLL_SETS_NID_WITHOUT_UPDATE, "PP-3", "an empty alloc cache after the update", 6);
    }

    @Proves("PP-2")
    @Test
    void PP_2_rejects_updateOnEveryPoll() {
        assertRejected(SlippedPagePool.Slip.UPDATE_ON_EVERY_POLL, "PP-2", "even when the node is the same", 6);
    }

    @Proves("PP-5")
    @Test
    void PP_5_rejects_refillSkipsForeignPage() {
        assertRejected(SlippedPagePool.Slip.REFILL_SKIPS_FOREIGN_PAGE, "PP-5", "or skip it and go on", 6);
    }

    @Proves("PP-7")
    @Test
    void PP_7_rejects_pageLostOnFullRing() {
        assertRejected(SlippedPagePool.Slip.PAGE_LOST_ON_FULL_RING, "PP-7", "dropped when the ptr_ring is full", 6);
    }

    @Proves("PP-9")
    @Test
    void PP_9_rejects_pfmemallocRecycled() {
        assertRejected(SlippedPagePool.Slip.PFMEMALLOC_RECYCLED, "PP-9", "page_is_pfmemalloc()", 6);
    }

    @Proves("PP-1")
    @Test
    void PP_1_rejects_pollUsesCreationCpu() {
        assertRejected(SlippedPagePool.Slip.POLL_USES_CREATION_CPU, "PP-1", "with the poll's CPU", 6);
    }

    @Proves("PP-4")
    @Test
    void PP_4_rejects_refillWithoutNumaTest() {
        assertRejected(SlippedPagePool.Slip.REFILL_WITHOUT_NUMA_TEST, "PP-4", "test page_to_nid() against pref_nid", 6);
    }

    @Proves("PP-11")
    @Test
    void PP_11_rejects_numaMemIdIgnoresArch() {
        assertRejected(SlippedPagePool.Slip.NUMA_MEM_ID_IGNORES_ARCH, "PP-11", "the CPU's own node, memory or not", 6);
    }

    @Proves("PP-12")
    @Test
    void PP_12_rejects_slowPathOnNapiNode() {
        assertRejected(SlippedPagePool.Slip.SLOW_PATH_ON_NAPI_NODE, "PP-12", "allocate on p.nid", 6);
    }

    /** Every slip differs from the kernel's steps somewhere: PP-13 rejects each one. */
    @Proves("PP-13")
    @Test
    void PP_13_rejects_everySlip() {
        for (SlippedPagePool.Slip slip : SlippedPagePool.Slip.values()) assertRejected(slip, "PP-13", "", 6);
    }
}
