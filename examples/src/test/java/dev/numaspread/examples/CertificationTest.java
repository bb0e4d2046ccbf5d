package dev.numaspread.examples;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.checks.Settings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The example certified through the kit, 100 tries per property: the {@link Certifier} (every
 * check and scenario of every claimed rule) as {@code numaspread certify} runs it, and every claimed
 * rule must be accepted. A failure names the rule, the release and the verdict with its call,
 * counterexample and seed.
 *
 * <p>Each check once: a second pass that ran every check again through {@code CheckRunner}, one
 * test per check and claim, judged the same inputs a second time (same seed, same tries) and was
 * a quarter of its module's test CPU (benchmarks/README.md, "mvn verify").
 */
class CertificationTest {
    private static final Settings SETTINGS = Settings.defaults().withTries(100);

    @Test
    void certifierAcceptsEveryClaim() {
        KernelStyleSpread example = new KernelStyleSpread();
        Certificate c = Certifier.standard().certify(example, CertifyOptions.defaults("example").withSettings(SETTINGS));
        List<String> problems = new ArrayList<>();
        for (RuleResult r : c.claimed()) {
            if (r.isAccepted()) continue;
            problems.add(r.verdict().label() + " " + r.rule() + " on Linux " + r.kernel().map(Object::toString).orElse("?") + ": " + r.verdict());
        }
        assertEquals(List.of(), problems, "certificate counts " + c.counts() + "; notes " + c.notes());
        // Issue 27: each NIC driver's rules claimed and accepted for the releases people run (spec/nic.md;
        // gve and ice change rules at 6.17 and 6.15).
        List<String> nic = new ArrayList<>();
        for (String k : List.of("6.1", "6.12", "7.3")) {
            boolean late = k.equals("7.3");
            for (String rule : List.of("NIC-1", "NIC-2", "NIC-3", "NIC-4", late ? "NIC-6" : "NIC-5", late ? "NIC-8" : "NIC-7", "NIC-9", "NIC-10", "NIC-11"))
                nic.add(rule + " on Linux " + k);
        }
        List<String> accepted = c.claimed().stream().filter(RuleResult::isAccepted)
                .map(r -> r.rule() + " on Linux " + r.kernel().map(Object::toString).orElse("?")).toList();
        assertEquals(List.of(), nic.stream().filter(x -> !accepted.contains(x)).toList(), "NIC rules not claimed and accepted");
    }
}
