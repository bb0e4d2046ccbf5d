package dev.numaspread.conformance.process;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.FeatureSuite;
import dev.numaspread.conformance.spi.ImplementationFailure;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.checks.Violation;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.PagePoolSession;
import dev.numaspread.model.pagepool.Action;
import dev.numaspread.model.pagepool.Effect;
import dev.numaspread.model.pagepool.Page;
import dev.numaspread.model.pagepool.PagePool;
import dev.numaspread.model.pagepool.Place;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The protocol driver against {@link FakeProcess}, a fake implementation run as a real process. */
class ProcessImplementationTest {

    static final Topology TWO_NODES = TopologyBuilder.machine("two-nodes").node(0, "0-1").node(1, "2-3")
            .distances(new int[]{10, 20}, new int[]{20, 10}).build();
    static final KernelRelease K61 = KernelRelease.of(6, 1);

    static ProcessImplementation fake(String mode, long timeoutMillis) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessImplementation(List.of(java, "-cp", System.getProperty("java.class.path"),
                FakeProcess.class.getName(), mode), Duration.ofMillis(timeoutMillis));
    }

    @Test
    void helloGivesNameAndClaims() {
        try (ProcessImplementation p = fake("good", 20_000)) {
            assertEquals("fake good", p.name());
            assertEquals(List.of(Claim.of("local-spread", "6.1")), p.claims());
        }
    }

    @Test
    void localSpreadIsOneBatchedRequestAndTheMachineIsRegisteredOnce() {
        try (ProcessImplementation p = fake("good", 20_000)) {
            assertEquals("[2, 3, 0, 1, 2]", Arrays.toString(p.localSpreadCpus(K61, TWO_NODES, 1, 5)));
            assertEquals("[0, 1]", Arrays.toString(p.localSpreadCpus(K61, TWO_NODES, 0, 2)));
        }
    }

    @Test
    void unsupportedOpIsUnsupportedOperation() {
        try (ProcessImplementation p = fake("good", 20_000)) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> p.groupCpusEvenly(K61, TWO_NODES, 2));
            assertEquals("group-cpus: only local-spread", e.getMessage());
        }
    }

    @Test
    void garbageOnStdoutIsAFailureNamingTheLine() {
        try (ProcessImplementation p = fake("garbage", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().endsWith("request 3 (local-spread): stdout line 3 is not JSON: 'this is not json';"
                    + " expected one JSON object per line (logs go to stderr)"), e.getMessage());
        }
    }

    @Test
    void crashIsAFailureWithExitStatusAndStderr() throws Exception {
        try (ProcessImplementation p = fake("crash", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().contains("request 3 (local-spread): exited with status 3"), e.getMessage());
            assertTrue(e.getMessage().endsWith("exited with status 3; stderr: panic: masks"), e.getMessage());
            // The next request starts the process again: hello and the machine once more.
            assertEquals("fake crash", p.name());
        }
    }

    @Test
    void hangIsAFailureAfterTheRequestTimeout() {
        try (ProcessImplementation p = fake("hang", 20_000)) {
            p.claims(); // hello within the generous timeout: the JVM starts slowly
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> withTimeout(p, 300).localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().contains("no answer within 300 ms (per-request timeout)"), e.getMessage());
        }
    }

    /** The same process, with a shorter per-request timeout from now on. */
    static ProcessImplementation withTimeout(ProcessImplementation p, long millis) {
        p.setRequestTimeout(Duration.ofMillis(millis));
        return p;
    }

    @Test
    void answerToAnotherRequestIsAFailure() {
        try (ProcessImplementation p = fake("wrong-id", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().contains("answered id 4; expected id 3 (answers come in request order)"), e.getMessage());
        }
    }

    @Test
    void internalErrorIsAFailure() {
        try (ProcessImplementation p = fake("internal", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().endsWith("request 3 (local-spread) failed inside the implementation: index out of range"),
                    e.getMessage());
        }
    }

    @Test
    void kernelBugAnswerIsAKernelBug() {
        try (ProcessImplementation p = fake("oops", 20_000)) {
            KernelBug e = assertThrows(KernelBug.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertEquals("oops", e.kind());
            assertEquals("oops: NULL masks", e.getMessage());
        }
    }

    static final Check WRAP = Check.of("LS-2", Routine.LOCAL_SPREAD, "LS_2_wrap", ctx -> {
        int[] r = ctx.implementation().localSpreadCpus(ctx.kernel(), TWO_NODES, 1, 5);
        if (r[4] != r[0]) throw Violation.of("LS-2", "localSpread(i=4, node=1)", "cpu " + r[0], "cpu " + r[4]);
    });

    static Certificate certify(ProcessImplementation p) {
        RuleRegistry rules = RuleRegistry.parse(new java.util.TreeMap<>(Map.of("spec/local-spread.md",
                "### LS-2 The wrap uses the online count\nlevel: MUST; kernels: all; sources: test\n")));
        return new Certifier(rules, () -> List.of(WRAP), FeatureSuite.none(), () -> LocalDate.of(2026, 6, 1))
                .certify(p, CertifyOptions.defaults("process:fake").withSettings(new Settings(5, 1, Duration.ofSeconds(5))));
    }

    @Test
    void programThatCannotStartIsANoteAndExitOne() {
        try (ProcessImplementation p = new ProcessImplementation(List.of("/nonexistent/spread"), Duration.ofSeconds(5))) {
            Certificate c = certify(p);
            assertEquals(1, c.exitCode());
            assertEquals(1, c.notes().size());
            assertTrue(c.notes().get(0).startsWith("the implementation could not state its name and claims: process /nonexistent/spread: cannot start: "),
                    c.notes().get(0));
        }
    }

    @Test
    void certifierPassesAGoodProcess() {
        try (ProcessImplementation p = fake("good", 20_000)) {
            Certificate c = certify(p);
            assertEquals("PASS", c.results().get(0).verdict().label());
            assertEquals(0, c.exitCode());
        }
    }

    @Test
    void certifierGivesErrorForACrashingProcess() {
        try (ProcessImplementation p = fake("crash", 20_000)) {
            Certificate c = certify(p);
            Verdict.Error e = assertInstanceOf(Verdict.Error.class, c.results().get(0).verdict());
            assertTrue(e.reason().contains("exited with status 3"), e.reason());
            assertEquals(1, c.exitCode());
        }
    }

    // ---------------------------------------------------------------- page pool sessions

    @Test
    void pagePoolIsACreateThenOneRequestPerAction() {
        try (ProcessImplementation p = fake("good", 20_000)) {
            PagePoolSession pool = p.pagePool(K61, TWO_NODES, PagePool.Params.of(1, 2).withSizes(4, 2, 4));
            PagePoolSession.Answer a = pool.apply(Action.alloc());
            assertEquals(new Effect.Served(new Page(0, 1, false), Place.ALLOCATOR, List.of()), a.effect());
            assertEquals("nid 1 cpu 2 | alloc cache - | ptr_ring - | in use 0:1 | page allocator -", a.state().text());
        }
    }

    @Test
    void pagePoolAnswerTheKitCannotReadIsAFailure() {
        try (ProcessImplementation p = fake("pool-garbage", 20_000)) {
            PagePoolSession pool = p.pagePool(K61, TWO_NODES, PagePool.Params.of(1, 2));
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> pool.apply(Action.alloc()));
            assertTrue(e.getMessage().contains("did.what is 'exploded'; expected served, put, updated or unchanged"), e.getMessage());
        }
    }

    @Test
    void pagePoolOfARestartedProcessIsGone() {
        try (ProcessImplementation p = fake("crash", 20_000)) {
            PagePoolSession pool = p.pagePool(K61, TWO_NODES, PagePool.Params.of(1, 2));
            assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> pool.apply(Action.alloc()));
            assertTrue(e.getMessage().contains("page pool p1 is gone: the process was restarted"), e.getMessage());
        }
    }
}
