package dev.numaspread.cli;

import dev.numaspread.conformance.bundle.Bundle;
import dev.numaspread.kernel.host.HostCommand;
import dev.numaspread.kernel.source.DebianSourceTree;
import dev.numaspread.kernel.source.KernelSrc;
import dev.numaspread.kernel.source.UnusableTree;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code plan --impl kernel-src:TREE} prints the tree's grouping beside the release's: Debian's
 * 7.3 tree, unpatched, groups the 40 CPUs of the kernel run {@code cl1-1node-40cpu-cluster4} into
 * the 11 groups the 7.3.4 kernel printed (spec/group-cpus.md GRP-11), the model's too. The tree is
 * {@code debian-7.3} (.ci/run installs it), compiled with gcc; without either the test fails under
 * {@code CI=true} and is skipped elsewhere.
 */
class PlanKernelSrcTest {

    @Test
    void theTreesGroupingIsPrintedBesideTheReleasesAndAgrees() {
        if (!HostCommand.installed("gcc")) {
            String why = "gcc is not installed (apt-get install gcc libc6-dev): the tree's code is compiled with it";
            if ("true".equals(System.getenv("CI"))) Assertions.fail(why + " (CI=true: .ci/run installs it)");
            Assumptions.abort(why);
        }
        try {
            DebianSourceTree.tree("debian-7.3", KernelSrc.cacheRoot(System::getenv), line -> { });
        } catch (UnusableTree e) {
            if ("true".equals(System.getenv("CI"))) Assertions.fail("CI must have debian-7.3 (.ci/run installs it): " + e.getMessage());
            Assumptions.abort("debian-7.3 is not on this machine: " + e.getMessage());
        }
        Path root = Bundle.findCheckout(Path.of("").toAbsolutePath()).orElseThrow();
        CertifyCommandTest.Run r = CertifyCommandTest.main("plan", "--routine", "group-cpus", "--kernel", "7.3", "--topology",
                root.resolve("fixtures/kernel-runs/cl1-1node-40cpu-cluster4-linux-7.3-boot.topo").toString(), "--count", "11",
                "--impl", "kernel-src:debian-7.3");
        assertEquals(0, r.exit(), r.out() + r.err());
        // Groups 0, 9 and 10 as the kernel run printed them (GRP-11's example), in both columns.
        assertTrue(r.out().contains("\n0      4-7    4-7\n"), r.out());
        assertTrue(r.out().contains("\n9      0-1    0-1\n10     2-3    2-3\n"), r.out());
        assertTrue(r.out().contains("every group is the same in model and kernel-src linux-7.3.4 (debian-7.3)"), r.out());
    }
}
