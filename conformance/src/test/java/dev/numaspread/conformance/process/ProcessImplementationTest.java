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
import dev.numaspread.model.cpu.CpuSet;
import dev.numaspread.model.group.IrqAffinity;
import dev.numaspread.model.kernel.KernelBug;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.model.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
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
        return fake(mode, "1", timeoutMillis);
    }

    /** {@link FakeProcess} in {@code mode}, answering hello with {@code protocol}, in a JVM of its own ({@link FakeProcessJvm}). */
    static ProcessImplementation fake(String mode, String protocol, long timeoutMillis, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(mode, protocol));
        args.addAll(List.of(more));
        return new ProcessImplementation(FakeProcessJvm.command(args), Duration.ofMillis(timeoutMillis));
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
            assertTrue(e.getMessage().endsWith("request 3 (local-spread): stdout line 3 is not JSON (column 1: Unrecognized token 'this':"
                    + " was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')): 'this is not json';"
                    + " expected one JSON object per line (logs go to stderr)"), e.getMessage());
        }
    }

    /** Found by the second campaign (issue 25): an answer with a key twice was only "not JSON", without the reason. */
    @Test
    void anAnswerWithAKeyTwiceNamesTheKeyAndItsColumn() {
        String hello = "{\"id\":1,\"ok\":true,\"protocol\":1,\"name\":\"twice\",\"claims\":[{\"routine\":\"local-spread\",\"kernel\":\"6.1\"}]}";
        try (ProcessImplementation p = ProcessImplementation.ofShell("read l; echo '" + hello + "'; read l; echo '{\"id\":2,\"ok\":true}'; read l;"
                + " echo '{\"id\":3,\"ok\":true,\"cpus\":[2,3],\"cpus\":[0,1]}'; cat >/dev/null", Duration.ofSeconds(10))) {
            p.askTwice(false);
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().contains("stdout line 3 is not JSON (column 38: Duplicate field 'cpus'): '{\"id\":3,"), e.getMessage());
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

    /**
     * A program that cannot be started judges nothing (exit 1: no rule judged), and the note puts
     * it on the setup, not on the implementation; the command line refuses it before certifying
     * (exit 2, CertifyCommandTest).
     */
    @Test
    void programThatCannotStartIsASetupNoteThatBlamesNoImplementation() {
        try (ProcessImplementation p = new ProcessImplementation(List.of("/nonexistent/spread"), Duration.ofSeconds(5))) {
            Certificate c = certify(p);
            assertEquals(1, c.exitCode());
            assertEquals(List.of("the program could not be started, so nothing was certified (a setup error, not the implementation's):"
                    + " no executable /nonexistent/spread"), c.notes());
        }
    }

    /** Through the shell, a command that is not found is the shell's status 127 before hello; one that runs and fails is not "cannot start". */
    @Test
    void theShellsNotFoundStatusMeansCannotStartAndAProgramThatFailsDoesNot() {
        try (ProcessImplementation p = ProcessImplementation.ofShell("/nonexistent/spread --fast", Duration.ofSeconds(5))) {
            String why = p.cannotStart().orElseThrow();
            assertTrue(why.startsWith("the shell found no such command (exit status 127)"), why);
        }
        try (ProcessImplementation p = ProcessImplementation.ofShell("echo no hello; exit 3", Duration.ofSeconds(5))) {
            assertEquals(java.util.Optional.empty(), p.cannotStart());
        }
    }

    /**
     * spec/protocol.md: a wrong hello "stops certification with an ERROR". The certificate judges
     * no rule and exits 1; junit.xml, which a CI reads instead of the exit code, holds that ERROR
     * (issue 16: it held zero tests and zero errors).
     */
    @Test
    void helloWithoutAProtocolIsAnErrorInJunitXml() {
        try (ProcessImplementation p = fake("good", "none", 20_000)) {
            Certificate c = certify(p);
            assertEquals(1, c.exitCode());
            String xml = dev.numaspread.conformance.report.ReportWriter.junit(c);
            assertTrue(xml.contains(" tests=\"1\" failures=\"0\" errors=\"1\" "), xml);
            assertTrue(xml.contains("<testcase classname=\"numaspread\" name=\"certify\"><error message=\"no rule judged\">"
                    + "the implementation could not state its name and claims: process "), xml);
            assertTrue(xml.contains(": hello answered no protocol; expected the integer protocol the program speaks, 1 to 2</error></testcase>"), xml);
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

    // ------------------------------------------------------------ protocol 2 and its negotiation

    @Test
    void protocolOneProgramIsAskedOneRequestAtATime() {
        try (ProcessImplementation p = fake("good", 20_000)) {
            assertEquals(1, p.protocol());
            assertEquals(1, p.maxConcurrentCalls());
            p.askTwice(true);
            assertEquals("[2, 3, 0, 1, 2]", Arrays.toString(p.localSpreadCpus(K61, TWO_NODES, 1, 5)));
            // hello, topology, the question and its repeat: each in a batch of its own.
            assertEquals(4, p.traffic().requests());
            assertEquals(4, p.traffic().batches());
        }
    }

    @Test
    void protocolTwoProgramGetsTheMachineAndTheQuestionTwiceInOneBatch() {
        try (ProcessImplementation p = fake("good", "2", 20_000)) {
            assertEquals(2, p.protocol());
            assertEquals(ProcessImplementation.MAX_IN_FLIGHT, p.maxConcurrentCalls());
            p.askTwice(true);
            assertEquals("[2, 3, 0, 1, 2]", Arrays.toString(p.localSpreadCpus(K61, TWO_NODES, 1, 5)));
            assertEquals(4, p.traffic().requests());
            assertEquals(2, p.traffic().batches());
        }
    }

    @Test
    void protocolTwoAnswersMayComeInAnyOrder() {
        try (ProcessImplementation p = fake("swap", "2", 20_000)) {
            p.askTwice(true);
            assertEquals("[2, 3, 0, 1, 2]", Arrays.toString(p.localSpreadCpus(K61, TWO_NODES, 1, 5)));
            assertEquals("[0, 1]", Arrays.toString(p.localSpreadCpus(K61, TWO_NODES, 0, 2)));
        }
    }

    @Test
    void protocolOneAnswersOutOfOrderAreAFailure() {
        try (ProcessImplementation p = fake("swap", "1", 20_000)) {
            p.askTwice(true);
            // Protocol 1 asks the repeat only after the first answer, which the swapping program holds back.
            p.setRequestTimeout(Duration.ofMillis(20_000));
            p.claims();
            p.setRequestTimeout(Duration.ofMillis(500));
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 5));
            assertTrue(e.getMessage().contains("request 3 (local-spread): no answer within 500 ms (per-request timeout)"), e.getMessage());
        }
    }

    @Test
    void askedTwiceADifferentAnswerIsNondeterministic() {
        try (ProcessImplementation p = fake("flaky", "2", 20_000)) {
            p.askTwice(true);
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().contains("request 3 (local-spread) is nondeterministic: the same request again (4) was answered "
                    + "{\"ok\":true,\"cpus\":[0,1],\"topologies\":1} after {\"ok\":true,\"cpus\":[3,0],\"topologies\":1};"
                    + " expected the same answer twice"), e.getMessage());
        }
    }

    @Test
    void helloWithAProtocolTheKitDoesNotSpeakStopsCertification() {
        for (String[] c : new String[][]{{"15", "protocol 15"}, {"string", "protocol \"1\""}, {"none", "no protocol"}, {"0", "protocol 0"}}) {
            try (ProcessImplementation p = fake("good", c[0], 20_000)) {
                ImplementationFailure e = assertThrows(ImplementationFailure.class, p::claims);
                assertTrue(e.getMessage().endsWith(": hello answered " + c[1] + "; expected the integer protocol the program speaks, 1 to 2"),
                        e.getMessage());
                // A wrong hello is not retried: the next call fails at once with the same reason.
                assertEquals(e.getMessage(), assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2)).getMessage());
            }
        }
    }

    @Test
    void stringIdIsAFailure() {
        try (ProcessImplementation p = fake("string-id", "2", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().contains("request 3 (local-spread): stdout line 3 has id \"3\"; expected the integer id of a request"),
                    e.getMessage());
        }
    }

    @Test
    void machinesAreSentUnderOpaqueNames() {
        Topology fixture = dev.numaspread.conformance.fixtures.Fixtures.topology("kunpeng920-4node");
        assertEquals("kunpeng920-4node", fixture.name());
        try (ProcessImplementation p = fake("tell-name", "2", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, fixture, 1, 2));
            assertTrue(e.getMessage().endsWith("failed inside the implementation: name=t1 source= notes=[] expect=[]"), e.getMessage());
        }
    }

    @Test
    void opaqueMachineReadsBackAsTheSameMachine() {
        Topology fixture = dev.numaspread.conformance.fixtures.Fixtures.topology("kunpeng920-4node");
        var json = ProgramRun.opaque(fixture, "t7");
        Topology back = dev.numaspread.conformance.json.TopologyJson.fromTree(json, "t7", java.util.Optional.empty()).topology();
        assertEquals("t7", back.name());
        assertEquals("", back.source());
        assertEquals(fixture.online(), back.online());
        assertEquals(fixture.nodes(), back.nodes());
        assertEquals(json, ProgramRun.opaque(back, "t7"));
    }

    @Test
    void controlCharactersFromTheProgramAreEscaped() {
        try (ProcessImplementation p = fake("escapes", "2", 20_000)) {
            assertEquals("fake \\u001b[31mred\\u001b[0m \\u202egnp.exe", p.name());
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().endsWith("failed inside the implementation: bad \\u001b[2J\\u000d\\u000athing \\u202e"), e.getMessage());
            assertFalse(e.getMessage().chars().anyMatch(ch -> ch < 0x20 || ch == 0x202e), e.getMessage());
        }
    }

    @Test
    void stderrIsQuotedEscaped() {
        try (ProcessImplementation p = fake("escapes", "2", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 0, 2));
            assertTrue(e.getMessage().endsWith("exited with status 5; stderr: log \\u001b]0;owned\\u0007 line"), e.getMessage());
        }
    }

    @Test
    void stdoutLineLongerThanTheBoundIsAFailureWithoutReadingIt() {
        try (ProcessImplementation p = fake("long-line", "2", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(e.getMessage().contains("request 3 (local-spread): stdout line 3 is longer than 16 MiB;"
                    + " expected one JSON object per line (logs go to stderr)"), e.getMessage());
        }
    }

    @Test
    void stderrOfAnEarlierRunIsNotQuoted(@org.junit.jupiter.api.io.TempDir Path dir) {
        Path runs = dir.resolve("runs");
        try (ProcessImplementation p = fake("crash-after-hello", "2", 20_000, runs.toString())) {
            ImplementationFailure first = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(first.getMessage().endsWith("exited with status 4; stderr: panic in run 1"), first.getMessage());
            ImplementationFailure second = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertTrue(second.getMessage().endsWith("exited with status 4; stderr: panic in run 2"), second.getMessage());
        }
    }

    @Test
    void afterTwoRunsInARowBreakWithoutAnAnswerTheKitGivesUp(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path runs = dir.resolve("runs");
        try (ProcessImplementation p = fake("crash-after-hello", "2", 20_000, runs.toString())) {
            assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
            for (int k = 0; k < 5; k++) {
                ImplementationFailure e = assertThrows(ImplementationFailure.class, () -> p.localSpreadCpus(K61, TWO_NODES, 1, 2));
                assertTrue(e.getMessage().contains(": the kit gave up on the program: 2 runs in a row broke before answering a routine request;"
                        + " the last: exited with status 4; stderr: panic in run 2"), e.getMessage());
            }
        }
        assertEquals(2, Files.readAllLines(runs).size());
    }

    @Test
    void aRunThatAnsweredResetsTheCount(@org.junit.jupiter.api.io.TempDir Path dir) {
        try (ProcessImplementation p = fake("good", "2", 20_000)) {
            p.localSpreadCpus(K61, TWO_NODES, 1, 2);
            for (int k = 0; k < 3; k++) {
                kill(p);
                try {
                    p.localSpreadCpus(K61, TWO_NODES, 1, 2);
                } catch (ImplementationFailure e) {
                    // the kit learnt of the death only when it wrote the request: that request failed
                    assertTrue(e.getMessage().contains("exited with status 137"), e.getMessage());
                }
                // Every run answered before it broke, so the kit never gives up.
                assertEquals("[2, 3]", Arrays.toString(p.localSpreadCpus(K61, TWO_NODES, 1, 2)));
            }
        }
    }

    /** Stops the program behind the driver's back, as a crash would. */
    static void kill(ProcessImplementation p) {
        ProcessHandle.current().descendants().filter(h -> h.info().commandLine().orElse("").contains(FakeProcess.class.getName()))
                .forEach(h -> {
                    h.destroyForcibly();
                    h.onExit().join();
                });
    }

    // ---------------------------------------------------------------- irq-affinity-masks

    @Test
    void irqAffinityMasksSendsTheSetsAndReadsMaskAndManagedPerVectorOrNull() {
        try (ProcessImplementation p = fake("good", "2", 20_000)) {
            var v = p.irqCreateAffinityMasks(K61, TWO_NODES, 3, 1, 0, List.of(1, 1)).orElseThrow();
            assertEquals(List.of(new IrqAffinity.AffinityDesc(CpuSet.parseList("0-3"), false),
                    new IrqAffinity.AffinityDesc(CpuSet.parseList("0"), true), new IrqAffinity.AffinityDesc(CpuSet.parseList("0"), true)), v);
            assertEquals(java.util.Optional.empty(), p.irqCreateAffinityMasks(K61, TWO_NODES, 1, 1, 0, List.of()));
        }
    }

    @Test
    void irqAffinityMaskThatIsNoCpuListIsAFailure() {
        try (ProcessImplementation p = fake("irq-garbage", 20_000)) {
            ImplementationFailure e = assertThrows(ImplementationFailure.class,
                    () -> p.irqCreateAffinityMasks(K61, TWO_NODES, 2, 0, 0, List.of()));
            assertTrue(e.getMessage().contains("vectors holds the mask '0-'"), e.getMessage());
        }
    }

    // ---------------------------------------------------------------- page pool sessions

    @Test
    void pagePoolIsACreateThenOneRequestPerAction() {
        try (ProcessImplementation p = fake("good", "2", 20_000)) {
            p.askTwice(true);   // a pool is a state machine: its requests go once all the same
            PagePoolSession pool = p.pagePool(K61, TWO_NODES, PagePool.Params.of(1, 2).withSizes(4, 2, 4));
            PagePoolSession.Answer a = pool.apply(Action.alloc());
            assertEquals(new Effect.Served(new Page(0, 1, false), Place.ALLOCATOR, List.of()), a.effect());
            assertEquals("nid 1 cpu 2 | alloc cache - | ptr_ring - | in use 0:1 | page allocator -", a.state().text());
            // hello, the machine, the pool, one action
            assertEquals(4, p.traffic().requests());
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
            assertTrue(e.getMessage().contains("page pool p1 is gone: the program was restarted"), e.getMessage());
        }
    }
}
