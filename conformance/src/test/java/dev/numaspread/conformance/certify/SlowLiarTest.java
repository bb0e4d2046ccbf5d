package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Tries are a promise (issue 16): a slow implementation that lies only on small machines got
 * "PASS LS-3 tries 6" when the time budget cut 200 tries to 6. A rule is PASS only after every
 * try it names; a budget that cuts them short makes it NOT-VERIFIED, and says how to raise it.
 */
class SlowLiarTest {

    /** The model's local spread, except on machines of at most 6 CPUs and 2+ nodes: there node by id. Slow when asked to be. */
    static final class SlowLiar implements Implementation {
        final long sleepMillis;
        final ReferenceModel model = new ReferenceModel();

        SlowLiar(long sleepMillis) {
            this.sleepMillis = sleepMillis;
        }

        @Override public String name() { return "slow liar"; }
        @Override public List<Claim> claims() { return List.of(Claim.of("local-spread", "6.12")); }

        @Override public int[] localSpreadCpus(KernelRelease kernel, Topology machine, int node, int count) {
            try {
                Thread.sleep(sleepMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            boolean small = machine.possible().size() <= 6 && machine.nodes().size() >= 2;
            return model.localSpreadCpus(kernel, machine, small && node >= 0 ? machine.nodeIds()[0] : node, count);
        }
    }

    static Certificate certify(Implementation impl, Duration budget) {
        Certifier kit = new Certifier(RuleRegistry.load(), AllChecks::all, FeatureSuite.none(), () -> LocalDate.of(2026, 6, 1));
        return kit.certify(impl, CertifyOptions.defaults("java:SlowLiar").withRule("LS-3").withRepeatCalls(false)
                .withSettings(new Settings(200, 0x5eed, budget)));
    }

    @Test
    void LS_3_aBudgetThatCutsTheTriesShortIsNotVerifiedNeverPass() {
        Certificate c = certify(new SlowLiar(150), Duration.ofSeconds(1));
        RuleResult r = c.results().stream().filter(x -> x.rule().equals("LS-3")).findFirst().orElseThrow();
        Verdict.NotVerified n = assertInstanceOf(Verdict.NotVerified.class, r.verdict(), r.toString());
        assertTrue(n.reason().matches("check LS_3_localCpusComeFirst: \\d+ of 200 tries ran in the 1 s budget;"
                + " raise it with --budget SECONDS \\(or -Dnumaspread.budget.seconds\\)"), n.reason());
        assertEquals(1, c.exitCode());
        assertEquals("none", c.levelReached());
    }

    @Test
    void LS_3_theSameLiarWithTheTimeForEveryTryFails() {
        Certificate c = certify(new SlowLiar(0), Duration.ofSeconds(60));
        RuleResult r = c.results().stream().filter(x -> x.rule().equals("LS-3")).findFirst().orElseThrow();
        Verdict.Fail f = assertInstanceOf(Verdict.Fail.class, r.verdict(), r.toString());
        assertTrue(f.counterexample().machine().orElseThrow().contains("available: 2 nodes"), f.counterexample().machine().get());
    }
}
