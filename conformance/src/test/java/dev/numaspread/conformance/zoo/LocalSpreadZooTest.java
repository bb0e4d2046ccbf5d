package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.checks.AllChecks;
import dev.numaspread.conformance.checks.Check;
import dev.numaspread.conformance.checks.CheckResult;
import dev.numaspread.conformance.checks.CheckRunner;
import dev.numaspread.conformance.checks.Settings;
import dev.numaspread.conformance.rules.Proves;
import dev.numaspread.conformance.spi.Claim;
import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.spi.ReferenceModel;
import dev.numaspread.model.kernel.KernelRelease;
import dev.numaspread.model.topology.TopoFormat;
import dev.numaspread.model.topology.Topology;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Self-test of the local-spread, NUMA and mlx5 checks, as the Reactive Streams TCK tests itself:
 * every zoo member is rejected by its rule, and the reference model passes every check of the three
 * families.
 */
class LocalSpreadZooTest {

    static final Settings SETTINGS = new Settings(300, 0x5eedL, Duration.ofSeconds(20));
    static final KernelRelease V6_0 = KernelRelease.of(6, 0), V6_12 = KernelRelease.of(6, 12), V6_17 = KernelRelease.of(6, 17);

    static boolean claims(Implementation impl, Check check, KernelRelease k) {
        return impl.claims().contains(new Claim(check.routine(), k));
    }

    /** The first failure of the checks of {@code rule}, or a test failure naming what happened instead. */
    static CheckResult.Failed rejection(Implementation impl, KernelRelease k, String rule) {
        List<String> seen = new ArrayList<>();
        for (Check check : AllChecks.all()) {
            if (!check.rule().equals(rule) || !claims(impl, check, k)) continue;
            CheckResult r = CheckRunner.run(check, impl, k, SETTINGS);
            if (r instanceof CheckResult.Failed f) return f;
            seen.add(check.name() + ": " + r);
        }
        return fail(impl.name() + " on " + k + " was not rejected by " + rule + ": " + seen);
    }

    record Member(Implementation impl, KernelRelease kernel, String rule) {}

    static List<Member> members() {
        return List.of(
                new Member(new Zoo.PossibleMask(), V6_12, "LS-1"),
                new Member(new Zoo.ClassicOrderIn63(), V6_12, "LS-4"),
                new Member(new Zoo.NodeByNode(), V6_12, "LS-6"),
                new Member(new Zoo.CpulessOops(), V6_12, "LS-9"),
                new Member(new Zoo.HopCmpOutOfBounds(), V6_12, "HOP-6"),
                new Member(new Zoo.NotFoundWildPointer(), V6_17, "HOP-7"),
                new Member(new Zoo.NthWithoutOnline(), V6_12, "HOP-7"),
                new Member(new Zoo.NoNodeNotSpecialCased(), V6_12, "HOP-7"),
                new Member(new Zoo.RowZeroLevels(), V6_12, "LVL-1"),
                new Member(new Zoo.CpulessNodesCounted(), V6_12, "LVL-1"),
                new Member(new Zoo.NearestNodeTiesHighest(), V6_12, "HOP-8"),
                new Member(new Zoo.Mlx5HopWalkIn612(), V6_12, "MLX-4"),
                new Member(new Zoo.Mlx5SeedPatchIn612(), V6_12, "MLX-4"),
                new Member(new Zoo.NoWrap(), V6_12, "LS-2"),
                new Member(new Zoo.WrapByPossible(), V6_12, "LS-2"),
                new Member(new Zoo.ProposalTiesHighest(), V6_12, "LS-10"),
                new Member(new Zoo.RingBoundaryOffByOne(), V6_12, "LS-4"),
                new Member(new Zoo.ReturnsOfflineCpu(), V6_12, "LS-1"),
                new Member(new Zoo.ClosestByNodeId(), V6_12, "HOP-5"),
                new Member(new Zoo.Mlx5DistancesFromNode(), V6_0, "MLX-2"),
                new Member(new Zoo.Mlx5PartialResult(), V6_0, "MLX-7"),
                new Member(new Zoo.Mlx5FallbackPastOnline(), V6_0, "MLX-3"),
                new Member(new Zoo.LevelsDescending(), V6_12, "LVL-5"),
                new Member(new Zoo.SncAveragingOnSnc2In70(), KernelRelease.of(7, 0), "LVL-8"),
                new Member(new Zoo.MachineWideMeanIn619(), KernelRelease.of(6, 19), "LVL-8"),
                new Member(new Zoo.SpreadIgnoresArchDistance(), KernelRelease.of(7, 3), "LS-6"),
                new Member(new Zoo.HopMasksIgnoreArchDistance(), KernelRelease.of(7, 3), "HOP-4"),
                new Member(new Zoo.Mlx5WalkIgnoresDistance(), KernelRelease.of(6, 5), "MLX-6"),
                new Member(new Zoo.ClosestLowestId(), KernelRelease.of(7, 3), "HOP-10"));
    }

    @TestFactory
    List<DynamicTest> zooMembersAreRejectedByTheirRule() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Member m : members())
            tests.add(DynamicTest.dynamicTest(m.rule().replace('-', '_') + "_rejects_" + m.impl().name(),
                    () -> rejection(m.impl(), m.kernel(), m.rule())));
        return tests;
    }

    @Test
    @Proves("LS-6")
    void LS_6_counterexampleOfNodeByNodeIsSmall() {
        // Needs the shrinking engine (gen); without it the first failing random machine is reported.
        CheckResult.Failed f = rejection(new Zoo.NodeByNode(), V6_12, "LS-6");
        Topology m = f.violation().machine().orElseThrow();
        assertTrue(m.nodes().size() <= 3 && m.possible().size() <= 8,
                "shrunk counterexample has " + m.nodes().size() + " nodes and " + m.possible().size() + " CPUs; want <= 3 and <= 8");
        // The report's .topo text is the machine: pasted into fixtures/topologies/ it reads back the same.
        assertEquals(m, TopoFormat.read(f.topo().orElseThrow(), "counterexample.topo").topology(), f.topo().orElseThrow());
        assertEquals(f.topo().orElseThrow(), f.shrunk().input());
    }

    /**
     * Issue 9: an implementation that ignores the scheduler's distance is rejected on a machine
     * the checks drew, not only by the SNC scenarios: the failing machine is an SNC-style one.
     * If this fails: do the device checks still draw SNC machines (SncDraws.sometimesSncDevice)?
     */
    @TestFactory
    @Proves({"LS-6", "HOP-4"})
    List<DynamicTest> archDistanceIgnoredIsRejectedOnGeneratedSncMachines() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Member m : List.of(new Member(new Zoo.SpreadIgnoresArchDistance(), KernelRelease.of(7, 3), "LS-6"),
                new Member(new Zoo.HopMasksIgnoreArchDistance(), KernelRelease.of(7, 3), "HOP-4")))
            tests.add(DynamicTest.dynamicTest(m.rule().replace('-', '_') + "_rejects_" + m.impl().name() + "_onAGeneratedSncMachine", () -> {
                CheckResult.Failed f = rejection(m.impl(), m.kernel(), m.rule());
                Topology machine = f.violation().machine().orElseThrow();
                assertTrue(machine.cpuModel().isSncDistanceModel() && machine.maxPackages() > 1 && machine.numNodesPerPackage() >= 3,
                        m.impl().name() + " was rejected on a machine that is not SNC-3: " + f.topo().orElse("?"));
                assertEquals("SncDraws", machine.source(), f.topo().orElse("?"));
            }));
        return tests;
    }

    @TestFactory
    List<DynamicTest> referenceModelPassesEveryCheck() {
        Implementation model = new ReferenceModel();
        Settings few = SETTINGS.withTries(60);
        List<DynamicTest> tests = new ArrayList<>();
        for (String k : new String[]{"4.19", "5.10", "5.15", "6.1", "6.5", "6.12", "6.17", "6.19", "7.3"}) {
            KernelRelease kernel = KernelRelease.parse(k);
            tests.add(DynamicTest.dynamicTest("passes_referenceModel_" + k, () -> {
                List<String> bad = new ArrayList<>();
                int ran = 0;
                for (Check check : AllChecks.all()) {
                    if (!check.name().matches("(LS|LVL|HOP|MLX)_.*") || !claims(model, check, kernel)) continue;
                    ran++;
                    CheckResult r = CheckRunner.run(check, model, kernel, few);
                    if (!ZooVerdicts.passesOrOutOfRange(check, kernel, r)) bad.add(check.name() + ": " + describe(r));
                }
                assertTrue(ran > 0);
                assertTrue(bad.isEmpty(), "kernel " + k + ": " + bad);
            }));
        }
        return tests;
    }

    static String describe(CheckResult r) {
        if (r instanceof CheckResult.Failed f) return f.violation().getMessage();
        if (r instanceof CheckResult.Errored e) return e.cause().toString();
        return r.toString();
    }
}
