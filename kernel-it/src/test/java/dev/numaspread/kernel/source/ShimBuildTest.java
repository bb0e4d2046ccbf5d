package dev.numaspread.kernel.source;

import dev.numaspread.kernel.host.HostCommand;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** The shim as the jar carries it, the cache key, and how a file that does not compile is reported. */
class ShimBuildTest {

    static final TreeForms ONE_ARGUMENT = new TreeForms(false, true, false, true, false, false);

    @Test
    void theJarCarriesEveryFileOfKernelShimAndNoOther() throws IOException {
        Path shim = Path.of("..", "kernel-shim");
        List<String> found = new ArrayList<>();
        try (Stream<Path> all = Files.walk(shim)) {
            all.filter(Files::isRegularFile).map(p -> shim.relativize(p).toString()).filter(p -> !p.equals("README.md"))
                    .sorted().forEach(found::add);
        }
        assertEquals(ShimBuild.SHIM_FILES.stream().sorted().toList(), found);
        for (String f : ShimBuild.SHIM_FILES) {
            String text = new String(ShimBuild.shimFile(f), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(text.startsWith("/* SPDX-License-Identifier: GPL-2.0 */") || text.startsWith("// SPDX-License-Identifier: GPL-2.0"),
                    "kernel-shim/" + f + " starts with its SPDX line");
        }
    }

    @Test
    void theKeyChangesWithEveryInput() {
        byte[][] shim = new byte[ShimBuild.SHIM_FILES.size()][];
        for (int i = 0; i < shim.length; i++) shim[i] = new byte[] {(byte) i};
        byte[][] files = {{1}, {2}, {3}, {4}};
        String k = ShimBuild.key(shim, files, List.of(), "gcc 12.2.0");
        assertEquals(24, k.length());
        assertEquals(k, ShimBuild.key(shim, files, List.of(), "gcc 12.2.0"));
        assertNotEquals(k, ShimBuild.key(shim, new byte[][] {{1}, {2}, {3}, {5}}, List.of(), "gcc 12.2.0"));
        assertNotEquals(k, ShimBuild.key(shim, files, List.of("-DKSHIM_GROUP_CPUS_NUMMASKS"), "gcc 12.2.0"));
        assertNotEquals(k, ShimBuild.key(shim, files, List.of(), "gcc 14.2.0"));
    }

    /** A tree of our own whose lib/group_cpus.c is {@code text}. */
    static KernelTree broken(Path dir, String text) throws IOException {
        KernelTreeTest.tree(dir.resolve("tree"), "VERSION = 6\nPATCHLEVEL = 12\n", "");
        Files.writeString(dir.resolve("tree/lib/group_cpus.c"), text);
        return KernelTree.open(dir.resolve("tree"));
    }

    /**
     * The tests that compile a shim need gcc, which README.md lets a machine go without: under
     * {@code CI=true} (.ci/run installs it) its absence fails the test, elsewhere the test skips.
     */
    static void needGcc() {
        if (HostCommand.installed("gcc")) return;
        String why = "gcc is not installed (apt-get install gcc libc6-dev): the kernel's code is compiled with it";
        if ("true".equals(System.getenv("CI"))) fail(why + " (CI=true: .ci/run installs it)");
        Assumptions.abort(why);
    }

    @Test
    void aSymbolTheShimLacksIsNamedWithTheTreesFileAndLine(@TempDir Path dir) throws IOException {
        needGcc();
        KernelTree t = broken(dir, "#include <linux/kernel.h>\n\nint grouped(void)\n{\n\treturn frobnicate_cpus(nr_cpu_ids);\n}\n");
        UnusableTree e = assertThrows(UnusableTree.class, () -> new ShimBuild(dir.resolve("cache"), "gcc", s -> { }).program(t, ONE_ARGUMENT));
        assertTrue(e.getMessage().startsWith(t.file("lib/group_cpus.c") + ":5: frobnicate_cpus: implicit declaration of function"
                + " 'frobnicate_cpus'"), e.getMessage());
        assertTrue(e.getMessage().endsWith("the shim lacks frobnicate_cpus"), e.getMessage());
    }

    @Test
    void aHeaderTheShimLacksIsNamed(@TempDir Path dir) throws IOException {
        needGcc();
        KernelTree t = broken(dir, "#include <linux/kernel.h>\n#include <linux/frobnicate.h>\n");
        UnusableTree e = assertThrows(UnusableTree.class, () -> new ShimBuild(dir.resolve("cache"), "gcc", s -> { }).program(t, ONE_ARGUMENT));
        assertTrue(e.getMessage().startsWith(t.file("lib/group_cpus.c") + ":2: linux/frobnicate.h: linux/frobnicate.h: No such file or directory;"),
                e.getMessage());
    }

    @Test
    void aMissingCompilerIsAUsageError(@TempDir Path dir) throws IOException {
        KernelTree t = broken(dir, "");
        UnusableTree e = assertThrows(UnusableTree.class,
                () -> new ShimBuild(dir.resolve("cache"), "no-such-gcc-here", s -> { }).program(t, ONE_ARGUMENT));
        assertTrue(e.getMessage().startsWith("no-such-gcc-here: cannot run ("), e.getMessage());
        assertTrue(e.getMessage().endsWith("expected a C compiler on PATH (Debian: apt-get install gcc libc6-dev)"), e.getMessage());
    }
}
