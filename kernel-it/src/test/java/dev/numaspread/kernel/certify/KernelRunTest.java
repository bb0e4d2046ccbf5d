package dev.numaspread.kernel.certify;

import dev.numaspread.conformance.certify.Certificate;
import dev.numaspread.conformance.certify.Certifier;
import dev.numaspread.conformance.certify.CertifyOptions;
import dev.numaspread.conformance.certify.RuleResult;
import dev.numaspread.conformance.certify.Verdict;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.gen.Shard;
import dev.numaspread.conformance.report.ConsoleCertificate;
import dev.numaspread.conformance.spi.Routine;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The booted-machine mode of the certifier, end to end, on stand-in kernels ({@link ModelKernel}):
 * the certificate of a kernel judged as its own release, and as another release.
 */
class KernelRunTest {

    static final KernelRelease K73 = KernelRelease.of(7, 3);

    static Certificate certify(ModelKernel kernel, Optional<KernelRelease> as, int machines, int tries, Optional<String> rule) {
        Settings s = Settings.defaults().withTries(tries).withBudget(Duration.ofSeconds(120));
        try (KernelRun run = KernelRun.boot(kernel, as, s, machines, Optional.empty(), 2, Duration.ofSeconds(30), line -> {})) {
            CertifyOptions o = CertifyOptions.defaults("kernel:model-" + kernel.series()).withSettings(run.settings());
            if (as.isPresent()) o = o.withKernel(as.get());
            if (rule.isPresent()) o = o.withRule(rule.get());
            return run.annotate(Certifier.standard().certify(run.implementation(), o));
        }
    }

    static RuleResult result(Certificate c, String rule) {
        return c.results().stream().filter(r -> r.rule().equals(rule)).findFirst()
                .orElseThrow(() -> new AssertionError("no result for " + rule + "\n" + ConsoleCertificate.render(c)));
    }

    /**
     * A kernel answering as its own release passes every rule of what the probe answers that a booted
     * machine can show, HP-6 (group_cpus_evenly called from a CPU hotplug callback) included; NIC
     * drivers and the 2020 proposal are NOT-CLAIMED with the reason.
     */
    @Test
    void aKernelAnsweringAsItsReleasePassesWhatABootedMachineShows() {
        Certificate c = certify(new ModelKernel(K73), Optional.empty(), 6, 80, Optional.empty());
        String text = ConsoleCertificate.render(c);
        for (RuleResult r : c.claimed()) {
            assertTrue(r.verdict() instanceof Verdict.Pass, r.rule() + " " + r.verdict().label() + "\n" + text);
            assertTrue(r.judged() > 0, r.rule() + "\n" + text);
        }
        for (String rule : List.of("MQ-8", "GRP-10", "LS-6", "HOP-4", "LVL-1"))
            assertTrue(result(c, rule).machines() >= 2, rule + " judged on fewer than 2 booted machines\n" + text);
        assertTrue(result(c, "SIB-1").verdict() instanceof Verdict.NotClaimed n && n.reason().contains("MANA"), text);
        assertTrue(result(c, "PP-1").verdict() instanceof Verdict.NotClaimed n && n.reason().contains("page pool"), text);
        assertTrue(result(c, "LS-10").verdict() instanceof Verdict.NotClaimed n && n.reason().contains("no kernel merged"), text);
        assertTrue(text.contains("scenarios not run: QEMU cannot build its machine: an L2 cluster of several cores"), text);
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("booted 6 machines with Linux 7.3.0-model")), text);
        Set<Routine> claimed = new HashSet<>();
        c.claims().forEach(x -> claimed.add(x.routine()));
        assertEquals(Set.of(Routine.LOCAL_SPREAD, Routine.NUMA_LEVELS, Routine.HOP_MASKS, Routine.NUMA_NTH, Routine.NUMA_CLOSEST,
                Routine.NUMA_NEAREST_NODE, Routine.GROUP_CPUS, Routine.BLK_MQ_MAP, Routine.IRQ_AFFINITY_MASKS), claimed);
    }

    /**
     * A 6.12 kernel judged as 7.3 ({@code --kernel 7.3}) fails 7.0's cluster-aware grouping on an SMT
     * machine (an x86 core's threads share its L2, so a core is a cluster), with the machine and the
     * QEMU command line that boots it.
     */
    @Test
    void GRP_15_rejects_aKernelJudgedAsALaterRelease() {
        Certificate c = certify(new ModelKernel(KernelRelease.of(6, 12)), Optional.of(K73), 6, 60, Optional.of("GRP-15"));
        String text = ConsoleCertificate.render(c);
        RuleResult r = result(c, "GRP-15");
        assertTrue(r.verdict() instanceof Verdict.Fail, text);
        assertTrue(text.contains("judged as 7.3"), text);
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("FAIL GRP-15: boot its machine with: (model) -smp")), text);
    }

    /** Shards split the machines: each boots those whose ordinal it owns, and none is left without one. */
    @Test
    void shardsSplitTheMachines() {
        List<Topology> all = QemuMachines.draw(0x5eedL, 5);
        List<Topology> first = KernelRun.shareOf(all, new Shard(1, 2)), second = KernelRun.shareOf(all, new Shard(2, 2));
        assertEquals(List.of(all.get(0), all.get(2), all.get(4)), first);
        assertEquals(List.of(all.get(1), all.get(3)), second);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelRun.shareOf(all, new Shard(6, 6)));
        assertEquals("--shard 6/6: 5 machines leave this shard none; expected --machines at least the shard count 6", e.getMessage());
        assertFalse(first.isEmpty());
    }
}
