package dev.numaspread.conformance.certify;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import dev.numaspread.conformance.process.ProcessImplementation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Java implementations that misbehave in ways no rule describes (issue 25): each must end in ERROR
 * or a refused certification with its reason, never in PASS, never blamed on the kit (exit 3).
 * What is asserted is the certificate, so the tests hold however the guard makes its calls.
 */
class MisbehavingImplementationsTest {

    static final KernelRelease K612 = KernelRelease.of(6, 12);
    static final Claim LOCAL_SPREAD_612 = Claim.of("local-spread", "6.12");

    static Certificate certify(Implementation impl, String rule) {
        Certifier kit = new Certifier(RuleRegistry.load(), AllChecks::all, FeatureSuite.none(), () -> LocalDate.of(2026, 6, 1));
        return kit.certify(impl, CertifyOptions.defaults("java:misbehaving").withRule(rule).withKernel(K612)
                .withSettings(new Settings(30, 0x5eedL, Duration.ofSeconds(20))));
    }

    static RuleResult only(Certificate c) {
        assertEquals(1, c.claimed().size(), c.results().toString());
        return c.claimed().get(0);
    }

    /** The reference model's local spread for 6.12, under another name and one claim. */
    static class ModelSpread implements Implementation {
        final ReferenceModel model = new ReferenceModel();

        @Override public String name() { return "model-spread"; }

        @Override public List<Claim> claims() { return List.of(LOCAL_SPREAD_612); }

        @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
            return model.localSpreadCpus(k, m, node, count);
        }
    }

    /**
     * Found by the second campaign: one buffer for every answer, a wrong one on the first call and
     * the right one on the second. The kit compared the buffer with itself and judged the right
     * answer: PASS.
     */
    @Test
    void anAnswerInABufferThatTheNextCallRewritesIsSeenAsItWasReturned() {
        class OneBuffer extends ModelSpread {
            int[] buffer = new int[0];
            int calls;

            @Override public synchronized int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
                int[] right = super.localSpreadCpus(k, m, node, count);
                if (buffer.length != count) buffer = new int[count];
                System.arraycopy(right, 0, buffer, 0, count);
                if (calls++ % 2 == 0) Arrays.fill(buffer, right[count - 1]);   // the first of each pair: every queue on one CPU
                return buffer;
            }
        }
        RuleResult r = only(certify(new OneBuffer(), "LS-3"));
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, r.verdict(), r.toString());
        assertTrue(e.reason().contains(" is nondeterministic: first ["), e.reason());
    }

    /** The first answer is reported as it was returned, not as the implementation overwrote it later. */
    @Test
    void aScribbleOverTheFirstAnswerIsNotReportedAsTheFirstAnswer() {
        class Scribbler extends ModelSpread {
            int[] previous;

            @Override public synchronized int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
                if (previous != null) Arrays.fill(previous, 99_999);
                int[] right = super.localSpreadCpus(k, m, node, count);
                int[] answer = previous == null ? right : right.clone();
                if (previous != null && answer.length > 1) answer[0] = answer[1];   // the second differs
                previous = answer;
                return answer;
            }
        }
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, only(certify(new Scribbler(), "LS-3")).verdict());
        assertTrue(e.reason().contains("nondeterministic: first ["), e.reason());
        assertTrue(!e.reason().contains("99999"), "the scribble is shown as an answer: " + e.reason());
    }

    /**
     * Found by the second campaign: a spread that answers only on one-node machines, where any
     * order of the node's CPUs is right, and throws the kit's NotClaimedCall elsewhere got PASS
     * LS-3 with 6 of 30 tries judged.
     */
    @Test
    void aClaimedCallRefusedWithTheKitsNotClaimedCallIsAnError() {
        class Dodger extends ModelSpread {
            @Override public int[] localSpreadCpus(KernelRelease k, Topology m, int node, int count) {
                if (m.nodes().size() > 1) throw new NotClaimedCall(LOCAL_SPREAD_612);
                return super.localSpreadCpus(k, m, node, count);
            }
        }
        RuleResult r = only(certify(new Dodger(), "LS-3"));
        Verdict.Error e = assertInstanceOf(Verdict.Error.class, r.verdict(), r.toString());
        assertTrue(e.reason().startsWith("the implementation claims local-spread for kernel 6.12 but refused localSpreadCpus(node="), e.reason());
        assertTrue(e.reason().endsWith(": it threw the kit's NotClaimedCall (calls local-spread for kernel 6.12, which is not claimed);"
                + " expected an answer to every call of a claimed routine"), e.reason());
    }

    @Test
    void aNullNameIsTheImplementationsErrorNotTheKits() {
        Certificate c = certify(new ModelSpread() {
            @Override public String name() { return null; }
        }, "LS-3");
        assertEquals(1, c.exitCode());
        assertEquals(List.of("the implementation could not state its name and claims: name() returned null; expected the"
                + " implementation's name"), c.notes());
    }

    @Test
    void nullClaimsAreTheImplementationsErrorWithAReason() {
        Certificate c = certify(new ModelSpread() {
            @Override public List<Claim> claims() { return null; }
        }, "LS-3");
        assertEquals(1, c.exitCode());
        assertEquals(List.of("the implementation could not state its name and claims: claims() returned null; expected a list of"
                + " claims (empty for none)"), c.notes());
        Certificate holes = certify(new ModelSpread() {
            @Override public List<Claim> claims() { return Arrays.asList(LOCAL_SPREAD_612, null); }
        }, "LS-3");
        assertEquals(List.of("the implementation could not state its name and claims: claims() holds null at index 1; expected a"
                + " routine and a release each"), holes.notes());
    }

    /**
     * Found by the second campaign: a claim of 7.4 beside a modelled one gave a PASS certificate
     * listing a claim nothing checked, and alone an INTERNAL-ERROR blamed on the kit.
     */
    @Test
    void aClaimOfAReleaseThatIsNotModelledIsRefusedNamingTheModelledRange() {
        for (String release : List.of("7.4", "99.99", "2.6")) {
            String[] v = release.split("\\.");
            Claim unmodelled = new Claim(Routine.LOCAL_SPREAD, KernelRelease.of(Integer.parseInt(v[0]), Integer.parseInt(v[1])));
            Certificate c = certify(new ModelSpread() {
                @Override public List<Claim> claims() { return List.of(LOCAL_SPREAD_612, unmodelled); }
            }, "LS-3");
            assertEquals(1, c.exitCode(), release);
            assertTrue(c.claimed().isEmpty(), release);
            assertEquals(1, c.notes().size(), c.notes().toString());
            assertTrue(c.notes().get(0).startsWith("the implementation could not state its name and claims: claims() holds local-spread@"
                    + release + ": kernel release '" + release + "' "), c.notes().get(0));
            assertTrue(c.notes().get(0).endsWith("; expected 4.1 to " + KernelRelease.NEWEST + " (the newest modelled release is " + KernelRelease.NEWEST + ")"), c.notes().get(0));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Claim.of("local-spread", "7.4"));
        assertEquals("kernel release '7.4' is not modelled yet; expected 4.1 to 7.3 (the newest modelled release is 7.3)", e.getMessage());
    }

    /** Over the protocol the claim is refused at hello, with the same reason. */
    @Test
    @EnabledOnOs(OS.LINUX)
    void aHelloClaimingAReleaseThatIsNotModelledIsRefusedAtHello() {
        String hello = "{\"id\":1,\"ok\":true,\"protocol\":2,\"name\":\"old\",\"claims\":[{\"routine\":\"local-spread\",\"kernel\":\"6.12\"},"
                + "{\"routine\":\"local-spread\",\"kernel\":\"2.6\"}]}";
        try (ProcessImplementation p = ProcessImplementation.ofShell("read l; echo '" + hello + "'; cat >/dev/null", Duration.ofSeconds(10))) {
            Certificate c = certify(p, "LS-3");
            assertEquals(1, c.exitCode());
            assertEquals(1, c.notes().size(), c.notes().toString());
            assertTrue(c.notes().get(0).contains(": hello claim {\"routine\":\"local-spread\",\"kernel\":\"2.6\"}: kernel release '2.6' is before 4.1,"
                    + " where cpumask_local_spread appeared; expected 4.1 to " + KernelRelease.NEWEST), c.notes().get(0));
        }
    }

    /** A modelled release in which no rule of the routine applies: hop masks came in 6.3, so a claim of 5.4 is checked by nothing. */
    @Test
    void aClaimThatNoRuleJudgesIsNotListedAsCertified() {
        Certifier kit = new Certifier(RuleRegistry.load(), AllChecks::all, FeatureSuite.none(), () -> LocalDate.of(2026, 6, 1));
        Certificate c = kit.certify(new ModelSpread() {
            @Override public List<Claim> claims() { return List.of(LOCAL_SPREAD_612, Claim.of("hop-masks", "5.4")); }
        }, CertifyOptions.defaults("java:misbehaving").withKernel(KernelRelease.of(5, 4)).withSettings(new Settings(5, 0x5eedL, Duration.ofSeconds(20))));
        assertEquals(1, c.exitCode());
        assertEquals(List.of(), c.claims());
        assertEquals(List.of("not certified: hop-masks@5.4, claimed for a release in which no rule of the routine applies"
                + " (numaspread rules lists each rule's releases)"), c.notes());
    }
}
