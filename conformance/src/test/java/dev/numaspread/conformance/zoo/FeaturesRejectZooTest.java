package dev.numaspread.conformance.zoo;

import dev.numaspread.conformance.spi.Implementation;
import dev.numaspread.conformance.steps.ImplementationUnderTest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Self-test of the features: run against each zoo member, the scenarios of the member's
 * rule fail, and run against the reference model they pass. This shows the scenarios' expected
 * values can fail, and that the glue really calls the implementation under test.
 */
class FeaturesRejectZooTest {

    /** Cucumber's exit status for the scenarios tagged {@code @rule}, run against {@code member}'s implementation. */
    static byte runTagged(LocalSpreadZooTest.Member member, StringBuilder output) {
        return runTagged(member.impl(), "@" + member.rule(), "classpath:numaspread/features", output);
    }

    /**
     * Cucumber's exit status for the scenarios of {@code features} tagged {@code tags}, run against
     * {@code impl}; Cucumber's summary is appended to {@code output}.
     */
    static byte runTagged(Implementation impl, String tags, String features, StringBuilder output) {
        ImplementationUnderTest.install(impl);
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            return io.cucumber.core.cli.Main.run(new String[]{
                    "--glue", "dev.numaspread.conformance.steps", "--tags", tags,
                    "--plugin", "summary", "--monochrome", features},
                    Thread.currentThread().getContextClassLoader());
        } finally {
            System.setOut(out);
            ImplementationUnderTest.reset();
            output.append(captured.toString(StandardCharsets.UTF_8));
        }
    }

    @TestFactory
    List<DynamicTest> everyZooMemberFailsTheScenariosOfItsRule() {
        List<DynamicTest> tests = new ArrayList<>();
        for (LocalSpreadZooTest.Member m : LocalSpreadZooTest.members())
            tests.add(DynamicTest.dynamicTest(m.rule().replace('-', '_') + "_rejects_" + m.impl().getClass().getSimpleName(), () -> {
                StringBuilder out = new StringBuilder();
                assertNotEquals(0, runTagged(m, out), m.impl().name() + " passed every scenario tagged @" + m.rule());
            }));
        return tests;
    }

    /** The grouping and queue-map zoo of 7.x, with the rule whose scenarios must reject each. */
    static List<LocalSpreadZooTest.Member> clusterMembers() {
        dev.numaspread.model.kernel.KernelRelease k = dev.numaspread.model.kernel.KernelRelease.of(7, 3);
        return List.of(
                new LocalSpreadZooTest.Member(new ClustersStableSort(), k, "GRP-15"),
                new LocalSpreadZooTest.Member(new ClustersDealtAsCounted(), k, "GRP-15"),
                new LocalSpreadZooTest.Member(new ClusterStepWhenOutnumbered(), k, "GRP-13"),
                new LocalSpreadZooTest.Member(new NoFallbackForEmptyClusterMask(), k, "GRP-13"),
                new LocalSpreadZooTest.Member(new MasksByNumgrps(), k, "MQ-7"),
                // 6.11's heapsort on 6.9/6.10: only GRP-10's examples on 6.10 tell it apart.
                new LocalSpreadZooTest.Member(new HeapsortTailOf611In69(), dev.numaspread.model.kernel.KernelRelease.of(6, 10), "GRP-10"));
    }

    @TestFactory
    List<DynamicTest> everyClusterZooMemberFailsTheScenariosOfItsRule() {
        List<DynamicTest> tests = new ArrayList<>();
        for (LocalSpreadZooTest.Member m : clusterMembers())
            tests.add(DynamicTest.dynamicTest(m.rule().replace('-', '_') + "_rejects_" + m.impl().getClass().getSimpleName(), () -> {
                StringBuilder out = new StringBuilder();
                assertNotEquals(0, runTagged(m, out), m.impl().name() + " passed every scenario tagged @" + m.rule());
            }));
        return tests;
    }

    @TestFactory
    List<DynamicTest> theReferenceModelPassesTheScenariosOfEachRule() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String rule : new String[]{"LS-6", "HOP-7", "MLX-3", "GRP-10", "GRP-13", "GRP-15", "MQ-7", "MQ-8", "MQ-9", "MQ-10"})
            tests.add(DynamicTest.dynamicTest(rule.replace('-', '_') + "_passes_referenceModel", () -> {
                StringBuilder out = new StringBuilder();
                byte status = runTagged(new LocalSpreadZooTest.Member(new dev.numaspread.conformance.spi.ReferenceModel(), null, rule), out);
                assertEquals(0, status, out.toString());
            }));
        return tests;
    }
}
