package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.rules.Rule;
import dev.numaspread.conformance.rules.RuleRegistry;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.model.kernel.KernelRelease;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Self-test of the levels, as the Reactive Streams TCK proves itself: implementations that keep
 * every MUST rule and differ from the kernel only in EXACT matters ({@link ExactZoo}) are certified
 * by the whole kit (checks and scenarios) and must reach level MUST, fail EXACT rules only, and
 * fail at least the rules of their difference. A MUST rule that rejects one of them asks for more
 * than its text says. Every failure, of this zoo and of the known-bad one, quotes a sentence of the
 * rule it names.
 */
class ExactZooTest {

    static final Settings SETTINGS = new Settings(60, 0x5eedL, Duration.ofSeconds(30));
    static final RuleRegistry RULES = RuleRegistry.load();

    record Member(Implementation impl, Set<String> fails) {
        Member(Implementation impl, String... fails) {
            this(impl, Set.of(fails));
        }
    }

    static List<Member> members() {
        return List.of(
                new Member(new ExactZoo.RingsDescending(), "LS-6", "LS-7", "LS-8", "HOP-7", "MLX-4", "MLX-5"),
                new Member(new ExactZoo.RingsNodeByNode(), "LS-6"),
                new Member(new ExactZoo.ClosestHighestId(), "HOP-9", "MLX-2"),
                new Member(new ExactZoo.CpulessTiesToHighest(), "HOP-8", "LS-9"),
                new Member(new ExactZoo.CpulessLevelsCounted(), "LVL-1"),
                new Member(new ExactZoo.HopsWithoutRepeats(), "HOP-4"),
                new Member(new ExactZoo.GroupsNumberedByFirstCpu(), "GRP-10", "MQ-8"),
                new Member(new ExactZoo.GroupTiesByNodeId(), "GRP-10"),
                new Member(new ExactZoo.ClusterTiesAsCounted(), "GRP-15"),
                new Member(new ExactZoo.ClustersInCountedOrder(), "GRP-15"),
                new Member(new ExactZoo.MasksIndexedByNumgrps(), "MQ-7", "MQ-8"),
                new Member(new ExactZoo.HwcOnSiblingThread(), "SIB-12"),
                new Member(new ExactZoo.CoresDescending(), "SIB-5", "SIB-10", "SIB-12"));
    }

    static Certificate certify(Implementation impl, CertifyOptions options) {
        return Certifier.standard().certify(impl, options.withSettings(SETTINGS));
    }

    @TestFactory
    List<DynamicTest> everyMemberReachesMustAndFailsOnlyExactRules() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Member m : members())
            tests.add(DynamicTest.dynamicTest("reachesMust_" + m.impl().getClass().getSimpleName(), () -> {
                Certificate c = certify(m.impl(), CertifyOptions.defaults("java:" + m.impl().getClass().getName()));
                List<String> wrong = new ArrayList<>();
                Set<String> failed = new TreeSet<>();
                for (RuleResult r : c.results()) {
                    if (r.kernel().isEmpty()) continue;                          // NOT-CLAIMED
                    Verdict v = r.verdict();
                    boolean exact = r.level().equals("EXACT");
                    if (v instanceof Verdict.Fail) {
                        failed.add(r.rule());
                        if (!exact) wrong.add(ConsoleCertificate.render(c, r));
                        else assertQuotes(c, r);
                    } else if (!(v instanceof Verdict.Pass) && !exact) wrong.add(ConsoleCertificate.render(c, r));
                    else if (v instanceof Verdict.Error) wrong.add(ConsoleCertificate.render(c, r));
                }
                long must = c.results().stream().filter(r -> r.kernel().isPresent() && r.level().equals("MUST")).count();
                System.out.printf("%-28s claims %-60s MUST passed %3d; EXACT failed %s%n", m.impl().getClass().getSimpleName(),
                        m.impl().claims().stream().map(Object::toString).toList(), must, failed);
                assertEquals(List.of(), wrong, m.impl().name() + ": a MUST rule did not pass, or a rule errored");
                assertEquals("contract", c.levelReached(), m.impl().name() + "\n" + ConsoleCertificate.render(c));
                assertTrue(failed.containsAll(m.fails()), m.impl().name() + " should fail " + m.fails() + "; failed " + failed);
            }));
        return tests;
    }

    /** The failures of the known-bad zoo quote a sentence of their rule too, whatever the rule. */
    @TestFactory
    List<DynamicTest> everyFailureOfTheKnownBadZooQuotesItsRule() {
        List<DynamicTest> tests = new ArrayList<>();
        List<Object[]> bad = new ArrayList<>();
        for (LocalSpreadZooTest.Member m : LocalSpreadZooTest.members()) bad.add(new Object[]{m.impl(), m.kernel(), m.rule()});
        bad.add(new Object[]{new StageTwoFromGroupZero(), KernelRelease.of(6, 12), "GRP-7"});
        bad.add(new Object[]{new SiblingsSplit(), KernelRelease.of(6, 12), "GRP-5"});
        bad.add(new Object[]{new NodeWithoutGroup(), KernelRelease.of(6, 12), "GRP-3"});
        bad.add(new Object[]{new NullFallbackToQueueZero(), KernelRelease.of(6, 16), "MQ-5"});
        bad.add(new Object[]{new SingleCpuInsteadOfSiblingMask(), KernelRelease.of(6, 9), "SIB-1"});
        bad.add(new Object[]{new HwcNeverSharesACore(), KernelRelease.of(6, 12), "SIB-9"});
        bad.add(new Object[]{new UnlockedSetup(), KernelRelease.of(6, 9), "HP-2"});
        for (Object[] b : bad) {
            Implementation impl = (Implementation) b[0];
            KernelRelease k = (KernelRelease) b[1];
            String rule = (String) b[2];
            tests.add(DynamicTest.dynamicTest(rule.replace('-', '_') + "_quotedBy_" + impl.getClass().getSimpleName(), () -> {
                Certificate c = Certifier.standard().certify(impl, CertifyOptions.defaults("java:x").withKernel(k).withRule(rule)
                        .withSettings(SETTINGS.withTries(300)));
                RuleResult r = c.results().stream().filter(x -> x.rule().equals(rule) && x.kernel().isPresent()).findFirst()
                        .orElseThrow(() -> new AssertionError(rule + " not judged for " + impl.name() + ":\n" + ConsoleCertificate.render(c)));
                assertTrue(r.verdict() instanceof Verdict.Fail, impl.name() + " should fail " + rule + ":\n" + ConsoleCertificate.render(c, r));
                assertQuotes(c, r);
            }));
        }
        return tests;
    }

    /** The failure of {@code r}, as the certificate prints it, quotes a sentence of its rule's statement. */
    static void assertQuotes(Certificate c, RuleResult r) {
        Rule rule = RULES.byId(r.rule()).orElseThrow();
        String text = ConsoleCertificate.render(c, r);
        assertTrue(rule.isQuotedIn(text), r.rule() + ": the failure quotes no sentence of the rule " + rule.sentences() + ":\n" + text);
    }
}
